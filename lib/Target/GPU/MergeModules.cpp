//===- MergeModules.cpp - every outlined kernel in one gpu.module -------------------------===//
#include "tcc/Target/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace tcc {
#define GEN_PASS_DEF_GPUMERGEMODULES
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kKernels = "tcc_kernels";

struct GpuMergeModulesPass : tcc::impl::GpuMergeModulesBase<GpuMergeModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> modules(module.getOps<gpu::GPUModuleOp>());
    if (modules.empty())
      return;
    OpBuilder b(modules.front());
    auto merged = gpu::GPUModuleOp::create(b, modules.front().getLoc(), kKernels);
    SymbolTable table(merged);
    // Outlining names each module uniquely but may reuse a kernel's name in several (a
    // function's second launch): the kernel takes its module's name.
    llvm::DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp m : modules) {
      for (Operation &op : llvm::make_early_inc_range(m.getBody()->getOperations())) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol)
          continue;
        if (auto kernel = dyn_cast<gpu::GPUFuncOp>(op)) {
          renamed[{m.getSymNameAttr(), kernel.getNameAttr()}] = m.getSymNameAttr();
          SymbolTable::setSymbolName(kernel, m.getSymNameAttr());
        }
        if (Operation *existing = table.lookup(symbol.getName())) {
          // Outlining copies the globals a kernel reads into its module: one copy is enough.
          if (isa<gpu::GPUFuncOp>(op) || !OperationEquivalence::isEquivalentTo(
                                             existing, &op, OperationEquivalence::Flags::None)) {
            op.emitError() << "internal error: two kernels' modules define @" << symbol.getName()
                           << " differently";
            return signalPassFailure();
          }
          continue;
        }
        Block *body = merged.getBody();
        op.moveBefore(body, body->mightHaveTerminator() ? Block::iterator(body->getTerminator())
                                                        : body->end());
        table.insert(&op);
      }
    }
    // Launches name the kernel in the merged module.
    module.walk([&](gpu::LaunchFuncOp launch) {
      StringAttr name = renamed.lookup({launch.getKernelModuleName(), launch.getKernelName()});
      launch.setKernelAttr(
          SymbolRefAttr::get(b.getStringAttr(kKernels), {FlatSymbolRefAttr::get(name)}));
    });
    for (gpu::GPUModuleOp m : modules)
      m.erase();
  }
};
} // namespace
