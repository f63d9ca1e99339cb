//===- string_numbers.c - string_format and string_parse: numbers to and from text -----===//
//
// Numbers are written and read in the "C" locale whatever the process's locale is (a
// model's "0.5" must not become "0,5" in a German locale): snprintf under uselocale, and
// strtod_l / strtof_l.
//
// Floats are written as NumPy's str() writes np.float32 etc.: the fewest significant digits
// that read back as the same value of that type. "%.{p-1}e" gives the correctly rounded
// p-digit decimal, so the first p that reads back is the shortest, and of the p-digit
// decimals it is the nearest to the value.
//
//===------------------------------------------------------------------------------------===//
#include "strings_internal.h"

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Bytes of a text quoted in an error message (then "...").
#define QUOTED_BYTES 40

//===------------------------------------------------------------------------------------===//
// The "C" locale, created once per process
//===------------------------------------------------------------------------------------===//

static pthread_once_t locales_once = PTHREAD_ONCE_INIT;
static locale_t numeric_locale; // "C"; (locale_t)0 if it could not be made

static void create_locales(void) { numeric_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

static void init_locales(void) { pthread_once(&locales_once, create_locales); }

static double parse_double(const char *text) {
  return numeric_locale ? strtod_l(text, NULL, numeric_locale) : strtod(text, NULL);
}

static float parse_float(const char *text) {
  return numeric_locale ? strtof_l(text, NULL, numeric_locale) : strtof(text, NULL);
}

/// snprintf(buffer, capacity, "%.*e", precision, value) with '.' as the decimal point.
static void print_scientific(char *buffer, size_t capacity, int precision, double value) {
  locale_t previous = numeric_locale ? uselocale(numeric_locale) : (locale_t)0;
  snprintf(buffer, capacity, "%.*e", precision, value);
  if (previous)
    uselocale(previous);
}

//===------------------------------------------------------------------------------------===//
// float16 and bfloat16 (by hand: no libm, and rounding straight from double)
//===------------------------------------------------------------------------------------===//

/// 2^exponent for exponents of normal doubles.
static double power_of_two(int exponent) {
  uint64_t bits = (uint64_t)(exponent + 1023) << 52;
  double value;
  memcpy(&value, &bits, sizeof(value));
  return value;
}

/// The value of a binary float of 1 + exponent_bits + mantissa_bits bits.
static double small_float_to_double(uint16_t bits, int exponent_bits, int mantissa_bits) {
  int bias = (1 << (exponent_bits - 1)) - 1;
  unsigned exponent = (bits >> mantissa_bits) & ((1u << exponent_bits) - 1u);
  unsigned mantissa = bits & ((1u << mantissa_bits) - 1u);
  double sign = bits >> (exponent_bits + mantissa_bits) ? -1.0 : 1.0;
  if (exponent == (1u << exponent_bits) - 1u)
    return mantissa ? sign * __builtin_nan("") : sign * __builtin_inf();
  if (exponent == 0) // subnormal (or zero)
    return sign * (double)mantissa * power_of_two(1 - bias - mantissa_bits);
  return sign * (double)(mantissa | (1u << mantissa_bits)) *
         power_of_two((int)exponent - bias - mantissa_bits);
}

/// `value` rounded to the nearest binary float of 1 + exponent_bits + mantissa_bits bits
/// (ties to even); NaN stays a quiet NaN.
static uint16_t double_to_small_float(double value, int exponent_bits, int mantissa_bits) {
  uint64_t bits;
  memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = (uint16_t)((bits >> 63) << (exponent_bits + mantissa_bits));
  uint64_t magnitude = bits & ~((uint64_t)1 << 63);
  uint64_t infinity = (uint64_t)((1u << exponent_bits) - 1u) << mantissa_bits;
  if (magnitude > 0x7ff0000000000000ull)
    return (uint16_t)(sign | infinity | (1u << (mantissa_bits - 1)));
  if (magnitude == 0x7ff0000000000000ull)
    return (uint16_t)(sign | infinity);
  if ((magnitude >> 52) == 0)
    return sign; // double subnormals are far below the small formats' range
  int bias = (1 << (exponent_bits - 1)) - 1;
  int exponent = (int)(magnitude >> 52) - 1023;
  if (exponent > bias)
    return (uint16_t)(sign | infinity);
  uint64_t significand = (magnitude & ((1ull << 52) - 1)) | (1ull << 52);
  // The result's quantum is 2^(target - mantissa_bits), target = the exponent, or the
  // smallest normal exponent for results that are subnormal.
  int target = exponent < 1 - bias ? 1 - bias : exponent;
  int shift = 52 - mantissa_bits + (target - exponent);
  if (shift > 54)
    return sign; // below half the smallest subnormal
  uint64_t q = significand >> shift;
  uint64_t rest = significand & ((1ull << shift) - 1);
  uint64_t half = 1ull << (shift - 1);
  if (rest > half || (rest == half && (q & 1)))
    ++q;
  // q holds the implicit bit for normal results, so a carry out of the mantissa moves into
  // the exponent, and a subnormal that rounds up to 2^mantissa_bits becomes the smallest
  // normal.
  uint64_t result = ((uint64_t)(target + bias - 1) << mantissa_bits) + q;
  if (result >= infinity)
    return (uint16_t)(sign | infinity);
  return (uint16_t)(sign | result);
}

static uint16_t load_u16(const void *value) {
  uint16_t bits;
  memcpy(&bits, value, sizeof(bits));
  return bits;
}

//===------------------------------------------------------------------------------------===//
// string_format
//===------------------------------------------------------------------------------------===//

/// Whether the decimal `text` reads back as `value` in `dtype` (a float dtype).
static int reads_back(const char *text, int32_t dtype, double value) {
  switch (dtype) {
  case TCC_DTYPE_FLOAT32: {
    float parsed = parse_float(text), original = (float)value;
    return memcmp(&parsed, &original, sizeof(float)) == 0;
  }
  case TCC_DTYPE_FLOAT16:
    return double_to_small_float(parse_double(text), 5, 10) ==
           double_to_small_float(value, 5, 10);
  case TCC_DTYPE_BFLOAT16:
    return double_to_small_float(parse_double(text), 8, 7) ==
           double_to_small_float(value, 8, 7);
  default: {
    double parsed = parse_double(text);
    return memcmp(&parsed, &value, sizeof(double)) == 0;
  }
  }
}

/// The sign, the digits (at most 24) and the exponent of "-d.ddde+XX" as printf writes it.
static void split_scientific(const char *scientific, char digits[24], size_t *count,
                             int *negative, int *exponent) {
  const char *p = scientific;
  *count = 0;
  *negative = *p == '-';
  if (*negative)
    ++p;
  for (; *p && *p != 'e'; ++p)
    if (*p >= '0' && *p <= '9' && *count < 24)
      digits[(*count)++] = *p;
  *exponent = *p == 'e' ? atoi(p + 1) : 0;
}

/// Writes the decimal one unit of the last digit further from zero than `scientific`
/// ("-d.ddde+XX" as printf writes it), with as many digits: 1.25e-07 -> 1.26e-07,
/// 9.9e+01 -> 1.0e+02.
static void next_decimal_away(const char *scientific, char *out, size_t capacity) {
  char digits[24];
  size_t count;
  int negative, exponent;
  split_scientific(scientific, digits, &count, &negative, &exponent);
  size_t i = count;
  while (i > 0 && digits[i - 1] == '9')
    digits[--i] = '0';
  if (i > 0) {
    ++digits[i - 1];
  } else { // 9.99 -> 10.0: one more in the exponent
    digits[0] = '1';
    ++exponent;
  }
  size_t n = 0;
  if (negative)
    out[n++] = '-';
  out[n++] = digits[0];
  if (count > 1) {
    out[n++] = '.';
    for (size_t k = 1; k < count; ++k)
      out[n++] = digits[k];
  }
  snprintf(out + n, capacity - n, "e%c%02d", exponent < 0 ? '-' : '+',
           exponent < 0 ? -exponent : exponent);
}

/// Writes a float of `dtype` (exactly `value`) as NumPy does; returns the length.
static size_t format_float(double value, int32_t dtype, char *buffer, size_t capacity) {
  if (value != value)
    return (size_t)snprintf(buffer, capacity, "nan");
  if (value == __builtin_inf() || value == -__builtin_inf())
    return (size_t)snprintf(buffer, capacity, value < 0 ? "-inf" : "inf");
  if (value == 0)
    return (size_t)snprintf(buffer, capacity, __builtin_signbit(value) ? "-0.0" : "0.0");
  char scientific[48];
  for (int digits = 1; digits <= 17; ++digits) {
    print_scientific(scientific, sizeof(scientific), digits - 1, value);
    if (reads_back(scientific, dtype, value))
      break;
    // At a power of two the values that read back reach twice as far above as below, so
    // the next decimal above may read back where the nearest one (below) does not.
    double nearest = parse_double(scientific);
    if (nearest < 0 ? nearest > value : nearest < value) {
      char above[48];
      next_decimal_away(scientific, above, sizeof(above));
      if (reads_back(above, dtype, value)) {
        memcpy(scientific, above, sizeof(above));
        break;
      }
    }
  }
  double magnitude = value < 0 ? -value : value;
  if (!(magnitude >= 1e-4 && magnitude < 1e16))
    return (size_t)snprintf(buffer, capacity, "%s", scientific); // "1.5e-07", "1e+16"

  // Positional: take the digits and the exponent apart from "-d.ddde+XX".
  char digits[24];
  size_t count;
  int negative, exponent;
  split_scientific(scientific, digits, &count, &negative, &exponent);
  while (count > 1 && digits[count - 1] == '0')
    --count;
  size_t length = 0;
#define PUT(c)                                                                                 \
  do {                                                                                         \
    if (length + 1 < capacity)                                                                 \
      buffer[length++] = (c);                                                                  \
  } while (0)
  if (negative)
    PUT('-');
  if (exponent >= 0) {
    for (int i = 0; i <= exponent; ++i)
      PUT((size_t)i < count ? digits[i] : '0');
    PUT('.');
    if (count > (size_t)exponent + 1)
      for (size_t i = (size_t)exponent + 1; i < count; ++i)
        PUT(digits[i]);
    else
      PUT('0'); // "100.0"
  } else {
    PUT('0');
    PUT('.');
    for (int i = 0; i < -exponent - 1; ++i)
      PUT('0');
    for (size_t i = 0; i < count; ++i)
      PUT(digits[i]);
  }
#undef PUT
  buffer[length] = '\0';
  return length;
}

/// An integer element widened: signed dtypes to *s (returns 1), unsigned ones to *u
/// (returns 2); 0 for other dtypes.
static int load_integer(int32_t dtype, const void *value, int64_t *s, uint64_t *u) {
  switch (dtype) {
  case TCC_DTYPE_INT8: { int8_t v; memcpy(&v, value, sizeof(v)); *s = v; return 1; }
  case TCC_DTYPE_INT16: { int16_t v; memcpy(&v, value, sizeof(v)); *s = v; return 1; }
  case TCC_DTYPE_INT32: { int32_t v; memcpy(&v, value, sizeof(v)); *s = v; return 1; }
  case TCC_DTYPE_INT64: { int64_t v; memcpy(&v, value, sizeof(v)); *s = v; return 1; }
  case TCC_DTYPE_UINT8: { uint8_t v; memcpy(&v, value, sizeof(v)); *u = v; return 2; }
  case TCC_DTYPE_UINT16: { uint16_t v; memcpy(&v, value, sizeof(v)); *u = v; return 2; }
  case TCC_DTYPE_UINT32: { uint32_t v; memcpy(&v, value, sizeof(v)); *u = v; return 2; }
  case TCC_DTYPE_UINT64: { uint64_t v; memcpy(&v, value, sizeof(v)); *u = v; return 2; }
  default: return 0;
  }
}

void tcc_strings_format(tcc_strings *strings, int32_t dtype, const void *value,
                        tcc_string *out) {
  init_locales();
  char buffer[64];
  int length = -1;
  int64_t signed_value = 0;
  uint64_t unsigned_value = 0;
  int integer = load_integer(dtype, value, &signed_value, &unsigned_value);
  if (integer == 1)
    length = snprintf(buffer, sizeof(buffer), "%lld", (long long)signed_value);
  else if (integer == 2)
    length = snprintf(buffer, sizeof(buffer), "%llu", (unsigned long long)unsigned_value);
  else switch (dtype) {
  case TCC_DTYPE_BOOL: {
    uint8_t v;
    memcpy(&v, value, sizeof(v));
    length = snprintf(buffer, sizeof(buffer), "%s", v ? "True" : "False");
    break;
  }
  case TCC_DTYPE_FLOAT32: {
    float v;
    memcpy(&v, value, sizeof(v));
    length = (int)format_float((double)v, dtype, buffer, sizeof(buffer));
    break;
  }
  case TCC_DTYPE_FLOAT64: {
    double v;
    memcpy(&v, value, sizeof(v));
    length = (int)format_float(v, dtype, buffer, sizeof(buffer));
    break;
  }
  case TCC_DTYPE_FLOAT16:
    length = (int)format_float(small_float_to_double(load_u16(value), 5, 10), dtype, buffer,
                               sizeof(buffer));
    break;
  case TCC_DTYPE_BFLOAT16:
    length = (int)format_float(small_float_to_double(load_u16(value), 8, 7), dtype, buffer,
                               sizeof(buffer));
    break;
  default:
    break;
  }
  if (length < 0) {
    out->data = NULL;
    out->size = 0;
    char message[96];
    snprintf(message, sizeof(message), "string_format: cannot format the dtype %d as text",
             (int)dtype);
    tcc_strings_report(strings, message);
    return;
  }
  tcc_strings_make(strings, buffer, (size_t)length, out);
}

//===------------------------------------------------------------------------------------===//
// string_parse
//===------------------------------------------------------------------------------------===//

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/// ASCII case-insensitive equality (strcasecmp follows the locale).
static int equals_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (ascii_lower(*a) != ascii_lower(*b))
      return 0;
  return *a == *b;
}

