//===- OrderLoops.cpp - the innermost loop of each kernel walks memory contiguously ----===//
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace tcc {
#define GEN_PASS_DEF_ORDERLOOPS
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// (parallel dims except the output's fastest, reduction dims, the output's fastest dim),
/// or an empty vector when the current order is already that or the op has no reduction.
SmallVector<unsigned> desiredOrder(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (op.getNumDpsInits() != 1 ||
      llvm::none_of(iterators, [](utils::IteratorType t) { return t == utils::IteratorType::reduction; }))
    return {};
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outputMap.getNumResults() == 0)
    return {};
  auto fastest = dyn_cast<AffineDimExpr>(outputMap.getResults().back());
  if (!fastest || iterators[fastest.getPosition()] != utils::IteratorType::parallel)
    return {};
  unsigned inner = fastest.getPosition();
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::parallel && d != inner)
      order.push_back(d);
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::reduction)
      order.push_back(d);
  order.push_back(inner);
  for (unsigned d = 0; d < order.size(); ++d)
    if (order[d] != d)
      return order;
  return {};
}

struct OrderLoopsPass : tcc::impl::OrderLoopsBase<OrderLoopsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      // Only ops with a reduction can have one innermost; pure maps already walk in order.
      if (llvm::any_of(op.getIteratorTypesArray(),
                       [](utils::IteratorType t) { return t == utils::IteratorType::reduction; }))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      linalg::GenericOp generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized = linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      SmallVector<unsigned> order = desiredOrder(generic);
      if (order.empty())
        continue;
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace
