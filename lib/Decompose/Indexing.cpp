//===- Indexing.cpp - rules for gathers, scans and masks -----------------------------===//
//
// All gathers become one primitive, prim.gather (take along an axis): GatherElements and
// GatherND compute linear indices into a flattened operand first.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuntimeAxes.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// An integer index tensor as i64 with negative entries wrapped: idx < 0 ? idx + extent : idx.
Value wrapIndices(NodeRewriter &n, Value indices, OpFoldResult extent) {
  OpBuilder &b = n.getBuilder();
  Type i64 = b.getI64Type();
  indices = convert(n, indices, i64);
  if (typeOf(indices).getElementType().isUnsignedInteger())
    return indices;
  Value extentTensor = fill(n, makeShapeTensor(n, {extent}, i64, /*scalar=*/true),
                            getDims(n, indices));
  Value zero = splatLike(n, indices, 0.0);
  Value negative = prim::CompareOp::create(b, n.getLoc(), prim::CompareDirection::Lt, indices, zero);
  Value wrapped = prim::AddOp::create(b, n.getLoc(), indices, extentTensor);
  return prim::SelectOp::create(b, n.getLoc(), negative, wrapped, indices);
}

/// Where `coordinate` (wrapped) lies outside [0, extent): its linear index becomes -1, which
/// the gather's run-time range check refuses (an index of another dim must not reach a valid
/// element of the flattened operand). `outside` accumulates the test over the coordinates.
void markOutside(NodeRewriter &n, Value coordinate, OpFoldResult extent, Value &outside) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value zero = splatLike(n, coordinate, 0.0);
  Value extentTensor = fill(n, makeShapeTensor(n, {extent}, b.getI64Type(), /*scalar=*/true),
                            getDims(n, coordinate));
  Value below = prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, coordinate, zero);
  Value above = prim::CompareOp::create(b, loc, prim::CompareDirection::Ge, coordinate,
                                        extentTensor);
  Value either = prim::OrOp::create(b, loc, below, above);
  outside = outside ? Value(prim::OrOp::create(b, loc, outside, either)) : either;
}

/// `linear` with -1 where `outside` holds, and the gather `message` for the range check.
Value gatherChecked(NodeRewriter &n, Value flat, Value linear, Value outside,
                    const std::string &message) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value poison = splatLike(n, linear, -1.0);
  linear = prim::SelectOp::create(b, loc, outside, poison, linear);
  auto gather = prim::GatherOp::create(b, loc, flat, linear, 0);
  gather->setAttr(prim::PrimDialect::kIndexErrorAttrName,
                  b.getStringAttr("(" + n.getOpType().str() + "): " + message));
  return gather.getResult();
}

Value getIndexInput(NodeRewriter &n, unsigned index) {
  Value v = n.getInput(index);
  if (v && (!isa<IntegerType>(typeOf(v).getElementType()) ||
            typeOf(v).getElementType().isInteger(1))) {
    n.emitError() << "input " << index << " has type " << v.getType()
                  << ", expected an integer index tensor";
    return nullptr;
  }
  return v;
}

// gather(data, indices, axis)[..., j..., ...] = data[..., indices[j...], ...]
LogicalResult gather(NodeRewriter &n) {
  Value data = n.getInput(0), indices = getIndexInput(n, 1);
  if (!data || !indices)
    return failure();
  auto axis = normalizeAxis(n, n.getInt("axis", 0), typeOf(data).getRank());
  if (!axis)
    return failure();
  // Indexing a shape tensor with constants picks index values (shape arithmetic).
  if (typeOf(data).getRank() == 1)
    if (auto constant = getConstantInts(indices))
      if (typeOf(indices).getRank() <= 1)
        if (auto elements = getShapeElements(n, data)) {
          SmallVector<OpFoldResult> picked;
          int64_t count = static_cast<int64_t>(elements->size());
          for (int64_t i : *constant) {
            if (i < -count || i >= count)
              return n.emitError() << "index " << i << " is out of range for a dim of extent "
                                   << count;
            picked.push_back((*elements)[i < 0 ? i + count : i]);
          }
          return n.setResults(makeShapeTensor(n, picked, typeOf(data).getElementType(),
                                              typeOf(indices).getRank() == 0));
        }
  Value wrapped = wrapIndices(n, indices, getDims(n, data)[*axis]);
  return n.setResults(
      prim::GatherOp::create(n.getBuilder(), n.getLoc(), data, wrapped, *axis).getResult());
}

