//===- RuleSupport.cpp - what decomposition rules share beyond the prim builder --------===//
#include "RuleSupport.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {
constexpr int64_t kMaxShapeTensorElements = 64;
} // namespace

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

SmallVector<OpFoldResult> RuleBuilder::dims(Value v) { return getDims(n, v); }

SmallVector<OpFoldResult> tcc::decompose::getDims(NodeRewriter &n, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    dims.push_back(canonicalDim(n, value, d));
  return dims;
}

void tcc::decompose::checkEqual(NodeRewriter &n, OpFoldResult lhs, OpFoldResult rhs,
                                const llvm::Twine &message) {
  if (sameExtent(lhs, rhs))
    return;
  // Known to differ while compiling: an error now, not a check that always fails (the ops
  // built after it could not even be typed).
  std::optional<int64_t> l = getConstantIntValue(lhs), r = getConstantIntValue(rhs);
  if (l && r && *l != *r) {
    n.emitError() << message << " (" << *l << " vs " << *r << ")";
    return;
  }
  OpBuilder &b = n.getBuilder();
  Value cond = b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::eq,
                                             toIndex(n, lhs), toIndex(n, rhs));
  if (matchPattern(cond, m_One()))
    return;
  prim::CheckOp::create(b, n.getLoc(), cond,
                        b.getStringAttr("node '" + n.getNode().getNodeName() + "' (" +
                                        n.getOpType() + "): " + message));
}

Value tcc::decompose::gatherInRange(NodeRewriter &n, Value table, Value indices, int64_t axis,
                                   StringRef what, StringRef extent) {
  OpBuilder &b = n.getBuilder();
  auto gather = prim::GatherOp::create(b, n.getLoc(), table, indices, axis);
  gather->setAttr(prim::PrimDialect::kIndexErrorAttrName,
                  b.getStringAttr("(" + n.getOpType() + "): " + what + " out of range: each " +
                                  "must be in [0, " + extent + ")"));
  return gather.getResult();
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

std::optional<SmallVector<int64_t>> tcc::decompose::getSpatialInts(NodeRewriter &n, StringRef name,
                                                                   int64_t count, int64_t fill,
                                                                   int64_t minimum) {
  SmallVector<int64_t> values = n.getInts(name).value_or(SmallVector<int64_t>(count, fill));
  if (n.hasFailed())
    return std::nullopt;
  if (static_cast<int64_t>(values.size()) != count) {
    // pads hold a begin and an end per spatial dim (all begins, then all ends).
    bool paired = name == "pads";
    n.emitError() << "attribute '" << name << "' has " << values.size() << " entries, expected "
                  << (paired ? "a begin and an end per spatial dim (" : "one per spatial dim (")
                  << count << ")";
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
  return restoreDim(n, reduced, x, dim);
}

Value tcc::decompose::restoreDim(NodeRewriter &n, Value reduced, Value x, int64_t dim) {
  OpBuilder &b = n.getBuilder();
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> mapping;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != dim)
      mapping.push_back(d);
  return prim::BroadcastInDimOp::create(
      b, n.getLoc(), type.clone(cast<RankedTensorType>(reduced.getType()).getElementType()),
      reduced, getDynamicExtents(n, getDims(n, x)), b.getDenseI64ArrayAttr(mapping));
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

mlir::InFlightDiagnostic &tcc::decompose::noteConstantInput(mlir::InFlightDiagnostic &diag) {
  diag.attachNote() << "exporters write such inputs as constants when their value is known: "
                       "export with constant folding (torch.onnx.export(..., "
                       "do_constant_folding=True)) or fold the model with onnx-simplifier; "
                       "tcc reads most values that decide shapes or axes at run time "
                       "(docs/shapes.md), but not this one yet";
  return diag;
}
