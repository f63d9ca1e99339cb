//===- LoopExits.cpp - while loops get an exit: scf.for -> scf.while -------------------===//
//
// A prim.loop with exit_unless (ONNX Loop with a run-time condition) lowers to an scf.for
// whose body starts by reading the carried condition (prim.exit_unless). After
// bufferization the condition is a buffer the body updates in place, so the loop can test
// it before each iteration: the scf.for becomes an scf.while over the induction variable.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Host/Passes.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace tcc {
#define GEN_PASS_DEF_LOOPEXITS
#include "tcc/Host/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

namespace {

LogicalResult addExit(prim::ExitUnlessOp exit) {
  // A condition that folded to true (it never turns false) needs no exit.
  if (matchPattern(exit.getCondition(), m_One())) {
    exit.erase();
    return success();
  }
  auto loop = dyn_cast<scf::ForOp>(exit->getParentOp());
  auto load = exit.getCondition().getDefiningOp<memref::LoadOp>();
  bool invariant = loop && loop.isDefinedOutsideOfLoop(exit.getCondition());
  if (!loop || loop.getNumRegionIterArgs() != 0 ||
      (!invariant && (!load || load->getBlock() != loop.getBody() ||
                      !llvm::all_of(load->getOperands(),
                                    [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))))
    return exit.emitError() << "internal error: a loop's exit condition is not read from a "
                               "buffer at the start of a bufferized scf.for";
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type index = b.getIndexType();
  auto whileOp = scf::WhileOp::create(b, loc, TypeRange{index}, ValueRange{loop.getLowerBound()});
  // Before: i < ub and the flag.
  Block *before = b.createBlock(&whileOp.getBefore(), {}, {index}, {loc});
  Value inBounds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, before->getArgument(0),
                                         loop.getUpperBound());
  Value flag = invariant ? exit.getCondition()
                         : memref::LoadOp::create(b, loc, load.getMemRef(), load.getIndices())
                               .getResult();
  Value go = arith::AndIOp::create(b, loc, inBounds, flag);
  scf::ConditionOp::create(b, loc, go, before->getArguments());
  // After: the body, then i + step.
  Block *after = b.createBlock(&whileOp.getAfter(), {}, {index}, {loc});
  Block *body = loop.getBody();
  loop.getInductionVar().replaceAllUsesWith(after->getArgument(0));
  after->getOperations().splice(after->end(), body->getOperations(), body->begin(),
                                std::prev(body->end()));
  exit.erase();
  if (load && !invariant && load->use_empty())
    load.erase();
  b.setInsertionPointToEnd(after);
  Value next = arith::AddIOp::create(b, loc, after->getArgument(0), loop.getStep());
  scf::YieldOp::create(b, loc, next);
  loop.erase();
  return success();
}

struct LoopExitsPass : tcc::impl::LoopExitsBase<LoopExitsPass> {
  void runOnOperation() override {
    SmallVector<prim::ExitUnlessOp> exits;
    getOperation().walk([&](prim::ExitUnlessOp exit) { exits.push_back(exit); });
    for (prim::ExitUnlessOp exit : exits)
      if (failed(addExit(exit)))
        return signalPassFailure();
  }
};

} // namespace
