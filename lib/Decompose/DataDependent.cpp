//===- DataDependent.cpp - ops whose output extent depends on the data ---------------===//
//
// NonZero, Compress, Unique and NonMaxSuppression: each ends in prim.compact, the one primitive whose result
// extent is known only from the data (generated code writes into a buffer of the operand's
// size and reports the count; see docs/shapes.md, "Data-dependent shapes").
//
//===----------------------------------------------------------------------------------===//
#include "NodeRewriter.h"
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// 0, 1, ..., extent-1 as i64.
Value iota(NodeRewriter &n, OpFoldResult extent) {
  OpBuilder &b = n.getBuilder();
  return prim::IotaOp::create(b, n.getLoc(), getTensorType({extent}, b.getI64Type()),
                              getDynamicExtents(n, {extent}), 0);
}

/// The kept slices of `x` along `dim`: prim.compact.
Value compact(NodeRewriter &n, Value x, Value mask, int64_t dim) {
  SmallVector<int64_t> shape(typeOf(x).getShape());
  shape[dim] = ShapedType::kDynamic;
  return prim::CompactOp::create(n.getBuilder(), n.getLoc(),
                                 RankedTensorType::get(shape, typeOf(x).getElementType()), x,
                                 mask, dim);
}

/// `x != 0` as i1 (bool tensors are their own mask).
Value nonZeroMask(NodeRewriter &n, Value x) {
  if (typeOf(x).getElementType().isInteger(1))
    return x;
  return prim::CompareOp::create(n.getBuilder(), n.getLoc(), prim::CompareDirection::Ne, x,
                                 splatLike(n, x, 0));
}

Value flatten(NodeRewriter &n, Value x) {
  return reshape(n, x, {product(n, getDims(n, x))});
}

/// An index value as a 0-d i64 tensor broadcast to `dims`.
Value splatIndex(NodeRewriter &n, OpFoldResult value, ArrayRef<OpFoldResult> dims) {
  return fill(n, makeShapeTensor(n, {value}, n.getBuilder().getI64Type(), /*scalar=*/true), dims);
}

// NonZero(X) = the coordinates of the non-zero elements of X in row-major order, shape
// [rank, count]: mask[i] = flat(X)[i] != 0, coords[k, i] = (i / stride_k) mod dim_k,
// Y = compact(coords, mask, dim 1). A 0-d X counts as 1-d (NumPy's nonzero).
LogicalResult nonZero(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  if (typeOf(x).getRank() == 0)
    x = reshape(n, x, {n.getBuilder().getIndexAttr(1)});
  SmallVector<OpFoldResult> dims = getDims(n, x);
  int64_t rank = dims.size();
  OpFoldResult count = product(n, dims);
  Value i = iota(n, count);
  SmallVector<Value> rows;
  OpFoldResult stride = n.getBuilder().getIndexAttr(1);
  for (int64_t k = rank - 1; k >= 0; --k) {
    Value row = prim::DivOp::create(n.getBuilder(), n.getLoc(), i, splatIndex(n, stride, {count}));
    row = prim::RemOp::create(n.getBuilder(), n.getLoc(), row, splatIndex(n, dims[k], {count}));
    rows.insert(rows.begin(), reshape(n, row, {n.getBuilder().getIndexAttr(1), count}));
    stride = mulIndex(n, stride, dims[k]);
  }
  Value coords = rows.size() == 1 ? rows.front()
                                  : Value(prim::ConcatenateOp::create(n.getBuilder(), n.getLoc(),
                                                                      rows, 0));
  return n.setResults({compact(n, coords, nonZeroMask(n, flatten(n, x)), 1)});
}

