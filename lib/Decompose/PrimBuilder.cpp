//===- PrimBuilder.cpp - helpers that decomposition rules build prim ops with ---------===//
#include "PrimBuilder.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {
constexpr int64_t kMaxShapeTensorElements = 64;
std::pair<void *, int64_t> factorKey(Value v);
} // namespace

std::optional<Monomial> tcc::decompose::asMonomial(OpFoldResult extent) {
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

std::optional<OpFoldResult> tcc::decompose::divideExactly(NodeRewriter &n, OpFoldResult a,
                                                          OpFoldResult b) {
  auto ma = asMonomial(a), mb = asMonomial(b);
  if (!ma || !mb || mb->coefficient == 0 || ma->coefficient % mb->coefficient != 0)
    return std::nullopt;
  SmallVector<bool> used(ma->factors.size(), false);
  for (auto &factor : mb->factors) {
    bool found = false;
    for (size_t i = 0; i < ma->factors.size() && !found; ++i)
      if (!used[i] && ma->factors[i] == factor)
        used[i] = found = true;
    if (!found)
      return std::nullopt;
  }
  OpFoldResult result = n.getBuilder().getIndexAttr(ma->coefficient / mb->coefficient);
  for (size_t i = 0; i < ma->factors.size(); ++i)
    if (!used[i])
      result = mulIndex(n, result, ma->values[i]);
  return result;
}

namespace {

/// A leaf of index arithmetic identified up to equality: `prim.dim` of the same tensor and
/// dim counts as one factor however many ops compute it.
std::pair<void *, int64_t> factorKey(Value v) {
  if (auto dim = v.getDefiningOp<prim::DimOp>()) {
    int64_t index = dim.getIndex();
    if (auto first = prim::getFirstBinding(dim.getOperand(), index))
      return {first->first.getAsOpaquePointer(), first->second};
    return {dim.getOperand().getAsOpaquePointer(), index};
  }
  return {v.getAsOpaquePointer(), -1};
}

} // namespace

bool tcc::decompose::sameExtent(OpFoldResult a, OpFoldResult b) {
  auto ma = asMonomial(a), mb = asMonomial(b);
  return ma && mb && ma->coefficient == mb->coefficient && ma->factors == mb->factors;
}

namespace {

std::string describeExtent(OpFoldResult extent) {
  if (auto c = getConstantIntValue(extent))
    return std::to_string(*c);
  return "dynamic";
}
} // namespace

namespace {
/// Dim `index` of `value` in terms of the function's inputs: through the producer's
/// reifyResultShapes and the symbols of `prim.bind_shape`, so that equal extents are built
/// from the same `prim.dim` values and compare equal while the graph is decomposed.
OpFoldResult canonicalDim(NodeRewriter &n, Value value, int64_t index, int depth = 0) {
  auto type = cast<RankedTensorType>(value.getType());
  OpBuilder &b = n.getBuilder();
  if (!type.isDynamicDim(index))
    return b.getIndexAttr(type.getDimSize(index));
  NodeRewriter::DimCache *cache = n.getDimCache();
  if (cache)
    if (auto it = cache->find({value, index}); it != cache->end())
      return it->second;
  OpFoldResult result;
  if (auto first = prim::getFirstBinding(value, index)) {
    result = prim::DimOp::create(b, n.getLoc(), first->first, first->second).getResult();
  } else if (auto reify = value.getDefiningOp<ReifyRankedShapedTypeOpInterface>();
             reify && depth < 256) {
    ReifiedRankedShapedTypeDims shapes;
    unsigned number = cast<OpResult>(value).getResultNumber();
    if (succeeded(reify.reifyResultShapes(b, shapes)) && shapes.size() > number &&
        static_cast<int64_t>(shapes[number].size()) > index) {
      result = shapes[number][index];
      if (auto v = dyn_cast<Value>(result))
        if (auto dim = v.getDefiningOp<prim::DimOp>())
          result = canonicalDim(n, dim.getOperand(), dim.getIndex(), depth + 1);
    }
  }
  if (!result)
    result = prim::DimOp::create(b, n.getLoc(), value, index).getResult();
  if (cache)
    (*cache)[{value, index}] = result;
  return result;
}
} // namespace

SmallVector<OpFoldResult> tcc::decompose::getDims(NodeRewriter &n, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(canonicalDim(n, value, d));
  return dims;
}

Value tcc::decompose::toIndex(NodeRewriter &n, OpFoldResult extent) {
  return getValueOrCreateConstantIndexOp(n.getBuilder(), n.getLoc(), extent);
}

RankedTensorType tcc::decompose::getTensorType(ArrayRef<OpFoldResult> dims, Type elementType) {
  SmallVector<int64_t> shape;
  for (OpFoldResult d : dims)
    shape.push_back(getConstantIntValue(d).value_or(ShapedType::kDynamic));
  return RankedTensorType::get(shape, elementType);
}

SmallVector<Value> tcc::decompose::getDynamicExtents(NodeRewriter &n, ArrayRef<OpFoldResult> dims) {
  SmallVector<Value> values;
  for (OpFoldResult d : dims)
    if (!getConstantIntValue(d))
      values.push_back(cast<Value>(d));
  return values;
}

Value tcc::decompose::scalarConstant(NodeRewriter &n, Type elementType, double value) {
  auto type = RankedTensorType::get({}, elementType);
  Attribute attr;
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    APFloat f(value);
    bool lost;
    f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    attr = DenseElementsAttr::get(type, f);
  } else {
    auto intType = cast<IntegerType>(elementType);
    APInt i(intType.getWidth(), static_cast<uint64_t>(static_cast<int64_t>(value)),
            /*isSigned=*/!intType.isUnsigned(), /*implicitTrunc=*/true);
    attr = DenseElementsAttr::get(type, i);
  }
  return arith::ConstantOp::create(n.getBuilder(), n.getLoc(), cast<TypedAttr>(attr));
}

