//===- DataMovementVjp.cpp - VJP rules of the data movement prims ----------------------===//
//
// Data movement is linear: each VJP moves the cotangent back (the transpose of the op).
//
//===----------------------------------------------------------------------------------===//
#include "VjpRules.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <numeric>

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

namespace {

using Cts = ArrayRef<Value>;
using Out = MutableArrayRef<Value>;

// broadcast_in_dim(x, dims): dx = sum of g over the result dims no operand dim maps to, and
// over the mapped dims where x has extent 1 (kept, as extent 1).
LogicalResult broadcastRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto bcast = cast<prim::BroadcastInDimOp>(op);
  Value x = bcast.getOperand();
  ArrayRef<int64_t> mapping = bcast.getBroadcastDimensions();
  RankedTensorType xType = VjpBuilder::typeOf(x), yType = VjpBuilder::typeOf(op->getResult(0));
  SmallVector<int64_t> reduced;
  for (int64_t j = 0; j < yType.getRank(); ++j) {
    auto it = llvm::find(mapping, j);
    if (it == mapping.end() ||
        (xType.getDimSize(it - mapping.begin()) == 1 && yType.getDimSize(j) != 1))
      reduced.push_back(j);
  }
  d[0] = b.reshape(b.sum(g[0], reduced), b.dims(x));
  return success();
}

// reshape: dx = reshape(g, shape(x))
LogicalResult reshapeRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value x = op->getOperand(0);
  d[0] = b.reshape(g[0], b.dims(x));
  if (d[0].getType() != x.getType()) // static dims the result type had as `?`
    d[0] = prim::ReshapeOp::create(b.b, b.loc, x.getType(), g[0], prim::dynamicExtents(b.dims(x)));
  return success();
}

// transpose(x, p): dx = transpose(g, p^-1)
LogicalResult transposeRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  ArrayRef<int64_t> perm = cast<prim::TransposeOp>(op).getPermutation();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  d[0] = prim::TransposeOp::create(b.b, b.loc, g[0], inverse);
  return success();
}

// reverse(x, dims): dx = reverse(g, dims)
LogicalResult reverseRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  d[0] = prim::ReverseOp::create(b.b, b.loc, g[0], cast<prim::ReverseOp>(op).getDimensions());
  return success();
}

// slice(x, offsets, sizes, strides): dx = zeros with dx[offsets + i * strides] = g[i] (the
// transpose of the slice, built per dim by interleaving stride - 1 zeros and concatenating
// zeros before and after; extents may be dynamic).
LogicalResult sliceRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto slice = cast<prim::SliceOp>(op);
  Value x = slice.getOperand();
  SmallVector<OpFoldResult> xDims = b.dims(x), offsets = slice.getMixedOffsets(),
                            sizes = slice.getMixedSizes();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  Value grad = g[0];
  for (int64_t dim = 0; dim < static_cast<int64_t>(xDims.size()); ++dim) {
    std::optional<int64_t> offset = getConstantIntValue(offsets[dim]);
    if (offset == 0 && strides[dim] == 1 && getConstantIntValue(sizes[dim]) &&
        getConstantIntValue(sizes[dim]) == getConstantIntValue(xDims[dim]))
      continue;
    grad = b.placeStrided(grad, dim, offsets[dim], strides[dim], xDims[dim]);
  }
  d[0] = b.castTo(grad, x.getType());
  return success();
}

// pad(x, v, low, high): dx = g[low : low + extent(x)], dv = sum(g) - sum(dx)
// (prim.pad's paddings are non-negative: its type inference rejects others.)
LogicalResult padRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto pad = cast<prim::PadOp>(op);
  Value x = pad.getOperand();
  SmallVector<OpFoldResult> offsets, sizes = b.dims(x);
  for (int64_t low : pad.getLow())
    offsets.push_back(b.b.getIndexAttr(low));
  d[0] = b.castTo(b.b.createOrFold<prim::SliceOp>(b.loc, g[0], offsets, sizes,
                                                  SmallVector<int64_t>(sizes.size(), 1)),
                  x.getType());
  SmallVector<int64_t> all(sizes.size());
  std::iota(all.begin(), all.end(), 0);
  d[1] = b.sub(b.sum(g[0], all), b.sum(d[0], all));
  return success();
}

