//===- regex.c - RegexFullMatch: RE2 patterns on the C library's regex engine ----------===//
//
// See regex_internal.h. The translation, outside brackets:
//   \d \D \s \S    -> [[:digit:]] [^[:digit:]] [[:space:]] [^[:space:]]
//   \w \W \b \B    -> kept (glibc extensions)
//   \A \z          -> ^ $
//   \n \t \r \f \v -> the character
//   \ + punctuation -> the literal character (escaped when ERE gives it a meaning)
//   (?: ... )      -> ( ... )
//   *? +? ?? {m,n}? -> the greedy form (the same full matches)
// and inside brackets, which POSIX reads without escapes, the set is rebuilt: \d \s \w become
// [:digit:] [:space:] [:alnum:]_, an escaped character is itself, ']' goes first, '-' last.
//
//===------------------------------------------------------------------------------------===//
#include "regex_internal.h"

#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===------------------------------------------------------------------------------------===//
// Translation
//===------------------------------------------------------------------------------------===//

typedef struct buffer {
  char *data;
  size_t length, capacity;
  int failed;
} buffer;

static void append(buffer *b, const char *text, size_t length) {
  if (b->failed)
    return;
  if (b->length + length + 1 > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 64;
    while (b->length + length + 1 > capacity)
      capacity *= 2;
    char *grown = realloc(b->data, capacity);
    if (!grown) {
      b->failed = 1;
      return;
    }
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->length, text, length);
  b->length += length;
  b->data[b->length] = '\0';
}

static void append_text(buffer *b, const char *text) { append(b, text, strlen(text)); }
static void append_char(buffer *b, char c) { append(b, &c, 1); }

static int fail(char *error, size_t capacity, const char *message, size_t offset) {
  snprintf(error, capacity, "%s (at byte %zu of the pattern)", message, offset);
  return -1;
}

/// The characters ERE gives a meaning outside brackets.
static int is_ere_special(char c) { return c != '\0' && strchr(".[]()*+?{}|^$\\", c) != NULL; }

/// A control character for \n \t \r \f \v, or 0.
static char control_escape(char c) {
  switch (c) {
  case 'n': return '\n';
  case 't': return '\t';
  case 'r': return '\r';
  case 'f': return '\f';
  case 'v': return '\v';
  default: return 0;
  }
}

