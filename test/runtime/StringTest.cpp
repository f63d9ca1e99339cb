//===- StringTest.cpp - string tensors: the import table's string functions, the arena --===//
//
// The functions are tested directly through the internal tcc_strings API (every dtype, the
// errors, the arena's allocation counts), and through the `strings` fixture, which calls
// them from a model's parallel loops as compiled models do (the import table's wiring, the
// checks of string inputs, runs replacing the previous run's strings, threads).
//
//===------------------------------------------------------------------------------------===//
#include "RuntimeTestUtils.h"
#include "strings_internal.h"

#include <clocale>
#include <cmath>
#include <cstring>
#include <locale.h>
#include <mutex>

using namespace tcc_test;

namespace {

constexpr DLDataType kString{kDLOpaqueHandle, 128, 1};

std::string text(const tcc_string &s) {
  return s.size > 0 ? std::string(s.data, static_cast<size_t>(s.size)) : std::string();
}

tcc_string view(const std::string &s) {
  return tcc_string{s.empty() ? nullptr : s.data(), static_cast<int64_t>(s.size())};
}

/// Whether C.UTF-8 exists here (else only ASCII letters change case, by design).
bool haveUtf8Locale() {
  locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
  if (!locale)
    return false;
  freelocale(locale);
  return true;
}

/// A tcc_strings whose reports are kept, as the session's first-message-wins error.
struct Strings {
  tcc_strings *strings = nullptr;
  std::mutex mutex;
  std::vector<std::string> messages;

  Strings() { REQUIRE_OK(tcc_strings_create(record, this, &strings)); }
  ~Strings() { tcc_strings_destroy(strings); }
  Strings(const Strings &) = delete;
  Strings &operator=(const Strings &) = delete;

  static void record(void *context, const char *message) {
    Strings *self = static_cast<Strings *>(context);
    std::lock_guard<std::mutex> lock(self->mutex);
    self->messages.push_back(message);
  }

  template <typename T> std::string format(int32_t dtype, T value) {
    tcc_string out{};
    tcc_strings_format(strings, dtype, &value, &out);
    return text(out);
  }

  /// Parses `input` as `dtype` into T, after filling the result with 0xff bytes.
  template <typename T> T parse(const std::string &input, int32_t dtype) {
    T out;
    std::memset(&out, 0xff, sizeof(out));
    tcc_string s = view(input);
    tcc_strings_parse(strings, &s, dtype, &out);
    return out;
  }

  std::string changeCase(const std::string &input, bool upper) {
    tcc_string s = view(input), out{};
    tcc_strings_change_case(strings, &s, upper ? 1 : 0, &out);
    return text(out);
  }

  /// Takes the messages reported so far.
  std::vector<std::string> take() {
    std::vector<std::string> taken;
    taken.swap(messages);
    return taken;
  }
};

/// A string set as the compiler packs it: little-endian int64 byte count, then the bytes.
std::string packSet(const std::vector<std::string> &strings) {
  std::string packed;
  for (const std::string &s : strings) {
    uint64_t size = s.size();
    for (int b = 0; b < 8; ++b)
      packed.push_back(static_cast<char>((size >> (8 * b)) & 0xff));
    packed += s;
  }
  return packed;
}

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

} // namespace

//===------------------------------------------------------------------------------------===//
// string_format
//===------------------------------------------------------------------------------------===//

