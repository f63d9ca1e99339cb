//===- strings.c - string tensors: the arena, case, membership, equality, concatenation ---===//
//
// The arena. The strings a run makes (formatted numbers, case-mapped copies) live until the
// session's next run, so their bytes are bump-allocated from a list of malloc'ed chunks under
// one mutex (kernels call from several pool threads, and image-by-image lanes run at once)
// and all released together when the next run starts. Once warm, runs allocate nothing: a
// run that needed several chunks leaves, at the next reset, one chunk of the size it used,
// and strings need no alignment, so the same inputs fit again whatever the threads' order.
//
// Case mapping uses C.UTF-8's towupper_l / towlower_l; where that locale does not exist,
// letters outside ASCII keep their case. Numbers to and from text: string_numbers.c;
// RegexFullMatch: regex.c.
//
//===------------------------------------------------------------------------------------===//
#include "strings_internal.h"

#include "regex_internal.h"

#include "status_internal.h"

#include <locale.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

/// The size of an ordinary chunk; a run that makes fewer bytes of strings holds just one.
#define CHUNK_BYTES ((size_t)64 * 1024)
/// Strings larger than this get a chunk of their own (the current chunk's free space still
/// serves the small ones).
#define BIG_STRING (CHUNK_BYTES / 4)

//===------------------------------------------------------------------------------------===//
// The arena
//===------------------------------------------------------------------------------------===//

typedef struct chunk {
  struct chunk *next;
  size_t capacity;
  size_t used;
} chunk; // `capacity` bytes follow the header

static char *chunk_bytes(chunk *c) { return (char *)(c + 1); }

struct tcc_strings {
  pthread_mutex_t mutex;
  tcc_regex_cache *regexes; // RegexFullMatch's compiled patterns
  // The head takes small strings; big strings get chunks of their own after it.
  chunk *chunks;
  size_t run_bytes; // bytes handed out since the last reset
  uint64_t chunk_allocations;
  _Atomic int out_of_memory;
  tcc_strings_report_fn report;
  void *report_context;
};

tcc_status tcc_strings_create(tcc_strings_report_fn report, void *report_context,
                              tcc_strings **out_strings) {
  tcc_strings *strings = calloc(1, sizeof(*strings));
  if (!strings)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "tcc_session_create: out of memory");
  if (pthread_mutex_init(&strings->mutex, NULL) != 0) {
    free(strings);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "tcc_session_create: cannot create the string arena's mutex");
  }
  strings->regexes = tcc_regex_cache_create();
  if (!strings->regexes) {
    pthread_mutex_destroy(&strings->mutex);
    free(strings);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "tcc_session_create: out of memory");
  }
  atomic_init(&strings->out_of_memory, 0);
  strings->report = report;
  strings->report_context = report_context;
  *out_strings = strings;
  return NULL;
}

static void free_chunks(chunk *c, const chunk *except) {
  while (c) {
    chunk *next = c->next;
    if (c != except)
      free(c);
    c = next;
  }
}

void tcc_strings_destroy(tcc_strings *strings) {
  if (!strings)
    return;
  free_chunks(strings->chunks, NULL);
  tcc_regex_cache_destroy(strings->regexes);
  pthread_mutex_destroy(&strings->mutex);
  free(strings);
}

void tcc_strings_report(tcc_strings *strings, const char *message) {
  if (strings->report)
    strings->report(strings->report_context, message);
}

/// A chunk of `capacity` bytes, or NULL. Called with the mutex held.
static chunk *new_chunk(tcc_strings *strings, size_t capacity) {
  if (capacity > SIZE_MAX - sizeof(chunk))
    return NULL;
  chunk *c = malloc(sizeof(chunk) + capacity);
  if (!c)
    return NULL;
  c->next = NULL;
  c->capacity = capacity;
  c->used = 0;
  strings->chunk_allocations++;
  return c;
}

