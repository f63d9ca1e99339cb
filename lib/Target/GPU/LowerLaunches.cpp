//===- LowerLaunches.cpp - kernel launches through the import table, images as globals ---===//
#include "tcc/Target/GPU/Passes.h"

#include "DeviceReads.h"

#include "dialects/kernel/KernelDialect.h"
#include "tcc/Package/ModelAbi.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringMap.h"

namespace tcc {
#define GEN_PASS_DEF_GPULOWERLAUNCHES
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;
namespace abi = tcc::abi;

namespace {

/// The architecture a device object was compiled for ("sm_90", "gfx942").
std::optional<std::string> archOf(gpu::ObjectAttr object) {
  if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()))
    return nvvm.getChip().str();
  if (auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(object.getTarget()))
    return rocdl.getChip().str();
  // SPIR-V for Vulkan compute: the API version and the kernels' kind (tcc-spirv-lower-kernels).
  if (isa<spirv::TargetEnvAttr>(object.getTarget())) {
    auto arch =
        object.getProperties() ? object.getProperties().getAs<StringAttr>("arch") : StringAttr();
    return arch ? arch.str() : std::string("vulkan1.2");
  }
  return std::nullopt;
}

/// The image format as the descriptor names it (ModelDescriptor.cpp): the object's `format`
/// property where the lowering that made it set one (Metal's "msl": Metal Shading Language
/// made from SPIR-V), else the target's own: "ptx" or "cubin" (NVIDIA), "hsaco" (an AMD HSA
/// code object), "spirv" (a SPIR-V module).
StringRef formatName(gpu::ObjectAttr object, bool ptx) {
  if (DictionaryAttr properties = object.getProperties())
    if (auto format = properties.getAs<StringAttr>("format"))
      return format.getValue();
  if (isa<ROCDL::ROCDLTargetAttr>(object.getTarget()))
    return "hsaco";
  if (isa<spirv::TargetEnvAttr>(object.getTarget()))
    return "spirv";
  return ptx ? "ptx" : "cubin";
}

struct GpuLowerLaunchesPass : tcc::impl::GpuLowerLaunchesBase<GpuLowerLaunchesPass> {
  using Base::Base;

  /// Per function, the last stack slot made in its entry block.
  llvm::DenseMap<Operation *, Operation *> lastEntryOp;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    using tcc::kernel::KernelDialect;
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    // Kernel indices in the order of first launch.
    llvm::StringMap<int32_t> indices;
    SmallVector<Attribute> names;
    for (gpu::LaunchFuncOp launch : launches) {
      StringRef name = launch.getKernelName().getValue();
      if (indices.try_emplace(name, names.size()).second)
        names.push_back(StringAttr::get(ctx, name));
    }
    for (gpu::LaunchFuncOp launch : launches)
      if (failed(lower(launch, indices.lookup(launch.getKernelName().getValue()))))
        return signalPassFailure();
    if (failed(lowerDeviceReads(module)))
      return signalPassFailure();

    SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
    if (binaries.size() > 1) {
      binaries[1].emitError() << "internal error: a model's kernels are one gpu.binary "
                                 "(tcc-gpu-merge-modules), not "
                              << binaries.size();
      return signalPassFailure();
    }
    if (binaries.empty()) {
      if (!launches.empty()) {
        module.emitError() << "internal error: kernel launches without a gpu.binary";
        return signalPassFailure();
      }
      // Nothing to compute (every output is empty): a device model without kernels or images
      // (model_abi.h).
      module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
      module->setAttr(KernelDialect::kDeviceImagesAttrName, ArrayAttr::get(ctx, {}));
      return;
    }
    SmallVector<Attribute> images;
    OpBuilder top(module.getBodyRegion());
    for (auto [k, attr] : llvm::enumerate(binaries.front().getObjects())) {
      auto object = cast<gpu::ObjectAttr>(attr);
      std::optional<std::string> arch = archOf(object);
      // NVIDIA: PTX text or a cubin; AMD: a code object (tcc-amd-assemble), never assembly;
      // Metal: MSL text.
      bool ptx = isa<NVVM::NVVMTargetAttr>(object.getTarget()) &&
                 object.getFormat() == gpu::CompilationTarget::Assembly;
      bool text = ptx || formatName(object, ptx) == "msl";
      if (!arch || (text != (object.getFormat() == gpu::CompilationTarget::Assembly)) ||
          (!text && object.getFormat() != gpu::CompilationTarget::Binary)) {
        binaries.front().emitError() << "internal error: a device object of an unknown target "
                                        "or format: "
                                     << attr;
        return signalPassFailure();
      }
      std::string bytes = object.getObject().getValue().str();
      if (text)
        bytes.push_back('\0'); // the drivers read PTX and MSL as C strings
      std::string symbol = "tcc_device_image_" + std::to_string(k);
      auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), bytes.size());
      LLVM::GlobalOp::create(top, module.getLoc(), type, /*isConstant=*/true,
                             LLVM::Linkage::Private, symbol, top.getStringAttr(bytes),
                             /*alignment=*/64);
      images.push_back(DictionaryAttr::get(
          ctx,
          {NamedAttribute(StringAttr::get(ctx, "arch"), StringAttr::get(ctx, *arch)),
           NamedAttribute(StringAttr::get(ctx, "format"),
                          StringAttr::get(ctx, formatName(object, ptx))),
           NamedAttribute(StringAttr::get(ctx, "symbol"), FlatSymbolRefAttr::get(ctx, symbol))}));
    }
    binaries.front().erase();
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
    if (!names.empty())
      module->setAttr(KernelDialect::kDeviceKernelsAttrName, ArrayAttr::get(ctx, names));
    module->setAttr(KernelDialect::kDeviceImagesAttrName, ArrayAttr::get(ctx, images));
  }

  /// Field `field` of the import table `imports` points to (a pointer-sized field).
  Value loadImport(OpBuilder &b, Location loc, Value imports, int32_t field) {
    MLIRContext *ctx = b.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto table = abi::llvmDialectStructType(ctx, abi::kImportKinds);
    Value at = LLVM::GEPOp::create(b, loc, ptr, table, imports, ArrayRef<LLVM::GEPArg>{0, field});
    return LLVM::LoadOp::create(b, loc, ptr, at).getResult();
  }

  /// Each call of tcc_device_read(host, device, bytes) (tcc-gpu-form-grids' host reads)
  /// becomes imports->device_read(context, host, device, bytes), and the module is marked
  /// `kernel.reads_device` (the descriptor's TCC_MODEL_READS_DEVICE). On failure the runtime
  /// zeroes the slot and the run fails when it returns (model_abi.h), so the status needs no
  /// check here.
  LogicalResult lowerDeviceReads(ModuleOp module) {
    MLIRContext *ctx = &getContext();
    auto declaration = module.lookupSymbol<LLVM::LLVMFuncOp>(tcc::gpu::kDeviceReadFunction);
    if (!declaration)
      return success();
    SmallVector<LLVM::CallOp> calls;
    module.walk([&](LLVM::CallOp call) {
      if (call.getCallee() == tcc::gpu::kDeviceReadFunction)
        calls.push_back(call);
    });
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
    for (LLVM::CallOp call : calls) {
      Location loc = call.getLoc();
      auto func = call->getParentOfType<LLVM::LLVMFuncOp>();
      if (!func || func.getNumArguments() == 0 || func.getArgument(0).getType() != ptr ||
          call.getNumOperands() != 3 ||
          !llvm::all_of(call.getOperandTypes(), [&](Type t) { return t == i64; }))
        return call.emitError() << "internal error: a device read outside a function that "
                                   "takes the import table first, or not of three i64 operands";
      OpBuilder b(call);
      Value imports = func.getArgument(0);
      Value fn = loadImport(b, loc, imports, abi::kImport_device_read);
      Value context = loadImport(b, loc, imports, abi::kImport_context);
      Value host = LLVM::IntToPtrOp::create(b, loc, ptr, call.getOperand(0));
      Value device = LLVM::IntToPtrOp::create(b, loc, ptr, call.getOperand(1));
      auto type = LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr, i64});
      LLVM::CallOp::create(b, loc, type, ValueRange{fn, context, host, device, call.getOperand(2)});
      call.erase();
    }
    if (!SymbolTable::symbolKnownUseEmpty(declaration, module))
      return declaration.emitError() << "internal error: @" << tcc::gpu::kDeviceReadFunction
                                     << " is used other than by calls";
    declaration.erase();
    module->setAttr(tcc::kernel::KernelDialect::kReadsDeviceAttrName, UnitAttr::get(ctx));
    return success();
  }

  LogicalResult lower(gpu::LaunchFuncOp launch, int32_t index) {
    MLIRContext *ctx = &getContext();
    Location loc = launch.getLoc();
    auto func = launch->getParentOfType<LLVM::LLVMFuncOp>();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
    if (!func || func.isExternal() || func.getNumArguments() == 0 ||
        func.getArgument(0).getType() != ptr)
      return launch.emitError() << "internal error: a kernel launch outside a function that "
                                   "takes the import table first (tcc-gpu-form-grids)";
    if (!launch.getAsyncDependencies().empty() || launch.getAsyncObject() ||
        launch.getClusterSizeX())
      return launch.emitError() << "internal error: asynchronous or clustered launches are not "
                                   "lowered";
    for (Value one : {launch.getGridSizeY(), launch.getGridSizeZ(), launch.getBlockSizeY(),
                      launch.getBlockSizeZ()})
      if (!matchPattern(one, m_One()))
        return launch.emitError() << "internal error: only 1-D grids are lowered";
    ValueRange operands = launch.getKernelOperands();
    for (Value v : operands)
      if (!isa<LLVM::LLVMPointerType, IntegerType, FloatType>(v.getType()))
        return launch.emitError() << "internal error: a kernel operand of type " << v.getType();

    // One 8-byte slot per operand and the array of their addresses, in the entry block.
    OpBuilder entry(ctx);
    // After the slots of earlier launches, so that they read in launch order.
    if (Operation *last = lastEntryOp.lookup(func))
      entry.setInsertionPointAfter(last);
    else
      entry.setInsertionPointToStart(&func.getBody().front());
    Value count = LLVM::ConstantOp::create(entry, loc, i64, std::max<int64_t>(1, operands.size()));
    Value slots = LLVM::AllocaOp::create(entry, loc, ptr, i64, count, /*alignment=*/8);
    Value entries = terminateArguments
                        ? LLVM::ConstantOp::create(entry, loc, i64, operands.size() + 1).getResult()
                        : count;
    Value addresses = LLVM::AllocaOp::create(entry, loc, ptr, ptr, entries, /*alignment=*/8);
    lastEntryOp[func] = addresses.getDefiningOp();

    OpBuilder b(launch);
    for (auto [k, value] : llvm::enumerate(operands)) {
      Value slot = LLVM::GEPOp::create(b, loc, ptr, i64, slots,
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(k)});
      LLVM::StoreOp::create(b, loc, value, slot);
      Value address = LLVM::GEPOp::create(b, loc, ptr, ptr, addresses,
                                          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(k)});
      LLVM::StoreOp::create(b, loc, slot, address);
    }
    if (terminateArguments) {
      Value end =
          LLVM::GEPOp::create(b, loc, ptr, ptr, addresses,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(operands.size())});
      LLVM::StoreOp::create(b, loc, LLVM::ZeroOp::create(b, loc, ptr), end);
    }
    Value imports = func.getArgument(0);
    Value fn = loadImport(b, loc, imports, abi::kImport_device_launch);
    Value context = loadImport(b, loc, imports, abi::kImport_context);
    auto toI32 = [&](Value v) -> Value {
      if (v.getType() == i32)
        return v;
      return LLVM::TruncOp::create(b, loc, i32, v);
    };
    auto toI64 = [&](Value v) -> Value {
      if (v.getType() == i64)
        return v;
      return LLVM::ZExtOp::create(b, loc, i64, v);
    };
    Value shared = launch.getDynamicSharedMemorySize()
                       ? toI32(launch.getDynamicSharedMemorySize())
                       : LLVM::ConstantOp::create(b, loc, i32, 0).getResult();
    auto type = LLVM::LLVMFunctionType::get(i32, {ptr, i32, i64, i32, i32, ptr});
    // The status needs no check here: after a failed launch the runtime has recorded the
    // error and queues nothing more of the run (model_abi.h, device_launch).
    LLVM::CallOp::create(b, loc, type,
                         ValueRange{fn, context, LLVM::ConstantOp::create(b, loc, i32, index),
                                    toI64(launch.getGridSizeX()), toI32(launch.getBlockSizeX()),
                                    shared, addresses});
    launch.erase();
    return success();
  }
};
} // namespace