Value tcc::decompose::fill(NodeRewriter &n, Value scalar, ArrayRef<OpFoldResult> dims) {
  auto scalarType = cast<RankedTensorType>(scalar.getType());
  RankedTensorType type = getTensorType(dims, scalarType.getElementType());
  // A splat constant stays a constant when the shape is static.
  DenseElementsAttr value;
  if (type.hasStaticShape() && matchPattern(scalar, m_Constant(&value)) && value.isSplat())
    return arith::ConstantOp::create(n.getBuilder(), n.getLoc(), value.resizeSplat(type));
  return prim::BroadcastInDimOp::create(n.getBuilder(), n.getLoc(), type, scalar,
                                        getDynamicExtents(n, dims),
                                        n.getBuilder().getDenseI64ArrayAttr({}));
}

Value tcc::decompose::splatLike(NodeRewriter &n, Value like, double value, Type elementType) {
  auto likeType = cast<RankedTensorType>(like.getType());
  Type element = elementType ? elementType : likeType.getElementType();
  return fill(n, scalarConstant(n, element, value), getDims(n, like));
}

void tcc::decompose::checkEqual(NodeRewriter &n, OpFoldResult lhs, OpFoldResult rhs,
                                const llvm::Twine &message) {
  if (sameExtent(lhs, rhs))
    return;
  OpBuilder &b = n.getBuilder();
  Value cond = b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::eq,
                                             toIndex(n, lhs), toIndex(n, rhs));
  if (matchPattern(cond, m_One()))
    return;
  prim::CheckOp::create(b, n.getLoc(), cond,
                        b.getStringAttr("node '" + n.getNode().getNodeName() + "' (" +
                                        n.getOpType() + "): " + message));
}

