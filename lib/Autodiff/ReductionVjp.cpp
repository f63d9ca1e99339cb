//===- ReductionVjp.cpp - VJP rules of reductions and scans ----------------------------===//
#include "VjpRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

namespace {

using Cts = ArrayRef<Value>;
using Out = MutableArrayRef<Value>;

/// `v` (a reduction's result or cotangent) broadcast back over the reduced dims of `x`.
Value expand(VjpBuilder &b, Value v, Value x, ArrayRef<int64_t> reduced) {
  SmallVector<int64_t> mapping;
  for (int64_t i = 0, rank = VjpBuilder::typeOf(x).getRank(); i < rank; ++i)
    if (!llvm::is_contained(reduced, i))
      mapping.push_back(i);
  return b.broadcast(v, mapping, b.dims(x));
}

/// The product of the other reduced elements of `x` for each element: exclusive cumulative
/// products from both ends over the reduced dims flattened into one (no division).
Value productOfOthers(VjpBuilder &b, Value x, ArrayRef<int64_t> reduced) {
  int64_t rank = VjpBuilder::typeOf(x).getRank();
  SmallVector<int64_t> perm, sortedReduced(reduced);
  llvm::sort(sortedReduced);
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(reduced, i))
      perm.push_back(i);
  int64_t numKept = perm.size();
  llvm::append_range(perm, sortedReduced);
  SmallVector<OpFoldResult> xDims = b.dims(x), permuted, flat;
  for (int64_t p : perm)
    permuted.push_back(xDims[p]);
  flat.assign(permuted.begin(), permuted.begin() + numKept);
  flat.push_back(b.product(ArrayRef(permuted).drop_front(numKept)));
  Value moved = prim::TransposeOp::create(b.b, b.loc, x, perm);
  Value rows = b.reshape(moved, flat);
  Value before = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Prod, rows, numKept,
                                            /*exclusive=*/true, /*reverse=*/false);
  Value after = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Prod, rows, numKept,
                                           /*exclusive=*/true, /*reverse=*/true);
  Value others = b.reshape(b.mul(before, after), permuted);
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  return b.castTo(prim::TransposeOp::create(b.b, b.loc, others, inverse), x.getType());
}

// reduce sum: dx = broadcast(g)
// reduce max/min: dx = broadcast(g / n) where x equals the extremum (n = how many do: ties
//                 share the gradient, as JAX)
// reduce prod: dx_i = broadcast(g) prod_{j != i} x_j (no division, exact with zeros)
LogicalResult reduceRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto reduce = cast<prim::ReduceOp>(op);
  Value x = reduce.getOperand(), y = reduce.getResult();
  ArrayRef<int64_t> dims = reduce.getDimensions();
  switch (reduce.getKind()) {
  case prim::ReduceKind::Sum:
    d[0] = expand(b, g[0], x, dims);
    return success();
  case prim::ReduceKind::Max:
  case prim::ReduceKind::Min: {
    Value hit = b.cmp(prim::CompareDirection::Eq, x, expand(b, y, x, dims));
    Value ones = b.convert(hit, VjpBuilder::typeOf(x).getElementType());
    Value count = b.sum(ones, dims);
    d[0] = b.mul(expand(b, b.div(g[0], count), x, dims), ones);
    return success();
  }
  case prim::ReduceKind::Prod:
    d[0] = b.mul(expand(b, g[0], x, dims), productOfOthers(b, x, dims));
    return success();
  default:
    op->emitError() << "internal error: a bitwise reduction of float values";
    return failure();
  }
}

/// `v` moved one place toward the start along `dim`: result[i] = v[i + 1], 0 at the end.
Value shiftDown(VjpBuilder &b, Value v, int64_t dim) {
  SmallVector<OpFoldResult> vDims = b.dims(v);
  OpFoldResult n = vDims[dim], one = b.b.getIndexAttr(1);
  OpFoldResult kept = b.maxIndex(b.subIndex(n, one), b.b.getIndexAttr(0));
  Value rest = b.slice(v, dim, b.minIndex(n, one), kept);
  SmallVector<OpFoldResult> tail(vDims);
  tail[dim] = b.subIndex(n, kept);
  Value zeros = b.zeros(tail, VjpBuilder::typeOf(v).getElementType());
  return b.castTo(prim::ConcatenateOp::create(b.b, b.loc, ValueRange{rest, zeros}, dim),
                  v.getType());
}

// inclusive cumulative prod, y_i = prod_{k<=i} x_k:
//   dx_j = prod_{k<j} x_k * sum_{i>=j} g_i prod_{j<k<=i} x_k
// with prod_{j<k<=i} x_k an inclusive cumulative product over a [j, k] square holding x_k
// where k > j and 1 elsewhere: no division, so zeros are exact; O(n^2) along `dim`.
Value cumulativeProdVjp(VjpBuilder &b, Value x, Value g, int64_t dim) {
  SmallVector<OpFoldResult> xDims = b.dims(x), square(xDims);
  square.insert(square.begin() + dim, xDims[dim]);
  SmallVector<int64_t> alongK;
  for (int64_t i = 0, rank = xDims.size(); i < rank; ++i)
    alongK.push_back(i < dim ? i : i + 1);
  Type i64 = b.b.getI64Type();
  Value j = b.iota(square, dim, i64), k = b.iota(square, dim + 1, i64);
  Value xk = b.broadcast(x, alongK, square), gk = b.broadcast(g, alongK, square);
  Value between = b.select(b.cmp(prim::CompareDirection::Gt, k, j), xk, b.splat(xk, 1));
  Value products = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Prod, between, dim + 1,
                                              /*exclusive=*/false, /*reverse=*/false);
  Value terms =
      b.select(b.cmp(prim::CompareDirection::Ge, k, j), b.mul(gk, products), b.splat(gk, 0));
  Value before = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Prod, x, dim,
                                            /*exclusive=*/true, /*reverse=*/false);
  return b.castTo(b.mul(b.sum(terms, {dim + 1}), before), x.getType());
}

