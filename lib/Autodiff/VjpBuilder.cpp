//===- VjpBuilder.cpp - the data movement of VJP rules (beyond the prim builder) -------===//
#include "VjpRules.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

Value VjpBuilder::castTo(Value v, Type type) {
  if (v.getType() == type)
    return v;
  return prim::ReshapeOp::create(b, loc, type, v, prim::dynamicExtents(dims(v)));
}

Value VjpBuilder::padOrCut(Value v, int64_t dim, int64_t low, int64_t high) {
  Type element = typeOf(v).getElementType();
  if (low < 0 || high < 0) {
    OpFoldResult extent = dims(v)[dim];
    int64_t cutLow = std::max<int64_t>(-low, 0), cutHigh = std::max<int64_t>(-high, 0);
    OpFoldResult size = subIndex(extent, b.getIndexAttr(cutLow + cutHigh));
    v = slice(v, dim, b.getIndexAttr(cutLow), size);
  }
  if (low > 0 || high > 0) {
    SmallVector<int64_t> lows(typeOf(v).getRank(), 0), highs(typeOf(v).getRank(), 0);
    lows[dim] = std::max<int64_t>(low, 0);
    highs[dim] = std::max<int64_t>(high, 0);
    v = prim::PadOp::create(b, loc, v, scalar(element, 0), lows, highs);
  }
  return v;
}

Value VjpBuilder::placeStrided(Value g, int64_t dim, OpFoldResult offset, int64_t stride,
                               OpFoldResult extent) {
  Type element = typeOf(g).getElementType();
  // A negative constant offset: drop the leading elements that land before 0.
  if (std::optional<int64_t> c = getConstantIntValue(offset); c && *c < 0) {
    int64_t drop = (-*c + stride - 1) / stride;
    OpFoldResult n = dims(g)[dim];
    OpFoldResult kept = maxIndex(subIndex(n, b.getIndexAttr(drop)), b.getIndexAttr(0));
    g = slice(g, dim, minIndex(n, b.getIndexAttr(drop)), kept);
    offset = b.getIndexAttr(*c + drop * stride);
  }
  // Interleave stride - 1 zeros after each element: [.., n, ..] -> [.., n, s, ..] -> [.., n s, ..].
  if (stride > 1) {
    SmallVector<OpFoldResult> gDims = dims(g), split(gDims);
    split.insert(split.begin() + dim + 1, b.getIndexAttr(1));
    SmallVector<OpFoldResult> gaps(split);
    gaps[dim + 1] = b.getIndexAttr(stride - 1);
    Value spread = prim::ConcatenateOp::create(
        b, loc, ValueRange{reshape(g, split), zeros(gaps, element)}, dim + 1);
    SmallVector<OpFoldResult> merged(gDims);
    merged[dim] = mulIndex(gDims[dim], b.getIndexAttr(stride));
    g = reshape(spread, merged);
  }
  // Keep what fits after `offset`, then zeros before and after.
  OpFoldResult room = maxIndex(subIndex(extent, offset), b.getIndexAttr(0));
  OpFoldResult taken = minIndex(dims(g)[dim], room);
  if (getConstantIntValue(taken) != getConstantIntValue(dims(g)[dim]) ||
      !getConstantIntValue(taken))
    g = slice(g, dim, b.getIndexAttr(0), taken);
  SmallVector<Value> pieces;
  SmallVector<OpFoldResult> gDims = dims(g);
  OpFoldResult after = subIndex(subIndex(extent, offset), taken);
  if (getConstantIntValue(offset) != 0) {
    SmallVector<OpFoldResult> before(gDims);
    before[dim] = offset;
    pieces.push_back(zeros(before, element));
  }
  pieces.push_back(g);
  if (getConstantIntValue(after) != 0) {
    SmallVector<OpFoldResult> rest(gDims);
    rest[dim] = after;
    pieces.push_back(zeros(rest, element));
  }
  if (pieces.size() == 1)
    return g;
  return prim::ConcatenateOp::create(b, loc, pieces, dim);
}

Value VjpBuilder::takeAlong(Value v, Value idx, int64_t dim) {
  // The row-major linear index of (iota..., idx, iota...) in v, then a gather from v flattened.
  SmallVector<OpFoldResult> vDims = dims(v), iDims = dims(idx);
  Type i64 = b.getI64Type();
  Value linear;
  OpFoldResult stride = b.getIndexAttr(1);
  for (int64_t d = static_cast<int64_t>(vDims.size()) - 1; d >= 0; --d) {
    Value coordinate = d == dim ? convert(idx, i64) : iota(iDims, d, i64);
    if (getConstantIntValue(stride) != 1)
      coordinate = mul(coordinate, indexTensor(stride, iDims));
    linear = linear ? add(linear, coordinate) : coordinate;
    stride = mulIndex(stride, vDims[d]);
  }
  Value flat = reshape(v, {stride});
  if (vDims.empty())
    return v;
  return prim::GatherOp::create(b, loc, flat, linear, 0);
}
