//===- LowerKernels.cpp - gpu.modules to serialized SPIR-V compute modules ------------===//
#include "SpirvKernels.h"

#include "../GPU/GpuPipelines.h"
#include "../GPU/KernelPreparation.h"
#include "SpirvEnvironment.h"
#include "tcc/Target/SPIRV/Passes.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_SPIRVLOWERKERNELS
#include "tcc/Target/SPIRV/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Threads per block of the 1-D grids, as on NVIDIA and AMD (Vulkan guarantees 128
/// invocations a workgroup; desktop GPUs and Apple's take 1024).
constexpr int64_t kBlockSize = 256;

/// Bytes of the push-constant slot of each parameter.
constexpr int64_t kSlotBytes = 8;
/// Slots of push constants: the 128 bytes every Vulkan device has.
constexpr unsigned kPushSlots = 16;

/// Lowers one gpu.module; the members are the steps of tcc::spirv_target::lowerKernels.
class KernelLowering {
public:
  KernelLowering(MLIRContext *ctx, tcc::spirv_target::PipelineRunner runPipeline,
                 bool noContraction)
      : ctx(ctx), runPipeline(runPipeline), noContraction(noContraction) {}

  FailureOr<spirv::ModuleOp> lower(gpu::GPUModuleOp gpuModule) {
    spirv::TargetEnvAttr env = tcc::spirv_target::vulkanEnvironment(ctx);
    // Warp reductions as shuffles within 32 lanes, as on NVIDIA and AMD.
    if (failed(tcc::gpu::prepareKernels(gpuModule)) || failed(fuseMultiplyAdds(gpuModule)))
      return failure();
    widenIndicesByShifts(gpuModule);

    // The entry-point ABI of each kernel: its block size, which the grids fixed.
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
      if (!func.isKernel())
        continue;
      std::optional<DenseI32ArrayAttr> block =
          func.getKnownBlockSizeAttr() ? std::optional(func.getKnownBlockSizeAttr()) : std::nullopt;
      if (!block)
        return func.emitError() << "internal error: kernel @" << func.getName()
                                << " has no known block size (tcc-gpu-form-grids)";
      func->setAttr(spirv::getEntryPointABIAttrName(),
                    spirv::EntryPointABIAttr::get(ctx, *block, std::nullopt, std::nullopt));
    }
    gpuModule->setAttr(spirv::getTargetEnvAttrName(), env);
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
      if (func.isKernel())
        prepareSignature(func);

    // Upstream's conversion turns the gpu.module into a spirv.module in its place.
    Location loc = gpuModule.getLoc();
    Block *parent = gpuModule->getBlock();
    if (failed(mapStorageClasses(gpuModule)) || failed(convert(gpuModule, env)))
      return failure();
    spirv::ModuleOp spirvModule;
    for (Operation &op : *parent)
      if (auto candidate = dyn_cast<spirv::ModuleOp>(op))
        spirvModule = candidate;
    if (!spirvModule)
      return emitError(loc) << "internal error: no spirv.module came out of the kernels";
    spirvModule.setAddressingModel(spirv::AddressingModel::PhysicalStorageBuffer64);
    if (noContraction)
      exactArithmetic(spirvModule);
    for (auto func : llvm::to_vector(spirvModule.getOps<spirv::FuncOp>()))
      if (func->hasAttr(spirv::getEntryPointABIAttrName()) && failed(pushParameters(func)))
        return failure();

    OpPassManager pm(spirv::ModuleOp::getOperationName());
    pm.addPass(spirv::createSPIRVLowerABIAttributesPass());
    pm.addPass(spirv::createSPIRVUpdateVCEPass());
    if (failed(runPipeline(pm, spirvModule)))
      return failure();
    preserveInfinities(spirvModule);