/// The row-major strides of `dims` as index values.
SmallVector<OpFoldResult> stridesOf(NodeRewriter &n, ArrayRef<OpFoldResult> dims) {
  SmallVector<OpFoldResult> strides(dims.size(), n.getBuilder().getIndexAttr(1));
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d)
    strides[d] = mulIndex(n, strides[d + 1], dims[d + 1]);
  return strides;
}

/// `value` (an index) as an i64 tensor of shape `dims`.
Value fillIndex(NodeRewriter &n, OpFoldResult value, ArrayRef<OpFoldResult> dims) {
  return fill(n, makeShapeTensor(n, {value}, n.getBuilder().getI64Type(), true), dims);
}

// gather_elements(data, idx, axis)[i...] = data[i0, ..., idx[i...], ..., in]:
//   take(flatten(data), sum_d (d == axis ? idx : iota_d) * stride_d)
LogicalResult gatherElements(NodeRewriter &n) {
  Value data = n.getInput(0), indices = getIndexInput(n, 1);
  if (!data || !indices)
    return failure();
  int64_t rank = typeOf(data).getRank();
  if (typeOf(indices).getRank() != rank)
    return n.emitError() << "indices have rank " << typeOf(indices).getRank()
                         << ", expected the data's rank " << rank;
  auto axis = normalizeAxis(n, n.getInt("axis", 0), rank);
  if (!axis)
    return failure();
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> dataDims = getDims(n, data), idxDims = getDims(n, indices);
  SmallVector<OpFoldResult> strides = stridesOf(n, dataDims);
  RankedTensorType idxType = typeOf(indices).clone(b.getI64Type());
  Value linear, outside;
  for (int64_t d = 0; d < rank; ++d) {
    Value coordinate =
        d == *axis ? wrapIndices(n, indices, dataDims[d])
                   : Value(prim::IotaOp::create(b, n.getLoc(), idxType,
                                                getDynamicExtents(n, idxDims), d));
    if (d == *axis)
      markOutside(n, coordinate, dataDims[d], outside);
    Value term = prim::MulOp::create(b, n.getLoc(), coordinate, fillIndex(n, strides[d], idxDims));
    linear = linear ? Value(prim::AddOp::create(b, n.getLoc(), linear, term)) : term;
  }
  Value flat = reshape(n, data, {product(n, dataDims)});
  std::string message = "index out of range: indices must be in [-n, n) for axis " +
                        std::to_string(*axis) + ", n being its extent";
  if (std::optional<int64_t> extent = getConstantIntValue(dataDims[*axis]))
    message = "index out of range: indices must be in [" + std::to_string(-*extent) + ", " +
              std::to_string(*extent) + ") for axis " + std::to_string(*axis);
  return n.setResults(gatherChecked(n, flat, linear, outside, message));
}

