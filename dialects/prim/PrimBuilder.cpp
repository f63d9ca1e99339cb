//===- PrimBuilder.cpp - building prim arithmetic at one location ---------------------===//
#include "dialects/prim/PrimBuilder.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::prim;

RankedTensorType tcc::prim::tensorType(ArrayRef<OpFoldResult> dims, Type element) {
  SmallVector<int64_t> shape;
  for (OpFoldResult d : dims)
    shape.push_back(getConstantIntValue(d).value_or(ShapedType::kDynamic));
  return RankedTensorType::get(shape, element);
}

SmallVector<Value> tcc::prim::dynamicExtents(ArrayRef<OpFoldResult> dims) {
  SmallVector<Value> values;
  for (OpFoldResult d : dims)
    if (!getConstantIntValue(d))
      values.push_back(cast<Value>(d));
  return values;
}

namespace {
/// Dim `index` of `tensor` as a factor: the first binding of its symbol, or itself.
std::pair<void *, int64_t> dimKey(Value tensor, int64_t index) {
  if (auto first = getFirstBinding(tensor, index))
    return {first->first.getAsOpaquePointer(), first->second};
  return {tensor.getAsOpaquePointer(), index};
}

/// A leaf of index arithmetic identified up to equality: `prim.dim` of the same tensor and
/// dim counts as one factor however many ops compute it.
std::pair<void *, int64_t> factorKey(Value v) {
  if (auto dim = v.getDefiningOp<DimOp>())
    return dimKey(dim.getOperand(), dim.getIndex());
  return {v.getAsOpaquePointer(), -1};
}
} // namespace

std::optional<Monomial> tcc::prim::asMonomial(OpFoldResult extent) {
  Monomial m;
  SmallVector<Value> work;
  if (auto c = getConstantIntValue(extent)) {
    m.coefficient = *c;
    return m;
  }
  work.push_back(cast<Value>(extent));
  while (!work.empty()) {
    Value v = work.pop_back_val();
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant))) {
      m.coefficient *= constant.getSExtValue();
      continue;
    }
    if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
      work.push_back(mul.getLhs());
      work.push_back(mul.getRhs());
      continue;
    }
    if (!v.getType().isIndex())
      return std::nullopt;
    m.factors.push_back(factorKey(v));
    m.values.push_back(v);
  }
  // Sort factors (and their values alike) so equal products compare equal.
  SmallVector<size_t> order(m.factors.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  llvm::sort(order, [&](size_t a, size_t b) { return m.factors[a] < m.factors[b]; });
  Monomial sorted;
  sorted.coefficient = m.coefficient;
  for (size_t i : order) {
    sorted.factors.push_back(m.factors[i]);
    sorted.values.push_back(m.values[i]);
  }
  return sorted;
}

bool tcc::prim::sameExtent(OpFoldResult a, OpFoldResult b) {
  auto ma = asMonomial(a), mb = asMonomial(b);
  return ma && mb && ma->coefficient == mb->coefficient && ma->factors == mb->factors;
}

ExtentSum tcc::prim::addSums(const ExtentSum &a, const ExtentSum &b) {
  ExtentSum sum = a;
  for (const auto &[factors, coefficient] : b)
    if ((sum[factors] += coefficient) == 0)
      sum.erase(factors);
  return sum;
}

std::optional<ExtentSum> tcc::prim::asSum(OpFoldResult extent) {
  if (auto value = dyn_cast<Value>(extent))
    if (auto add = value.getDefiningOp<arith::AddIOp>()) {
      std::optional<ExtentSum> lhs = asSum(add.getLhs()), rhs = asSum(add.getRhs());
      if (!lhs || !rhs)
        return std::nullopt;
      return addSums(*lhs, *rhs);
    }
  std::optional<Monomial> m = asMonomial(extent);
  if (!m)
    return std::nullopt;
  return addSums({}, ExtentSum{{m->factors, m->coefficient}});
}

ExtentSum tcc::prim::dimAsSum(Value tensor, int64_t index) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(index))
    return addSums({}, ExtentSum{{{}, type.getDimSize(index)}});
  return ExtentSum{{{dimKey(tensor, index)}, 1}};
}

SmallVector<OpFoldResult> PrimBuilder::dims(Value v) {
  RankedTensorType type = typeOf(v);
  SmallVector<OpFoldResult> result;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      result.push_back(b.getIndexAttr(type.getDimSize(d)));
    else
      result.push_back(b.createOrFold<DimOp>(loc, v, d));
  }
  return result;
}

// --- Constants and fills -------------------------------------------------------------------