/// Translates a bracket expression starting after its '['; *i ends after its ']'.
static int translate_bracket(const char *p, size_t size, size_t *i, buffer *out, char *error,
                             size_t capacity) {
  size_t start = *i - 1;
  int negate = 0;
  if (*i < size && p[*i] == '^') {
    negate = 1;
    ++*i;
  }
  buffer items = {0};   // characters and ranges, without ']' '-' '^'
  int close = 0, dash = 0, caret = 0, first = 1;
  for (;;) {
    if (*i >= size) {
      free(items.data);
      return fail(error, capacity, "a bracket expression is not closed", start);
    }
    char c = p[*i];
    if (c == ']' && !first) {
      ++*i;
      break;
    }
    first = 0;
    char literal = 0;
    int have_literal = 0;
    if (c == '[' && *i + 1 < size && p[*i + 1] == ':') {
      // A POSIX class [:alpha:] (RE2 has them too): copied as it is.
      const char *end = NULL;
      for (size_t k = *i + 2; k + 1 < size; ++k)
        if (p[k] == ':' && p[k + 1] == ']') {
          end = p + k + 2;
          break;
        }
      if (!end) {
        free(items.data);
        return fail(error, capacity, "a character class [:...:] is not closed", *i);
      }
      append(&items, p + *i, (size_t)(end - (p + *i)));
      *i = (size_t)(end - p);
      continue;
    }
    if (c == '\\') {
      if (*i + 1 >= size) {
        free(items.data);
        return fail(error, capacity, "the pattern ends with a backslash", *i);
      }
      char e = p[*i + 1];
      *i += 2;
      if (e == 'd' || e == 's' || e == 'w') {
        append_text(&items, e == 'd' ? "[:digit:]" : e == 's' ? "[:space:]" : "[:alnum:]_");
        continue;
      }
      if (e == 'D' || e == 'S' || e == 'W') {
        free(items.data);
        return fail(error, capacity,
                    "a negated class (\\D, \\S, \\W) inside brackets is not supported", *i - 2);
      }
      if (control_escape(e)) {
        literal = control_escape(e);
      } else if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
        free(items.data);
        return fail(error, capacity, "this escape inside brackets is not supported", *i - 2);
      } else {
        literal = e;
      }
      have_literal = 1;
    } else {
      literal = c;
      have_literal = 1;
      ++*i;
    }
    if (!have_literal)
      continue;
    // A range a-z (the '-' not last).
    if (*i + 1 < size && p[*i] == '-' && p[*i + 1] != ']') {
      char high = p[*i + 1];
      size_t advance = 2;
      if (high == '\\' && *i + 2 < size) {
        high = control_escape(p[*i + 2]) ? control_escape(p[*i + 2]) : p[*i + 2];
        advance = 3;
      }
      if ((unsigned char)high < (unsigned char)literal) {
        free(items.data);
        return fail(error, capacity, "a range goes backwards", *i - 1);
      }
      *i += advance;
      // Ranges whose ends are ']' '-' '^' would need collating elements: refuse them.
      if (literal == ']' || literal == '-' || literal == '^' || high == ']' || high == '-' ||
          high == '^') {
        free(items.data);
        return fail(error, capacity, "a range with ']', '-' or '^' as an end is not supported",
                    *i - advance - 1);
      }
      append_char(&items, literal);
      append_char(&items, '-');
      append_char(&items, high);
      continue;
    }
    if (literal == ']')
      close = 1;
    else if (literal == '-')
      dash = 1;
    else if (literal == '^')
      caret = 1;
    else
      append_char(&items, literal);
  }
  if (items.failed) {
    free(items.data);
    return fail(error, capacity, "out of memory", 0);
  }
  int empty = items.length == 0 && !close && !dash;
  if (empty && caret) {
    // Only '^': [^] would negate nothing; [\^] is not POSIX. [[.^.]] names it.
    append_text(out, negate ? "[^^]" : "\\^");
    free(items.data);
    return 0;
  }
  append_char(out, '[');
  if (negate)
    append_char(out, '^');
  if (close)
    append_char(out, ']');
  if (items.data)
    append(out, items.data, items.length);
  if (caret)
    append_char(out, '^'); // not first: a literal
  if (dash)
    append_char(out, '-');
  append_char(out, ']');
  free(items.data);
  return 0;
}

int tcc_regex_translate(const char *p, size_t size, char **out, char *error,
                        size_t error_capacity) {
  *out = NULL;
  buffer b = {0};
  append_text(&b, "^(");
  for (size_t i = 0; i < size;) {
    char c = p[i];
    if (c == '\0') {
      free(b.data);
      return fail(error, error_capacity, "a NUL byte in the pattern is not supported", i);
    }
    if (c == '\\') {
      if (i + 1 >= size) {
        free(b.data);
        return fail(error, error_capacity, "the pattern ends with a backslash", i);
      }
      char e = p[i + 1];
      i += 2;
      switch (e) {
      case 'd': append_text(&b, "[[:digit:]]"); continue;
      case 'D': append_text(&b, "[^[:digit:]]"); continue;
      case 's': append_text(&b, "[[:space:]]"); continue;
      case 'S': append_text(&b, "[^[:space:]]"); continue;
      case 'w': append_text(&b, "\\w"); continue;
      case 'W': append_text(&b, "\\W"); continue;
      case 'b': append_text(&b, "\\b"); continue;
      case 'B': append_text(&b, "\\B"); continue;
      case 'A': append_text(&b, "^"); continue;
      case 'z': append_text(&b, "$"); continue;
      default: break;
      }
      if (control_escape(e)) {
        append_char(&b, control_escape(e));
        continue;
      }
      if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
        free(b.data);
        char message[96];
        snprintf(message, sizeof(message),
                 "the escape \\%c (backreferences, \\p, \\x, \\Q...) is not supported", e);
        return fail(error, error_capacity, message, i - 2);
      }
      if (is_ere_special(e))
        append_char(&b, '\\');
      append_char(&b, e);
      continue;
    }
    if (c == '[') {
      ++i;
      if (translate_bracket(p, size, &i, &b, error, error_capacity) != 0) {
        free(b.data);
        return -1;
      }
      continue;
    }
    if (c == '(' && i + 1 < size && p[i + 1] == '?') {
      if (i + 2 < size && p[i + 2] == ':') {
        append_char(&b, '(');
        i += 3;
        continue;
      }
      free(b.data);
      return fail(error, error_capacity,
                  "groups with flags, names or look-around ((?i), (?P<name>, (?=...) are not "
                  "supported",
                  i);
    }
    // A lazy quantifier matches the same whole texts as the greedy one.
    if (c == '?' && i > 0 && (p[i - 1] == '*' || p[i - 1] == '+' || p[i - 1] == '?' ||
                              p[i - 1] == '}') &&
        !(i > 1 && p[i - 2] == '\\')) {
      ++i;
      continue;
    }
    append_char(&b, c);
    ++i;
  }
  append_text(&b, ")$");
  if (b.failed) {
    free(b.data);
    return fail(error, error_capacity, "out of memory", 0);
  }
  *out = b.data;
  return 0;
}