/// Whether `s` is [+-]digits[.digits][e[+-]digits] (or [+-].digits...): what strtod reads
/// without hex floats, "infinity" or "nan(...)".
static int is_decimal_number(const char *s) {
  if (*s == '+' || *s == '-')
    ++s;
  int digits = 0;
  for (; is_digit(*s); ++s)
    ++digits;
  if (*s == '.')
    for (++s; is_digit(*s); ++s)
      ++digits;
  if (!digits)
    return 0;
  if (*s == 'e' || *s == 'E') {
    ++s;
    if (*s == '+' || *s == '-')
      ++s;
    if (!is_digit(*s))
      return 0;
    while (is_digit(*s))
      ++s;
  }
  return *s == '\0';
}

/// Writes up to QUOTED_BYTES bytes of `text` for a message: control bytes as \xNN, "..."
/// when cut (at a UTF-8 code point boundary).
static void quote(const char *text, size_t length, char *buffer, size_t capacity) {
  size_t shown = length;
  if (shown > QUOTED_BYTES) {
    shown = QUOTED_BYTES;
    while (shown > 0 && ((unsigned char)text[shown] & 0xC0) == 0x80)
      --shown;
  }
  size_t n = 0;
  for (size_t i = 0; i < shown && n + 5 < capacity; ++i) {
    unsigned char c = (unsigned char)text[i];
    if (c < 0x20 || c == 0x7f)
      n += (size_t)snprintf(buffer + n, capacity - n, "\\x%02x", c);
    else
      buffer[n++] = (char)c;
  }
  if (shown < length && n + 4 < capacity) {
    memcpy(buffer + n, "...", 3);
    n += 3;
  }
  buffer[n] = '\0';
}

