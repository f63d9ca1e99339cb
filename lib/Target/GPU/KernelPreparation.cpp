//===- KernelPreparation.cpp - a gpu.module readied for its target's LLVM lowering -------===//
#include "KernelPreparation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

LogicalResult tcc::gpu::prepareKernels(mlir::gpu::GPUModuleOp module) {
  MLIRContext *ctx = module.getContext();
  module.walk([&](arith::ArithFastMathInterface op) {
    arith::FastMathFlags flags = op.getFastMathFlagsAttr() ? op.getFastMathFlagsAttr().getValue()
                                                           : arith::FastMathFlags::none;
    op->setAttr(op.getFastMathAttrName(),
                arith::FastMathFlagsAttr::get(ctx, flags | arith::FastMathFlags::contract));
  });
  module.walk([&](mlir::gpu::GPUFuncOp f) {
    for (unsigned i = 0; i < f.getNumWorkgroupAttributions(); ++i)
      f.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                    IntegerAttr::get(IntegerType::get(ctx, 64), 16));
  });
  RewritePatternSet shuffles(ctx);
  populateGpuLowerSubgroupReduceToShufflePatterns(shuffles, /*subgroupSize=*/32,
                                                  /*shuffleBitwidth=*/32);
  populateGpuLowerClusteredSubgroupReduceToShufflePatterns(shuffles, /*subgroupSize=*/32,
                                                           /*shuffleBitwidth=*/32);
  return applyPatternsGreedily(module, std::move(shuffles));
}
