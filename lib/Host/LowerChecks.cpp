//===- LowerChecks.cpp - prim.check -> an early error return from @main -------------===//
#include "tcc/Host/Passes.h"

#include "dialects/kernel/KernelDialect.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {
#define GEN_PASS_DEF_LOWERCHECKS
#include "tcc/Host/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

namespace {
struct LowerChecksPass : tcc::impl::LowerChecksBase<LowerChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    OpBuilder builder(main.getContext());
    Type i32 = builder.getI32Type();

    // @main returns an i32 status in front of its other results.
    SmallVector<Type> results = {i32};
    llvm::append_range(results, main.getResultTypes());
    main.walk([&](func::ReturnOp ret) {
      builder.setInsertionPoint(ret);
      SmallVector<Value> values = {arith::ConstantIntOp::create(builder, ret.getLoc(), i32, 0)};
      llvm::append_range(values, ret.getOperands());
      func::ReturnOp::create(builder, ret.getLoc(), values);
      ret.erase();
    });
    main.setFunctionType(builder.getFunctionType(main.getArgumentTypes(), results));

    SmallVector<Attribute> messages;
    SmallVector<prim::CheckOp> checks;
    main.walk([&](prim::CheckOp check) { checks.push_back(check); });
    for (prim::CheckOp check : checks) {
      if (check->getParentOp() != main) {
        // Only @main's top level can return an error status; a loop that runs at run time
        // (prim.loop: ONNX Loop/Scan kept as a loop, an RNN over a run-time length) cannot.
        check.emitError() << "the run-time check '" << check.getMessage()
                          << "' is inside a loop that runs at run time (a Loop or Scan kept "
                             "as a loop, an RNN over a run-time length), where tcc cannot "
                             "check yet; make what it checks known while compiling (constants, "
                             "tcc --dim) or the loop's trip count, so that the loop unrolls";
        return signalPassFailure();
      }
      int32_t id = static_cast<int32_t>(messages.size());
      messages.push_back(check.getMessageAttr());
      Block *before = check->getBlock();
      Block *after = before->splitBlock(check->getIterator());
      Block *fail = builder.createBlock(after);
      Location loc = check.getLoc();
      SmallVector<Value> values = {arith::ConstantIntOp::create(builder, loc, i32, id + 1)};
      // The other results are never read on failure; return zeros of their types.
      for (Type type : main.getResultTypes().drop_front()) {
        if (auto memref = dyn_cast<MemRefType>(type)) {
          check.emitError() << "internal error: @main still returns a buffer";
          return signalPassFailure();
        }
        values.push_back(arith::ConstantOp::create(builder, loc, type, builder.getZeroAttr(type)));
      }
      func::ReturnOp::create(builder, loc, values);
      builder.setInsertionPointToEnd(before);
      cf::CondBranchOp::create(builder, loc, check.getCondition(), after, ValueRange{}, fail,
                               ValueRange{});
      check.erase();
    }
    tcc::kernel::setCheckMessages(module, messages);
  }
};
} // namespace
