//===- Compare.h - comparing tcc-run's outputs with reference arrays ------------*- C++ -*-===//
#ifndef TCC_TOOLS_TCC_RUN_COMPARE_H
#define TCC_TOOLS_TCC_RUN_COMPARE_H

#include <cstdint>
#include <string>
#include <vector>

namespace tcc_run {

/// The outcome of comparing one output with its reference.
struct Comparison {
  bool pass = false;
  std::string problem;      ///< set when the arrays cannot be compared (shape differs)
  double maxAbsError = 0;   ///< over elements that are not identical
  double relativeL2Error = 0; ///< |a - b|_2 / |b|_2 over finite pairs
  int64_t mismatches = 0;   ///< elements with |a - b| > atol + rtol * |b|
  int64_t count = 0;
  int64_t firstMismatch = -1;
  double firstActual = 0, firstExpected = 0;
  /// String tensors: the first mismatching elements, quoted (quoteString).
  std::string firstActualText, firstExpectedText;
};

/// Compares `actual` (tcc dtype `actualDtype`) with `expected` elementwise: equal when
/// |a - b| <= atol + rtol * |b|, or both NaN, or both the same infinity. Dtypes may differ
/// (values compare as numbers); shapes must be equal.
Comparison compareArrays(int32_t actualDtype, const std::vector<int64_t> &actualShape,
                         const void *actual, int32_t expectedDtype,
                         const std::vector<int64_t> &expectedShape, const void *expected,
                         int64_t count, double rtol, double atol);

/// Compares two string tensors (arrays of `count` tcc_string): equal when the shapes are and
/// every element holds the same bytes. maxAbsError and relativeL2Error stay 0.
Comparison compareStrings(const std::vector<int64_t> &actualShape, const void *actual,
                          const std::vector<int64_t> &expectedShape, const void *expected,
                          int64_t count);

/// `size` bytes of text between double quotes, for messages: `"` and `\` escaped, control
/// bytes and bytes that are not valid UTF-8 as \xNN, cut after `limit` bytes with "...".
std::string quoteString(const char *data, int64_t size, size_t limit = 200);

/// Element `index` of an array of tcc dtype `dtype`, as a double (NaN for unknown dtypes).
double elementValue(int32_t dtype, const void *data, int64_t index);

/// "[2, 4]".
std::string formatShape(const std::vector<int64_t> &shape);

/// The multi-index of flat element `index` in `shape`, as "[1, 2]".
std::string formatIndex(const std::vector<int64_t> &shape, int64_t index);

} // namespace tcc_run

#endif // TCC_TOOLS_TCC_RUN_COMPARE_H