// concatenate(x_0, ..., dim): dx_i = g[..., offset_i : offset_i + extent_i, ...]
LogicalResult concatenateRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  int64_t dim = cast<prim::ConcatenateOp>(op).getDimension();
  OpFoldResult offset = b.b.getIndexAttr(0);
  for (auto [i, x] : llvm::enumerate(op->getOperands())) {
    SmallVector<OpFoldResult> sizes = b.dims(x), offsets(sizes.size(), b.b.getIndexAttr(0));
    offsets[dim] = offset;
    d[i] = b.b.createOrFold<prim::SliceOp>(b.loc, g[0], offsets, sizes,
                                           SmallVector<int64_t>(sizes.size(), 1));
    if (d[i].getType() != x.getType())
      d[i] = prim::ReshapeOp::create(b.b, b.loc, x.getType(), d[i], prim::dynamicExtents(sizes));
    offset = getAsOpFoldResult(
        arith::AddIOp::create(b.b, b.loc, getValueOrCreateConstantIndexOp(b.b, b.loc, offset),
                              getValueOrCreateConstantIndexOp(b.b, b.loc, sizes[dim])));
  }
  return success();
}

// gather(x, idx, axis): y[a..., j..., c...] = x[a..., idx[j...], c...];
// dx = scatter-add of g into zeros at the gathered rows: with the axis moved to the front
// (x' = transpose(x)), dx'[idx[j], a..., c...] += g'[j..., a..., c...].
LogicalResult gatherRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto gather = cast<prim::GatherOp>(op);
  Value x = gather.getOperand(), indices = gather.getIndices();
  int64_t axis = gather.getAxis(), rank = VjpBuilder::typeOf(x).getRank();
  int64_t idxRank = VjpBuilder::typeOf(indices).getRank();
  // x' dims: axis, then the others in order.
  SmallVector<int64_t> toFront{axis};
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      toFront.push_back(i);
  // g dims: a (axis of them), j (idxRank), c (rank - axis - 1) -> j..., a..., c...
  SmallVector<int64_t> gPerm;
  for (int64_t i = 0; i < idxRank; ++i)
    gPerm.push_back(axis + i);
  for (int64_t i = 0; i < axis; ++i)
    gPerm.push_back(i);
  for (int64_t i = axis + idxRank; i < axis + idxRank + rank - axis - 1; ++i)
    gPerm.push_back(i);
  Value gMoved = prim::TransposeOp::create(b.b, b.loc, g[0], gPerm);
  Value xMoved = prim::TransposeOp::create(b.b, b.loc, x, toFront);
  SmallVector<OpFoldResult> idxDims = b.dims(indices);
  SmallVector<OpFoldResult> rows(idxDims);
  rows.push_back(b.b.getIndexAttr(1));
  Value tuples = b.reshape(indices, rows);
  Value zeros = b.splat(xMoved, 0);
  Value scattered =
      prim::ScatterOp::create(b.b, b.loc, zeros.getType(), zeros, tuples, gMoved,
                              prim::ReduceKindAttr::get(b.b.getContext(), prim::ReduceKind::Sum));
  SmallVector<int64_t> back(rank);
  for (auto [i, p] : llvm::enumerate(toFront))
    back[p] = i;
  d[0] = prim::TransposeOp::create(b.b, b.loc, scattered, back);
  return success();
}

/// The permutation that moves `dim` to the front, the others in order.
SmallVector<int64_t> dimToFront(int64_t dim, int64_t rank) {
  SmallVector<int64_t> perm{dim};
  for (int64_t i = 0; i < rank; ++i)
    if (i != dim)
      perm.push_back(i);
  return perm;
}

SmallVector<int64_t> inversePermutation(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return inverse;
}