    // spirv-update-vce picks the lowest version the instructions need; the entry points list
    // every global they use, which only SPIR-V 1.4 and later allow: the module says 1.5, what
    // the environment is (and Vulkan 1.2 takes). The float controls of preserveInfinities
    // are core there, their capability is not inferred.
    // Physical storage buffers are core in SPIR-V 1.5; spirv-update-vce names the extension
    // of the EXT version, whose Vulkan extension (VK_EXT_buffer_device_address) the runtime
    // does not enable (the validation layers say so).
    if (auto vce = spirvModule.getVceTriple()) {
      SmallVector<spirv::Capability> capabilities = llvm::to_vector(vce->getCapabilities());
      if (!llvm::is_contained(capabilities, spirv::Capability::SignedZeroInfNanPreserve))
        capabilities.push_back(spirv::Capability::SignedZeroInfNanPreserve);
      SmallVector<spirv::Extension> extensions;
      for (spirv::Extension extension : vce->getExtensions())
        if (extension != spirv::Extension::SPV_EXT_physical_storage_buffer &&
            extension != spirv::Extension::SPV_KHR_physical_storage_buffer)
          extensions.push_back(extension);
      spirvModule.setVceTripleAttr(spirv::VerCapExtAttr::get(
          std::max(vce->getVersion(), env.getVersion()), capabilities, extensions, ctx));
    }
    return spirvModule;
  }

