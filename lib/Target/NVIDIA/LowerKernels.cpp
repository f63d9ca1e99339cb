//===- LowerKernels.cpp - kernels to the LLVM and NVVM dialects, math without libdevice ---===//
#include "tcc/Target/NVIDIA/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_NVIDIALOWERKERNELS
#include "tcc/Target/NVIDIA/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {
struct NvidiaLowerKernelsPass : tcc::impl::NvidiaLowerKernelsBase<NvidiaLowerKernelsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // A multiply feeding an add may become one fma.rn.f32 (what nvcc does by default,
    // -fmad=true): one rounding instead of two, and half the instructions of a dot product.
    // Without `contract` the NVPTX backend writes mul.rn and add.rn, which ptxas must not fuse.
    module.walk([&](arith::ArithFastMathInterface op) {
      arith::FastMathFlags flags = op.getFastMathFlagsAttr() ? op.getFastMathFlagsAttr().getValue()
                                                             : arith::FastMathFlags::none;
      op->setAttr(op.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(ctx, flags | arith::FastMathFlags::contract));
    });
    // Workgroup buffers aligned to 16 bytes, so that runs of 4 words load as one
    // ld.shared.v4 (tcc-gpu-linalg-to-loops's block tiles read them so).
    module.walk([&](gpu::GPUFuncOp f) {
      for (unsigned i = 0; i < f.getNumWorkgroupAttributions(); ++i)
        f.setWorkgroupAttributionAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                                      IntegerAttr::get(IntegerType::get(ctx, 64), 16));
    });
    // Warp reductions (tcc-gpu-linalg-to-loops) as butterfly shuffles over NVIDIA's 32 lanes.
    {
      RewritePatternSet shuffles(ctx);
      populateGpuLowerSubgroupReduceToShufflePatterns(shuffles, /*subgroupSize=*/32,
                                                      /*shuffleBitwidth=*/32);
      // ... and over clusters of neighbouring lanes (SplitLanes.cpp).
      populateGpuLowerClusteredSubgroupReduceToShufflePatterns(shuffles, /*subgroupSize=*/32,
                                                               /*shuffleBitwidth=*/32);
      if (failed(applyPatternsGreedily(module, std::move(shuffles))))
        return signalPassFailure();
    }
    LowerToLLVMOptions options(ctx, DataLayout(cast<DataLayoutOpInterface>(module.getOperation())));
    LLVMTypeConverter converter(ctx, options);
    configureGpuToNVVMTypeConverter(converter);
    RewritePatternSet patterns(ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    // 16-byte loads of block tiles (vector.load with its alignment).
    populateVectorToLLVMConversionPatterns(converter, patterns);
    // Above the libdevice calls that populateGpuToNVVMConversionPatterns adds for math.
    populateMathToLLVMConversionPatterns(converter, patterns, /*approximateLog1p=*/true,
                                         /*benefit=*/2);
    populateGpuToNVVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<gpu::GPUDialect>();
    target.addIllegalOp<func::FuncOp>();
    target.addLegalOp<gpu::GPUModuleOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
