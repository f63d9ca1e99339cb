//===- VjpBuilder.cpp - helpers for building prim code in VJP rules -------------------===//
#include "VjpRules.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

namespace {
RankedTensorType shapedLike(ArrayRef<OpFoldResult> dims, Type element) {
  SmallVector<int64_t> shape;
  for (OpFoldResult d : dims)
    shape.push_back(getConstantIntValue(d).value_or(ShapedType::kDynamic));
  return RankedTensorType::get(shape, element);
}
} // namespace

SmallVector<OpFoldResult> VjpBuilder::dims(Value v) {
  RankedTensorType type = typeOf(v);
  SmallVector<OpFoldResult> result;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      result.push_back(b.getIndexAttr(type.getDimSize(d)));
    else
      result.push_back(b.createOrFold<prim::DimOp>(loc, v, d));
  }
  return result;
}

SmallVector<Value> VjpBuilder::dynamic(ArrayRef<OpFoldResult> dims) {
  SmallVector<Value> values;
  for (OpFoldResult d : dims)
    if (!getConstantIntValue(d))
      values.push_back(cast<Value>(d));
  return values;
}

Value VjpBuilder::scalar(Type element, double value) {
  auto type = RankedTensorType::get({}, element);
  if (isa<FloatType>(element))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, b.getFloatAttr(element, value)));
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getIntegerAttr(element, static_cast<int64_t>(value))));
}

Value VjpBuilder::fill(Value scalar0d, ArrayRef<OpFoldResult> dims) {
  RankedTensorType type = shapedLike(dims, typeOf(scalar0d).getElementType());
  DenseElementsAttr value;
  if (type.hasStaticShape() && matchPattern(scalar0d, m_Constant(&value)) && value.isSplat())
    return arith::ConstantOp::create(b, loc, value.resizeSplat(type));
  return prim::BroadcastInDimOp::create(b, loc, type, scalar0d, dynamic(dims),
                                        b.getDenseI64ArrayAttr({}));
}

Value VjpBuilder::splat(Value like, double value, Type element) {
  return fill(scalar(element ? element : typeOf(like).getElementType(), value), dims(like));
}

Value VjpBuilder::broadcast(Value v, ArrayRef<int64_t> mapping, ArrayRef<OpFoldResult> to) {
  RankedTensorType type = shapedLike(to, typeOf(v).getElementType());
  if (type == v.getType() && mapping.size() == to.size())
    return v;
  return prim::BroadcastInDimOp::create(b, loc, type, v, dynamic(to),
                                        b.getDenseI64ArrayAttr(mapping));
}

Value VjpBuilder::reshape(Value v, ArrayRef<OpFoldResult> to) {
  RankedTensorType type = shapedLike(to, typeOf(v).getElementType());
  if (type == v.getType() && type.hasStaticShape())
    return v;
  return prim::ReshapeOp::create(b, loc, type, v, dynamic(to));
}

Value VjpBuilder::sum(Value v, ArrayRef<int64_t> reduced) {
  if (reduced.empty())
    return v;
  return prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, v, reduced);
}

Value VjpBuilder::convert(Value v, Type element) {
  if (typeOf(v).getElementType() == element)
    return v;
  return prim::ConvertOp::create(b, loc, typeOf(v).clone(element), v);
}

Value VjpBuilder::compare(prim::CompareDirection direction, Value x, Value y) {
  return prim::CompareOp::create(b, loc, direction, x, y);
}

Value VjpBuilder::select(Value p, Value t, Value f) {
  return prim::SelectOp::create(b, loc, p, t, f);
}