// Compress(input, condition, axis) = the slices input[..., i, ...] along axis (of the
// flattened input without axis) with condition[i] true; slices past the condition's length
// are dropped (it may be shorter than the axis, never longer).
LogicalResult compress(NodeRewriter &n) {
  Value x = n.getInput(0), condition = n.getInput(1);
  if (!x || !condition)
    return failure();
  if (typeOf(condition).getRank() != 1 || !typeOf(condition).getElementType().isInteger(1))
    return n.emitError() << "condition must be a 1-D bool tensor, got " << condition.getType();
  int64_t axis = 0;
  if (std::optional<int64_t> attr = n.getOptionalInt("axis")) {
    std::optional<int64_t> normalized = normalizeAxis(n, *attr, typeOf(x).getRank());
    if (!normalized)
      return failure();
    axis = *normalized;
  } else {
    x = flatten(n, x);
  }
  SmallVector<OpFoldResult> dims = getDims(n, x);
  OpFoldResult length = getDims(n, condition)[0];
  std::optional<int64_t> staticLength = getConstantIntValue(length);
  std::optional<int64_t> staticExtent = getConstantIntValue(dims[axis]);
  if (staticLength && staticExtent && *staticLength > *staticExtent)
    return n.emitError() << "condition has " << *staticLength << " entries but axis " << axis
                         << " of the input has only " << *staticExtent;
  if (!sameExtent(length, dims[axis])) {
    OpBuilder &b = n.getBuilder();
    if (!staticLength || !staticExtent) {
      Value ok = b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::sle,
                                               toIndex(n, length), toIndex(n, dims[axis]));
      prim::CheckOp::create(b, n.getLoc(), ok,
                            b.getStringAttr("node '" + n.getNode().getNodeName() +
                                            "' (Compress): the condition must not be longer "
                                            "than the input's axis"));
    }
    SmallVector<OpFoldResult> offsets(dims.size(), b.getIndexAttr(0)), sizes(dims);
    sizes[axis] = length;
    x = b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes,
                                      SmallVector<int64_t>(dims.size(), 1));
  }
  return n.setResults({compact(n, x, condition, axis)});
}

/// A stable order of the rows of `rows` ([N, K]) in lexicographic order: K stable sorts,
/// least significant column first (LSD radix order over columns).
Value sortRows(NodeRewriter &n, Value rows, int64_t columns, OpFoldResult count) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value order = iota(n, count);
  for (int64_t k = columns - 1; k >= 0; --k) {
    Value column = b.createOrFold<prim::SliceOp>(
        loc, rows, SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(k)},
        SmallVector<OpFoldResult>{count, b.getIndexAttr(1)}, SmallVector<int64_t>{1, 1});
    column = reshape(n, column, {count});
    Value keys = prim::GatherOp::create(b, loc, column, order, 0);
    auto sorted = prim::SortOp::create(b, loc, keys, 0, /*descending=*/false);
    order = prim::GatherOp::create(b, loc, order, sorted.getIndices(), 0);
  }
  return order;
}

/// `values` ([N], i64) scattered into a zero tensor of `extent` at `positions` ([N]).
Value scatterInto(NodeRewriter &n, OpFoldResult extent, Value positions, Value values) {
  OpBuilder &b = n.getBuilder();
  Type element = typeOf(values).getElementType();
  Value zeros = fill(n, scalarConstant(n, element, 0), {extent});
  Value rows = reshape(n, positions, {getDims(n, positions)[0], b.getIndexAttr(1)});
  return prim::ScatterOp::create(b, n.getLoc(), zeros.getType(), zeros, rows, values,
                                 prim::ReduceKindAttr());
}

constexpr int64_t kMaxUniqueSliceElements = 256;

