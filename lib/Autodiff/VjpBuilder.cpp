//===- VjpBuilder.cpp - helpers for building prim code in VJP rules -------------------===//
#include "VjpRules.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, b.getFloatAttr(element, value)));
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

// --- Index arithmetic on extents ---------------------------------------------------------

Value VjpBuilder::indexValue(OpFoldResult v) { return getValueOrCreateConstantIndexOp(b, loc, v); }

namespace {
/// `fold(x, y)` when both are constants, else `Op(x, y)` on index values.
template <typename OpTy, typename Fold>
OpFoldResult indexOp(VjpBuilder &vb, OpFoldResult x, OpFoldResult y, Fold fold) {
  std::optional<int64_t> cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return vb.b.getIndexAttr(fold(*cx, *cy));
  return OpTy::create(vb.b, vb.loc, vb.indexValue(x), vb.indexValue(y)).getResult();
}
} // namespace

OpFoldResult VjpBuilder::addIndex(OpFoldResult x, OpFoldResult y) {
  if (getConstantIntValue(y) == 0)
    return x;
  return indexOp<arith::AddIOp>(*this, x, y, [](int64_t p, int64_t q) { return p + q; });
}
OpFoldResult VjpBuilder::subIndex(OpFoldResult x, OpFoldResult y) {
  if (getConstantIntValue(y) == 0)
    return x;
  return indexOp<arith::SubIOp>(*this, x, y, [](int64_t p, int64_t q) { return p - q; });
}
OpFoldResult VjpBuilder::mulIndex(OpFoldResult x, OpFoldResult y) {
  if (getConstantIntValue(y) == 1)
    return x;
  if (getConstantIntValue(x) == 1)
    return y;
  return indexOp<arith::MulIOp>(*this, x, y, [](int64_t p, int64_t q) { return p * q; });
}
OpFoldResult VjpBuilder::minIndex(OpFoldResult x, OpFoldResult y) {
  return indexOp<arith::MinSIOp>(*this, x, y, [](int64_t p, int64_t q) { return std::min(p, q); });
}
OpFoldResult VjpBuilder::maxIndex(OpFoldResult x, OpFoldResult y) {
  return indexOp<arith::MaxSIOp>(*this, x, y, [](int64_t p, int64_t q) { return std::max(p, q); });
}
OpFoldResult VjpBuilder::product(ArrayRef<OpFoldResult> dims) {
  OpFoldResult result = b.getIndexAttr(1);
  for (OpFoldResult d : dims)
    result = mulIndex(result, d);
  return result;
}

// --- Tensors built from extents ----------------------------------------------------------

Value VjpBuilder::zeros(ArrayRef<OpFoldResult> dims, Type element) {
  return fill(scalar(element, 0), dims);
}

Value VjpBuilder::indexTensor(OpFoldResult v, ArrayRef<OpFoldResult> dims) {
  Type i64 = b.getI64Type();
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return fill(scalar(i64, static_cast<double>(*c)), dims);
  Value cast = arith::IndexCastOp::create(b, loc, i64, indexValue(v));
  Value scalar0d =
      tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, i64), ValueRange{cast});
  return fill(scalar0d, dims);
}

Value VjpBuilder::iota(ArrayRef<OpFoldResult> dims, int64_t dim, Type element) {
  return prim::IotaOp::create(b, loc, shapedLike(dims, element), dynamic(dims), dim);
}

Value VjpBuilder::castTo(Value v, Type type) {
  if (v.getType() == type)
    return v;
  return prim::ReshapeOp::create(b, loc, type, v, dynamic(dims(v)));
}

Value VjpBuilder::sliceDim(Value v, int64_t dim, OpFoldResult offset, OpFoldResult size,
                           int64_t stride) {
  SmallVector<OpFoldResult> sizes = dims(v), offsets(sizes.size(), b.getIndexAttr(0));
  SmallVector<int64_t> strides(sizes.size(), 1);
  offsets[dim] = offset;
  sizes[dim] = size;
  strides[dim] = stride;
  return b.createOrFold<prim::SliceOp>(loc, v, offsets, sizes, strides);
}

Value VjpBuilder::padOrCut(Value v, int64_t dim, int64_t low, int64_t high) {
  Type element = typeOf(v).getElementType();
  if (low < 0 || high < 0) {
    OpFoldResult extent = dims(v)[dim];
    int64_t cutLow = std::max<int64_t>(-low, 0), cutHigh = std::max<int64_t>(-high, 0);
    OpFoldResult size = subIndex(extent, b.getIndexAttr(cutLow + cutHigh));
    v = sliceDim(v, dim, b.getIndexAttr(cutLow), size);
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
    g = sliceDim(g, dim, minIndex(n, b.getIndexAttr(drop)), kept);
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
    g = sliceDim(g, dim, b.getIndexAttr(0), taken);
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