//===------------------------------------------------------------------------------------===//
// The cache and matching
//===------------------------------------------------------------------------------------===//

typedef struct cached {
  const char *pattern;
  size_t size;
  regex_t compiled;
  int usable;
  char error[160];
  struct cached *next;
} cached;

struct tcc_regex_cache {
  pthread_mutex_t mutex;
  cached *entries;
};

static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;
static locale_t utf8_locale; // C.UTF-8; (locale_t)0: bytes

static void create_utf8_locale(void) {
  utf8_locale = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
  if (!utf8_locale)
    utf8_locale = newlocale(LC_ALL_MASK, "C.utf8", (locale_t)0);
}

tcc_regex_cache *tcc_regex_cache_create(void) {
  tcc_regex_cache *cache = calloc(1, sizeof(*cache));
  if (cache && pthread_mutex_init(&cache->mutex, NULL) != 0) {
    free(cache);
    return NULL;
  }
  return cache;
}

void tcc_regex_cache_destroy(tcc_regex_cache *cache) {
  if (!cache)
    return;
  for (cached *e = cache->entries; e;) {
    cached *next = e->next;
    if (e->usable)
      regfree(&e->compiled);
    free(e);
    e = next;
  }
  pthread_mutex_destroy(&cache->mutex);
  free(cache);
}

/// The compiled pattern (made on first use), or NULL with its error.
static cached *lookup(tcc_regex_cache *cache, const char *pattern, size_t size) {
  pthread_mutex_lock(&cache->mutex);
  cached *e = cache->entries;
  while (e && !(e->pattern == pattern && e->size == size))
    e = e->next;
  if (!e) {
    e = calloc(1, sizeof(*e));
    if (e) {
      e->pattern = pattern;
      e->size = size;
      char *posix = NULL;
      if (tcc_regex_translate(pattern, size, &posix, e->error, sizeof(e->error)) == 0) {
        pthread_once(&utf8_once, create_utf8_locale);
        locale_t previous = utf8_locale ? uselocale(utf8_locale) : (locale_t)0;
        int code = regcomp(&e->compiled, posix, REG_EXTENDED | REG_NOSUB);
        if (utf8_locale)
          uselocale(previous);
        if (code == 0) {
          e->usable = 1;
        } else {
          char reason[96];
          regerror(code, &e->compiled, reason, sizeof(reason));
          snprintf(e->error, sizeof(e->error), "the C library's regex engine refuses it: %s",
                   reason);
        }
        free(posix);
      }
      e->next = cache->entries;
      cache->entries = e;
    }
  }
  pthread_mutex_unlock(&cache->mutex);
  return e;
}

int tcc_regex_full_match(tcc_regex_cache *cache, const char *pattern, size_t pattern_size,
                         const char *text, size_t text_size, char *error,
                         size_t error_capacity) {
  cached *e = lookup(cache, pattern, pattern_size);
  if (!e) {
    snprintf(error, error_capacity, "out of memory");
    return -1;
  }
  if (!e->usable) {
    snprintf(error, error_capacity, "%s", e->error);
    return -1;
  }
  // regexec reads a NUL-terminated text; a NUL inside the text ends it there (RE2 would
  // read on), which only texts holding NUL bytes can tell apart.
  char small[256];
  char *copy = text_size < sizeof(small) ? small : malloc(text_size + 1);
  if (!copy) {
    snprintf(error, error_capacity, "out of memory");
    return -1;
  }
  if (text_size)
    memcpy(copy, text, text_size);
  copy[text_size] = '\0';
  locale_t previous = utf8_locale ? uselocale(utf8_locale) : (locale_t)0;
  int code = regexec(&e->compiled, copy, 0, NULL, 0);
  if (utf8_locale)
    uselocale(previous);
  if (copy != small)
    free(copy);
  return code == 0 ? 1 : 0;
}
