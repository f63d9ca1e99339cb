//===- LowerKernels.cpp - gpu.modules to serialized SPIR-V compute modules ------------===//
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
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tcc {
#define GEN_PASS_DEF_SPIRVLOWERKERNELS
#include "tcc/Target/SPIRV/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Bytes of the push-constant slot of each parameter.
constexpr int64_t kSlotBytes = 8;

struct SpirvLowerKernelsPass : tcc::impl::SpirvLowerKernelsBase<SpirvLowerKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : gpuModules)
      if (failed(lower(gpuModule)))
        return signalPassFailure();
  }

  LogicalResult lower(gpu::GPUModuleOp gpuModule) {
    MLIRContext *ctx = &getContext();
    spirv::TargetEnvAttr env = tcc::spirv_target::vulkanEnvironment(ctx);
    // Warp reductions as shuffles within 32 lanes, as on NVIDIA and AMD.
    if (failed(tcc::gpu::prepareKernels(gpuModule)))
      return failure();

    // The entry-point ABI of each kernel: its block size, which the grids fixed.
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>()) {
      if (!func.isKernel())
        continue;
      std::optional<DenseI32ArrayAttr> block = func.getKnownBlockSizeAttr()
                                                   ? std::optional(func.getKnownBlockSizeAttr())
                                                   : std::nullopt;
      if (!block)
        return func.emitError() << "internal error: kernel @" << func.getName()
                                << " has no known block size (tcc-gpu-form-grids)";
      func->setAttr(spirv::getEntryPointABIAttrName(),
                    spirv::EntryPointABIAttr::get(ctx, *block, std::nullopt, std::nullopt));
      int64_t bytes = kSlotBytes * func.getNumArguments();
      if (bytes > maxPushBytes)
        return func.emitError() << "kernel @" << func.getName() << " takes "
                                << func.getNumArguments() << " parameters (" << bytes
                                << " bytes of push constants); the SPIR-V targets pass at most "
                                << static_cast<int64_t>(maxPushBytes);
    }
    gpuModule->setAttr(spirv::getTargetEnvAttrName(), env);
    for (auto func : gpuModule.getOps<gpu::GPUFuncOp>())
      if (func.isKernel())
        prepareSignature(func);

    // Upstream's conversion turns the gpu.module into a spirv.module in its place; the
    // launches go on naming the gpu.binary that replaces both.
    std::string name = gpuModule.getName().str();
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
    for (auto func : llvm::to_vector(spirvModule.getOps<spirv::FuncOp>()))
      if (func->hasAttr(spirv::getEntryPointABIAttrName()) && failed(pushParameters(func)))
        return failure();

    OpPassManager pm(spirv::ModuleOp::getOperationName());
    pm.addPass(spirv::createSPIRVLowerABIAttributesPass());
    pm.addPass(spirv::createSPIRVUpdateVCEPass());
    if (failed(runPipeline(pm, spirvModule)))
      return failure();

    // spirv-update-vce picks the lowest version the instructions need; the entry points list
    // every global they use, which only SPIR-V 1.4 and later allow: the module says 1.5, what
    // the environment is (and Vulkan 1.2 takes).
    if (auto vce = spirvModule.getVceTriple())
      spirvModule.setVceTripleAttr(spirv::VerCapExtAttr::get(
          std::max(vce->getVersion(), env.getVersion()), llvm::to_vector(vce->getCapabilities()),
          llvm::to_vector(vce->getExtensions()), ctx));
    SmallVector<uint32_t> words;
    if (failed(spirv::serialize(spirvModule, words)))
      return spirvModule.emitError() << "internal error: the SPIR-V module does not serialize";
    std::string bytes(reinterpret_cast<const char *>(words.data()), words.size() * 4);
    auto object = gpu::ObjectAttr::get(ctx, env, gpu::CompilationTarget::Binary,
                                       StringAttr::get(ctx, bytes), /*properties=*/nullptr,
                                       /*kernels=*/nullptr);
    OpBuilder top(spirvModule);
    gpu::BinaryOp::create(top, loc, name, /*offloadingHandler=*/nullptr,
                          ArrayAttr::get(ctx, {object}));
    spirvModule.erase();
    return success();
  }

  /// What upstream's gpu.func lowering expects of a kernel: an interface ABI on every
  /// parameter (placeholders: pushParameters replaces them), and workgroup buffers as
  /// allocations (workgroup variables) rather than attributions.
  void prepareSignature(gpu::GPUFuncOp func) {
    MLIRContext *ctx = &getContext();
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
    MLIRContext *ctx = &getContext();
    std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(env);
    SPIRVConversionOptions options;
    options.use64bitIndex = true;
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

  /// The parameters of an entry point as one push-constant block of 8-byte slots (what the
  /// launch's argument array points to, slot k for parameter k); the function then takes
  /// none, as Vulkan requires.
  LogicalResult pushParameters(spirv::FuncOp func) {
    MLIRContext *ctx = &getContext();
    if (func.getNumArguments() == 0)
      return success();
    SmallVector<Type> members;
    SmallVector<spirv::StructType::OffsetInfo> offsets;
    for (auto [k, arg] : llvm::enumerate(func.getArguments())) {
      Type type = arg.getType();
      // i1 parameters arrive as a byte in their slot: read the low 32 bits.
      if (type.isInteger(1))
        type = IntegerType::get(ctx, 32);
      if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() > 64)
        return func.emitError() << "internal error: a kernel parameter of type " << arg.getType();
      members.push_back(type);
      offsets.push_back(static_cast<uint32_t>(k * kSlotBytes));
    }
    auto block = spirv::StructType::get(members, offsets);
    auto pointer = spirv::PointerType::get(block, spirv::StorageClass::PushConstant);
    OpBuilder top(func);
    std::string name = (func.getName() + "_parameters").str();
    auto variable = spirv::GlobalVariableOp::create(top, func.getLoc(), pointer, name);

    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    Location loc = func.getLoc();
    Value base = spirv::AddressOfOp::create(b, loc, variable);
    for (auto [k, arg] : llvm::enumerate(func.getArguments())) {
      Value index = spirv::ConstantOp::create(b, loc, b.getI32Type(),
                                              b.getI32IntegerAttr(static_cast<int32_t>(k)));
      Value at = spirv::AccessChainOp::create(b, loc, base, ValueRange{index});
      Value value = spirv::LoadOp::create(b, loc, at);
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
} // namespace
