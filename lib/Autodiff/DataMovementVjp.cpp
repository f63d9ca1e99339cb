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
    d[0] = prim::ReshapeOp::create(b.b, b.loc, x.getType(), g[0], b.dynamic(b.dims(x)));
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

// slice(x, offsets, sizes, strides 1): dx = g placed at offsets in zeros (zeros concatenated
// before and after along each sliced dim; extents may be dynamic).
LogicalResult sliceRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto slice = cast<prim::SliceOp>(op);
  if (llvm::any_of(slice.getStaticStrides(), [](int64_t s) { return s != 1; })) {
    op->emitError() << "the VJP of a strided prim.slice is not implemented yet";
    return failure();
  }
  Value x = slice.getOperand();
  SmallVector<OpFoldResult> xDims = b.dims(x), offsets = slice.getMixedOffsets(),
                            sizes = slice.getMixedSizes();
  Value grad = g[0];
  for (int64_t dim = 0; dim < static_cast<int64_t>(xDims.size()); ++dim) {
    std::optional<int64_t> offset = getConstantIntValue(offsets[dim]);
    if (offset == 0 && getConstantIntValue(sizes[dim]) &&
        getConstantIntValue(sizes[dim]) == getConstantIntValue(xDims[dim]))
      continue;
    SmallVector<OpFoldResult> gDims = b.dims(grad);
    auto index = [&](OpFoldResult v) { return getValueOrCreateConstantIndexOp(b.b, b.loc, v); };
    Value before = index(offsets[dim]);
    Value after = arith::SubIOp::create(
        b.b, b.loc, index(xDims[dim]),
        arith::AddIOp::create(b.b, b.loc, before, index(sizes[dim])));
    SmallVector<OpFoldResult> lowDims(gDims), highDims(gDims);
    lowDims[dim] = getAsOpFoldResult(before);
    highDims[dim] = getAsOpFoldResult(after);
    Value zero = b.scalar(VjpBuilder::typeOf(grad).getElementType(), 0);
    grad = prim::ConcatenateOp::create(b.b, b.loc,
                                       ValueRange{b.fill(zero, lowDims), grad, b.fill(zero, highDims)},
                                       dim);
  }
  d[0] = grad.getType() == x.getType() ? grad : b.reshape(grad, xDims);
  if (d[0].getType() != x.getType())
    d[0] = prim::ReshapeOp::create(b.b, b.loc, x.getType(), grad, b.dynamic(xDims));
  return success();
}

// pad(x, v, low, high): dx = g[low : low + extent(x)] (negative pads cut: zeros back),
// dv = sum(g) - sum(dx)
LogicalResult padRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto pad = cast<prim::PadOp>(op);
  Value x = pad.getOperand();
  if (llvm::any_of(pad.getLow(), [](int64_t v) { return v < 0; }) ||
      llvm::any_of(pad.getHigh(), [](int64_t v) { return v < 0; })) {
    op->emitError() << "the VJP of prim.pad with negative padding is not implemented yet";
    return failure();
  }
  SmallVector<OpFoldResult> offsets, sizes = b.dims(x);
  for (int64_t low : pad.getLow())
    offsets.push_back(b.b.getIndexAttr(low));
  d[0] = b.b.createOrFold<prim::SliceOp>(b.loc, g[0], offsets, sizes,
                                         SmallVector<int64_t>(sizes.size(), 1));
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
      d[i] = prim::ReshapeOp::create(b.b, b.loc, x.getType(), d[i], b.dynamic(sizes));
    offset = getAsOpFoldResult(arith::AddIOp::create(
        b.b, b.loc, getValueOrCreateConstantIndexOp(b.b, b.loc, offset),
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
  Value scattered = prim::ScatterOp::create(
      b.b, b.loc, zeros.getType(), zeros, tuples, gMoved,
      prim::ReduceKindAttr::get(b.b.getContext(), prim::ReduceKind::Sum));
  SmallVector<int64_t> back(rank);
  for (auto [i, p] : llvm::enumerate(toFront))
    back[p] = i;
  d[0] = prim::TransposeOp::create(b.b, b.loc, scattered, back);
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
}