Value tcc::decompose::broadcastTo(NodeRewriter &n, Value value, ArrayRef<OpFoldResult> dims,
                                  const std::string &what) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = static_cast<int64_t>(dims.size()), offset = rank - type.getRank();
  if (offset < 0) {
    n.emitError() << "cannot broadcast a rank-" << type.getRank() << " tensor to rank " << rank;
    return nullptr;
  }
  SmallVector<OpFoldResult> in = getDims(n, value);
  bool identity = offset == 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    OpFoldResult from = in[d], to = dims[d + offset];
    if (sameExtent(from, to))
      continue;
    identity = false;
    auto c = getConstantIntValue(from);
    if (c && *c == 1)
      continue;
    auto t = getConstantIntValue(to);
    if (c && t) {
      n.emitError() << "cannot broadcast dim " << d << " of extent " << *c << " to " << *t;
      return nullptr;
    }
    checkEqual(n, from, to,
               "dim " + std::to_string(d) + " of " + what + " must equal " +
                   (getConstantIntValue(to) ? describeExtent(to)
                                            : std::string("the other inputs' extent")) +
                   " (a dynamic dim broadcasts only when equal)");
  }
  if (identity)
    return value;
  SmallVector<int64_t> mapping;
  for (int64_t d = 0; d < type.getRank(); ++d)
    mapping.push_back(d + offset);
  return prim::BroadcastInDimOp::create(n.getBuilder(), n.getLoc(),
                                        getTensorType(dims, type.getElementType()), value,
                                        getDynamicExtents(n, dims),
                                        n.getBuilder().getDenseI64ArrayAttr(mapping));
}

SmallVector<Value> tcc::decompose::broadcastAll(NodeRewriter &n, ValueRange values) {
  int64_t rank = 0;
  SmallVector<SmallVector<OpFoldResult>> inputDims;
  for (Value v : values) {
    inputDims.push_back(getDims(n, v));
    rank = std::max<int64_t>(rank, inputDims.back().size());
  }
  SmallVector<OpFoldResult> result;
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<int64_t> staticExtent;
    SmallVector<std::pair<size_t, OpFoldResult>> dynamic;
    for (auto [index, dims] : llvm::enumerate(inputDims)) {
      int64_t offset = rank - static_cast<int64_t>(dims.size());
      if (d < offset)
        continue;
      OpFoldResult extent = dims[d - offset];
      if (auto c = getConstantIntValue(extent)) {
        if (*c == 1)
          continue;
        if (staticExtent && *staticExtent != *c) {
          n.emitError() << "inputs cannot broadcast: extents " << *staticExtent << " and "
                        << *c << " in dim " << d << " of the broadcast shape";
          return {};
        }
        staticExtent = *c;
      } else {
        dynamic.push_back({index, extent});
      }
    }
    OpFoldResult extent = staticExtent ? OpFoldResult(n.getBuilder().getIndexAttr(*staticExtent))
                          : !dynamic.empty() ? dynamic.front().second
                                             : OpFoldResult(n.getBuilder().getIndexAttr(1));
    result.push_back(extent);
  }
  SmallVector<Value> out;
  for (auto [index, v] : llvm::enumerate(values)) {
    Value b = broadcastTo(n, v, result, "input " + std::to_string(index));
    if (!b)
      return {};
    out.push_back(b);
  }
  return out;
}

Value tcc::decompose::convert(NodeRewriter &n, Value value, Type elementType) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == elementType)
    return value;
  // To and from strings: the text of a number, the number of a text.
  if (isa<prim::StringType>(elementType))
    return prim::FormatOp::create(n.getBuilder(), n.getLoc(), type.clone(elementType), value);
  if (isa<prim::StringType>(type.getElementType()))
    return prim::ParseOp::create(n.getBuilder(), n.getLoc(), type.clone(elementType), value);
  return prim::ConvertOp::create(n.getBuilder(), n.getLoc(), type.clone(elementType), value);
}

Value tcc::decompose::reshape(NodeRewriter &n, Value value, ArrayRef<OpFoldResult> dims) {
  auto type = cast<RankedTensorType>(value.getType());
  RankedTensorType target = getTensorType(dims, type.getElementType());
  if (target == type && type.hasStaticShape())
    return value;
  return n.getBuilder().createOrFold<prim::ReshapeOp>(n.getLoc(), target, value,
                                                      getDynamicExtents(n, dims));
}