char *tcc_strings_allocate(tcc_strings *strings, size_t bytes) {
  char *result = NULL;
  pthread_mutex_lock(&strings->mutex);
  chunk *head = strings->chunks;
  if (head && head->capacity - head->used >= bytes) {
    result = chunk_bytes(head) + head->used;
    head->used += bytes;
  } else if (head && bytes > BIG_STRING) {
    chunk *c = new_chunk(strings, bytes);
    if (c) {
      c->used = bytes;
      c->next = head->next;
      head->next = c;
      result = chunk_bytes(c);
    }
  } else {
    // The head's free space (less than one small string) is left unused.
    chunk *c = new_chunk(strings, bytes > CHUNK_BYTES ? bytes : CHUNK_BYTES);
    if (c) {
      c->used = bytes;
      c->next = head;
      strings->chunks = c;
      result = chunk_bytes(c);
    }
  }
  if (result)
    strings->run_bytes += bytes;
  pthread_mutex_unlock(&strings->mutex);
  if (!result) {
    char message[96];
    snprintf(message, sizeof(message), "out of memory for a string of %zu bytes", bytes);
    tcc_strings_report_out_of_memory(strings, message);
  }
  return result;
}

void tcc_strings_report_out_of_memory(tcc_strings *strings, const char *message) {
  atomic_store(&strings->out_of_memory, 1);
  tcc_strings_report(strings, message);
}

void tcc_strings_reset(tcc_strings *strings) {
  pthread_mutex_lock(&strings->mutex);
  atomic_store(&strings->out_of_memory, 0);
  chunk *largest = strings->chunks;
  for (chunk *c = strings->chunks; c; c = c->next)
    if (c->capacity > largest->capacity)
      largest = c;
  if (largest && strings->chunks->next) {
    // Several chunks: next time one chunk of what this run used (a run like it then fits).
    size_t wanted = strings->run_bytes > CHUNK_BYTES ? strings->run_bytes : CHUNK_BYTES;
    chunk *keep = largest;
    if (largest->capacity < wanted) {
      chunk *fresh = new_chunk(strings, wanted);
      if (fresh)
        keep = fresh; // else keep the largest and let the next run grow again
    }
    free_chunks(strings->chunks, keep);
    keep->next = NULL;
    strings->chunks = keep;
  }
  if (strings->chunks)
    strings->chunks->used = 0;
  strings->run_bytes = 0;
  pthread_mutex_unlock(&strings->mutex);
}

int tcc_strings_out_of_memory(const tcc_strings *strings) {
  return atomic_load(&strings->out_of_memory);
}

int tcc_strings_owns(const tcc_strings *strings, const void *address) {
  uintptr_t a = (uintptr_t)address;
  for (chunk *c = strings->chunks; c; c = c->next) {
    uintptr_t begin = (uintptr_t)chunk_bytes(c);
    if (a >= begin && a - begin < c->capacity)
      return 1;
  }
  return 0;
}

void tcc_strings_get_stats(const tcc_strings *strings, tcc_strings_stats *out_stats) {
  tcc_strings_stats stats = {strings->chunk_allocations, 0, 0};
  for (chunk *c = strings->chunks; c; c = c->next) {
    stats.chunks++;
    stats.bytes += c->capacity;
  }
  *out_stats = stats;
}

int tcc_strings_check_text(tcc_strings *strings, const tcc_string *text,
                           const char *function) {
  if (text->size >= 0 && (text->size == 0 || text->data))
    return 1;
  char message[128];
  snprintf(message, sizeof(message), "%s: a string of size %lld with %s data", function,
           (long long)text->size, text->data ? "non-null" : "null");
  tcc_strings_report(strings, message);
  return 0;
}

void tcc_strings_make(tcc_strings *strings, const char *bytes, size_t length,
                      tcc_string *out) {
  out->data = NULL;
  out->size = 0;
  if (length == 0)
    return;
  char *data = tcc_strings_allocate(strings, length);
  if (!data)
    return;
  memcpy(data, bytes, length);
  out->data = data;
  out->size = (int64_t)length;
}

//===------------------------------------------------------------------------------------===//
// C.UTF-8, for case mapping (created once per process)
//===------------------------------------------------------------------------------------===//

static pthread_once_t locales_once = PTHREAD_ONCE_INIT;
static locale_t case_locale; // C.UTF-8's LC_CTYPE; (locale_t)0: ASCII only

static void create_locales(void) {
  case_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
  if (!case_locale)
    case_locale = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
}

static void init_locales(void) { pthread_once(&locales_once, create_locales); }

//===------------------------------------------------------------------------------------===//
// UTF-8 and case mapping
//===------------------------------------------------------------------------------------===//

/// Decoded values from here up stand for a byte that is not valid UTF-8 (0x110000 | byte).
#define RAW_BYTE 0x110000u