// inclusive cumulative max (min), y_i = max_{k<=i} x_k: y_i's gradient goes to the first
// k <= i where the running max reached y_i (ties go to the earliest). So x_j gets the g_i
// of the run of i >= j over which the running max stays x_j, if x_j raised it
// (x_j > max_{k<j} x_k): dx_j = R_j - R_next(j), R the reverse cumulative sum of g, next(j)
// the next raising position after j (n if none).
Value cumulativeExtremumVjp(VjpBuilder &b, Value x, Value g, int64_t dim, prim::ReduceKind kind) {
  auto raises =
      kind == prim::ReduceKind::Max ? prim::CompareDirection::Gt : prim::CompareDirection::Lt;
  Value previous = prim::CumulativeOp::create(b.b, b.loc, kind, x, dim, /*exclusive=*/true,
                                              /*reverse=*/false);
  Value raised = b.cmp(raises, x, previous);
  Value rest = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Sum, g, dim,
                                          /*exclusive=*/false, /*reverse=*/true);
  SmallVector<OpFoldResult> xDims = b.dims(x);
  Type i64 = b.b.getI64Type();
  Value end = b.indexTensor(xDims[dim], xDims);
  Value candidates = b.select(raised, b.iota(xDims, dim, i64), end);
  Value next = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Min, candidates, dim,
                                          /*exclusive=*/true, /*reverse=*/true);
  next = b.create<prim::MinOp>(next, end); // the identity (largest i64) past the last
  SmallVector<OpFoldResult> one(xDims);
  one[dim] = b.b.getIndexAttr(1);
  Value padded = prim::ConcatenateOp::create(
      b.b, b.loc, ValueRange{rest, b.zeros(one, VjpBuilder::typeOf(g).getElementType())}, dim);
  Value run = b.sub(rest, b.takeAlong(padded, next, dim));
  return b.castTo(b.select(raised, run, b.splat(run, 0)), x.getType());
}

// cumulative sum: y_i = sum_{j <= i} x_j  =>  dx_j = sum_{i >= j} g_i, the cumulative sum of
// g in the other direction (exclusive stays exclusive).
// prod, max, min: `reverse` runs the inclusive rule on x and g reversed; `exclusive` is the
// inclusive scan shifted by one (y_i = z_{i-1}), so z's cotangent is g shifted back.
LogicalResult cumulativeRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto cumulative = cast<prim::CumulativeOp>(op);
  int64_t dim = cumulative.getDimension();
  prim::ReduceKind kind = cumulative.getKind();
  if (kind == prim::ReduceKind::Sum) {
    d[0] = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Sum, g[0], dim,
                                      cumulative.getExclusive(), !cumulative.getReverse());
    return success();
  }
  Value x = cumulative.getOperand(), gz = g[0];
  if (cumulative.getReverse()) {
    x = prim::ReverseOp::create(b.b, b.loc, x, ArrayRef<int64_t>{dim});
    gz = prim::ReverseOp::create(b.b, b.loc, gz, ArrayRef<int64_t>{dim});
  }
  if (cumulative.getExclusive())
    gz = shiftDown(b, gz, dim);
  Value dx = kind == prim::ReduceKind::Prod ? cumulativeProdVjp(b, x, gz, dim)
                                            : cumulativeExtremumVjp(b, x, gz, dim, kind);
  if (cumulative.getReverse())
    dx = prim::ReverseOp::create(b.b, b.loc, dx, ArrayRef<int64_t>{dim});
  d[0] = dx;
  return success();
}

// sort(x, dim) -> (values, indices): values[.., r, ..] = x[.., indices[.., r, ..], ..], so
// dx[.., indices[r], ..] = g[.., r, ..]: g scattered at full coordinate tuples (a permutation,
// every place written once). The indices result is an integer and carries no gradient.
LogicalResult sortRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto sort = cast<prim::SortOp>(op);
  if (!g[0])
    return success();
  Value x = sort.getOperand();
  int64_t dim = sort.getDimension(), rank = VjpBuilder::typeOf(x).getRank();
  SmallVector<OpFoldResult> xDims = b.dims(x), tupleDims(xDims);
  tupleDims.push_back(b.b.getIndexAttr(1));
  Type i64 = b.b.getI64Type();
  SmallVector<Value> coordinates;
  for (int64_t i = 0; i < rank; ++i)
    coordinates.push_back(
        b.reshape(i == dim ? sort.getIndices() : b.iota(xDims, i, i64), tupleDims));
  Value tuples = rank == 1 ? coordinates.front()
                           : prim::ConcatenateOp::create(b.b, b.loc, coordinates, rank).getResult();
  Value zeros = b.splat(x, 0);
  d[0] = prim::ScatterOp::create(b.b, b.loc, zeros.getType(), zeros, tuples, g[0],
                                 prim::ReduceKindAttr());
  return success();
}

} // namespace

void tcc::autodiff::registerReductionVjps(VjpRegistry &r) {
  r.add("prim.reduce", reduceRule);
  r.add("prim.cumulative", cumulativeRule);
  r.add("prim.sort", sortRule);
}
