//===- FormLaunches.cpp - host code runs kernels by kernel.launch ----------------------===//
#include "tcc/Host/Passes.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace tcc {
#define GEN_PASS_DEF_FORMLAUNCHES
#include "tcc/Host/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

struct FormLaunchesPass : tcc::impl::FormLaunchesBase<FormLaunchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!tcc::kernel::isKernel(kernel))
        continue;
      for (Operation *user : users.getUsers(kernel)) {
        auto call = dyn_cast<func::CallOp>(user);
        if (!call) {
          user->emitError() << "internal error: kernel @" << kernel.getSymName() << " is used by '"
                            << user->getName() << "', not called";
          return signalPassFailure();
        }
        if (call.getNumResults() != 0) {
          call.emitError() << "internal error: kernel @" << kernel.getSymName()
                           << " returns values (kernels write their results to buffers)";
          return signalPassFailure();
        }
        OpBuilder at(call);
        tcc::kernel::LaunchOp::create(at, call.getLoc(), call.getCalleeAttr(), call.getOperands());
        call.erase();
      }
    }
  }
};

} // namespace