TEST_CASE("string_format writes floats as NumPy does", "[strings]") {
  Strings s;
  // ONNX conformance data (Cast float -> string): the shortest digits that read back.
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.9767611f) == "0.9767611");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.039187793f) == "0.039187793");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.28280696f) == "0.28280696");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.12019656f) == "0.12019656");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.064147495f) == "0.064147495");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.1f) == "0.1"); // float32 digits, not double's
  CHECK(s.format(TCC_DTYPE_FLOAT32, 100.0f) == "100.0");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.5f) == "0.5");
  CHECK(s.format(TCC_DTYPE_FLOAT32, -2.25f) == "-2.25");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 16777216.0f) == "16777216.0");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.001f) == "0.001");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 1e-5f) == "1e-05");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 1.5e-7f) == "1.5e-07");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 1e16f) == "1e+16");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 3.4028235e38f) == "3.4028235e+38");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 1e-45f) == "1e-45"); // the smallest subnormal
  // float32's 1e-4 is 9.99999974738e-05 < 1e-4, so NumPy writes it in scientific form.
  CHECK(s.format(TCC_DTYPE_FLOAT32, 1e-4f) == "1e-04");
  CHECK(s.format(TCC_DTYPE_FLOAT32, std::nanf("")) == "nan");
  CHECK(s.format(TCC_DTYPE_FLOAT32, INFINITY) == "inf");
  CHECK(s.format(TCC_DTYPE_FLOAT32, -INFINITY) == "-inf");
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.0f) == "0.0");
  CHECK(s.format(TCC_DTYPE_FLOAT32, -0.0f) == "-0.0");

  CHECK(s.format(TCC_DTYPE_FLOAT64, 0.1) == "0.1");
  CHECK(s.format(TCC_DTYPE_FLOAT64, 1.0 / 3.0) == "0.3333333333333333");
  CHECK(s.format(TCC_DTYPE_FLOAT64, 1e-4) == "0.0001"); // float64's 1e-4 is >= 1e-4
  CHECK(s.format(TCC_DTYPE_FLOAT64, 1e16) == "1e+16");
  CHECK(s.format(TCC_DTYPE_FLOAT64, 9999999999999998.0) == "9999999999999998.0");
  CHECK(s.format(TCC_DTYPE_FLOAT64, 5e-324) == "5e-324");
  CHECK(s.format(TCC_DTYPE_FLOAT64, 1.7976931348623157e308) == "1.7976931348623157e+308");
  // A power of two: the nearest 16-digit decimal is below and does not read back, the one
  // above does (Python's repr agrees).
  CHECK(s.format(TCC_DTYPE_FLOAT64, 1152921504606846976.0) == "1.152921504606847e+18");
  CHECK(s.format(TCC_DTYPE_FLOAT64, -0.0) == "-0.0");

  // float16 and bfloat16 as bits.
  CHECK(s.format(TCC_DTYPE_FLOAT16, uint16_t{0x3555}) == "0.3333");
  CHECK(s.format(TCC_DTYPE_FLOAT16, uint16_t{0x2e66}) == "0.1");
  CHECK(s.format(TCC_DTYPE_FLOAT16, uint16_t{0x7bff}) == "65500.0");
  CHECK(s.format(TCC_DTYPE_FLOAT16, uint16_t{0x0001}) == "6e-08");
  CHECK(s.format(TCC_DTYPE_FLOAT16, uint16_t{0xc000}) == "-2.0");
  CHECK(s.format(TCC_DTYPE_FLOAT16, uint16_t{0xfc00}) == "-inf");
  CHECK(s.format(TCC_DTYPE_FLOAT16, uint16_t{0x7e00}) == "nan");
  CHECK(s.format(TCC_DTYPE_BFLOAT16, uint16_t{0x3dcd}) == "0.1");
  CHECK(s.format(TCC_DTYPE_BFLOAT16, uint16_t{0x4049}) == "3.14");
  CHECK(s.format(TCC_DTYPE_BFLOAT16, uint16_t{0x7f7f}) == "3.39e+38");
  CHECK(s.take().empty());
}

TEST_CASE("string_format writes integers and bools", "[strings]") {
  Strings s;
  CHECK(s.format(TCC_DTYPE_INT8, int8_t{-128}) == "-128");
  CHECK(s.format(TCC_DTYPE_INT16, int16_t{-32768}) == "-32768");
  CHECK(s.format(TCC_DTYPE_INT32, int32_t{INT32_MIN}) == "-2147483648");
  CHECK(s.format(TCC_DTYPE_INT64, int64_t{INT64_MIN}) == "-9223372036854775808");
  CHECK(s.format(TCC_DTYPE_INT64, int64_t{0}) == "0");
  CHECK(s.format(TCC_DTYPE_UINT8, uint8_t{255}) == "255");
  CHECK(s.format(TCC_DTYPE_UINT16, uint16_t{65535}) == "65535");
  CHECK(s.format(TCC_DTYPE_UINT32, uint32_t{UINT32_MAX}) == "4294967295");
  CHECK(s.format(TCC_DTYPE_UINT64, uint64_t{UINT64_MAX}) == "18446744073709551615");
  CHECK(s.format(TCC_DTYPE_BOOL, uint8_t{1}) == "True");
  CHECK(s.format(TCC_DTYPE_BOOL, uint8_t{0}) == "False");
  CHECK(s.take().empty());
  CHECK(s.format(TCC_DTYPE_STRING, tcc_string{}) == "");
  CHECK(s.take() == std::vector<std::string>{"string_format: cannot format the dtype 8 as text"});
}