/// Decodes the code point at bytes[*position] and moves past it; an invalid byte (a bad
/// lead or continuation, overlong, a surrogate, beyond U+10FFFF, cut short) decodes alone as
/// RAW_BYTE | byte.
static uint32_t decode_utf8(const unsigned char *bytes, size_t length, size_t *position) {
  size_t i = *position;
  unsigned lead = bytes[i];
  size_t count;
  uint32_t code_point, minimum;
  if (lead < 0x80) {
    *position = i + 1;
    return lead;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    count = 2, code_point = lead & 0x1Fu, minimum = 0x80;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    count = 3, code_point = lead & 0x0Fu, minimum = 0x800;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    count = 4, code_point = lead & 0x07u, minimum = 0x10000;
  } else {
    goto invalid;
  }
  if (length - i < count)
    goto invalid;
  for (size_t k = 1; k < count; ++k) {
    unsigned byte = bytes[i + k];
    if ((byte & 0xC0u) != 0x80u)
      goto invalid;
    code_point = code_point << 6 | (byte & 0x3Fu);
  }
  if (code_point < minimum || code_point > 0x10FFFF ||
      (code_point >= 0xD800 && code_point <= 0xDFFF))
    goto invalid;
  *position = i + count;
  return code_point;
invalid:
  *position = i + 1;
  return RAW_BYTE | lead;
}

/// Bytes of the UTF-8 encoding of a decoded value (a raw byte is one).
static size_t encoded_length(uint32_t value) {
  if (value < 0x80 || value >= RAW_BYTE)
    return 1;
  return value < 0x800 ? 2 : value < 0x10000 ? 3 : 4;
}