/// Reports that `text` is not a `dtype` (or, with out_of_range, outside its range).
static void parse_failed(tcc_strings *strings, const tcc_string *text, int32_t dtype,
                         int out_of_range) {
  char quoted[4 * QUOTED_BYTES + 8];
  quote(text->data, (size_t)text->size, quoted, sizeof(quoted));
  const char *name = tcc_dtype_name(dtype);
  char message[320];
  if (out_of_range)
    snprintf(message, sizeof(message), "the string '%s' is outside the range of %s", quoted,
             name);
  else if (dtype == TCC_DTYPE_BOOL)
    snprintf(message, sizeof(message), "the string '%s' is not a bool (True, False, 1 or 0)",
             quoted);
  else
    snprintf(message, sizeof(message), "the string '%s' is not %s %s number", quoted,
             name[0] == 'i' ? "an" : "a", name);
  tcc_strings_report(strings, message);
}

/// The integer dtypes' ranges: [-(max_negative), max_positive] as magnitudes.
static int integer_range(int32_t dtype, uint64_t *max_positive, uint64_t *max_negative) {
  switch (dtype) {
  case TCC_DTYPE_INT8:
    *max_positive = INT8_MAX, *max_negative = (uint64_t)INT8_MAX + 1;
    return 1;
  case TCC_DTYPE_INT16:
    *max_positive = INT16_MAX, *max_negative = (uint64_t)INT16_MAX + 1;
    return 1;
  case TCC_DTYPE_INT32:
    *max_positive = INT32_MAX, *max_negative = (uint64_t)INT32_MAX + 1;
    return 1;
  case TCC_DTYPE_INT64:
    *max_positive = INT64_MAX, *max_negative = (uint64_t)INT64_MAX + 1;
    return 1;
  case TCC_DTYPE_UINT8:
    *max_positive = UINT8_MAX, *max_negative = 0;
    return 1;
  case TCC_DTYPE_UINT16:
    *max_positive = UINT16_MAX, *max_negative = 0;
    return 1;
  case TCC_DTYPE_UINT32:
    *max_positive = UINT32_MAX, *max_negative = 0;
    return 1;
  case TCC_DTYPE_UINT64:
    *max_positive = UINT64_MAX, *max_negative = 0;
    return 1;
  default:
    return 0;
  }
}