TEST_CASE("string_format ignores the process's locale", "[strings]") {
  // Under a locale with a decimal comma, printf would write "0,5".
  const char *previous = std::setlocale(LC_NUMERIC, nullptr);
  std::string saved = previous ? previous : "C";
  const char *german = nullptr;
  for (const char *name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"})
    if ((german = std::setlocale(LC_NUMERIC, name)))
      break;
  if (!german)
    WARN("no locale with a decimal comma here: the test checks the C locale only");
  Strings s;
  CHECK(s.format(TCC_DTYPE_FLOAT32, 0.5f) == "0.5");
  CHECK(s.parse<float>("0.25", TCC_DTYPE_FLOAT32) == 0.25f);
  std::setlocale(LC_NUMERIC, saved.c_str());
  CHECK(s.take().empty());
}

//===------------------------------------------------------------------------------------===//
// string_parse
//===------------------------------------------------------------------------------------===//

TEST_CASE("string_parse reads floats", "[strings]") {
  Strings s;
  CHECK(std::isnan(s.parse<float>("NaN", TCC_DTYPE_FLOAT32)));
  CHECK(std::isnan(s.parse<float>("nan", TCC_DTYPE_FLOAT32)));
  CHECK(s.parse<float>("INF", TCC_DTYPE_FLOAT32) == INFINITY);
  CHECK(s.parse<float>("+INF", TCC_DTYPE_FLOAT32) == INFINITY);
  CHECK(s.parse<float>("-INF", TCC_DTYPE_FLOAT32) == -INFINITY);
  CHECK(s.parse<float>("-inf", TCC_DTYPE_FLOAT32) == -INFINITY);
  CHECK(s.parse<float>("Infinity", TCC_DTYPE_FLOAT32) == INFINITY);
  CHECK(floatBits(s.parse<float>(" 0.47892547 ", TCC_DTYPE_FLOAT32)) == floatBits(0.47892547f));
  CHECK(s.parse<float>("\t1e-5\n", TCC_DTYPE_FLOAT32) == 1e-5f);
  CHECK(s.parse<float>("1E8", TCC_DTYPE_FLOAT32) == 1e8f);
  CHECK(s.parse<float>("+.5", TCC_DTYPE_FLOAT32) == 0.5f);
  CHECK(s.parse<float>("5.", TCC_DTYPE_FLOAT32) == 5.0f);
  CHECK(s.parse<float>("1e999", TCC_DTYPE_FLOAT32) == INFINITY); // rounds, as IEEE does
  float negativeZero = s.parse<float>("-0", TCC_DTYPE_FLOAT32);
  CHECK((negativeZero == 0.0f && std::signbit(negativeZero)));
  // Just below the midpoint of 1 + 2^-23 and 1 + 2^-22: strtof gives the lower; rounding
  // through double would land on the midpoint and then round to even, the upper.
  CHECK(floatBits(s.parse<float>("1.00000017881393432617187499", TCC_DTYPE_FLOAT32)) ==
        0x3f800001u);
  CHECK(s.parse<double>("0.1", TCC_DTYPE_FLOAT64) == 0.1);
  CHECK(s.parse<double>("-1.7976931348623157e308", TCC_DTYPE_FLOAT64) == -1.7976931348623157e308);
  CHECK(s.parse<uint16_t>("0.1", TCC_DTYPE_FLOAT16) == 0x2e66);
  CHECK(s.parse<uint16_t>("65520", TCC_DTYPE_FLOAT16) == 0x7c00); // rounds up to inf
  CHECK(s.parse<uint16_t>("6e-8", TCC_DTYPE_FLOAT16) == 0x0001);  // subnormal
  CHECK(s.parse<uint16_t>("-INF", TCC_DTYPE_FLOAT16) == 0xfc00);
  CHECK(s.parse<uint16_t>("3.14", TCC_DTYPE_BFLOAT16) == 0x4049);
  CHECK(s.parse<uint16_t>("1.00390625", TCC_DTYPE_BFLOAT16) == 0x3f80); // a tie: to even
  CHECK(s.parse<uint16_t>("1.01171875", TCC_DTYPE_BFLOAT16) == 0x3f82); // a tie: to even
  CHECK(s.take().empty());
}

TEST_CASE("string_parse reads integers and bools", "[strings]") {
  Strings s;
  CHECK(s.parse<int32_t>("-2147483648", TCC_DTYPE_INT32) == INT32_MIN);
  CHECK(s.parse<int32_t>(" +42 ", TCC_DTYPE_INT32) == 42);
  CHECK(s.parse<int64_t>("9223372036854775807", TCC_DTYPE_INT64) == INT64_MAX);
  CHECK(s.parse<int64_t>("-9223372036854775808", TCC_DTYPE_INT64) == INT64_MIN);
  CHECK(s.parse<int8_t>("-128", TCC_DTYPE_INT8) == -128);
  CHECK(s.parse<uint8_t>("255", TCC_DTYPE_UINT8) == 255);
  CHECK(s.parse<uint8_t>("-0", TCC_DTYPE_UINT8) == 0);
  CHECK(s.parse<uint64_t>("18446744073709551615", TCC_DTYPE_UINT64) == UINT64_MAX);
  CHECK(s.parse<uint16_t>("0065535", TCC_DTYPE_UINT16) == 65535);
  CHECK(s.parse<uint8_t>("True", TCC_DTYPE_BOOL) == 1);
  CHECK(s.parse<uint8_t>("FALSE", TCC_DTYPE_BOOL) == 0);
  CHECK(s.parse<uint8_t>(" 1 ", TCC_DTYPE_BOOL) == 1);
  CHECK(s.parse<uint8_t>("0", TCC_DTYPE_BOOL) == 0);
  CHECK(s.take().empty());
}

TEST_CASE("string_parse reports texts that are not numbers and zeroes the result",
          "[strings]") {
  Strings s;
  CHECK(s.parse<float>("abc", TCC_DTYPE_FLOAT32) == 0.0f);
  CHECK(s.parse<float>("1.5x", TCC_DTYPE_FLOAT32) == 0.0f);
  CHECK(s.parse<float>("0x1p3", TCC_DTYPE_FLOAT32) == 0.0f); // no hex floats
  CHECK(s.parse<float>("", TCC_DTYPE_FLOAT32) == 0.0f);
  CHECK(s.parse<float>(std::string("1\0", 2), TCC_DTYPE_FLOAT32) == 0.0f);
  CHECK(s.parse<double>("1 2", TCC_DTYPE_FLOAT64) == 0.0);
  CHECK(s.parse<int32_t>("1.5", TCC_DTYPE_INT32) == 0); // a float text for an integer
  CHECK(s.parse<int32_t>("2147483648", TCC_DTYPE_INT32) == 0);
  CHECK(s.parse<int64_t>("-9223372036854775809", TCC_DTYPE_INT64) == 0);
  CHECK(s.parse<uint64_t>("99999999999999999999999", TCC_DTYPE_UINT64) == 0);
  CHECK(s.parse<uint8_t>("256", TCC_DTYPE_UINT8) == 0);
  CHECK(s.parse<uint8_t>("-1", TCC_DTYPE_UINT8) == 0);
  CHECK(s.parse<uint8_t>("yes", TCC_DTYPE_BOOL) == 0);
  std::string longText(100, '7');
  longText += "z";
  CHECK(s.parse<double>(longText, TCC_DTYPE_FLOAT64) == 0.0); // longer than the stack copy
  CHECK(s.parse<float>("a\nb", TCC_DTYPE_FLOAT32) == 0.0f);
  CHECK(s.take() == std::vector<std::string>{
                        "the string 'abc' is not a float32 number",
                        "the string '1.5x' is not a float32 number",
                        "the string '0x1p3' is not a float32 number",
                        "the string '' is not a float32 number",
                        "the string '1\\x00' is not a float32 number",
                        "the string '1 2' is not a float64 number",
                        "the string '1.5' is not an int32 number",
                        "the string '2147483648' is outside the range of int32",
                        "the string '-9223372036854775809' is outside the range of int64",
                        "the string '99999999999999999999999' is outside the range of uint64",
                        "the string '256' is outside the range of uint8",
                        "the string '-1' is outside the range of uint8",
                        "the string 'yes' is not a bool (True, False, 1 or 0)",
                        "the string '" + std::string(40, '7') + "...' is not a float64 number",
                        "the string 'a\\x0ab' is not a float32 number",
                    });
  tcc_string negative{"x", -1};
  float out = 1.0f;
  tcc_strings_parse(s.strings, &negative, TCC_DTYPE_FLOAT32, &out);
  CHECK(out == 0.0f);
  CHECK(s.take() ==
        std::vector<std::string>{"string_parse: a string of size -1 with non-null data"});
}

//===------------------------------------------------------------------------------------===//
// string_change_case and string_find
//===------------------------------------------------------------------------------------===//

TEST_CASE("string_change_case maps ASCII and keeps invalid UTF-8", "[strings]") {
  Strings s;
  CHECK(s.changeCase("Hello, World 123!", true) == "HELLO, WORLD 123!");
  CHECK(s.changeCase("Hello, World 123!", false) == "hello, world 123!");
  CHECK(s.changeCase("", true) == "");
  // Invalid bytes (a stray continuation, a bad lead, an overlong '/', a surrogate, a cut
  // sequence) stay as they are; the letters around them change.
  CHECK(s.changeCase("a\x80" "b\xff" "c\xc0\xaf" "d\xed\xa0\x80" "e\xe2\x82", true) ==
        "A\x80" "B\xff" "C\xc0\xaf" "D\xed\xa0\x80" "E\xe2\x82");
  // Nothing changes: the output is the input's bytes.
  std::string upper = "ABC 1";
  tcc_string in = view(upper), out{};
  tcc_strings_change_case(s.strings, &in, 1, &out);
  CHECK(out.data == in.data);
  CHECK(out.size == 5);
  tcc_string empty{nullptr, 0};
  tcc_strings_change_case(s.strings, &empty, 0, &out);
  CHECK(out.size == 0);
  tcc_string bad{nullptr, 3};
  tcc_strings_change_case(s.strings, &bad, 0, &out);
  CHECK(out.size == 0);
  CHECK(s.take() ==
        std::vector<std::string>{"string_change_case: a string of size 3 with null data"});
}

TEST_CASE("string_change_case maps letters beyond ASCII with C.UTF-8", "[strings]") {
  if (!haveUtf8Locale()) {
    WARN("no C.UTF-8 locale here: only ASCII letters change case");
    return;
  }
  Strings s;
  CHECK(s.changeCase("Straße", true) == "STRAßE"); // ß has no one-letter upper case
  CHECK(s.changeCase("STRAßE", false) == "straße");
  CHECK(s.changeCase("ÉCOLE", false) == "école");
  CHECK(s.changeCase("école", true) == "ÉCOLE");
  CHECK(s.changeCase("Ωμέγα", true) == "ΩΜΈΓΑ");
  // The byte count may change: dotless i (2 bytes) -> I (1); ɐ (2 bytes) -> Ɐ (3).
  CHECK(s.changeCase("ı", true) == "I");
  CHECK(s.changeCase("\xc9\x90", true) == "\xe2\xb1\xaf");
  CHECK(s.changeCase("\xe2\xb1\xaf", false) == "\xc9\x90");
  CHECK(s.changeCase("é\xff", true) == "É\xff");
  CHECK(s.take().empty());
}

TEST_CASE("string_find compares exactly or ignoring case", "[strings]") {
  Strings s;
  std::string set = packSet({"apple", "Banana", "Straße", ""});
  auto find = [&](const std::string &value, bool ignoreCase, const std::string &packed,
                  int64_t count) {
    tcc_string t = view(value);
    return tcc_strings_find(s.strings, &t, packed.data(), count, ignoreCase ? 1 : 0);
  };
  CHECK(find("apple", false, set, 4) == 1);
  CHECK(find("Banana", false, set, 4) == 1);
  CHECK(find("banana", false, set, 4) == 0);
  CHECK(find("banana", true, set, 4) == 1);
  CHECK(find("APPLE", true, set, 4) == 1);
  CHECK(find("app", true, set, 4) == 0);
  CHECK(find("apples", true, set, 4) == 0);
  CHECK(find("", false, set, 4) == 1);
  CHECK(find("", false, set, 3) == 0); // without the empty string
  CHECK(find("apple", false, set, 0) == 0);
  CHECK(find("x", false, "", 0) == 0);
  std::string invalid = packSet({"\xff" "A"});
  CHECK(find("\xff" "a", true, invalid, 1) == 1);
  CHECK(find("\xff" "a", false, invalid, 1) == 0);
  if (haveUtf8Locale()) {
    CHECK(find("STRAßE", true, set, 4) == 1);
    CHECK(find("STRAßE", false, set, 4) == 0);
  }
  CHECK(s.take().empty());
  // A negative byte count in the set is never followed.
  std::string broken = packSet({"a"});
  broken += std::string("\xfe\xff\xff\xff\xff\xff\xff\xff", 8);
  CHECK(find("b", false, broken, 2) == 0);
  CHECK(s.take() ==
        std::vector<std::string>{"string_find: string 1 of the set has the negative size -2"});
}

TEST_CASE("string_equal compares bytes", "[strings]") {
  Strings s;
  auto equal = [&](const std::string &a, const std::string &b) {
    tcc_string x = view(a), y = view(b);
    return tcc_strings_equal(s.strings, &x, &y);
  };
  CHECK(equal("abc", "abc") == 1);
  CHECK(equal("abc", "abd") == 0);
  CHECK(equal("abc", "ab") == 0);
  CHECK(equal("", "") == 1);
  CHECK(equal("", "a") == 0);
  CHECK(equal("A", "a") == 0);
  CHECK(equal(std::string("a\0b", 3), std::string("a\0c", 3)) == 0);
  tcc_string empty{nullptr, 0}, other = view("");
  CHECK(tcc_strings_equal(s.strings, &empty, &other) == 1);
  CHECK(s.take().empty());
  tcc_string broken{nullptr, 3};
  CHECK(tcc_strings_equal(s.strings, &broken, &other) == 0);
  CHECK(s.take() == std::vector<std::string>{"string_equal: a string of size 3 with null data"});
}

TEST_CASE("string_concat joins bytes in the arena", "[strings]") {
  Strings s;
  auto concat = [&](const std::string &a, const std::string &b) {
    tcc_string x = view(a), y = view(b), out{};
    tcc_strings_concat(s.strings, &x, &y, &out);
    return text(out);
  };
  CHECK(concat("abc", "def") == "abcdef");
  CHECK(concat("", "def") == "def");
  CHECK(concat("abc", "") == "abc");
  CHECK(concat("", "") == "");
  CHECK(concat("Straße", " ü") == "Straße ü");
  CHECK(concat(std::string("a\0", 2), "b") == std::string("a\0b", 3));
  std::string big(100000, 'x');
  CHECK(concat(big, big) == big + big);
  CHECK(s.take().empty());
}

//===------------------------------------------------------------------------------------===//
// The arena
//===------------------------------------------------------------------------------------===//

TEST_CASE("the string arena reuses its memory across resets", "[strings]") {
  Strings s;
  tcc_strings_stats stats{};
  tcc_strings_get_stats(s.strings, &stats);
  CHECK(stats.chunk_allocations == 0); // nothing until the first string
  char *first = tcc_strings_allocate(s.strings, 10);
  REQUIRE(first != nullptr);
  CHECK(tcc_strings_owns(s.strings, first + 9));
  int local = 0;
  CHECK_FALSE(tcc_strings_owns(s.strings, &local));
  tcc_strings_reset(s.strings);
  CHECK(tcc_strings_allocate(s.strings, 10) == first); // the same bytes again
  // Big strings get chunks of their own; a run that needed several chunks leaves one of the
  // size it used, so that the same run then allocates nothing.
  for (int run = 0; run < 4; ++run) {
    tcc_strings_reset(s.strings);
    for (int k = 0; k < 100; ++k)
      REQUIRE(tcc_strings_allocate(s.strings, 1000) != nullptr);
    REQUIRE(tcc_strings_allocate(s.strings, 200000) != nullptr);
    tcc_strings_get_stats(s.strings, &stats);
    if (run == 0)
      CHECK(stats.chunks == 3);
    if (run == 1)
      CHECK(stats.chunks == 1);
  }
  uint64_t warm = stats.chunk_allocations;
  for (int run = 0; run < 3; ++run) {
    tcc_strings_reset(s.strings);
    for (int k = 0; k < 100; ++k)
      REQUIRE(tcc_strings_allocate(s.strings, 1000) != nullptr);
    REQUIRE(tcc_strings_allocate(s.strings, 200000) != nullptr);
  }
  tcc_strings_get_stats(s.strings, &stats);
  CHECK(stats.chunk_allocations == warm);
  CHECK(stats.chunks == 1);
  CHECK(stats.bytes == 300000);
  CHECK(s.take().empty());
}

TEST_CASE("the string arena reports running out of memory", "[strings]") {
  Strings s;
  CHECK(tcc_strings_allocate(s.strings, SIZE_MAX - 8) == nullptr);
  CHECK(tcc_strings_out_of_memory(s.strings));
  std::vector<std::string> messages = s.take();
  REQUIRE(messages.size() == 1);
  CHECK(messages[0].find("out of memory for a string of") == 0);
  tcc_strings_reset(s.strings);
  CHECK_FALSE(tcc_strings_out_of_memory(s.strings));
}

//===------------------------------------------------------------------------------------===//
// Through a session: the strings fixture
//===------------------------------------------------------------------------------------===//

namespace {

std::vector<tcc_string> views(const std::vector<std::string> &strings) {
  std::vector<tcc_string> result;
  for (const std::string &s : strings)
    result.push_back(view(s));
  return result;
}

/// The fixture's tensors: x and numbers own their bytes.
struct StringsRun {
  std::vector<std::string> xs, numbers;
  HostTensor<tcc_string> x, num, upper, lower, text;
  HostTensor<uint8_t> found, foundExact;
  HostTensor<float> value;

  StringsRun(std::vector<std::string> xsIn, std::vector<std::string> numbersIn)
      : xs(std::move(xsIn)), numbers(std::move(numbersIn)),
        x({static_cast<int64_t>(xs.size())}, kString, views(xs)),
        num({static_cast<int64_t>(numbers.size())}, kString, views(numbers)),
        upper({size()}, kString), lower({size()}, kString), text({size()}, kString),
        found({size()}, kUInt8), foundExact({size()}, kUInt8), value({size()}, kFloat32) {}

  int64_t size() const { return static_cast<int64_t>(xs.size()); }

  tcc_status run(tcc_session *session) {
    const DLTensor *inputs[] = {x.get(), num.get()};
    const DLTensor *outputs[] = {upper.get(), lower.get(), found.get(),
                                 foundExact.get(), value.get(), text.get()};
    return tcc_session_run(session, inputs, 2, outputs, 6);
  }
};

/// A mix of strings for the thread tests, element i of n.
std::string mixed(size_t i) {
  static const char *const words[] = {"apple", "APPLE", "Banana", "cherry", "", "Straße"};
  return std::string(words[i % 6]) + (i % 7 == 0 ? "" : std::to_string(i % 5 == 0 ? 0 : i));
}

} // namespace

TEST_CASE("a model calls the string functions through the import table", "[strings]") {
  Model model = loadModel("strings");
  tcc_tensor_info info{};
  REQUIRE_OK(tcc_model_input_info(model.get(), 0, &info));
  CHECK(info.dtype == TCC_DTYPE_STRING);
  Session session = createSession(model.get(), 2);
  StringsRun t({"apple", "BANANA", "Straße", "", "cherry", "MiXeD 42"},
               {"1.5", " 0.47892547 ", "NaN", "-INF", "100", "1e-5"});
  REQUIRE_OK(t.run(session.get()));
  std::vector<std::string> upper, lower, texts;
  for (int64_t i = 0; i < t.size(); ++i) {
    upper.push_back(text(t.upper.data[i]));
    lower.push_back(text(t.lower.data[i]));
    texts.push_back(text(t.text.data[i]));
  }
  CHECK(upper == std::vector<std::string>{"APPLE", "BANANA", "STRAßE", "", "CHERRY", "MIXED 42"});
  CHECK(lower == std::vector<std::string>{"apple", "banana", "straße", "", "cherry", "mixed 42"});
  CHECK(t.found.data == std::vector<uint8_t>{1, 1, 1, 1, 0, 0});
  CHECK(t.foundExact.data == std::vector<uint8_t>{1, 0, 1, 1, 0, 0});
  CHECK(texts == std::vector<std::string>{"1.5", "0.47892547", "nan", "-inf", "100.0", "1e-05"});
  CHECK(t.value.data[0] == 1.5f);
  CHECK(std::isnan(t.value.data[2]));
  CHECK(t.value.data[3] == -INFINITY);
  // Unchanged strings may be the input's own bytes; changed ones are the session's.
  CHECK(t.lower.data[0].data == t.xs[0].data());
  CHECK(tcc_strings_owns(tcc_session_strings(session.get()), t.upper.data[0].data));
}

TEST_CASE("a text that is not a number fails the run with its message", "[strings]") {
  Model model = loadModel("strings");
  Session session = createSession(model.get(), 1);
  StringsRun bad({"a", "b"}, {"1", "abc"});
  requireError(bad.run(session.get()), TCC_STATUS_CHECK_FAILED,
               {"tcc_session_run: a run-time check of the model failed: the string 'abc' is "
                "not a float32 number"});
  CHECK(bad.value.data[1] == 0.0f);
  StringsRun good({"a"}, {"2"});
  REQUIRE_OK(good.run(session.get())); // the next run starts without the error
  CHECK(text(good.text.data[0]) == "2.0");
}

TEST_CASE("each run replaces the strings of the previous run", "[strings]") {
  Model model = loadModel("strings");
  Session session = createSession(model.get(), 1);
  tcc_strings *strings = tcc_session_strings(session.get());
  StringsRun first({"abc"}, {"0.5"});
  REQUIRE_OK(first.run(session.get()));
  const char *firstText = first.text.data[0].data;
  CHECK(text(first.text.data[0]) == "0.5");
  tcc_strings_stats stats{};
  tcc_strings_get_stats(strings, &stats);
  uint64_t allocations = stats.chunk_allocations;
  CHECK(allocations == 1);

  StringsRun second({"xyz"}, {"0.25"});
  REQUIRE_OK(second.run(session.get()));
  CHECK(text(second.text.data[0]) == "0.25");
  CHECK(text(second.upper.data[0]) == "XYZ");
  // The second run's strings took the first run's place in the arena.
  CHECK(second.upper.data[0].data == first.upper.data[0].data);
  CHECK(firstText != nullptr);
  tcc_strings_get_stats(strings, &stats);
  CHECK(stats.chunk_allocations == allocations);

  // The previous run's outputs as inputs would be overwritten by the run: refused.
  StringsRun chained({"a"}, {"1"});
  chained.x.data[0] = second.upper.data[0];
  requireError(chained.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
               {"tcc_session_run: input 0 'x': string 0 points into the strings of the "
                "session's previous run"});
}

TEST_CASE("warm runs do not grow the string arena", "[strings]") {
  Model model = loadModel("strings");
  for (uint32_t flags : {0u, static_cast<uint32_t>(TCC_SESSION_FLAG_WHOLE_BATCH)}) {
    INFO("flags " << flags);
    Session session = createSession(model.get(), 4, flags);
    tcc_strings *strings = tcc_session_strings(session.get());
    // About 20000 x 16 bytes of strings: several chunks in the first run.
    std::vector<std::string> xs, numbers;
    for (int i = 0; i < 20000; ++i) {
      xs.push_back("word number " + std::to_string(i));
      numbers.push_back(std::to_string(i) + ".5");
    }
    StringsRun t(xs, numbers);
    tcc_strings_stats stats{};
    uint64_t warm = 0;
    for (int run = 0; run < 5; ++run) {
      REQUIRE_OK(t.run(session.get()));
      tcc_strings_get_stats(strings, &stats);
      if (run == 0)
        CHECK(stats.chunks > 1);
      if (run == 1)
        warm = stats.chunk_allocations;
      if (run >= 1)
        CHECK(stats.chunks == 1);
    }
    CHECK(stats.chunk_allocations == warm);
    for (int i = 0; i < 20000; i += 997) {
      CHECK(text(t.upper.data[i]) == "WORD NUMBER " + std::to_string(i));
      CHECK(text(t.text.data[i]) == std::to_string(i) + ".5");
    }
  }
}

TEST_CASE("string inputs are checked element by element", "[strings]") {
  Model model = loadModel("strings");
  Session session = createSession(model.get(), 1);
  {
    StringsRun t({"a", "b", "c"}, {"1", "2", "3"});
    t.x.data[2].size = -1;
    requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
                 {"tcc_session_run: input 0 'x': string 2 has size -1 and non-null data, "
                  "expected a size >= 0 and data for a non-empty string"});
  }
  {
    StringsRun t({"a", "b"}, {"1", "2"});
    t.num.data[0].data = nullptr;
    requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
                 {"input 1 'numbers': string 0 has size 1 and null data"});
  }
  {
    StringsRun t({"a"}, {"1"});
    t.x.data[0].data = reinterpret_cast<const char *>(UINTPTR_MAX - 2);
    t.x.data[0].size = 10;
    requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
                 {"input 0 'x': string 0: data + size (10) overflows"});
  }
  {
    // A string array that is not 16-byte aligned.
    StringsRun t({"a", "b"}, {"1", "2"});
    std::vector<tcc_string> storage(3);
    auto *bytes = reinterpret_cast<char *>(storage.data());
    std::memcpy(bytes + 8, t.x.data.data(), 2 * sizeof(tcc_string));
    t.x.dl.data = bytes;
    t.x.dl.byte_offset = 8;
    requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
                 {"input 0 'x': data + byte_offset is not aligned to its 16-byte elements"});
  }
  {
    StringsRun t({"a"}, {"1"});
    t.x.dl.dtype = DLDataType{kDLOpaqueHandle, 64, 1};
    requireError(t.run(session.get()), TCC_STATUS_INVALID_ARGUMENT,
                 {"input 0 'x' has dtype opaque64, expected string"});
  }
  {
    // Empty strings (data NULL or not) and empty tensors are fine.
    StringsRun t({"", ""}, {"0", "-0"});
    t.x.data[1].data = "ignored";
    REQUIRE_OK(t.run(session.get()));
    CHECK(t.upper.data[0].size == 0);
    CHECK(t.upper.data[1].size == 0);
    CHECK(text(t.text.data[1]) == "-0.0");
    StringsRun none({}, {});
    REQUIRE_OK(none.run(session.get()));
  }
}