private:
  MLIRContext *ctx;
  tcc::spirv_target::PipelineRunner runPipeline;
  bool noContraction;

  /// What upstream's gpu.func lowering expects of a kernel: an interface ABI on every
  /// parameter (placeholders: pushParameters replaces them), and workgroup buffers as
  /// allocations (workgroup variables) rather than attributions.
  void prepareSignature(gpu::GPUFuncOp func) {
    for (unsigned k = 0; k < func.getNumArguments(); ++k)
      func.setArgAttr(k, spirv::getInterfaceVarABIAttrName(),
                      spirv::getInterfaceVarABIAttr(0, k, spirv::StorageClass::StorageBuffer, ctx));
    unsigned count = func.getNumWorkgroupAttributions();
    if (count == 0)
      return;
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    unsigned first = func.getNumArguments();
    for (unsigned k = 0; k < count; ++k) {
      BlockArgument buffer = entry.getArgument(first + k);
      auto type = cast<MemRefType>(buffer.getType());
      auto workgroup = spirv::StorageClassAttr::get(ctx, spirv::StorageClass::Workgroup);
      Value alloc = memref::AllocOp::create(
          b, buffer.getLoc(),
          MemRefType::get(type.getShape(), type.getElementType(), type.getLayout(), workgroup));
      buffer.replaceAllUsesWith(alloc);
    }
    entry.eraseArguments(first, count);
    func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(), b.getI64IntegerAttr(0));
    func->removeAttr("workgroup_attrib_attrs");
  }

  /// Float arithmetic exactly as written: every add, subtract, multiply, divide and fma is
  /// decorated NoContraction. Without it a Vulkan compiler may reassociate and refuse nothing
  /// (Mesa folds (a + b) - b to a), which breaks the rounding tricks of the kernels' math
  /// (tcc-approximate-math: round-to-integer by adding 1.5 2^23), and may split an fma into
  /// two roundings. The multiply-adds of products stay fused: they are explicit fmas
  /// (fuseMultiplyAdds), as nvcc's and hipcc's contraction makes them on the other GPUs.
  void exactArithmetic(spirv::ModuleOp module) {
    auto unit = UnitAttr::get(ctx);
    module.walk([&](Operation *op) {
      if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp, spirv::FRemOp,
              spirv::GLFmaOp>(op))
        op->setAttr("no_contraction", unit);
    });
  }

  /// Every entry point keeps infinities, NaNs and the sign of zero in float32 arithmetic
  /// (the SignedZeroInfNanPreserve execution mode). Without it Vulkan lets a compiler assume
  /// there are none, and the models' masks are -inf (causal attention), their softmax starts
  /// from -inf and their max propagates NaN: NVIDIA's driver then computes llama_small's
  /// attention wrong. The runtime requires shaderSignedZeroInfNanPreserveFloat32.
  void preserveInfinities(spirv::ModuleOp module) {
    for (auto entryPoint : llvm::to_vector(module.getOps<spirv::EntryPointOp>())) {
      OpBuilder b(entryPoint);
      b.setInsertionPointAfter(entryPoint);
      spirv::ExecutionModeOp::create(
          b, entryPoint.getLoc(), FlatSymbolRefAttr::get(ctx, entryPoint.getFn()),
          spirv::ExecutionModeAttr::get(ctx, spirv::ExecutionMode::SignedZeroInfNanPreserve),
          b.getI32ArrayAttr({32}));
    }
  }

  /// Index values (32 bits in the kernels) widened to 64 bits with sign extension become
  /// zero extension and a pair of shifts (sext(x) = (zext(x) << 32) >>s 32), not OpSConvert:
  /// Mesa's lavapipe (Debian 12) gets OpSConvert of a 32-bit index to 64 bits wrong in
  /// Trilu's kernels (test_triu_one_row: a column of 0 compared >= 1 as true).
  void widenIndicesByShifts(gpu::GPUModuleOp module) {
    SmallVector<arith::IndexCastOp> casts;
    module.walk([&](arith::IndexCastOp cast) {
      if (isa<IndexType>(cast.getIn().getType()) && cast.getType().isInteger(64))
        casts.push_back(cast);
    });
    for (arith::IndexCastOp cast : casts) {
      OpBuilder b(cast);
      Location loc = cast.getLoc();
      Type i32 = b.getI32Type(), i64 = b.getI64Type();
      Value narrow = arith::IndexCastUIOp::create(b, loc, i32, cast.getIn());
      Value wide = arith::ExtUIOp::create(b, loc, i64, narrow);
      Value shift = arith::ConstantIntOp::create(b, loc, i64, 32);
      Value high = arith::ShLIOp::create(b, loc, wide, shift);
      cast.replaceAllUsesWith(arith::ShRSIOp::create(b, loc, high, shift).getResult());
      cast.erase();
    }
  }

  /// a * b + c (either order), whose product has no other use and both ops may contract
  /// (tcc::gpu::prepareKernels marks them), as math.fma: one rounding, as on NVIDIA and AMD.
  struct FuseMultiplyAdd : OpRewritePattern<arith::AddFOp> {
    using OpRewritePattern::OpRewritePattern;
    LogicalResult matchAndRewrite(arith::AddFOp add, PatternRewriter &rewriter) const override {
      auto contracts = [](arith::ArithFastMathInterface op) {
        return bitEnumContainsAll(op.getFastMathFlagsAttr().getValue(),
                                  arith::FastMathFlags::contract);
      };
      if (!contracts(add))
        return failure();
      for (int side = 0; side < 2; ++side) {
        auto mul = add->getOperand(side).getDefiningOp<arith::MulFOp>();
        if (!mul || !mul->hasOneUse() || !contracts(mul))
          continue;
        rewriter.replaceOpWithNewOp<math::FmaOp>(add, mul.getLhs(), mul.getRhs(),
                                                 add->getOperand(1 - side));
        rewriter.eraseOp(mul);
        return success();
      }
      return failure();
    }
  };

  LogicalResult fuseMultiplyAdds(gpu::GPUModuleOp module) {
    RewritePatternSet patterns(ctx);
    patterns.add<FuseMultiplyAdd>(ctx);
    return applyPatternsGreedily(module, std::move(patterns));
  }

  /// Memory spaces as SPIR-V storage classes: workgroup buffers → Workgroup; the kernels'
  /// stack arrays already are Function (tcc-spirv-address-buffers).
  LogicalResult mapStorageClasses(gpu::GPUModuleOp module) {
    spirv::MemorySpaceToStorageClassConverter converter(
        [](Attribute space) -> std::optional<spirv::StorageClass> {
          if (auto storage = dyn_cast_if_present<spirv::StorageClassAttr>(space))
            return storage.getValue();
          return spirv::mapMemorySpaceToVulkanStorageClass(space);
        });
    spirv::convertMemRefTypesAndAttrs(module, converter);
    return success();
  }

  LogicalResult convert(gpu::GPUModuleOp module, spirv::TargetEnvAttr env) {
    std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(env);
    SPIRVConversionOptions options;
    // Index arithmetic in 32 bits (byte offsets are 64-bit: tcc-spirv-address-buffers):
    // NVIDIA's Vulkan driver computes chains of 64-bit divisions and remainders by constants
    // wrong (llama_small, depthtospace, tile: measured on the H200), and 32-bit integer
    // arithmetic is what GPUs do natively (64-bit division is a library routine there).
    options.use64bitIndex = false;
    SPIRVTypeConverter converter(env, options);
    RewritePatternSet patterns(ctx);
    populateGPUToSPIRVPatterns(converter, patterns);
    ScfToSPIRVContext scf;
    populateSCFToSPIRVPatterns(converter, scf, patterns);
    arith::populateArithToSPIRVPatterns(converter, patterns);
    populateMathToSPIRVPatterns(converter, patterns);
    populateVectorToSPIRVPatterns(converter, patterns);
    populateMemRefToSPIRVPatterns(converter, patterns);
    populateFuncToSPIRVPatterns(converter, patterns);
    index::populateIndexToSPIRVPatterns(converter, patterns);
    ub::populateUBToSPIRVConversionPatterns(converter, patterns);
    return applyFullConversion(module, *target, std::move(patterns));
  }

  /// The parameters of an entry point as push constants (what the launch's argument array
  /// points to, slot k for parameter k, 8 bytes each); the function then takes none, as
  /// Vulkan requires. Vulkan promises 128 bytes of push constants: a kernel with more than 16
  /// parameters reads the first 15 there and, from the address in slot 15, the others
  /// (slot k at (k - 15) * 8), which the runtime copies to device memory at each launch.
  LogicalResult pushParameters(spirv::FuncOp func) {
    unsigned count = func.getNumArguments();
    if (count == 0)
      return success();
    bool spill = count > kPushSlots;
    unsigned direct = spill ? kPushSlots - 1 : count;
    Type i64 = IntegerType::get(ctx, 64);
    // The type a slot is read as: i1 arrives as a byte, read as the low 32 bits.
    auto slotType = [&](Type type) -> Type {
      return type.isInteger(1) ? IntegerType::get(ctx, 32) : type;
    };
    for (BlockArgument arg : func.getArguments())
      if (!arg.getType().isIntOrFloat() || arg.getType().getIntOrFloatBitWidth() > 64)
        return func.emitError() << "internal error: a kernel parameter of type " << arg.getType();
    auto layout = [&](unsigned from, unsigned to, bool withAddress) {
      SmallVector<Type> members;
      SmallVector<spirv::StructType::OffsetInfo> offsets;
      for (unsigned k = from; k < to; ++k) {
        members.push_back(slotType(func.getArgument(k).getType()));
        offsets.push_back(static_cast<uint32_t>((k - from) * kSlotBytes));
      }
      if (withAddress) {
        members.push_back(i64);
        offsets.push_back(static_cast<uint32_t>((to - from) * kSlotBytes));
      }
      return spirv::StructType::get(members, offsets);
    };
    auto block = layout(0, direct, spill);
    auto pointer = spirv::PointerType::get(block, spirv::StorageClass::PushConstant);
    OpBuilder top(func);
    std::string name = (func.getName() + "_parameters").str();
    auto variable = spirv::GlobalVariableOp::create(top, func.getLoc(), pointer, name);

    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    Location loc = func.getLoc();
    auto constant = [&](unsigned k) -> Value {
      return spirv::ConstantOp::create(b, loc, b.getI32Type(),
                                       b.getI32IntegerAttr(static_cast<int32_t>(k)));
    };
    Value base = spirv::AddressOfOp::create(b, loc, variable);
    Value spilled;
    if (spill) {
      Value at = spirv::AccessChainOp::create(b, loc, base, ValueRange{constant(direct)});
      Value address = spirv::LoadOp::create(b, loc, at);
      auto rest = spirv::PointerType::get(layout(direct, count, false),
                                          spirv::StorageClass::PhysicalStorageBuffer);
      spilled = spirv::ConvertUToPtrOp::create(b, loc, rest, address);
    }
    auto aligned = spirv::MemoryAccessAttr::get(ctx, spirv::MemoryAccess::Aligned);
    for (auto [k, arg] : llvm::enumerate(func.getArguments())) {
      Value value;
      if (k < direct) {
        Value at = spirv::AccessChainOp::create(b, loc, base, ValueRange{constant(k)});
        value = spirv::LoadOp::create(b, loc, at);
      } else {
        Value at = spirv::AccessChainOp::create(b, loc, spilled, ValueRange{constant(k - direct)});
        value = spirv::LoadOp::create(b, loc, at, aligned, b.getI32IntegerAttr(kSlotBytes));
      }
      if (arg.getType().isInteger(1)) {
        Value one = spirv::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(1));
        Value bit = spirv::BitwiseAndOp::create(b, loc, value, one);
        value = spirv::INotEqualOp::create(
            b, loc, bit, spirv::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(0)));
      }
      arg.replaceAllUsesWith(value);
    }
    func.getBody().front().eraseArguments(0, func.getNumArguments());
    func.setFunctionType(FunctionType::get(ctx, {}, {}));
    func.removeArgAttrsAttr();
    return success();
  }
};

