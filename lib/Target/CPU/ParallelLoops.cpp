//===- ParallelLoops.cpp - one parallel dim from two, batch-major -----------------------===//
#include "ParallelLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

void tcc::mergeIntoFirstDim(scf::ParallelOp loop, unsigned k) {
  SmallVector<Value> lower = loop.getLowerBound(), upper = loop.getUpperBound(),
                     step = loop.getStep();
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value width = upper[k];
  upper[0] = arith::MulIOp::create(b, loc, upper[0], width);
  lower.erase(lower.begin() + k);
  upper.erase(upper.begin() + k);
  step.erase(step.begin() + k);
  loop.getLowerBoundMutable().assign(lower);
  loop.getUpperBoundMutable().assign(upper);
  loop.getStepMutable().assign(step);
  Block *body = loop.getBody();
  BlockArgument merged = body->getArgument(0), inner = body->getArgument(k);
  b.setInsertionPointToStart(body);
  Value batch = arith::DivUIOp::create(b, loc, merged, width);
  Value index = arith::RemUIOp::create(b, loc, merged, width);
  merged.replaceAllUsesExcept(
      batch, SmallPtrSet<Operation *, 2>{batch.getDefiningOp(), index.getDefiningOp()});
  inner.replaceAllUsesWith(index);
  body->eraseArgument(k);
}
