//===- CallKernels.cpp - a GPU kernel function is host code: its launches are calls -----===//
#include "tcc/Target/GPU/Passes.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {
#define GEN_PASS_DEF_GPUCALLKERNELS
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

struct GpuCallKernelsPass : tcc::impl::GpuCallKernelsBase<GpuCallKernelsPass> {
  void runOnOperation() override {
    SmallVector<tcc::kernel::LaunchOp> launches;
    getOperation().walk([&](tcc::kernel::LaunchOp launch) { launches.push_back(launch); });
    for (tcc::kernel::LaunchOp launch : launches) {
      if (launch.getRange()) {
        launch.emitError() << "internal error: a GPU target launches whole kernels, but @"
                           << launch.getKernel() << " is launched over a range";
        return signalPassFailure();
      }
      OpBuilder at(launch);
      func::CallOp::create(at, launch.getLoc(), launch.getKernelAttr(), TypeRange{},
                           launch.getKernelOperands());
      launch.erase();
    }
  }
};

} // namespace