// Unique(X, axis, sorted): with the slices of X along axis as rows R[N, K] (elements of the
// flattened X without axis), perm = stable lexicographic order of the rows, S = R[perm];
// m[j] = (j == 0) or S[j] != S[j-1] marks the first row of each run of equal rows,
// r = cumsum(m) - 1 the run of each sorted row, starts = compact(iota, m).
//   sorted=1: Y = compact(S, m), indices = compact(perm, m) (the first occurrence: the sort
//             is stable), inverse[perm[j]] = r[j], counts[r] = #{j : r[j] = r}.
//   sorted=0: runs in order of first occurrence: first[perm[j]] = m[j], Y = compact(R, first),
//             indices = compact(iota, first), place[run] = (cumsum(first) - 1)[first index
//             of the run], inverse = place[inverse_sorted], counts[place[r]] = counts_sorted[r].
LogicalResult unique(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type i64 = b.getI64Type();
  bool sortedOutput = n.getInt("sorted", 1) != 0;
  std::optional<int64_t> axis;
  if (std::optional<int64_t> attr = n.getOptionalInt("axis")) {
    axis = normalizeAxis(n, *attr, typeOf(x).getRank());
    if (!axis)
      return failure();
  }
  // Rows R[N, K]: the axis moved to the front, the rest flattened.
  Value moved = x;
  SmallVector<int64_t> permutation;
  if (axis) {
    int64_t rank = typeOf(x).getRank();
    permutation.push_back(*axis);
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis)
        permutation.push_back(d);
    if (*axis != 0)
      moved = prim::TransposeOp::create(b, loc, moved, permutation);
  } else {
    moved = flatten(n, x);
  }
  SmallVector<OpFoldResult> movedDims = getDims(n, moved);
  OpFoldResult count = movedDims[0];
  SmallVector<OpFoldResult> rest(movedDims.begin() + 1, movedDims.end());
  OpFoldResult columns = product(n, rest);
  std::optional<int64_t> staticColumns = getConstantIntValue(columns);
  if (!staticColumns)
    return n.emitError() << "Unique along an axis needs the other dims static (each slice is "
                            "compared element by element)";
  if (*staticColumns > kMaxUniqueSliceElements)
    return n.emitError() << "Unique along an axis compares slices of " << *staticColumns
                         << " elements with one sort per element; tcc's limit is "
                         << kMaxUniqueSliceElements;
  Value rows = reshape(n, moved, {count, columns});

  Value perm;
  if (*staticColumns == 1)
    perm = prim::SortOp::create(b, loc, reshape(n, rows, {count}), 0, false).getIndices();
  else
    perm = sortRows(n, rows, *staticColumns, count);
  Value sortedRows = prim::GatherOp::create(b, loc, rows, perm, 0);
  // m[j]: row j of S differs from row j-1 (or j == 0).
  SmallVector<OpFoldResult> rowsDims = getDims(n, sortedRows);
  Value previous = prim::ConcatenateOp::create(
      b, loc,
      ValueRange{b.createOrFold<prim::SliceOp>(
                     loc, sortedRows, SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
                     SmallVector<OpFoldResult>{minIndex(n, count, b.getIndexAttr(1)), columns},
                     SmallVector<int64_t>{1, 1}),
                 b.createOrFold<prim::SliceOp>(
                     loc, sortedRows, SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
                     SmallVector<OpFoldResult>{maxIndex(n, subIndex(n, count, b.getIndexAttr(1)),
                                                        b.getIndexAttr(0)),
                                               columns},
                     SmallVector<int64_t>{1, 1})},
      0);
  Value differs = prim::CompareOp::create(b, loc, prim::CompareDirection::Ne, sortedRows,
                                          reshape(n, previous, rowsDims));
  differs = prim::ReduceOp::create(b, loc, prim::ReduceKind::Or, differs, ArrayRef<int64_t>{1});
  Value positions = iota(n, count);
  Value isStart = prim::OrOp::create(
      b, loc, differs,
      prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, positions,
                              splatLike(n, positions, 0)));
  Value run = prim::CumulativeOp::create(b, loc, prim::ReduceKind::Sum, convert(n, isStart, i64), 0);
  run = prim::SubOp::create(b, loc, run, splatLike(n, run, 1));
  // Every intermediate keeps the full length N (runs r < U in front); only the outputs are
  // compacted, so each is the compaction's own result. counts_sorted[r] = number of sorted
  // rows in run r (a scatter-add of ones); kept = iota < U selects the first U entries.
  Value uniques = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, convert(n, isStart, i64),
                                         ArrayRef<int64_t>{0});
  Value firstU = prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, positions,
                                         fill(n, uniques, {count}));
  Value ones = splatLike(n, positions, 1);
  Value countsSorted = prim::ScatterOp::create(
      b, loc, ones.getType(), splatLike(n, positions, 0),
      reshape(n, run, {count, b.getIndexAttr(1)}), ones,
      prim::ReduceKindAttr::get(b.getContext(), prim::ReduceKind::Sum));
  Value inverseSorted = scatterInto(n, count, perm, run);

  // Y is compacted in the input's own layout (the flattened input without axis), so that it
  // is the compaction's result itself: what a data-dependent output must be.
  Value source = axis ? x : flatten(n, x);
  int64_t sourceDim = axis ? *axis : 0;
  Value y, indices, inverse, counts;
  if (sortedOutput) {
    y = compact(n, prim::GatherOp::create(b, loc, source, perm, sourceDim), isStart, sourceDim);
    indices = compact(n, perm, isStart, 0);
    inverse = inverseSorted;
    counts = compact(n, countsSorted, firstU, 0);
  } else {
    // first[i]: i is the first occurrence of its row; rank = its place among them.
    Value first = convert(n, scatterInto(n, count, perm, convert(n, isStart, i64)),
                          b.getI1Type());
    y = compact(n, source, first, sourceDim);
    indices = compact(n, positions, first, 0);
    Value rank = prim::CumulativeOp::create(b, loc, prim::ReduceKind::Sum, convert(n, first, i64), 0);
    rank = prim::SubOp::create(b, loc, rank, splatLike(n, rank, 1));
    // The output place of sorted row j's run: rank[perm[start of j's run]], the start being
    // cummax(isStart ? j : 0).
    Value runStart = prim::CumulativeOp::create(
        b, loc, prim::ReduceKind::Max,
        prim::SelectOp::create(b, loc, isStart, positions, splatLike(n, positions, 0)), 0);
    Value place = prim::GatherOp::create(
        b, loc, rank, prim::GatherOp::create(b, loc, perm, runStart, 0), 0);
    Value placeOfRun = scatterInto(n, count, run, place);
    inverse = prim::GatherOp::create(b, loc, placeOfRun, inverseSorted, 0);
    // counts[place] = counts_sorted[run], written once per run (rows that are not a run's
    // start get the out-of-range place N and are skipped).
    Value startPlace = prim::SelectOp::create(b, loc, isStart, place,
                                              splatIndex(n, count, {count}));
    Value countsFirst = scatterInto(n, count, startPlace,
                                    prim::GatherOp::create(b, loc, countsSorted, run, 0));
    counts = compact(n, countsFirst, firstU, 0);
  }
  return n.setResults({y, indices, inverse, counts});
}