Value PrimBuilder::scalar(Type element, double value) {
  auto type = RankedTensorType::get({}, element);
  Attribute attr;
  if (auto floatType = dyn_cast<FloatType>(element)) {
    APFloat f(value);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    attr = DenseElementsAttr::get(type, f);
  } else if (auto intType = dyn_cast<IntegerType>(element)) {
    APInt i(intType.getWidth(), static_cast<uint64_t>(static_cast<int64_t>(value)),
            /*isSigned=*/!intType.isUnsigned(), /*implicitTrunc=*/true);
    attr = DenseElementsAttr::get(type, i);
  } else if (isa<StringType>(element)) {
    // The fill of a string tensor (Trilu's zeros, a padding): the empty string, as NumPy's
    // zeros of a string dtype. A string has no other constant made from a number.
    attr = DenseStringElementsAttr::get(type, {StringRef()});
  } else {
    // The index type (an extent's arithmetic).
    attr = DenseElementsAttr::get(type, b.getIndexAttr(static_cast<int64_t>(value)));
  }
  return arith::ConstantOp::create(b, loc, cast<TypedAttr>(attr));
}

Value PrimBuilder::fill(Value scalar0d, ArrayRef<OpFoldResult> dims) {
  RankedTensorType type = tensorType(dims, typeOf(scalar0d).getElementType());
  // A splat constant stays a constant when the shape is static.
  DenseElementsAttr value;
  if (type.hasStaticShape() && matchPattern(scalar0d, m_Constant(&value)) && value.isSplat()) {
    if (auto strings = dyn_cast<DenseStringElementsAttr>(value))
      return arith::ConstantOp::create(
          b, loc, type, DenseStringElementsAttr::get(type, {strings.getRawStringData().front()}));
    return arith::ConstantOp::create(b, loc, value.resizeSplat(type));
  }
  return BroadcastInDimOp::create(b, loc, type, scalar0d, dynamicExtents(dims),
                                  b.getDenseI64ArrayAttr({}));
}

Value PrimBuilder::splat(Value like, double value, Type element) {
  return fill(scalar(element ? element : typeOf(like).getElementType(), value), dims(like));
}

Value PrimBuilder::zeros(ArrayRef<OpFoldResult> dims, Type element) {
  return fill(scalar(element, 0), dims);
}

Value PrimBuilder::iota(ArrayRef<OpFoldResult> dims, int64_t dim, Type element) {
  return IotaOp::create(b, loc, tensorType(dims, element), dynamicExtents(dims), dim);
}

Value PrimBuilder::indexTensor(OpFoldResult v, ArrayRef<OpFoldResult> dims) {
  Type i64 = b.getI64Type();
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return fill(scalar(i64, static_cast<double>(*c)), dims);
  Value cast = arith::IndexCastOp::create(b, loc, i64, index(v));
  Value scalar0d =
      tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, i64), ValueRange{cast});
  return fill(scalar0d, dims);
}

// --- Shapes --------------------------------------------------------------------------------

Value PrimBuilder::broadcast(Value v, ArrayRef<int64_t> mapping, ArrayRef<OpFoldResult> to) {
  RankedTensorType type = tensorType(to, typeOf(v).getElementType());
  if (type == v.getType() && mapping.size() == to.size())
    return v;
  return BroadcastInDimOp::create(b, loc, type, v, dynamicExtents(to),
                                  b.getDenseI64ArrayAttr(mapping));
}

Value PrimBuilder::reshape(Value v, ArrayRef<OpFoldResult> to) {
  RankedTensorType type = typeOf(v), target = tensorType(to, type.getElementType());
  if (target == type && type.hasStaticShape())
    return v;
  return b.createOrFold<ReshapeOp>(loc, target, v, dynamicExtents(to));
}

Value PrimBuilder::convert(Value v, Type element) {
  RankedTensorType type = typeOf(v);
  if (type.getElementType() == element)
    return v;
  // To and from strings: the text of a number, the number of a text.
  if (isa<StringType>(element))
    return FormatOp::create(b, loc, type.clone(element), v);
  if (isa<StringType>(type.getElementType()))
    return ParseOp::create(b, loc, type.clone(element), v);
  return ConvertOp::create(b, loc, type.clone(element), v);
}

Value PrimBuilder::sum(Value v, ArrayRef<int64_t> reduced) {
  if (reduced.empty())
    return v;
  return ReduceOp::create(b, loc, ReduceKind::Sum, v, reduced);
}

Value PrimBuilder::transpose(Value v, ArrayRef<int64_t> permutation) {
  return b.createOrFold<TransposeOp>(loc, v, permutation);
}

Value PrimBuilder::slice(Value v, int64_t dim, OpFoldResult offset, OpFoldResult size,
                         int64_t stride) {
  SmallVector<OpFoldResult> sizes = dims(v), offsets(sizes.size(), b.getIndexAttr(0));
  SmallVector<int64_t> strides(sizes.size(), 1);
  offsets[dim] = offset;
  sizes[dim] = size;
  strides[dim] = stride;
  return b.createOrFold<SliceOp>(loc, v, offsets, sizes, strides);
}