// scatter(x, t, u), rows b in order:
//   combine sum:  dx = g;  du[b] = g[t_b] (0 for a row out of range)
//   combine none: dx = g where no row wrote, 0 where one did;  du[b] = g[t_b] for the row that
//                 wrote t_b last (it alone reaches the result), 0 for rows overwritten later
//                 or out of range. The last writer of each place is found by scattering the
//                 row numbers (last write wins) and reading them back at each row's tuple.
LogicalResult scatterRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto scatter = cast<prim::ScatterOp>(op);
  std::optional<prim::ReduceKind> combine = scatter.getCombine();
  if (combine && *combine != prim::ReduceKind::Sum) {
    op->emitError() << nodePrefix(op) << "the VJP of prim.scatter with combine = "
                    << prim::stringifyReduceKind(*combine)
                    << " is not implemented (only none and sum)";
    return failure();
  }
  Value x = scatter.getOperand(), indices = scatter.getIndices(), updates = scatter.getUpdates();
  SmallVector<OpFoldResult> xDims = b.dims(x), iDims = b.dims(indices);
  int64_t k = VjpBuilder::typeOf(indices).getShape().back();
  Type i64 = b.b.getI64Type();
  // The index tuples as rows [R, K] of i64.
  SmallVector<OpFoldResult> rowDims{b.product(ArrayRef(iDims).drop_back())};
  Value tuples = b.convert(b.reshape(indices, {rowDims[0], b.b.getIndexAttr(k)}), i64);
  // Each row's place as a row-major linear index into x's first K dims, and whether it is in
  // range (rows out of range are skipped by the op).
  Value linear, valid;
  OpFoldResult places = b.b.getIndexAttr(1);
  for (int64_t dim = k - 1; dim >= 0; --dim) {
    Value column =
        b.reshape(b.slice(tuples, 1, b.b.getIndexAttr(dim), b.b.getIndexAttr(1)), rowDims);
    Value inRange = b.create<prim::AndOp>(
        b.cmp(prim::CompareDirection::Ge, column, b.indexTensor(b.b.getIndexAttr(0), rowDims)),
        b.cmp(prim::CompareDirection::Lt, column, b.indexTensor(xDims[dim], rowDims)));
    valid = valid ? b.create<prim::AndOp>(valid, inRange) : inRange;
    Value term =
        getConstantIntValue(places) == 1 ? column : b.mul(column, b.indexTensor(places, rowDims));
    linear = linear ? b.add(linear, term) : term;
    places = b.mulIndex(places, xDims[dim]);
  }
  if (getConstantIntValue(places) == 0) { // nothing can be written
    d[0] = g[0];
    d[2] = b.splat(updates, 0);
    return success();
  }
  Value safe = b.select(valid, linear, b.indexTensor(b.b.getIndexAttr(0), rowDims));
  SmallVector<OpFoldResult> flatDims{places};
  llvm::append_range(flatDims, ArrayRef(xDims).drop_front(k));
  Value gathered = prim::GatherOp::create(b.b, b.loc, b.reshape(g[0], flatDims), safe, 0);
  Value keep = valid;
  if (!combine) {
    SmallVector<OpFoldResult> placeDims(xDims.begin(), xDims.begin() + k);
    Value rowIds = b.iota(rowDims, 0, i64);
    Value none = b.indexTensor(b.b.getIndexAttr(-1), placeDims);
    Value writer = prim::ScatterOp::create(b.b, b.loc, none.getType(), none, tuples, rowIds,
                                           prim::ReduceKindAttr());
    Value last = prim::GatherOp::create(b.b, b.loc, b.reshape(writer, {places}), safe, 0);
    keep = b.create<prim::AndOp>(keep, b.cmp(prim::CompareDirection::Eq, last, rowIds));
    Value written = b.cmp(prim::CompareDirection::Ge, writer,
                              b.indexTensor(b.b.getIndexAttr(0), placeDims));
    SmallVector<int64_t> leading(k);
    std::iota(leading.begin(), leading.end(), 0);
    d[0] = b.select(b.broadcast(written, leading, xDims), b.splat(g[0], 0), g[0]);
  } else {
    d[0] = g[0];
  }
  Value kept = b.select(b.broadcast(keep, {0}, b.dims(gathered)), gathered, b.splat(gathered, 0));
  d[2] = b.castTo(b.reshape(kept, b.dims(updates)), updates.getType());
  return success();
}

// compact(x, mask, dim): dx = zeros with dx[..., p_r, ...] = g[..., r, ...], p = the kept
// positions (compact(iota, mask)): a scatter along dim moved to the front.
LogicalResult compactRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto compact = cast<prim::CompactOp>(op);
  Value x = compact.getOperand(), mask = compact.getMask();
  int64_t dim = compact.getDimension(), rank = VjpBuilder::typeOf(x).getRank();
  Type i64 = b.b.getI64Type();
  Value positions =
      prim::CompactOp::create(b.b, b.loc, RankedTensorType::get({ShapedType::kDynamic}, i64),
                              b.iota(b.dims(mask), 0, i64), mask, 0);
  Value tuples = b.reshape(positions, {b.dims(positions)[0], b.b.getIndexAttr(1)});
  SmallVector<int64_t> toFront = dimToFront(dim, rank);
  SmallVector<OpFoldResult> xDims = b.dims(x), movedDims;
  for (int64_t p : toFront)
    movedDims.push_back(xDims[p]);
  Value zeros = b.zeros(movedDims, VjpBuilder::typeOf(x).getElementType());
  Value gMoved = prim::TransposeOp::create(b.b, b.loc, g[0], toFront);
  Value scattered = prim::ScatterOp::create(b.b, b.loc, zeros.getType(), zeros, tuples, gMoved,
                                            prim::ReduceKindAttr());
  d[0] = b.castTo(prim::TransposeOp::create(b.b, b.loc, scattered, inversePermutation(toFront)),
                  x.getType());
  return success();
}

} // namespace

void tcc::autodiff::registerDataMovementVjps(VjpRegistry &r) {
  r.add("prim.broadcast_in_dim", broadcastRule);
  r.add("prim.reshape", reshapeRule);
  r.add("prim.transpose", transposeRule);
  r.add("prim.reverse", reverseRule);
  r.add("prim.slice", sliceRule);
  r.add("prim.pad", padRule);
  r.add("prim.concatenate", concatenateRule);
  r.add("prim.gather", gatherRule);
  r.add("prim.scatter", scatterRule);
  r.add("prim.compact", compactRule);
}