constexpr int64_t kMaxNmsBoxes = 256;

// NonMaxSuppression(boxes [B, N, 4], scores [B, C, N], max_output_boxes_per_class, iou_threshold,
// score_threshold) -> selected_indices [K, 3] rows (b, c, box), as ONNX Runtime computes it:
// per (b, c) the boxes in order of descending score (ties: lower index first) with
// score > score_threshold are visited greedily; box p is kept when fewer than max_output
// boxes are kept already and IoU(p, q) <= iou_threshold for every kept q. With the corners
// of a box its min/max along each axis (corner format [y1, x1, y2, x2] in any order, or
// center format [xc, yc, w, h]): inter = max(0, min(max) - max(min)) per axis, multiplied;
// IoU = inter / (area_p + area_q - inter), and a pair with inter, an area or the union <= 0
// never suppresses. The greedy visit is unrolled over the N (static) sorted positions:
// keep_p = valid_p and count(keep_<p) < max_output and not any_q<p (keep_q and IoU > t).
LogicalResult nonMaxSuppression(NodeRewriter &n) {
  Value boxes = n.getFloatInput(0), scores = n.getFloatInput(1);
  if (!boxes || !scores)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  auto boxesType = typeOf(boxes), scoresType = typeOf(scores);
  if (boxesType.getRank() != 3 || scoresType.getRank() != 3)
    return n.emitError() << "boxes must be [batch, boxes, 4] and scores [batch, classes, boxes]";
  SmallVector<OpFoldResult> boxDims = getDims(n, boxes), scoreDims = getDims(n, scores);
  std::optional<int64_t> count = getConstantIntValue(boxDims[1]);
  if (!count || getConstantIntValue(boxDims[2]) != 4)
    return n.emitError() << "the number of boxes must be static and each box 4 numbers, got "
                         << boxes.getType();
  if (*count > kMaxNmsBoxes)
    return n.emitError() << "NonMaxSuppression over " << *count
                         << " boxes: the greedy selection is unrolled over the boxes, up to "
                         << kMaxNmsBoxes << " (longer needs a run-time loop, which tcc lacks)";
  checkEqual(n, scoreDims[0], boxDims[0], "scores and boxes must have the same batch");
  checkEqual(n, scoreDims[2], boxDims[1], "scores must have one score per box");
  if (n.hasFailed())
    return failure();
  int64_t numBoxes = *count;
  bool center = n.getInt("center_point_box", 0) != 0;
  Type f32 = b.getF32Type(), i64 = b.getI64Type();
  boxes = convert(n, boxes, f32);
  scores = convert(n, scores, f32);
  OpFoldResult batch = boxDims[0], classes = scoreDims[1];
  OpFoldResult boxCount = b.getIndexAttr(numBoxes);
  // A scalar input (shape [1] or []) broadcast to [B, C], or `fallback` when absent.
  auto scalarInput = [&](unsigned index, Type type, double fallback) -> Value {
    Value v = n.getOptionalInput(index);
    if (!v)
      return fill(n, scalarConstant(n, type, fallback), {batch, classes});
    v = reshape(n, convert(n, v, type), {});
    return fill(n, v, {batch, classes});
  };
  Value maxOutput = scalarInput(2, i64, 0);
  Value iouThreshold = scalarInput(3, f32, 0);
  Value scoreThreshold = n.getOptionalInput(4) ? scalarInput(4, f32, 0) : Value();

  // Each box's extent along the two axes, [B, N].
  auto coordinate = [&](int64_t k) {
    Value c = b.createOrFold<prim::SliceOp>(
        loc, boxes, SmallVector<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(k)},
        SmallVector<OpFoldResult>{batch, boxCount, b.getIndexAttr(1)}, SmallVector<int64_t>{1, 1, 1});
    return reshape(n, c, {batch, boxCount});
  };
  Value lo[2], hi[2];
  if (center) {
    Value half = scalarConstant(n, f32, 0.5);
    for (int axis = 0; axis < 2; ++axis) {
      Value middle = coordinate(axis), size = buildBinary<prim::MulOp>(n, coordinate(axis + 2), half);
      lo[axis] = buildBinary<prim::SubOp>(n, middle, size);
      hi[axis] = buildBinary<prim::AddOp>(n, middle, size);
    }
  } else {
    for (int axis = 0; axis < 2; ++axis) {
      Value a = coordinate(axis), c = coordinate(axis + 2);
      lo[axis] = buildBinary<prim::MinOp>(n, a, c);
      hi[axis] = buildBinary<prim::MaxOp>(n, a, c);
    }
  }
  // Sorted order per (b, c): [B, C, N] box indices, best first.
  auto sorted = prim::SortOp::create(b, loc, scores, 2, /*descending=*/true);
  Value order = sorted.getIndices();
  // take_along: v[b, order[b, c, p]] through a linear index b * N + order.
  Value batchIndex = prim::IotaOp::create(b, loc, getTensorType({batch, classes, boxCount}, i64),
                                          getDynamicExtents(n, {batch, classes, boxCount}), 0);
  Value linear = buildBinary<prim::AddOp>(
      n, buildBinary<prim::MulOp>(n, batchIndex, scalarConstant(n, i64, numBoxes)), order);
  auto takeSorted = [&](Value perBox) {
    return prim::GatherOp::create(b, loc, flatten(n, perBox), linear, 0).getResult();
  };
  Value sortedLo[2], sortedHi[2];
  for (int axis = 0; axis < 2; ++axis) {
    sortedLo[axis] = takeSorted(lo[axis]);
    sortedHi[axis] = takeSorted(hi[axis]);
  }
  // Pairwise [B, C, N(q), N(p)].
  SmallVector<OpFoldResult> pairDims{batch, classes, boxCount, boxCount};
  auto asQ = [&](Value v) { return reshape(n, v, {batch, classes, boxCount, b.getIndexAttr(1)}); };
  auto asP = [&](Value v) { return reshape(n, v, {batch, classes, b.getIndexAttr(1), boxCount}); };
  Value zero = scalarConstant(n, f32, 0);
  Value inter, areaQ, areaP;
  for (int axis = 0; axis < 2; ++axis) {
    Value overlap = buildBinary<prim::SubOp>(
        n, buildBinary<prim::MinOp>(n, asQ(sortedHi[axis]), asP(sortedHi[axis])),
        buildBinary<prim::MaxOp>(n, asQ(sortedLo[axis]), asP(sortedLo[axis])));
    overlap = buildBinary<prim::MaxOp>(n, overlap, zero);
    inter = inter ? buildBinary<prim::MulOp>(n, inter, overlap) : overlap;
    Value extent = buildBinary<prim::SubOp>(n, sortedHi[axis], sortedLo[axis]);
    areaQ = areaQ ? buildBinary<prim::MulOp>(n, areaQ, asQ(extent)) : asQ(extent);
    areaP = areaP ? buildBinary<prim::MulOp>(n, areaP, asP(extent)) : asP(extent);
  }
  Value unionArea = buildBinary<prim::SubOp>(n, buildBinary<prim::AddOp>(n, areaQ, areaP), inter);
  auto positive = [&](Value v) {
    v = broadcastTo(n, v, pairDims);
    return prim::CompareOp::create(b, loc, prim::CompareDirection::Gt, v, splatLike(n, v, 0))
        .getResult();
  };
  Value meaningful = prim::AndOp::create(
      b, loc, prim::AndOp::create(b, loc, positive(inter), positive(areaQ)),
      prim::AndOp::create(b, loc, positive(areaP), positive(unionArea)));
  // IoU = inter / union, compared with t where the pair is meaningful.
  Value threshold = reshape(n, iouThreshold, {batch, classes, b.getIndexAttr(1), b.getIndexAttr(1)});
  Value suppresses = prim::AndOp::create(
      b, loc, meaningful,
      prim::CompareOp::create(b, loc, prim::CompareDirection::Gt,
                              buildBinary<prim::DivOp>(n, broadcastTo(n, inter, pairDims),
                                                       broadcastTo(n, unionArea, pairDims)),
                              broadcastTo(n, threshold, pairDims)));

  Value valid;
  if (scoreThreshold)
    valid = prim::CompareOp::create(
        b, loc, prim::CompareDirection::Gt, sorted.getValues(),
        broadcastTo(n, reshape(n, scoreThreshold, {batch, classes, b.getIndexAttr(1)}),
                    {batch, classes, boxCount}));
  // The unrolled greedy visit; keep is [B, C, N] i64 (0/1), filled position by position.
  SmallVector<OpFoldResult> keepDims{batch, classes, boxCount};
  Value keep = fill(n, scalarConstant(n, i64, 0), keepDims);
  Value positions = prim::IotaOp::create(b, loc, getTensorType(keepDims, i64),
                                         getDynamicExtents(n, keepDims), 2);
  for (int64_t p = 0; p < numBoxes; ++p) {
    auto columnP = [&](Value v, int64_t rank) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes = getDims(n, v);
      offsets.back() = b.getIndexAttr(p);
      sizes.back() = b.getIndexAttr(1);
      Value c = b.createOrFold<prim::SliceOp>(loc, v, offsets, sizes, SmallVector<int64_t>(rank, 1));
      SmallVector<OpFoldResult> dims = getDims(n, c);
      dims.pop_back();
      return reshape(n, c, dims);
    };
    // suppressed: some kept q (< p) overlaps p too much.
    Value hits = prim::AndOp::create(b, loc, columnP(suppresses, 4),
                                     prim::CompareOp::create(b, loc, prim::CompareDirection::Ne,
                                                             keep, splatLike(n, keep, 0)));
    Value suppressed = prim::ReduceOp::create(b, loc, prim::ReduceKind::Or, hits, ArrayRef<int64_t>{2});
    Value kept = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, keep, ArrayRef<int64_t>{2});
    Value take = prim::AndOp::create(
        b, loc, prim::NotOp::create(b, loc, suppressed),
        prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, kept, maxOutput));
    if (valid)
      take = prim::AndOp::create(b, loc, take, columnP(valid, 3));
    Value atP = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, positions,
                                        splatLike(n, positions, p));
    Value set = prim::AndOp::create(
        b, loc, atP, broadcastTo(n, reshape(n, take, {batch, classes, b.getIndexAttr(1)}), keepDims));
    keep = prim::SelectOp::create(b, loc, set, splatLike(n, keep, 1), keep);
  }
  // Rows (b, c, box) of the kept positions in (b, c, rank) order.
  SmallVector<Value> fields{
      batchIndex,
      prim::IotaOp::create(b, loc, getTensorType(keepDims, i64), getDynamicExtents(n, keepDims), 1),
      order};
  OpFoldResult rows = product(n, keepDims);
  SmallVector<Value> columns;
  for (Value field : fields)
    columns.push_back(reshape(n, field, {rows, b.getIndexAttr(1)}));
  Value triples = prim::ConcatenateOp::create(b, loc, columns, 1);
  Value mask = prim::CompareOp::create(b, loc, prim::CompareDirection::Ne, flatten(n, keep),
                                       splatLike(n, flatten(n, keep), 0));
  return n.setResults({compact(n, triples, mask, 0)});
}

} // namespace

void tcc::decompose::registerDataDependentRules(RuleRegistry &r) {
  r.add("", "NonZero", 9, nonZero);
  r.add("", "NonZero", 13, nonZero); // bfloat16
  r.add("", "Compress", 9, compress);
  r.add("", "Compress", 11, compress);
  r.add("", "Unique", 11, unique);
  r.add("", "NonMaxSuppression", 10, nonMaxSuppression);
  r.add("", "NonMaxSuppression", 11, nonMaxSuppression); // center_point_box semantics fixed
}
