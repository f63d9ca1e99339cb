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

// reduce sum: dx = broadcast(g)
// reduce max/min: dx = broadcast(g / n) where x equals the extremum (n = how many do: ties
//                 share the gradient, as JAX)
// reduce prod: dx = broadcast(g y) / x (x != 0; a zero element gets NaN-free 0 only when it
//              is not the single zero: the product of the others is not formed)
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
    Value hit = b.compare(prim::CompareDirection::Eq, x, expand(b, y, x, dims));
    Value ones = b.convert(hit, VjpBuilder::typeOf(x).getElementType());
    Value count = b.sum(ones, dims);
    d[0] = b.mul(expand(b, b.div(g[0], count), x, dims), ones);
    return success();
  }
  case prim::ReduceKind::Prod:
    d[0] = b.div(expand(b, b.mul(g[0], y), x, dims), x);
    return success();
  default:
    op->emitError() << "internal error: a bitwise reduction of float values";
    return failure();
  }
}

// cumulative sum: y_i = sum_{j <= i} x_j  =>  dx_j = sum_{i >= j} g_i, the cumulative sum of
// g in the other direction (exclusive stays exclusive).
LogicalResult cumulativeRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto cumulative = cast<prim::CumulativeOp>(op);
  if (cumulative.getKind() != prim::ReduceKind::Sum) {
    op->emitError() << "the VJP of cumulative " << prim::stringifyReduceKind(cumulative.getKind())
                    << " is not implemented yet (only sum)";
    return failure();
  }
  d[0] = prim::CumulativeOp::create(b.b, b.loc, prim::ReduceKind::Sum, g[0],
                                    cumulative.getDimension(), cumulative.getExclusive(),
                                    !cumulative.getReverse());
  return success();
}

} // namespace

void tcc::autodiff::registerReductionVjps(VjpRegistry &r) {
  r.add("prim.reduce", reduceRule);
  r.add("prim.cumulative", cumulativeRule);
}
