//===- CpuFeaturesTest.cpp - host CPU feature detection and feature lists ---------------===//
#include "RuntimeTestUtils.h"

using namespace tcc_test;

namespace {
#if defined(__x86_64__)
const char *kBaseline = "sse2";
const char *kOptional[] = {"avx512fp16", "avx512bf16", "avx512vnni", "avx512f", "avxvnni",
                           "avx2",       "fma",        "fma4",       "sse4a"};
#elif defined(__aarch64__)
const char *kBaseline = "neon";
const char *kOptional[] = {"sve2", "sve", "i8mm", "bf16", "dotprod", "fullfp16"};
#endif
} // namespace

#if defined(__x86_64__) || defined(__aarch64__)

TEST_CASE("the baseline feature of the host is present", "[cpu]") {
  int present = 0;
  REQUIRE_OK(tcc_cpu_has_feature(kBaseline, &present));
  CHECK(present == 1);
  REQUIRE_OK(tcc_cpu_check_features((std::string("+") + kBaseline).c_str()));
}

TEST_CASE("a feature the host lacks is named in the error", "[cpu]") {
  const char *absent = nullptr;
  for (const char *name : kOptional) {
    int present = 1;
    REQUIRE_OK(tcc_cpu_has_feature(name, &present));
    if (!present) {
      absent = name;
      break;
    }
  }
  if (!absent) {
    WARN("this host has every optional feature tried; nothing to check");
    return;
  }
  std::string features = std::string("+") + kBaseline + ",+" + absent;
  requireError(tcc_cpu_check_features(features.c_str()), TCC_STATUS_INCOMPATIBLE,
               {"tcc_cpu_check_features", "this CPU lacks", absent});
}

TEST_CASE("the documented x86-64 and AArch64 features are known", "[cpu]") {
#if defined(__x86_64__)
  const char *names[] = {"sse4.2",   "avx",      "avx2",       "fma",       "f16c",
                         "bmi",      "bmi2",     "avx512f",    "avx512bw",  "avx512vl",
                         "avx512dq", "avx512bf16", "avx512vnni", "popcnt", "64bit"};
#else
  const char *names[] = {"neon", "fp16", "fullfp16", "dotprod", "bf16", "sve", "sve256", "sve512"};
#endif
  for (const char *name : names) {
    INFO(name);
    int present = -1;
    REQUIRE_OK(tcc_cpu_has_feature(name, &present));
    CHECK((present == 0 || present == 1));
  }
}

#if defined(__x86_64__)
TEST_CASE("feature detection agrees with the compiler's target where it must", "[cpu]") {
  // This test binary is compiled for x86-64, so the host runs at least SSE2.
  int present = 0;
  REQUIRE_OK(tcc_cpu_has_feature("sse", &present));
  CHECK(present == 1);
  // AVX-512 features come with avx512f.
  int f = 0, bw = 0;
  REQUIRE_OK(tcc_cpu_has_feature("avx512f", &f));
  REQUIRE_OK(tcc_cpu_has_feature("avx512bw", &bw));
  if (bw)
    CHECK(f == 1);
}
#endif

#endif

TEST_CASE("unknown feature names are errors that name them", "[cpu]") {
  int present = 0;
  requireError(tcc_cpu_has_feature("not-a-feature", &present), TCC_STATUS_INCOMPATIBLE,
               {"tcc_cpu_has_feature", "unknown", "'not-a-feature'"});
  requireError(tcc_cpu_check_features("+not-a-feature, +also-unknown"), TCC_STATUS_INCOMPATIBLE,
               {"unknown", "not-a-feature, also-unknown"});
}

TEST_CASE("empty lists and minus entries and stray separators need nothing", "[cpu]") {
  REQUIRE_OK(tcc_cpu_check_features(nullptr));
  REQUIRE_OK(tcc_cpu_check_features(""));
  REQUIRE_OK(tcc_cpu_check_features(","));
  REQUIRE_OK(tcc_cpu_check_features("-not-a-feature,-avx512f, ,"));
}

TEST_CASE("null arguments of tcc_cpu_has_feature are errors", "[cpu]") {
  int present = 0;
  requireError(tcc_cpu_has_feature(nullptr, &present), TCC_STATUS_INVALID_ARGUMENT,
               {"name is null"});
  requireError(tcc_cpu_has_feature("avx2", nullptr), TCC_STATUS_INVALID_ARGUMENT,
               {"out_present is null"});
}
