//===- EvaluateSupport.cpp - shape and error helpers shared by the op families --------===//
#include "EvaluateOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;

const Tensor &Environment::get(Value value) const {
  static const Tensor empty;
  auto it = tensors.find(value);
  return it == tensors.end() ? empty : it->second;
}

llvm::Error tcc::eval::detail::makeError(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), what);
}

std::string tcc::eval::detail::formatShape(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "scalar";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

llvm::SmallVector<int64_t> tcc::eval::detail::getStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * std::max<int64_t>(shape[d + 1], 0);
  return strides;
}

bool tcc::eval::detail::advanceIndex(llvm::MutableArrayRef<int64_t> index,
                                     llvm::ArrayRef<int64_t> shape) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d])
      return true;
    index[d] = 0;
  }
  return false;
}

Type tcc::eval::detail::getResultElementType(Operation *op, unsigned index) {
  return getElementTypeOrSelf(op->getResult(index).getType());
}

llvm::Expected<llvm::SmallVector<int64_t>>
tcc::eval::detail::resolveShape(ShapedType type, ValueRange dynamicSizes, const Environment &env) {
  if (dynamicSizes.size() != static_cast<size_t>(type.getNumDynamicDims()))
    return makeError("expected " + llvm::Twine(type.getNumDynamicDims()) + " dynamic sizes, got " +
                     llvm::Twine(dynamicSizes.size()));
  llvm::SmallVector<int64_t> shape;
  unsigned next = 0;
  for (int64_t extent : type.getShape()) {
    if (!ShapedType::isDynamic(extent)) {
      shape.push_back(extent);
      continue;
    }
    int64_t size = env.get(dynamicSizes[next++]).getInt(0);
    if (size < 0)
      return makeError("dynamic size " + llvm::Twine(next - 1) +
                       " is negative: " + llvm::Twine(size));
    shape.push_back(size);
  }
  return shape;
}

llvm::Error tcc::eval::detail::checkSameShape(const Tensor &a, const Tensor &b,
                                              llvm::StringRef aName, llvm::StringRef bName) {
  if (a.shape == b.shape)
    return llvm::Error::success();
  return makeError(aName + " has shape " + formatShape(a.shape) + " but " + bName + " has shape " +
                   formatShape(b.shape));
}

llvm::Error tcc::eval::detail::checkListSizes(llvm::ArrayRef<llvm::ArrayRef<int64_t>> lists,
                                              int64_t rank, llvm::StringRef what) {
  for (llvm::ArrayRef<int64_t> list : lists)
    if (static_cast<int64_t>(list.size()) != rank)
      return makeError("expected " + llvm::Twine(rank) + " entries in each " + what +
                       " attribute, got " + llvm::Twine(list.size()));
  return llvm::Error::success();
}

double tcc::eval::detail::maximumPropagatingNaN(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b) // -0 and +0: +0 is the larger
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double tcc::eval::detail::minimumPropagatingNaN(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