std::optional<SmallVector<int64_t>> tcc::decompose::getConstantInts(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return evaluateConstantInts(value);
  SmallVector<int64_t> values;
  bool isUnsigned = attr.getElementType().isUnsignedInteger();
  for (APInt v : attr.getValues<APInt>())
    values.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue());
  return values;
}

bool tcc::decompose::isShapeTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.getRank() <= 1 && type.hasStaticShape() &&
         type.getNumElements() <= kMaxShapeTensorElements &&
         type.getElementType().isSignlessInteger() && !type.getElementType().isInteger(1);
}

std::optional<SmallVector<OpFoldResult>> tcc::decompose::getShapeElements(NodeRewriter &n,
                                                                          Value value) {
  if (!isShapeTensor(value))
    return std::nullopt;
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> elements;
  if (auto values = getConstantInts(value)) {
    for (int64_t v : *values)
      elements.push_back(b.getIndexAttr(v));
    return elements;
  }
  auto type = cast<RankedTensorType>(value.getType());
  auto toIndexValue = [&](Value scalar) -> OpFoldResult {
    if (auto cast = scalar.getDefiningOp<arith::IndexCastOp>())
      if (cast.getIn().getType().isIndex())
        return cast.getIn();
    APInt constant;
    if (matchPattern(scalar, m_ConstantInt(&constant)))
      return b.getIndexAttr(constant.getSExtValue());
    return b.createOrFold<arith::IndexCastOp>(n.getLoc(), b.getIndexType(), scalar);
  };
  if (auto fromElements = value.getDefiningOp<tensor::FromElementsOp>()) {
    for (Value element : fromElements.getElements())
      elements.push_back(toIndexValue(element));
    return elements;
  }
  int64_t count = type.getRank() == 0 ? 1 : type.getDimSize(0);
  for (int64_t i = 0; i < count; ++i) {
    SmallVector<Value> indices;
    if (type.getRank() == 1)
      indices.push_back(arith::ConstantIndexOp::create(b, n.getLoc(), i));
    elements.push_back(
        toIndexValue(tensor::ExtractOp::create(b, n.getLoc(), value, indices).getResult()));
  }
  return elements;
}

Value tcc::decompose::makeShapeTensor(NodeRewriter &n, ArrayRef<OpFoldResult> elements,
                                      Type elementType, bool scalar) {
  OpBuilder &b = n.getBuilder();
  SmallVector<int64_t> shape;
  if (!scalar)
    shape.push_back(static_cast<int64_t>(elements.size()));
  auto type = RankedTensorType::get(shape, elementType);
  auto intType = cast<IntegerType>(elementType);
  SmallVector<APInt> constants;
  for (OpFoldResult e : elements)
    if (auto c = getConstantIntValue(e))
      constants.push_back(APInt(intType.getWidth(), static_cast<uint64_t>(*c), true, true));
  if (constants.size() == elements.size())
    return arith::ConstantOp::create(b, n.getLoc(),
                                     cast<TypedAttr>(DenseElementsAttr::get(type, constants)));
  SmallVector<Value> scalars;
  for (OpFoldResult e : elements) {
    if (auto c = getConstantIntValue(e)) {
      scalars.push_back(arith::ConstantOp::create(
          b, n.getLoc(), IntegerAttr::get(elementType, APInt(intType.getWidth(),
                                                             static_cast<uint64_t>(*c), true,
                                                             true))));
      continue;
    }
    scalars.push_back(b.createOrFold<arith::IndexCastOp>(n.getLoc(), elementType, cast<Value>(e)));
  }
  return tensor::FromElementsOp::create(b, n.getLoc(), type, scalars);
}

std::optional<int64_t> tcc::decompose::normalizeAxis(NodeRewriter &n, int64_t axis, int64_t rank,
                                                     StringRef what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank) {
    n.emitError() << what << " " << axis << " is out of range for rank " << rank;
    return std::nullopt;
  }
  return normalized;
}