/// Stores a range-checked integer into *out (the dtype's width, two's complement).
static void store_integer(int32_t dtype, int negative, uint64_t magnitude, void *out) {
  uint64_t v = negative ? (uint64_t)0 - magnitude : magnitude;
  switch (tcc_dtype_size(dtype)) {
  case 1: {
    uint8_t b = (uint8_t)v;
    memcpy(out, &b, 1);
    break;
  }
  case 2: {
    uint16_t b = (uint16_t)v;
    memcpy(out, &b, 2);
    break;
  }
  case 4: {
    uint32_t b = (uint32_t)v;
    memcpy(out, &b, 4);
    break;
  }
  default:
    memcpy(out, &v, 8);
    break;
  }
}

/// Parses the trimmed, NUL-terminated `s`; reports and returns 0 when it is not a `dtype`.
static int parse_trimmed(tcc_strings *strings, const tcc_string *text, const char *s,
                         int32_t dtype, void *out) {
  uint64_t max_positive, max_negative;
  if (dtype == TCC_DTYPE_BOOL) {
    uint8_t v;
    if (equals_ignoring_case(s, "true") || strcmp(s, "1") == 0)
      v = 1;
    else if (equals_ignoring_case(s, "false") || strcmp(s, "0") == 0)
      v = 0;
    else {
      parse_failed(strings, text, dtype, 0);
      return 0;
    }
    memcpy(out, &v, 1);
    return 1;
  }
  if (integer_range(dtype, &max_positive, &max_negative)) {
    const char *p = s;
    int negative = *p == '-';
    if (*p == '+' || *p == '-')
      ++p;
    if (!is_digit(*p)) {
      parse_failed(strings, text, dtype, 0);
      return 0;
    }
    uint64_t magnitude = 0;
    int overflow = 0;
    for (; is_digit(*p); ++p)
      overflow |= __builtin_mul_overflow(magnitude, 10u, &magnitude) ||
                  __builtin_add_overflow(magnitude, (uint64_t)(*p - '0'), &magnitude);
    if (*p != '\0') {
      parse_failed(strings, text, dtype, 0);
      return 0;
    }
    if (overflow || magnitude > (negative ? max_negative : max_positive)) { // "-0" is fine
      parse_failed(strings, text, dtype, 1);
      return 0;
    }
    store_integer(dtype, negative, magnitude, out);
    return 1;
  }
  if (dtype != TCC_DTYPE_FLOAT32 && dtype != TCC_DTYPE_FLOAT64 && dtype != TCC_DTYPE_FLOAT16 &&
      dtype != TCC_DTYPE_BFLOAT16) {
    char message[96];
    snprintf(message, sizeof(message), "string_parse: cannot parse text as the dtype %d",
             (int)dtype);
    tcc_strings_report(strings, message);
    return 0;
  }
  // The words ONNX reserves ("NaN", "INF", "+INF", "-INF", any case), and "infinity"
  // as strtod spells it; other texts must be plain decimal numbers (no hex floats).
  const char *word = s + (*s == '+' || *s == '-');
  double value = 0;
  int special = 1;
  if (equals_ignoring_case(word, "nan"))
    value = __builtin_nan("");
  else if (equals_ignoring_case(word, "inf") || equals_ignoring_case(word, "infinity"))
    value = __builtin_inf();
  else if (is_decimal_number(s))
    special = 0; // read below, with the type's own rounding
  else {
    parse_failed(strings, text, dtype, 0);
    return 0;
  }
  if (special && *s == '-')
    value = -value;
  switch (dtype) {
  case TCC_DTYPE_FLOAT32: {
    float f = special ? (float)value : parse_float(s); // strtof: no double rounding
    memcpy(out, &f, sizeof(f));
    break;
  }
  case TCC_DTYPE_FLOAT64: {
    double d = special ? value : parse_double(s);
    memcpy(out, &d, sizeof(d));
    break;
  }
  default: {
    double d = special ? value : parse_double(s);
    uint16_t bits = dtype == TCC_DTYPE_FLOAT16 ? double_to_small_float(d, 5, 10)
                                               : double_to_small_float(d, 8, 7);
    memcpy(out, &bits, sizeof(bits));
    break;
  }
  }
  return 1;
}