static size_t encode_utf8(uint32_t value, char *out) {
  if (value >= RAW_BYTE) {
    out[0] = (char)(value & 0xFFu);
    return 1;
  }
  if (value < 0x80) {
    out[0] = (char)value;
    return 1;
  }
  if (value < 0x800) {
    out[0] = (char)(0xC0 | (value >> 6));
    out[1] = (char)(0x80 | (value & 0x3F));
    return 2;
  }
  if (value < 0x10000) {
    out[0] = (char)(0xE0 | (value >> 12));
    out[1] = (char)(0x80 | ((value >> 6) & 0x3F));
    out[2] = (char)(0x80 | (value & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (value >> 18));
  out[1] = (char)(0x80 | ((value >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((value >> 6) & 0x3F));
  out[3] = (char)(0x80 | (value & 0x3F));
  return 4;
}

/// The upper or lower case of a decoded value (raw bytes stay).
static uint32_t change_case(uint32_t value, int upper) {
  if (value < 0x80) {
    if (upper && value >= 'a' && value <= 'z')
      return value - 'a' + 'A';
    if (!upper && value >= 'A' && value <= 'Z')
      return value - 'A' + 'a';
    return value;
  }
  if (value >= RAW_BYTE || !case_locale)
    return value;
  wint_t mapped = upper ? towupper_l((wint_t)value, case_locale)
                        : towlower_l((wint_t)value, case_locale);
  if (mapped > 0x10FFFF || (mapped >= 0xD800 && mapped <= 0xDFFF))
    return value;
  return (uint32_t)mapped;
}

void tcc_strings_change_case(tcc_strings *strings, const tcc_string *text, int32_t upper,
                             tcc_string *out) {
  init_locales();
  tcc_string result = {NULL, 0};
  if (!tcc_strings_check_text(strings, text, "string_change_case") || text->size == 0) {
    *out = result;
    return;
  }
  const unsigned char *bytes = (const unsigned char *)text->data;
  size_t length = (size_t)text->size;
  // First the length (case mapping may change a code point's byte count), and whether
  // anything changes at all: then the input's bytes serve as the output.
  size_t needed = 0;
  int changed = 0;
  for (size_t i = 0; i < length;) {
    uint32_t value = decode_utf8(bytes, length, &i);
    uint32_t mapped = change_case(value, upper);
    changed |= mapped != value;
    needed += encoded_length(mapped);
  }
  if (!changed) {
    *out = *text;
    return;
  }
  char *data = tcc_strings_allocate(strings, needed);
  if (data) {
    size_t n = 0;
    for (size_t i = 0; i < length;)
      n += encode_utf8(change_case(decode_utf8(bytes, length, &i), upper), data + n);
    result.data = data;
    result.size = (int64_t)n;
  }
  *out = result;
}

//===------------------------------------------------------------------------------------===//
// string_find
//===------------------------------------------------------------------------------------===//

/// Whether two byte strings are equal once both are lower-cased code point by code point
/// (raw bytes compare as themselves).
static int equal_lower(const unsigned char *a, size_t a_length, const unsigned char *b,
                       size_t b_length) {
  size_t i = 0, j = 0;
  while (i < a_length && j < b_length)
    if (change_case(decode_utf8(a, a_length, &i), 0) !=
        change_case(decode_utf8(b, b_length, &j), 0))
      return 0;
  return i == a_length && j == b_length;
}

int32_t tcc_strings_find(tcc_strings *strings, const tcc_string *text, const char *set,
                         int64_t count, int32_t ignore_case) {
  init_locales();
  if (!tcc_strings_check_text(strings, text, "string_find"))
    return 0;
  if (count > 0 && !set) {
    tcc_strings_report(strings, "string_find: the set is null");
    return 0;
  }
  const unsigned char *p = (const unsigned char *)set;
  const unsigned char *bytes = (const unsigned char *)text->data;
  size_t length = (size_t)text->size;
  for (int64_t k = 0; k < count; ++k) {
    uint64_t size = 0; // little-endian whatever the host's order
    for (int b = 7; b >= 0; --b)
      size = size << 8 | p[b];
    p += 8;
    if (size > (uint64_t)INT64_MAX) {
      char message[128];
      snprintf(message, sizeof(message),
               "string_find: string %lld of the set has the negative size %lld", (long long)k,
               (long long)size);
      tcc_strings_report(strings, message);
      return 0;
    }
    if (ignore_case ? equal_lower(bytes, length, p, (size_t)size)
                    : size == length && (length == 0 || memcmp(bytes, p, length) == 0))
      return 1;
    p += size;
  }
  return 0;
}

//===------------------------------------------------------------------------------------===//
// string_equal, string_concat
//===------------------------------------------------------------------------------------===//

int32_t tcc_strings_equal(tcc_strings *strings, const tcc_string *a, const tcc_string *b) {
  if (!tcc_strings_check_text(strings, a, "string_equal") || !tcc_strings_check_text(strings, b, "string_equal"))
    return 0;
  return a->size == b->size && (a->size == 0 || memcmp(a->data, b->data, (size_t)a->size) == 0);
}

void tcc_strings_concat(tcc_strings *strings, const tcc_string *a, const tcc_string *b,
                        tcc_string *out) {
  tcc_string result = {NULL, 0};
  if (!tcc_strings_check_text(strings, a, "string_concat") || !tcc_strings_check_text(strings, b, "string_concat")) {
    *out = result;
    return;
  }
  // One side empty: the other is the result (its bytes already live long enough).
  if (a->size == 0 || b->size == 0) {
    *out = a->size == 0 ? *b : *a;
    return;
  }
  if (a->size > INT64_MAX - b->size) {
    tcc_strings_report(strings, "string_concat: the result would have more than INT64_MAX bytes");
    *out = result;
    return;
  }
  size_t length = (size_t)(a->size + b->size);
  char *data = tcc_strings_allocate(strings, length);
  if (data) {
    memcpy(data, a->data, (size_t)a->size);
    memcpy(data + a->size, b->data, (size_t)b->size);
    result.data = data;
    result.size = (int64_t)length;
  }
  *out = result;
}

//===------------------------------------------------------------------------------------===//
// string_match
//===------------------------------------------------------------------------------------===//

int32_t tcc_strings_match(tcc_strings *strings, const tcc_string *text, const char *pattern,
                          int64_t pattern_size) {
  if (!tcc_strings_check_text(strings, text, "string_match"))
    return 0;
  if (pattern_size < 0 || (pattern_size > 0 && !pattern)) {
    tcc_strings_report(strings, "string_match: the pattern is null or has a negative size");
    return 0;
  }
  char error[200];
  int matched = tcc_regex_full_match(strings->regexes, pattern ? pattern : "",
                                     (size_t)pattern_size, text->data ? text->data : "",
                                     (size_t)text->size, error, sizeof(error));
  if (matched < 0) {
    char message[320];
    snprintf(message, sizeof(message), "RegexFullMatch: the pattern '%.*s' cannot be used: %s",
             (int)(pattern_size > 60 ? 60 : pattern_size), pattern ? pattern : "", error);
    tcc_strings_report(strings, message);
    return 0;
  }
  return matched;
}