TEST_CASE("string functions run on many threads at once", "[strings]") {
  Model model = loadModel("strings");
  const size_t n = 5000;
  std::vector<std::string> xs, numbers;
  for (size_t i = 0; i < n; ++i) {
    xs.push_back(mixed(i));
    numbers.push_back(std::to_string(i) + "e-3");
  }
  // Whole batches (the kernel's parallel_for on 8 threads) and image by image (8 lanes).
  for (uint32_t flags : {static_cast<uint32_t>(TCC_SESSION_FLAG_WHOLE_BATCH), 0u}) {
    INFO("flags " << flags);
    Session session = createSession(model.get(), 8, flags);
    StringsRun t(xs, numbers);
    Strings reference;
    for (int run = 0; run < 3; ++run) {
      REQUIRE_OK(t.run(session.get()));
      for (size_t i = 0; i < n; ++i) {
        INFO("element " << i << " '" << xs[i] << "'");
        REQUIRE(text(t.upper.data[i]) == reference.changeCase(xs[i], true));
        REQUIRE(text(t.lower.data[i]) == reference.changeCase(xs[i], false));
        float expected = std::strtof(numbers[i].c_str(), nullptr);
        REQUIRE(t.value.data[i] == expected);
        REQUIRE(text(t.text.data[i]) == reference.format(TCC_DTYPE_FLOAT32, expected));
        std::string lowered = reference.changeCase(xs[i], false);
        bool exact = xs[i] == "apple" || xs[i] == "Banana" || xs[i] == "Straße" || xs[i].empty();
        bool anyCase = lowered == "apple" || lowered == "banana" || lowered == "straße" ||
                       lowered.empty();
        REQUIRE(t.foundExact.data[i] == (exact ? 1 : 0));
        REQUIRE(t.found.data[i] == (anyCase ? 1 : 0));
      }
      tcc_strings_reset(reference.strings);
    }
  }
}