// gather_nd(data, idx, b)[batch..., i...] = data[batch..., idx[batch..., i..., :], ...]:
//   take(reshape(data, [prod(d[:b+k]), d[b+k:]...]), batch_linear * prod(d[b:b+k]) +
//        sum_j idx[..., j] * stride_j)
LogicalResult gatherND(NodeRewriter &n) {
  Value data = n.getInput(0), indices = getIndexInput(n, 1);
  if (!data || !indices)
    return failure();
  int64_t batchDims = n.getInt("batch_dims", 0);
  int64_t dataRank = typeOf(data).getRank(), idxRank = typeOf(indices).getRank();
  if (idxRank < 1)
    return n.emitError() << "indices must have rank >= 1";
  int64_t k = typeOf(indices).getDimSize(idxRank - 1);
  if (ShapedType::isDynamic(k))
    return n.emitError() << "the last dim of the indices must be static, got " << indices.getType();
  if (batchDims < 0 || batchDims >= idxRank || batchDims + k > dataRank)
    return n.emitError() << "batch_dims " << batchDims << " with index depth " << k
                         << " does not fit data of rank " << dataRank;
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> dataDims = getDims(n, data), idxDims = getDims(n, indices);
  SmallVector<OpFoldResult> outerDims(idxDims.begin(), idxDims.end() - 1);
  RankedTensorType outerType = getTensorType(outerDims, b.getI64Type());
  ArrayRef<OpFoldResult> indexed = ArrayRef<OpFoldResult>(dataDims).slice(batchDims, k);
  SmallVector<OpFoldResult> strides = stridesOf(n, indexed);
  Value linear = fillIndex(n, b.getIndexAttr(0), outerDims);
  Value outside;
  Value idx64 = convert(n, indices, b.getI64Type());
  for (int64_t j = 0; j < k; ++j) {
    SmallVector<OpFoldResult> offsets(idxRank, b.getIndexAttr(0)), sizes(idxDims);
    offsets[idxRank - 1] = b.getIndexAttr(j);
    sizes[idxRank - 1] = b.getIndexAttr(1);
    Value column = b.createOrFold<prim::SliceOp>(n.getLoc(), idx64, offsets, sizes,
                                                 SmallVector<int64_t>(idxRank, 1));
    column = reshape(n, column, outerDims);
    column = wrapIndices(n, column, indexed[j]);
    markOutside(n, column, indexed[j], outside);
    Value term = prim::MulOp::create(b, n.getLoc(), column, fillIndex(n, strides[j], outerDims));
    linear = prim::AddOp::create(b, n.getLoc(), linear, term);
  }
  // The batch position, in units of one indexed block.
  SmallVector<OpFoldResult> batchExtents(dataDims.begin(), dataDims.begin() + batchDims);
  SmallVector<OpFoldResult> batchStrides = stridesOf(n, batchExtents);
  OpFoldResult block = product(n, indexed);
  for (int64_t d = 0; d < batchDims; ++d) {
    checkEqual(n, idxDims[d], dataDims[d], "batch dim " + std::to_string(d) +
                                               " of the indices must equal the data's");
    Value iota = prim::IotaOp::create(b, n.getLoc(), outerType, getDynamicExtents(n, outerDims), d);
    Value term = prim::MulOp::create(b, n.getLoc(), iota,
                                     fillIndex(n, mulIndex(n, batchStrides[d], block), outerDims));
    linear = prim::AddOp::create(b, n.getLoc(), linear, term);
  }
  SmallVector<OpFoldResult> flatDims = {product(n, ArrayRef<OpFoldResult>(dataDims).take_front(batchDims + k))};
  flatDims.append(dataDims.begin() + batchDims + k, dataDims.end());
  Value flat = reshape(n, data, flatDims);
  if (!outside) // k == 0: whole slices, nothing indexed
    return n.setResults(prim::GatherOp::create(b, n.getLoc(), flat, linear, 0).getResult());
  std::string message = "index out of range: entry j of each index tuple must be in [-n, n), n "
                        "being the extent of data dim batch_dims + j";
  return n.setResults(gatherChecked(n, flat, linear, outside, message));
}

// cumsum / cumprod(x, axis) = running sum / product along axis (exclusive, reverse)
template <prim::ReduceKind Kind>
LogicalResult cumulative(NodeRewriter &n) {
  Value x = n.getInput(0);
  auto axisValues = n.hasInput(1) ? getConstantInts(n.getOptionalInput(1)) : std::nullopt;
  if (!x)
    return failure();
  bool exclusive = n.getInt("exclusive", 0), reverse = n.getInt("reverse", 0);
  OpBuilder &b = n.getBuilder();
  auto build = [&](int64_t axis) {
    auto op = prim::CumulativeOp::create(b, n.getLoc(), Kind, x, axis);
    if (exclusive)
      op.setExclusive(true);
    if (reverse)
      op.setReverse(true);
    return op.getResult();
  };
  // An axis read at run time: the scan along every dim, the listed one selected (rank
  // scans where one is needed; a model that feeds the axis is rare).
  int64_t rank = typeOf(x).getRank();
  if (!axisValues && n.hasInput(1) && typeOf(n.getOptionalInput(1)).hasStaticShape() &&
      typeOf(n.getOptionalInput(1)).getNumElements() == 1 && rank > 0) {
    auto axes = runtimeAxes(n, 1, rank, /*distinct=*/false);
    if (!axes)
      return failure();
    Value result = build(0);
    for (int64_t d = 1; d < rank; ++d) {
      Value listed = tensor::FromElementsOp::create(
          b, n.getLoc(), RankedTensorType::get({}, b.getI1Type()), isListed(n, *axes, d));
      Value chosen = fill(n, listed, getDims(n, x));
      result = prim::SelectOp::create(b, n.getLoc(), chosen, build(d), result);
    }
    return n.setResults(result);
  }
  if (!axisValues || axisValues->size() != 1)
    return n.emitError() << "input 1 (axis) must be an integer scalar (one element), got "
                         << (n.hasInput(1) ? n.getOptionalInput(1).getType() : Type());
  auto axis = normalizeAxis(n, (*axisValues)[0], rank);
  if (!axis)
    return failure();
  return n.setResults(build(*axis));
}

