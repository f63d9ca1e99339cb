//===- TensorPrinter.cpp - tensors as text, for tests and debugging --------------------===//
//
// Floats print with the fewest significant digits that read back to the same value of
// their type (so an f32 0.1 prints as 0.1, not 0.100000001), positional where that is short
// (as numpy does) and with `.0` on integral values so that floats and integers differ.
// Strings print quoted, with `"`, `\` and bytes outside printable ASCII escaped as `\XX`.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;

namespace {
/// `v` (a value of float type `type`) in the shortest form that reads back as `v`:
/// positional for 1e-4 <= |v| < 1e16 (`1000.0`, `0.001`), scientific otherwise (`1e-07`).
std::string formatFloat(double v, Type type) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  // The fewest significant digits that round back to v in its own type.
  Tensor probe = Tensor::zeros(type, {});
  char buffer[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof(buffer), "%.*e", digits - 1, v);
    probe.setDouble(0, std::strtod(buffer, nullptr));
    if (probe.getDouble(0) == v)
      break;
  }
  // buffer is `[-]d.ddde[+-]xx`: split it into sign, digits and decimal exponent.
  std::string text = buffer;
  size_t e = text.find('e');
  int exponent = std::atoi(text.c_str() + e + 1);
  std::string sign = text[0] == '-' ? "-" : "";
  std::string digits;
  for (char c : text.substr(sign.size(), e - sign.size()))
    if (c != '.')
      digits += c;
  while (digits.size() > 1 && digits.back() == '0')
    digits.pop_back();
  if (v == 0)
    exponent = 0;
  if (exponent < -4 || exponent >= 16) {
    std::string mantissa = digits.substr(0, 1);
    if (digits.size() > 1)
      mantissa += "." + digits.substr(1);
    std::snprintf(buffer, sizeof(buffer), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return sign + mantissa + buffer;
  }
  if (exponent < 0)
    return sign + "0." + std::string(-exponent - 1, '0') + digits;
  if (static_cast<int>(digits.size()) <= exponent + 1)
    return sign + digits + std::string(exponent + 1 - digits.size(), '0') + ".0";
  return sign + digits.substr(0, exponent + 1) + "." + digits.substr(exponent + 1);
}

std::string formatElement(const Tensor &t, int64_t i) {
  Type type = t.elementType;
  if (isStringElement(type)) {
    std::string text = "\"";
    llvm::raw_string_ostream os(text);
    llvm::printEscapedString(i < static_cast<int64_t>(t.strings.size()) ? t.strings[i] : "", os);
    return text + "\"";
  }
  if (isa<FloatType>(type))
    return formatFloat(t.getDouble(i), type);
  if (type.isInteger(1))
    return t.getInt(i) ? "true" : "false";
  if (isUnsignedElement(type))
    return std::to_string(static_cast<uint64_t>(t.getInt(i)));
  return std::to_string(t.getInt(i));
}

/// Prints the elements of dims [dim, rank) starting at row-major position `offset`.
void printElements(llvm::raw_ostream &os, const Tensor &t, size_t dim, int64_t offset,
                   llvm::ArrayRef<int64_t> strides) {
  if (dim == t.shape.size()) {
    os << formatElement(t, offset);
    return;
  }
  os << "[";
  for (int64_t i = 0; i < t.shape[dim]; ++i) {
    if (i != 0)
      os << ", ";
    printElements(os, t, dim + 1, offset + i * strides[dim], strides);
  }
  os << "]";
}
} // namespace

void tcc::eval::printTensor(llvm::raw_ostream &os, const Tensor &tensor) {
  os << "tensor<";
  for (int64_t extent : tensor.shape)
    os << extent << "x";
  os << tensor.elementType << "> = ";
  printTensorElements(os, tensor);
}

void tcc::eval::printTensorElements(llvm::raw_ostream &os, const Tensor &tensor) {
  printElements(os, tensor, 0, 0, getStrides(tensor.shape));
}