OpFoldResult tcc::decompose::addIndex(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  auto ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  if (ca && cb)
    return n.getBuilder().getIndexAttr(*ca + *cb);
  return n.getBuilder().createOrFold<arith::AddIOp>(n.getLoc(), toIndex(n, a), toIndex(n, b));
}

OpFoldResult tcc::decompose::mulIndex(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  auto ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  if (ca && cb)
    return n.getBuilder().getIndexAttr(*ca * *cb);
  if (ca && *ca == 1)
    return b;
  if (cb && *cb == 1)
    return a;
  return n.getBuilder().createOrFold<arith::MulIOp>(n.getLoc(), toIndex(n, a), toIndex(n, b));
}

OpFoldResult tcc::decompose::product(NodeRewriter &n, ArrayRef<OpFoldResult> values) {
  OpFoldResult result = n.getBuilder().getIndexAttr(1);
  for (OpFoldResult v : values)
    result = mulIndex(n, result, v);
  return result;
}

namespace {
/// Applies a binary index op, folding constants first (so results stay attributes).
template <typename OpTy>
OpFoldResult indexBinary(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  Value v = n.getBuilder().createOrFold<OpTy>(n.getLoc(), toIndex(n, a), toIndex(n, b));
  if (auto c = getConstantIntValue(v))
    return n.getBuilder().getIndexAttr(*c);
  return v;
}
} // namespace

OpFoldResult tcc::decompose::subIndex(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  auto ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  if (ca && cb)
    return n.getBuilder().getIndexAttr(*ca - *cb);
  if (cb && *cb == 0)
    return a;
  return indexBinary<arith::SubIOp>(n, a, b);
}

OpFoldResult tcc::decompose::floorDivIndex(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  auto cb = getConstantIntValue(b);
  if (cb && *cb == 1)
    return a;
  return indexBinary<arith::FloorDivSIOp>(n, a, b);
}

OpFoldResult tcc::decompose::ceilDivIndex(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  auto cb = getConstantIntValue(b);
  if (cb && *cb == 1)
    return a;
  return indexBinary<arith::CeilDivSIOp>(n, a, b);
}

OpFoldResult tcc::decompose::minIndex(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  auto ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  if (ca && cb)
    return n.getBuilder().getIndexAttr(std::min(*ca, *cb));
  return indexBinary<arith::MinSIOp>(n, a, b);
}

namespace {
/// Extents built only from dims and non-negative constants are never negative.
bool isNonNegative(OpFoldResult v) {
  auto m = asMonomial(v);
  return m && m->coefficient >= 0 &&
         llvm::all_of(m->values, [](Value f) { return f.getDefiningOp<prim::DimOp>(); });
}
} // namespace

OpFoldResult tcc::decompose::maxIndex(NodeRewriter &n, OpFoldResult a, OpFoldResult b) {
  auto ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  if (ca && cb)
    return n.getBuilder().getIndexAttr(std::max(*ca, *cb));
  if (cb && *cb <= 0 && isNonNegative(a))
    return a;
  if (ca && *ca <= 0 && isNonNegative(b))
    return b;
  return indexBinary<arith::MaxSIOp>(n, a, b);
}

OpFoldResult tcc::decompose::selectIndex(NodeRewriter &n, arith::CmpIPredicate predicate,
                                         OpFoldResult lhs, OpFoldResult rhs,
                                         OpFoldResult ifTrue, OpFoldResult ifFalse) {
  OpBuilder &b = n.getBuilder();
  Value cond = b.createOrFold<arith::CmpIOp>(n.getLoc(), predicate, toIndex(n, lhs),
                                             toIndex(n, rhs));
  APInt constant;
  if (matchPattern(cond, m_ConstantInt(&constant)))
    return constant.isZero() ? ifFalse : ifTrue;
  Value v = b.createOrFold<arith::SelectOp>(n.getLoc(), cond, toIndex(n, ifTrue),
                                            toIndex(n, ifFalse));
  if (auto c = getConstantIntValue(v))
    return b.getIndexAttr(*c);
  return v;
}