// trilu(x, k): upper keeps j - i >= k, lower keeps j - i <= k (last two dims), else 0; k
// may arrive at run time (compared elementwise, any int64 value)
LogicalResult trilu(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = typeOf(x).getRank();
  if (rank < 2)
    return n.emitError() << "expected rank >= 2, got " << rank;
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  RankedTensorType i64Type = typeOf(x).clone(b.getI64Type());
  Value rows = prim::IotaOp::create(b, n.getLoc(), i64Type, getDynamicExtents(n, dims), rank - 2);
  Value cols = prim::IotaOp::create(b, n.getLoc(), i64Type, getDynamicExtents(n, dims), rank - 1);
  Value diff = prim::SubOp::create(b, n.getLoc(), cols, rows);
  Value k = splatLike(n, diff, 0.0);
  if (n.hasInput(1)) {
    Value kInput = n.getOptionalInput(1);
    auto kType = typeOf(kInput);
    if (auto values = getConstantInts(kInput); values && values->size() == 1) {
      k = splatLike(n, diff, static_cast<double>((*values)[0]));
    } else if (kType.hasStaticShape() && kType.getNumElements() == 1 &&
               kType.getElementType().isInteger(64)) {
      k = broadcastTo(n, reshape(n, kInput, {}), dims, "k");
      if (!k)
        return failure();
    } else {
      return n.emitError() << "input 1 (k) must be an int64 scalar (one element), got "
                           << kType;
    }
  }
  bool upper = n.getInt("upper", 1);
  Value keep = prim::CompareOp::create(
      b, n.getLoc(), upper ? prim::CompareDirection::Ge : prim::CompareDirection::Le, diff, k);
  return n.setResults(
      prim::SelectOp::create(b, n.getLoc(), keep, x, splatLike(n, x, 0.0)).getResult());
}

/// The combiner of ScatterND / ScatterElements's `reduction` ("none": plain stores).
std::optional<std::optional<prim::ReduceKind>> scatterReduction(NodeRewriter &n, Value data) {
  std::string reduction = n.getString("reduction", "none");
  std::optional<prim::ReduceKind> kind;
  if (reduction == "add")
    kind = prim::ReduceKind::Sum;
  else if (reduction == "mul")
    kind = prim::ReduceKind::Prod;
  else if (reduction == "max")
    kind = prim::ReduceKind::Max;
  else if (reduction == "min")
    kind = prim::ReduceKind::Min;
  else if (reduction != "none") {
    n.emitError() << "attribute 'reduction' must be none, add, mul, max or min, got \""
                  << reduction << "\"";
    return std::nullopt;
  }
  if (kind && typeOf(data).getElementType().isInteger(1)) {
    n.emitError() << "reduction '" << reduction << "' on bool data is not supported";
    return std::nullopt;
  }
  return kind;
}

