//===- LowerKernels.cpp - kernels to the LLVM and ROCDL dialects, math without ocml -------===//
#include "../GPU/KernelPreparation.h"
#include "tcc/Target/AMD/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/GPUToROCDL/Runtimes.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

namespace tcc {
#define GEN_PASS_DEF_AMDLOWERKERNELS
#include "tcc/Target/AMD/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The data layout of the AMDGPU back end for `chip` (address spaces: 1 global, 3 LDS with
/// 32-bit pointers, 5 private, the alloca space), so that the conversion sizes pointers and
/// places stack slots as the back end will.
FailureOr<std::string> amdgpuDataLayout(StringRef chip, std::string &error) {
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTarget();
  LLVMInitializeAMDGPUTargetMC();
  llvm::Triple triple("amdgcn-amd-amdhsa");
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, chip, "", llvm::TargetOptions(), std::nullopt));
  if (!machine) {
    error = "no AMDGPU target machine for " + chip.str();
    return failure();
  }
  return machine->createDataLayout().getStringRepresentation();
}

struct AmdLowerKernelsPass : tcc::impl::AmdLowerKernelsBase<AmdLowerKernelsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto target = module.getTargetsAttr() && !module.getTargetsAttr().empty()
                      ? dyn_cast<ROCDL::ROCDLTargetAttr>(module.getTargetsAttr()[0])
                      : ROCDL::ROCDLTargetAttr();
    if (!target) {
      module.emitError() << "tcc-amd-lower-kernels needs a #rocdl.target on the gpu.module "
                            "(rocdl-attach-target)";
      return signalPassFailure();
    }
    FailureOr<amdgpu::Chipset> chipset = amdgpu::Chipset::parse(target.getChip());
    std::string error;
    FailureOr<std::string> layout = amdgpuDataLayout(target.getChip(), error);
    if (failed(chipset) || failed(layout)) {
      module.emitError() << "unknown AMD chip '" << target.getChip() << "'"
                         << (error.empty() ? "" : ": " + error);
      return signalPassFailure();
    }

    // Contraction into v_fma_f32 / v_fmac_f32 (hipcc's -ffp-contract=fast-honor-pragmas),
    // 16-byte aligned LDS buffers (ds_read_b128), warp reductions of 32 lanes as shuffles
    // within 32 lanes: right on wave32 (RDNA) and on each half of a wave64 (CDNA), the
    // shuffles' width keeping each half to itself.
    if (failed(tcc::gpu::prepareKernels(module)))
      return signalPassFailure();
    LowerToLLVMOptions options(ctx);
    options.dataLayout = llvm::DataLayout(*layout);
    LLVMTypeConverter converter(ctx, options);
    populateGpuMemorySpaceAttributeConversions(converter, [](gpu::AddressSpace space) {
      switch (space) {
      case gpu::AddressSpace::Global:
        return 1u;
      case gpu::AddressSpace::Workgroup:
        return 3u;
      case gpu::AddressSpace::Private:
        return 5u;
      }
      llvm_unreachable("unknown address space");
    });
    RewritePatternSet patterns(ctx);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    // 16-byte loads of block tiles (vector.load with its alignment).
    populateVectorToLLVMConversionPatterns(converter, patterns);
    // Above the __ocml_* calls that populateGpuToROCDLConversionPatterns adds for math.
    populateMathToLLVMConversionPatterns(converter, patterns, /*approximateLog1p=*/true,
                                         /*benefit=*/2);
    populateGpuToROCDLConversionPatterns(converter, patterns, gpu::amd::Runtime::HIP, *chipset);
    // Not configureGpuToROCDLConversionLegality: it makes the math intrinsics (floor, exp2,
    // ...) illegal, to force the __ocml_* calls.
    LLVMConversionTarget legality(*ctx);
    legality.addLegalDialect<ROCDL::ROCDLDialect>();
    legality.addIllegalDialect<gpu::GPUDialect>();
    legality.addIllegalOp<func::FuncOp>();
    legality.addLegalOp<gpu::GPUModuleOp>();
    if (failed(applyPartialConversion(module, legality, std::move(patterns))))
      return signalPassFailure();

    // The block size the grids were formed with, as the code object's flat work-group size
    // (what the back end sizes registers for), the way convert-gpu-to-rocdl records it.
    auto *rocdl = ctx->getLoadedDialect<ROCDL::ROCDLDialect>();
    auto required = rocdl->getReqdWorkGroupSizeAttrHelper();
    auto flat = rocdl->getFlatWorkGroupSizeAttrHelper();
    module.walk([&](LLVM::LLVMFuncOp f) {
      if (!required.isAttrPresent(f))
        return;
      int64_t threads = 1;
      for (int32_t size : required.getAttr(f).asArrayRef())
        threads *= size;
      flat.setAttr(f, StringAttr::get(ctx, Twine(threads) + "," + Twine(threads)));
    });
  }
};
} // namespace