std::optional<SmallVector<int64_t>> tcc::decompose::getSpatialInts(NodeRewriter &n, StringRef name,
                                                                   int64_t count, int64_t fill,
                                                                   int64_t minimum) {
  SmallVector<int64_t> values = n.getInts(name).value_or(SmallVector<int64_t>(count, fill));
  if (n.hasFailed())
    return std::nullopt;
  if (static_cast<int64_t>(values.size()) != count) {
    n.emitError() << "attribute '" << name << "' has " << values.size()
                  << " entries, expected one per spatial dim (" << count << ")";
    return std::nullopt;
  }
  for (int64_t v : values)
    if (v < minimum) {
      n.emitError() << "attribute '" << name << "' has entry " << v << ", expected >= "
                    << minimum;
      return std::nullopt;
    }
  return values;
}

Value tcc::decompose::broadcastChannels(NodeRewriter &n, Value v, ArrayRef<OpFoldResult> dims,
                                        StringRef what) {
  if (rankOf(v) != 1) {
    n.emitError() << what << " has type " << v.getType() << ", expected a vector";
    return nullptr;
  }
  OpFoldResult extent = getDims(n, v)[0];
  auto from = getConstantIntValue(extent), to = getConstantIntValue(dims[1]);
  if (from && to && *from != *to && *from != 1) {
    n.emitError() << what << " has " << *from << " elements, expected " << *to
                  << " (one per output channel)";
    return nullptr;
  }
  if (!from || *from != 1)
    checkEqual(n, extent, dims[1], what + " must have one element per output channel");
  return prim::BroadcastInDimOp::create(n.getBuilder(), n.getLoc(),
                                        getTensorType(dims, elementOf(v)), v,
                                        getDynamicExtents(n, dims),
                                        n.getBuilder().getDenseI64ArrayAttr({1}));
}

Type tcc::decompose::elementTypeOfOnnxCode(MLIRContext *ctx, int64_t code) {
  switch (code) {
  case 1: return Float32Type::get(ctx);
  case 2: return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case 3: return IntegerType::get(ctx, 8);
  case 4: return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case 5: return IntegerType::get(ctx, 16);
  case 6: return IntegerType::get(ctx, 32);
  case 7: return IntegerType::get(ctx, 64);
  case 9: return IntegerType::get(ctx, 1);
  case 10: return Float16Type::get(ctx);
  case 11: return Float64Type::get(ctx);
  case 12: return IntegerType::get(ctx, 32, IntegerType::Unsigned);
  case 13: return IntegerType::get(ctx, 64, IntegerType::Unsigned);
  case 16: return BFloat16Type::get(ctx);
  default: return nullptr;
  }
}


Value tcc::decompose::reduceKeep(NodeRewriter &n, prim::ReduceKind kind, Value x, int64_t dim) {
  OpBuilder &b = n.getBuilder();
  Value reduced = prim::ReduceOp::create(b, n.getLoc(), kind, x, b.getDenseI64ArrayAttr({dim}));
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> mapping;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != dim)
      mapping.push_back(d);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  return prim::BroadcastInDimOp::create(b, n.getLoc(), type, reduced, getDynamicExtents(n, dims),
                                        b.getDenseI64ArrayAttr(mapping));
}


std::optional<int64_t> tcc::decompose::checkConvolutionOperands(NodeRewriter &n, Value x, Value w,
                                                               StringRef filterLayout) {
  int64_t rank = rankOf(x);
  if (rank < 3 || rankOf(w) != rank) {
    n.emitError() << "expected X (N x C x D1 ...) and W (" << filterLayout
                  << ") of one rank >= 3, got " << x.getType() << " and " << w.getType();
    return std::nullopt;
  }
  if (elementOf(x) != elementOf(w)) {
    n.emitError() << "X and W have element types " << elementOf(x) << " and " << elementOf(w)
                  << ", expected one type";
    return std::nullopt;
  }
  int64_t group = n.getInt("group", 1);
  if (group < 1) {
    n.emitError() << "attribute 'group' is " << group << ", expected >= 1";
    return std::nullopt;
  }
  return group;
}