// scatter_nd(data, idx, upd)[idx[b..., :], ...] = upd[b..., ...] (or reduced into it), rows
// in order; negative index entries count from the end of their dim
LogicalResult scatterND(NodeRewriter &n) {
  Value data = n.getInput(0), indices = getIndexInput(n, 1), updates = n.getInput(2);
  if (!data || !indices || !updates)
    return failure();
  auto kind = scatterReduction(n, data);
  if (!kind)
    return failure();
  int64_t rank = typeOf(data).getRank(), indexRank = typeOf(indices).getRank();
  int64_t k = indexRank ? typeOf(indices).getShape().back() : 0;
  if (indexRank < 1 || ShapedType::isDynamic(k) || k < 1 || k > rank)
    return n.emitError() << "indices have type " << indices.getType()
                         << ", expected rank >= 1 and a static last dim in [1, " << rank << "]";
  if (typeOf(updates).getElementType() != typeOf(data).getElementType())
    return n.emitError() << "updates have element type " << typeOf(updates).getElementType()
                         << ", expected the data's " << typeOf(data).getElementType();
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> dataDims = getDims(n, data), idxDims = getDims(n, indices);
  int64_t expectedRank = indexRank - 1 + rank - k;
  if (typeOf(updates).getRank() != expectedRank)
    return n.emitError() << "updates have rank " << typeOf(updates).getRank() << ", expected "
                         << expectedRank << " (indices.shape[:-1] + data.shape[" << k << ":])";
  SmallVector<OpFoldResult> updDims = getDims(n, updates);
  for (int64_t d = 0; d < expectedRank; ++d) {
    OpFoldResult want = d < indexRank - 1 ? idxDims[d] : dataDims[k + d - (indexRank - 1)];
    auto u = getConstantIntValue(updDims[d]), w = getConstantIntValue(want);
    if (u && w && *u != *w)
      return n.emitError() << "updates dim " << d << " is " << *u << ", expected " << *w;
    checkEqual(n, updDims[d], want, "updates must have shape indices.shape[:-1] + data.shape[k:]");
  }
  // Wrap negative entries: entry j of each row counts from the end of data dim j.
  Value wide = convert(n, indices, b.getI64Type());
  if (!typeOf(indices).getElementType().isUnsignedInteger()) {
    Value extents = makeShapeTensor(n, ArrayRef<OpFoldResult>(dataDims).take_front(k),
                                    b.getI64Type());
    Value extentsB = prim::BroadcastInDimOp::create(
        b, n.getLoc(), typeOf(wide), extents, getDynamicExtents(n, idxDims),
        b.getDenseI64ArrayAttr({indexRank - 1}));
    Value negative = prim::CompareOp::create(b, n.getLoc(), prim::CompareDirection::Lt, wide,
                                             splatLike(n, wide, 0.0));
    wide = prim::SelectOp::create(b, n.getLoc(), negative,
                                  prim::AddOp::create(b, n.getLoc(), wide, extentsB), wide);
  }
  auto combine = *kind ? prim::ReduceKindAttr::get(n.getContext(), **kind) : prim::ReduceKindAttr();
  return n.setResults(
      prim::ScatterOp::create(b, n.getLoc(), data.getType(), data, wide, updates, combine)
          .getResult());
}

// scatter_elements(data, idx, upd, axis)[i0, ..., idx[i...], ..., in] = upd[i...] (or
// reduced into it): a scatter whose index rows are (i0, ..., idx[i...], ..., in)
LogicalResult scatterElements(NodeRewriter &n) {
  Value data = n.getInput(0), indices = getIndexInput(n, 1), updates = n.getInput(2);
  if (!data || !indices || !updates)
    return failure();
  auto kind = scatterReduction(n, data);
  if (!kind)
    return failure();
  int64_t rank = typeOf(data).getRank();
  if (typeOf(indices).getRank() != rank || typeOf(updates).getRank() != rank)
    return n.emitError() << "indices and updates must have the data's rank " << rank << ", got "
                         << typeOf(indices).getRank() << " and " << typeOf(updates).getRank();
  if (typeOf(updates).getElementType() != typeOf(data).getElementType())
    return n.emitError() << "updates have element type " << typeOf(updates).getElementType()
                         << ", expected the data's " << typeOf(data).getElementType();
  auto axis = normalizeAxis(n, n.getInt("axis", 0), rank);
  if (!axis)
    return failure();
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> dataDims = getDims(n, data), idxDims = getDims(n, indices),
                            updDims = getDims(n, updates);
  for (int64_t d = 0; d < rank; ++d) {
    auto u = getConstantIntValue(updDims[d]), i = getConstantIntValue(idxDims[d]);
    if (u && i && *u != *i)
      return n.emitError() << "updates dim " << d << " is " << *u << ", expected the indices' " << *i;
    checkEqual(n, updDims[d], idxDims[d], "updates must have the shape of indices");
  }
  RankedTensorType idxType = typeOf(indices).clone(b.getI64Type());
  SmallVector<OpFoldResult> columnDims(idxDims);
  columnDims.push_back(b.getIndexAttr(1));
  SmallVector<Value> columns;
  for (int64_t d = 0; d < rank; ++d) {
    Value coordinate =
        d == *axis ? wrapIndices(n, indices, dataDims[d])
                   : Value(prim::IotaOp::create(b, n.getLoc(), idxType,
                                                getDynamicExtents(n, idxDims), d));
    columns.push_back(reshape(n, coordinate, columnDims));
  }
  Value rows = columns.size() == 1
                   ? columns.front()
                   : Value(prim::ConcatenateOp::create(b, n.getLoc(), columns, rank));
  auto combine = *kind ? prim::ReduceKindAttr::get(n.getContext(), **kind) : prim::ReduceKindAttr();
  return n.setResults(
      prim::ScatterOp::create(b, n.getLoc(), data.getType(), data, rows, updates, combine)
          .getResult());
}

