//===- DeviceChecks.cpp - checks of tensor values on the device, through a status word ----===//
#include "tcc/Target/GPU/Passes.h"

#include "ThreadArguments.h"

#include "dialects/kernel/KernelDialect.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tcc {
#define GEN_PASS_DEF_GPUDEVICECHECKS
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Whether `condition` depends on a value read from memory (which only the device can read).
bool readsMemory(Value condition) {
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  (void)getBackwardSlice(condition, &slice, options);
  return llvm::any_of(
      slice, [](Operation *op) { return !isMemoryEffectFree(op) || isa<memref::LoadOp>(op); });
}

struct GpuDeviceChecksPass : tcc::impl::GpuDeviceChecksBase<GpuDeviceChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    using tcc::kernel::KernelDialect;
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    SmallVector<tcc::prim::CheckOp> checks;
    main.walk([&](tcc::prim::CheckOp check) {
      if (readsMemory(check.getCondition()))
        checks.push_back(check);
    });
    SmallVector<Attribute> messages;
    if (checks.empty()) {
      module->setAttr(KernelDialect::kDeviceCheckMessagesAttrName, ArrayAttr::get(ctx, messages));
      return;
    }
    // The status word reaches @main and every function it calls (their kernels test it).
    llvm::SetVector<func::FuncOp> needing;
    needing.insert(main);
    main.walk([&](func::CallOp call) {
      if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee()))
        if (!callee.isExternal())
          needing.insert(callee);
    });
    auto attrs = DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, KernelDialect::kDeviceStatusAttrName),
                             UnitAttr::get(ctx))});
    if (failed(tcc::gpu::threadArgument(
            module, needing, MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8)),
            tcc::gpu::ArgumentPosition::Last, attrs, /*onlyMain=*/false)))
      return signalPassFailure();
    Value status = tcc::gpu::threadedArgument(main, tcc::gpu::ArgumentPosition::Last);
    llvm::SmallPtrSet<Value, 8> decided;
    for (tcc::prim::CheckOp check : checks) {
      // A later check of the same condition (CSE shares the flag's load) can never be the
      // one that fails first: on the CPU too, the run stops at the earlier one.
      if (!decided.insert(check.getCondition()).second) {
        check.erase();
        continue;
      }
      messages.push_back(check.getMessageAttr());
      OpBuilder b(check);
      Location loc = check.getLoc();
      Value failed = arith::XOrIOp::create(b, loc, check.getCondition(),
                                           arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
      auto report = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
      b.setInsertionPoint(report.thenBlock()->getTerminator());
      Value word = memref::ViewOp::create(b, loc, MemRefType::get({}, b.getI32Type()), status,
                                          arith::ConstantIndexOp::create(b, loc, 0), ValueRange{});
      Value code = arith::ConstantIntOp::create(b, loc, b.getI32Type(), messages.size());
      memref::StoreOp::create(b, loc, code, word, ValueRange{});
      check.erase();
    }
    module->setAttr(KernelDialect::kDeviceCheckMessagesAttrName, ArrayAttr::get(ctx, messages));
  }
};
} // namespace
