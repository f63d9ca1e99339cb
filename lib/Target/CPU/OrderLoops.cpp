//===- OrderLoops.cpp - the innermost loop of each kernel walks memory contiguously ----===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace tcc {
#define GEN_PASS_DEF_ORDERLOOPS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The reduction dim that every input reading a reduction dim reads as its last index (a
/// row reduction: LayerNorm's and Softmax's sums over the last dim, global pooling), if any.
std::optional<unsigned> rowReductionDim(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> row;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    bool readsReduction = false;
    for (unsigned d = 0; d < iterators.size(); ++d)
      readsReduction |= iterators[d] == utils::IteratorType::reduction && map.isFunctionOfDim(d);
    if (!readsReduction)
      continue;
    if (map.getNumResults() == 0)
      return std::nullopt;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || iterators[last.getPosition()] != utils::IteratorType::reduction ||
        (row && *row != last.getPosition()))
      return std::nullopt;
    row = last.getPosition();
  }
  return row;
}

/// A row reduction keeps its parallel dims outside (threads split them) and walks the row
/// innermost; its float accumulation may be reassociated so that LLVM vectorizes it (partial
/// sums across lanes: a fixed order, the same for any thread count). Returns the order:
/// (parallel dims, reduction dims with the row's last).
SmallVector<unsigned> rowReductionOrder(linalg::GenericOp op, unsigned row) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::parallel)
      order.push_back(d);
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::reduction && d != row)
      order.push_back(d);
  order.push_back(row);
  return order;
}

/// Marks the float ops that combine into the accumulator (`out op value`) reassociable.
void allowReassociation(linalg::GenericOp op) {
  Value accumulator = op.getBody()->getArguments().back();
  for (Operation *user : accumulator.getUsers())
    if (auto math = dyn_cast<arith::ArithFastMathInterface>(user))
      if (isa<arith::AddFOp, arith::MulFOp>(user))
        user->setAttr(
            math.getFastMathAttrName(),
            arith::FastMathFlagsAttr::get(op.getContext(), arith::FastMathFlags::reassoc));
}

/// (parallel dims except the output's fastest, reduction dims, the output's fastest dim),
/// or an empty vector when the current order is already that or the op has no reduction.
SmallVector<unsigned> desiredOrder(linalg::GenericOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (op.getNumDpsInits() != 1 || llvm::none_of(iterators, [](utils::IteratorType t) {
        return t == utils::IteratorType::reduction;
      }))
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
      SmallVector<unsigned> order;
      std::optional<unsigned> row = rowReductionDim(generic);
      if (row && generic.getNumDpsInits() == 1) {
        order = rowReductionOrder(generic, *row);
        allowReassociation(generic);
        if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())))
          continue;
      } else {
        order = desiredOrder(generic);
      }
      if (order.empty())
        continue;
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};

} // namespace