struct SpirvLowerKernelsPass : tcc::impl::SpirvLowerKernelsBase<SpirvLowerKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      // The launches go on naming the gpu.binary that replaces the gpu.module.
      std::string name = gpuModule.getName().str();
      Location loc = gpuModule.getLoc();
      FailureOr<spirv::ModuleOp> spirvModule = tcc::spirv_target::lowerKernels(
          gpuModule, [&](OpPassManager &pm, Operation *op) { return runPipeline(pm, op); },
          /*noContraction=*/true);
      SmallVector<uint32_t> words;
      if (failed(spirvModule) || failed(tcc::spirv_target::serialize(*spirvModule, words)))
        return signalPassFailure();
      std::string bytes(reinterpret_cast<const char *>(words.data()), words.size() * 4);
      auto properties = DictionaryAttr::get(
          ctx,
          {NamedAttribute(StringAttr::get(ctx, "arch"), StringAttr::get(ctx, arch.getValue()))});
      auto object = gpu::ObjectAttr::get(ctx, tcc::spirv_target::vulkanEnvironment(ctx),
                                         gpu::CompilationTarget::Binary,
                                         StringAttr::get(ctx, bytes), properties,
                                         /*kernels=*/nullptr);
      OpBuilder top(*spirvModule);
      gpu::BinaryOp::create(top, loc, name, /*offloadingHandler=*/nullptr,
                            ArrayAttr::get(ctx, {object}));
      spirvModule->erase();
    }
  }
};
} // namespace

FailureOr<spirv::ModuleOp> tcc::spirv_target::lowerKernels(mlir::gpu::GPUModuleOp gpuModule,
                                                           PipelineRunner runPipeline,
                                                           bool noContraction) {
  return KernelLowering(gpuModule.getContext(), runPipeline, noContraction).lower(gpuModule);
}

std::string tcc::spirv_target::frontPipeline(bool subgroups) {
  return tcc::gpuFrontPipeline(kBlockSize, "", /*lanes=*/subgroups) +
         "gpu.module(fold-memref-alias-ops,scf-parallel-for-to-nested-fors,"
         "arith-emulate-unsupported-floats{source-types=bf16 target-type=f32},"
         "arith-expand{include-bf16=true},lower-affine,canonicalize,cse),"
         "tcc-spirv-address-buffers,gpu.module(lower-affine,canonicalize,cse),";
}

LogicalResult tcc::spirv_target::serialize(spirv::ModuleOp module,
                                           SmallVectorImpl<uint32_t> &words) {
  if (failed(spirv::serialize(module, words)))
    return module.emitError() << "internal error: the SPIR-V module does not serialize";
  return success();
}
