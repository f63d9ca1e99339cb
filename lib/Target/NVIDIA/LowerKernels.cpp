//===- LowerKernels.cpp - kernels to the LLVM and NVVM dialects, math without libdevice ---===//
#include "../GPU/KernelPreparation.h"
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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_NVIDIALOWERKERNELS
#include "tcc/Target/NVIDIA/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Block tiles of 256 threads (the fp32 contraction tiles: 64 accumulators a thread) run two
/// blocks per SM when they keep to 128 registers a thread: ptxas is told so (.minnctapersm
/// 2), else it may take a few more registers and leave one block per SM. Measured on the
/// H200: Llama's gate/up tiles with a SiLU epilogue took 140 registers and 126 us, capped at
/// 128 (no spills) 77 us. Tensor-core tiles (MatrixUnits.cpp: mma.sync fed by ldmatrix) keep
/// their registers.
void askTwoBlocksPerSm(gpu::GPUFuncOp function) {
  std::optional<ArrayRef<int32_t>> size = function.getKnownBlockSize();
  if (!function.isKernel() || !size || *size != ArrayRef<int32_t>{256, 1, 1})
    return;
  bool workgroup = !function.getWorkgroupAttributions().empty();
  bool matrixUnits = false;
  function.walk([&](Operation *op) {
    if (auto alloca = dyn_cast<memref::AllocaOp>(op))
      if (auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(alloca.getType().getMemorySpace()))
        workgroup |= space.getValue() == gpu::AddressSpace::Workgroup;
    matrixUnits |= isa<NVVM::MmaOp, NVVM::LdMatrixOp>(op);
  });
  if (workgroup && !matrixUnits)
    function->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      IntegerAttr::get(IntegerType::get(function.getContext(), 32), 2));
}

struct NvidiaLowerKernelsPass : tcc::impl::NvidiaLowerKernelsBase<NvidiaLowerKernelsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // Contraction into fma.rn.f32 (nvcc's -fmad=true; without `contract` the NVPTX backend
    // writes mul.rn and add.rn, which ptxas must not fuse), 16-byte aligned workgroup buffers
    // (ld.shared.v4), warp reductions as shuffles over NVIDIA's 32 lanes.
    if (failed(tcc::gpu::prepareKernels(module)))
      return signalPassFailure();
    module.walk(askTwoBlocksPerSm);
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