// --- Index arithmetic ----------------------------------------------------------------------

Value PrimBuilder::index(OpFoldResult v) { return getValueOrCreateConstantIndexOp(b, loc, v); }

namespace {
/// A binary index op, folding constants first (so that results stay attributes).
template <typename OpTy> OpFoldResult indexBinary(PrimBuilder &p, OpFoldResult x, OpFoldResult y) {
  Value v = p.b.createOrFold<OpTy>(p.loc, p.index(x), p.index(y));
  if (auto c = getConstantIntValue(v))
    return p.b.getIndexAttr(*c);
  return v;
}

/// Extents built only from dims and non-negative constants are never negative.
bool isNonNegative(OpFoldResult v) {
  auto m = asMonomial(v);
  return m && m->coefficient >= 0 &&
         llvm::all_of(m->values, [](Value f) { return f.getDefiningOp<DimOp>(); });
}
} // namespace

OpFoldResult PrimBuilder::addIndex(OpFoldResult x, OpFoldResult y) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx + *cy);
  return b.createOrFold<arith::AddIOp>(loc, index(x), index(y));
}

OpFoldResult PrimBuilder::subIndex(OpFoldResult x, OpFoldResult y) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx - *cy);
  if (cy && *cy == 0)
    return x;
  return indexBinary<arith::SubIOp>(*this, x, y);
}

OpFoldResult PrimBuilder::mulIndex(OpFoldResult x, OpFoldResult y) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx * *cy);
  if (cx && *cx == 1)
    return y;
  if (cy && *cy == 1)
    return x;
  return b.createOrFold<arith::MulIOp>(loc, index(x), index(y));
}

OpFoldResult PrimBuilder::floorDivIndex(OpFoldResult x, OpFoldResult y) {
  if (getConstantIntValue(y) == 1)
    return x;
  return indexBinary<arith::FloorDivSIOp>(*this, x, y);
}

OpFoldResult PrimBuilder::ceilDivIndex(OpFoldResult x, OpFoldResult y) {
  if (getConstantIntValue(y) == 1)
    return x;
  return indexBinary<arith::CeilDivSIOp>(*this, x, y);
}

OpFoldResult PrimBuilder::minIndex(OpFoldResult x, OpFoldResult y) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(std::min(*cx, *cy));
  return indexBinary<arith::MinSIOp>(*this, x, y);
}

OpFoldResult PrimBuilder::maxIndex(OpFoldResult x, OpFoldResult y) {
  auto cx = getConstantIntValue(x), cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(std::max(*cx, *cy));
  if (cy && *cy <= 0 && isNonNegative(x))
    return x;
  if (cx && *cx <= 0 && isNonNegative(y))
    return y;
  return indexBinary<arith::MaxSIOp>(*this, x, y);
}

OpFoldResult PrimBuilder::product(ArrayRef<OpFoldResult> values) {
  OpFoldResult result = b.getIndexAttr(1);
  for (OpFoldResult v : values)
    result = mulIndex(result, v);
  return result;
}

OpFoldResult PrimBuilder::selectIndex(arith::CmpIPredicate predicate, OpFoldResult lhs,
                                      OpFoldResult rhs, OpFoldResult ifTrue, OpFoldResult ifFalse) {
  Value cond = b.createOrFold<arith::CmpIOp>(loc, predicate, index(lhs), index(rhs));
  APInt constant;
  if (matchPattern(cond, m_ConstantInt(&constant)))
    return constant.isZero() ? ifFalse : ifTrue;
  Value v = b.createOrFold<arith::SelectOp>(loc, cond, index(ifTrue), index(ifFalse));
  if (auto c = getConstantIntValue(v))
    return b.getIndexAttr(*c);
  return v;
}

std::optional<OpFoldResult> PrimBuilder::divideExactly(OpFoldResult x, OpFoldResult y) {
  auto mx = asMonomial(x), my = asMonomial(y);
  if (!mx || !my || my->coefficient == 0 || mx->coefficient % my->coefficient != 0)
    return std::nullopt;
  SmallVector<bool> used(mx->factors.size(), false);
  for (auto &factor : my->factors) {
    bool found = false;
    for (size_t i = 0; i < mx->factors.size() && !found; ++i)
      if (!used[i] && mx->factors[i] == factor)
        used[i] = found = true;
    if (!found)
      return std::nullopt;
  }
  OpFoldResult result = b.getIndexAttr(mx->coefficient / my->coefficient);
  for (size_t i = 0; i < mx->factors.size(); ++i)
    if (!used[i])
      result = mulIndex(result, mx->values[i]);
  return result;
}
