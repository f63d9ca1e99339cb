//===- LinalgBodies.cpp - what a linalg op's body computes ------------------------------===//
#include "tcc/Support/LinalgBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

bool tcc::accumulatesProducts(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 || !op.getBlock())
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  Operation *add = yield.getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add))
    return false;
  return llvm::any_of(add->getOperands(), [](Value term) {
    return isa_and_nonnull<arith::MulFOp, arith::MulIOp>(term.getDefiningOp());
  });
}

bool tcc::isMultiplyAdd(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !body || body->getNumArguments() != 3 || body->getOperations().size() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body->getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getRhs() == acc ? add.getLhs() : nullptr;
  auto mul = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  Value x = body->getArgument(0), y = body->getArgument(1);
  return (mul.getLhs() == x && mul.getRhs() == y) || (mul.getLhs() == y && mul.getRhs() == x);
}