void tcc_strings_parse(tcc_strings *strings, const tcc_string *text, int32_t dtype, void *out) {
  init_locales();
  size_t width = dtype == TCC_DTYPE_STRING ? 0 : tcc_dtype_size(dtype);
  if (width)
    memset(out, 0, width);
  if (!width) {
    char message[96];
    snprintf(message, sizeof(message), "string_parse: cannot parse text as the dtype %d",
             (int)dtype);
    tcc_strings_report(strings, message);
    return;
  }
  if (!tcc_strings_check_text(strings, text, "string_parse"))
    return;
  const char *begin = text->data, *end = text->data + text->size;
  while (begin < end && is_space(*begin))
    ++begin;
  while (end > begin && is_space(end[-1]))
    --end;
  size_t length = (size_t)(end - begin);
  // strtod needs a NUL-terminated copy; numbers are short, so it is usually on the stack.
  char local[128];
  char *copy = local;
  if (length >= sizeof(local)) {
    copy = malloc(length + 1);
    if (!copy) {
      tcc_strings_report_out_of_memory(strings, "out of memory for parsing a string");
      return;
    }
  }
  if (length)
    memcpy(copy, begin, length);
  copy[length] = '\0';
  // A NUL inside the text would end the copy early: such a text is no number.
  if (memchr(copy, '\0', length))
    parse_failed(strings, text, dtype, 0);
  else if (!parse_trimmed(strings, text, copy, dtype, out))
    memset(out, 0, width);
  if (copy != local)
    free(copy);
}
