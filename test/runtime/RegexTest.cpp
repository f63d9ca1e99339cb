//===- RegexTest.cpp - RegexFullMatch's RE2 -> POSIX translation and matching ------------===//
#include "regex_internal.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>
#include <string>

namespace {

/// The translation, or "error: <message>".
std::string translate(const std::string &pattern) {
  char *out = nullptr;
  char error[200];
  if (tcc_regex_translate(pattern.data(), pattern.size(), &out, error, sizeof(error)) != 0)
    return std::string("error: ") + error;
  std::string result = out;
  std::free(out);
  return result;
}

struct Cache {
  tcc_regex_cache *cache = tcc_regex_cache_create();
  ~Cache() { tcc_regex_cache_destroy(cache); }
  /// 1, 0, or -1 (error text in `error`).
  int match(const std::string &pattern, const std::string &text) {
    // The cache keys on the pattern's address, as the model's constants are: keep patterns.
    patterns.push_back(std::make_unique<std::string>(pattern));
    const std::string &kept = *patterns.back();
    return tcc_regex_full_match(cache, kept.data(), kept.size(), text.data(), text.size(),
                                error, sizeof(error));
  }
  std::vector<std::unique_ptr<std::string>> patterns;
  char error[200] = {};
};

} // namespace

TEST_CASE("RE2 patterns translate to anchored POSIX extended expressions", "[strings][regex]") {
  CHECK(translate("abc") == "^(abc)$");
  CHECK(translate("a\\d+\\s\\S\\D") == "^(a[[:digit:]]+[[:space:]][^[:space:]][^[:digit:]])$");
  CHECK(translate("\\w\\W\\b\\B") == "^(\\w\\W\\b\\B)$");
  CHECK(translate("\\.\\-\\(\\/") == "^(\\.-\\(/)$");
  CHECK(translate("[\\w.-]+") == "^([[:alnum:]_.-]+)$");
  CHECK(translate("[\\w.\\-]{0,25}") == "^([[:alnum:]_.-]{0,25})$");
  CHECK(translate("[^\\d\\]a-c]") == "^([^][:digit:]a-c])$");
  CHECK(translate("[]a]") == "^([]a])$");
  CHECK(translate("[\\^x]") == "^([x^])$");
  CHECK(translate("[\\^]") == "^(\\^)$");
  CHECK(translate("(?:ab)+?c*?") == "^((ab)+c*)$");
  CHECK(translate("\\Aab\\z") == "^(^ab$)$");
  CHECK(translate("a\\tb") == "^(a\tb)$");
  CHECK(translate("[[:alpha:]_]") == "^([[:alpha:]_])$");
  CHECK(translate("(?i)abc").rfind("error: groups with flags", 0) == 0);
  CHECK(translate("(?=a)").rfind("error: groups with flags", 0) == 0);
  CHECK(translate("(a)\\1") ==
        "error: the escape \\1 (backreferences, \\p, \\x, \\Q...) is not supported (at byte 3 "
        "of the pattern)");
  CHECK(translate("\\pL").rfind("error: the escape \\p", 0) == 0);
  CHECK(translate("[\\W]").rfind("error: a negated class", 0) == 0);
  CHECK(translate("[abc").rfind("error: a bracket expression is not closed", 0) == 0);
  CHECK(translate("ab\\").rfind("error: the pattern ends with a backslash", 0) == 0);
  CHECK(translate("[z-a]").rfind("error: a range goes backwards", 0) == 0);
  CHECK(translate(std::string("a\0b", 3)).rfind("error: a NUL byte", 0) == 0);
}

TEST_CASE("RegexFullMatch matches whole texts", "[strings][regex]") {
  Cache c;
  // ONNX's conformance patterns.
  std::string www = "www\\.[\\w.-]+\\.\\bcom\\b";
  CHECK(c.match(www, "www.google.com") == 1);
  CHECK(c.match(www, "www.facebook.com") == 1);
  CHECK(c.match(www, "www.bbc.co.uk") == 0);
  std::string mail = "(\\W|^)[\\w.\\-]{0,25}@(yahoo|gmail)\\.com(\\W|$)";
  CHECK(c.match(mail, "account@gmail.com") == 1);
  CHECK(c.match(mail, "account@hotmail.com") == 0);
  CHECK(c.match(mail, "not email") == 0);
  CHECK(c.match(mail, "account2@yahoo.com") == 1);
  // Whole texts only; lazy quantifiers match the same whole texts.
  CHECK(c.match("ab", "xaby") == 0);
  CHECK(c.match("a.*?b", "axxb") == 1);
  CHECK(c.match("a|b", "b") == 1);
  CHECK(c.match("", "") == 1);
  CHECK(c.match("", "a") == 0);
  CHECK(c.match("\\d{3}-\\d{4}", "555-1234") == 1);
  CHECK(c.match("\\d{3}-\\d{4}", "555-12345") == 0);
  // `.` is one code point (UTF-8).
  CHECK(c.match("caf.", "café") == 1);
  CHECK(c.match("...", "日本語") == 1);
  // An unusable pattern is an error, every time it is used.
  CHECK(c.match("(?i)abc", "abc") == -1);
  CHECK(std::string(c.error).rfind("groups with flags", 0) == 0);
  CHECK(c.match("a{2,1}", "aa") == -1);
  CHECK(std::string(c.error).rfind("the C library's regex engine refuses it", 0) == 0);
}

TEST_CASE("compiled patterns are cached per address", "[strings][regex]") {
  Cache c;
  std::string pattern = "[a-c]+";
  for (int k = 0; k < 100; ++k) {
    CHECK(tcc_regex_full_match(c.cache, pattern.data(), pattern.size(), "abc", 3, c.error,
                               sizeof(c.error)) == 1);
    CHECK(tcc_regex_full_match(c.cache, pattern.data(), pattern.size(), "abd", 3, c.error,
                               sizeof(c.error)) == 0);
  }
}