// top_k(x, k, axis): the first k of a stable sort along axis (descending when largest):
// values and their indices; equal values keep the lower index first
// TopK with K known only at run time: the output extent along the axis is data-dependent.
// values, indices = compact(sort(x, axis), iota(axis extent) < K, axis): the first K of
// the sorted order (a K above the extent gives the whole axis).
LogicalResult topKAtRunTime(NodeRewriter &n, Value x, Value kInput) {
  if (typeOf(kInput).getNumElements() != 1)
    return n.emitError() << "K must hold one integer, got " << kInput.getType();
  int64_t rank = typeOf(x).getRank();
  auto axis = normalizeAxis(n, n.getInt("axis", -1), rank);
  if (!axis)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  OpFoldResult extent = getDims(n, x)[*axis];
  Type i64 = b.getI64Type();
  Value positions = prim::IotaOp::create(b, loc, getTensorType({extent}, i64),
                                         getDynamicExtents(n, {extent}), 0);
  // A negative K is an error (it would give empty outputs); a K past the axis keeps it whole.
  if (auto kValue = getShapeElements(n, kInput); kValue && kValue->size() == 1)
    checkTrue(n,
              b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge,
                                            toIndex(n, (*kValue)[0]),
                                            arith::ConstantIndexOp::create(b, loc, 0)),
              "K must be >= 0");
  Value k = fill(n, reshape(n, convert(n, kInput, i64), {}), {extent});
  Value first = prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, positions, k);
  auto sorted = prim::SortOp::create(b, loc, x, *axis, n.getInt("largest", 1) != 0);
  auto compact = [&](Value v) {
    SmallVector<int64_t> shape(typeOf(v).getShape());
    shape[*axis] = ShapedType::kDynamic;
    return prim::CompactOp::create(b, loc, RankedTensorType::get(shape, typeOf(v).getElementType()),
                                   v, first, *axis)
        .getResult();
  };
  return n.setResults({compact(sorted.getValues()), compact(sorted.getIndices())});
}

LogicalResult topK(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  std::optional<int64_t> k;
  if (n.getVersion() < 10) {
    k = n.getOptionalInt("k");
  } else if (Value kInput = n.getInput(1)) {
    if (auto values = getConstantInts(kInput); values && values->size() == 1)
      k = values->front();
    else
      return topKAtRunTime(n, x, kInput);
  } else {
    return failure();
  }
  if (!k || *k < 0)
    return n.emitError() << "k must be a non-negative integer";
  int64_t rank = typeOf(x).getRank();
  auto axis = normalizeAxis(n, n.getInt("axis", -1), rank);
  if (!axis)
    return failure();
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  if (auto extent = getConstantIntValue(dims[*axis])) {
    if (*k > *extent)
      return n.emitError() << "k (" << *k << ") is larger than the extent " << *extent
                           << " of axis " << *axis;
  } else {
    Value ok = b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::sle,
                                             toIndex(n, b.getIndexAttr(*k)),
                                             toIndex(n, dims[*axis]));
    prim::CheckOp::create(b, n.getLoc(), ok,
                          b.getStringAttr("node '" + n.getNode().getNodeName() +
                                          "' (TopK): k must not exceed the extent of the axis"));
  }
  auto sorted = prim::SortOp::create(b, n.getLoc(), x, *axis, n.getInt("largest", 1) != 0);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes(dims);
  sizes[*axis] = b.getIndexAttr(*k);
  SmallVector<int64_t> strides(rank, 1);
  Value values = b.createOrFold<prim::SliceOp>(n.getLoc(), sorted.getValues(), offsets, sizes, strides);
  Value indices =
      b.createOrFold<prim::SliceOp>(n.getLoc(), sorted.getIndices(), offsets, sizes, strides);
  return n.setResults({values, indices});
}

} // namespace

void tcc::decompose::registerIndexingRules(RuleRegistry &r) {
  r.add("", "Gather", 1, gather);
  r.add("", "GatherElements", 11, gatherElements);
  r.add("", "GatherND", 11, gatherND);
  r.add("", "Scatter", 9, scatterElements); // deprecated: ScatterElements without reduction
  r.add("", "ScatterElements", 11, scatterElements);
  r.add("", "ScatterND", 11, scatterND);
  r.add("", "TopK", 1, topK);
  r.add("", "TopK", 10, topK);
  r.add("", "TopK", 11, topK);
  r.add("", "CumSum", 11, cumulative<prim::ReduceKind::Sum>);
  r.add("", "CumProd", 26, cumulative<prim::ReduceKind::Prod>);
  r.add("", "Trilu", 14, trilu);
}
