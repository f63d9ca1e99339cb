//===- Compare.cpp - comparing tcc-run's outputs with reference arrays ----------------===//
#include "Compare.h"
#include "NpyFile.h"

#include "tcc/model_abi.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace tcc_run {
namespace {

double halfToDouble(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double value;
  if (exponent == 0)
    value = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    value = mantissa ? NAN : INFINITY;
  else
    value = std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -value : value;
}

double bfloat16ToDouble(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

/// Element `i` as a long double: exact for every integer dtype (64-bit mantissa on x86-64).
template <typename T> long double load(const void *data, int64_t i) {
  T value;
  std::memcpy(&value, static_cast<const char *>(data) + i * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return static_cast<long double>(value);
}

long double element(int32_t dtype, const void *data, int64_t i) {
  switch (dtype) {
  case TCC_DTYPE_FLOAT32: return load<float>(data, i);
  case TCC_DTYPE_FLOAT64: return load<double>(data, i);
  case TCC_DTYPE_FLOAT16: return halfToDouble(static_cast<uint16_t>(load<uint16_t>(data, i)));
  case TCC_DTYPE_BFLOAT16:
    return bfloat16ToDouble(static_cast<uint16_t>(load<uint16_t>(data, i)));
  case TCC_DTYPE_INT8: return load<int8_t>(data, i);
  case TCC_DTYPE_UINT8:
  case TCC_DTYPE_BOOL: return load<uint8_t>(data, i);
  case TCC_DTYPE_INT16: return load<int16_t>(data, i);
  case TCC_DTYPE_UINT16: return load<uint16_t>(data, i);
  case TCC_DTYPE_INT32: return load<int32_t>(data, i);
  case TCC_DTYPE_UINT32: return load<uint32_t>(data, i);
  case TCC_DTYPE_INT64: return load<int64_t>(data, i);
  case TCC_DTYPE_UINT64: return load<uint64_t>(data, i);
  default: return NAN;
  }
}

} // namespace

double elementValue(int32_t dtype, const void *data, int64_t index) {
  return static_cast<double>(element(dtype, data, index));
}

std::string formatShape(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string formatIndex(const std::vector<int64_t> &shape, int64_t index) {
  std::vector<int64_t> position(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 0)
      break;
    position[d] = index % shape[d];
    index /= shape[d];
  }
  return formatShape(position);
}

std::string quoteString(const char *data, int64_t size, size_t limit) {
  std::string text = "\"";
  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(data);
  size_t n = size > 0 && data ? static_cast<size_t>(size) : 0;
  auto hex = [&](unsigned char c) {
    char escape[8];
    std::snprintf(escape, sizeof(escape), "\\x%02x", c);
    text += escape;
  };
  size_t i = 0;
  for (; i < n && i < limit;) {
    unsigned char c = bytes[i];
    if (c == '"' || c == '\\') {
      text += '\\';
      text += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      text += "\\n";
      ++i;
    } else if (c == '\t') {
      text += "\\t";
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      hex(c);
      ++i;
    } else if (c < 0x80) {
      text += static_cast<char>(c);
      ++i;
    } else {
      // A whole valid UTF-8 sequence is kept as it is; anything else byte by byte as \xNN.
      size_t length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
      std::vector<uint32_t> decoded;
      if (length && length <= n - i &&
          decodeUtf8(reinterpret_cast<const char *>(bytes + i), length, decoded)) {
        text.append(reinterpret_cast<const char *>(bytes + i), length);
        i += length;
      } else {
        hex(c);
        ++i;
      }
    }
  }
  text += '"';
  if (i < n)
    text += "...";
  return text;
}

Comparison compareStrings(const std::vector<int64_t> &actualShape, const void *actual,
                          const std::vector<int64_t> &expectedShape, const void *expected,
                          int64_t count) {
  Comparison result;
  if (actualShape != expectedShape) {
    result.problem = "the shape " + formatShape(actualShape) + " differs from the reference's " +
                     formatShape(expectedShape);
    return result;
  }
  result.count = count;
  const tcc_string *a = static_cast<const tcc_string *>(actual);
  const tcc_string *b = static_cast<const tcc_string *>(expected);
  for (int64_t i = 0; i < count; ++i) {
    bool same = a[i].size == b[i].size &&
                (a[i].size <= 0 ||
                 (a[i].data && b[i].data &&
                  std::memcmp(a[i].data, b[i].data, static_cast<size_t>(a[i].size)) == 0));
    if (same)
      continue;
    if (result.mismatches++ == 0) {
      result.firstMismatch = i;
      result.firstActualText = quoteString(a[i].data, a[i].size);
      result.firstExpectedText = quoteString(b[i].data, b[i].size);
    }
  }
  result.pass = result.mismatches == 0;
  return result;
}

Comparison compareArrays(int32_t actualDtype, const std::vector<int64_t> &actualShape,
                         const void *actual, int32_t expectedDtype,
                         const std::vector<int64_t> &expectedShape, const void *expected,
                         int64_t count, double rtol, double atol) {
  Comparison result;
  if (actualShape != expectedShape) {
    result.problem = "the shape " + formatShape(actualShape) + " differs from the reference's " +
                     formatShape(expectedShape);
    return result;
  }
  result.count = count;
  long double errorSquares = 0, referenceSquares = 0, maxError = 0;
  for (int64_t i = 0; i < count; ++i) {
    long double a = element(actualDtype, actual, i);
    long double b = element(expectedDtype, expected, i);
    bool same = a == b || (std::isnan(a) && std::isnan(b));
    long double difference = same ? 0 : std::fabs(a - b);
    if (!same && (std::isnan(difference) || difference > atol + rtol * std::fabs(b))) {
      if (result.mismatches++ == 0) {
        result.firstMismatch = i;
        result.firstActual = static_cast<double>(a);
        result.firstExpected = static_cast<double>(b);
      }
    }
    if (!same) {
      long double error = std::isnan(difference) ? INFINITY : difference;
      if (error > maxError)
        maxError = error;
    }
    if (std::isfinite(a) && std::isfinite(b)) {
      errorSquares += (a - b) * (a - b);
      referenceSquares += b * b;
    }
  }
  result.maxAbsError = static_cast<double>(maxError);
  if (referenceSquares > 0)
    result.relativeL2Error = static_cast<double>(std::sqrt(errorSquares / referenceSquares));
  else
    result.relativeL2Error = errorSquares > 0 ? INFINITY : 0.0;
  result.pass = result.mismatches == 0;
  return result;
}

} // namespace tcc_run
