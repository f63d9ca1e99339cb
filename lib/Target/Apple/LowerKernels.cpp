//===- LowerKernels.cpp - gpu.modules to Metal Shading Language, one unit per kernel ---===//
#include "MetalShaders.h"

#include "../SPIRV/SpirvEnvironment.h"
#include "../SPIRV/SpirvKernels.h"
#include "tcc/Package/ModelAbi.h"
#include "tcc/Target/Apple/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_METALLOWERKERNELS
#include "tcc/Target/Apple/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Bytes of a workgroup variable's type (what SPIRVType::getSizeInBytes leaves unknown for
/// structs without offsets): scalars, vectors, arrays and structs of them, unpadded (as
/// SPIRV-Cross declares them); std::nullopt for other types.
std::optional<int64_t> sizeInBytes(Type type) {
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  if (auto vector = dyn_cast<VectorType>(type)) {
    std::optional<int64_t> element = sizeInBytes(vector.getElementType());
    return element ? std::optional(*element * vector.getNumElements()) : std::nullopt;
  }
  if (auto array = dyn_cast<spirv::ArrayType>(type)) {
    std::optional<int64_t> element = sizeInBytes(array.getElementType());
    int64_t stride = array.getArrayStride();
    if (!element)
      return std::nullopt;
    return (stride ? std::max<int64_t>(stride, *element) : *element) * array.getNumElements();
  }
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    int64_t total = 0;
    for (Type member : structType.getElementTypes()) {
      std::optional<int64_t> bytes = sizeInBytes(member);
      if (!bytes)
        return std::nullopt;
      total += *bytes;
    }
    return total;
  }
  return std::nullopt;
}

struct MetalLowerKernelsPass : tcc::impl::MetalLowerKernelsBase<MetalLowerKernelsPass> {
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
    // The launches go on naming the gpu.binary that replaces the gpu.module.
    std::string name = gpuModule.getName().str();
    Location loc = gpuModule.getLoc();
    // No NoContraction decorations: SPIRV-Cross would make every such operation a call of a
    // [[clang::optnone]] helper (fma(1, a, b) for a + b); the runtime compiles with fast
    // math off instead, which keeps Metal from reassociating.
    FailureOr<spirv::ModuleOp> spirvModule = tcc::spirv_target::lowerKernels(
        gpuModule, [&](OpPassManager &pm, Operation *op) { return runPipeline(pm, op); },
        /*noContraction=*/false);
    if (failed(spirvModule))
      return failure();

    SmallVector<spirv::EntryPointOp> entryPoints(spirvModule->getOps<spirv::EntryPointOp>());
    std::string library = "// Metal Shading Language 3.0, made by tcc through SPIR-V and "
                          "SPIRV-Cross: " +
                          std::to_string(entryPoints.size()) +
                          " kernels, each a translation unit of its own after its marker "
                          "line\n";
    for (spirv::EntryPointOp entryPoint : entryPoints) {
      std::string function;
      FailureOr<std::string> source = translate(*spirvModule, entryPoint, function);
      if (failed(source))
        return failure();
      library += TCC_MSL_KERNEL_MARKER;
      library += entryPoint.getFn();
      library += " ";
      library += function;
      library += "\n";
      library += *source;
    }

    auto properties = DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, "arch"), StringAttr::get(ctx, "metal3")),
              NamedAttribute(StringAttr::get(ctx, "format"), StringAttr::get(ctx, "msl"))});
    auto object = gpu::ObjectAttr::get(ctx, tcc::spirv_target::vulkanEnvironment(ctx),
                                       gpu::CompilationTarget::Assembly,
                                       StringAttr::get(ctx, library), properties,
                                       /*kernels=*/nullptr);
    OpBuilder top(*spirvModule);
    gpu::BinaryOp::create(top, loc, name, /*offloadingHandler=*/nullptr,
                          ArrayAttr::get(ctx, {object}));
    spirvModule->erase();
    return success();
  }

  /// The MSL of one entry point. SPIRV-Cross declares every workgroup variable of a module
  /// in every kernel it translates from it, so each kernel is cut out into a module of its
  /// own first: the entry point, its execution modes, and the globals and functions it
  /// reaches.
  FailureOr<std::string> translate(spirv::ModuleOp module, spirv::EntryPointOp entryPoint,
                                   std::string &function) {
    StringRef kernel = entryPoint.getFn();
    SymbolTable symbols(module);
    llvm::SetVector<Operation *> needed;
    SmallVector<Operation *> worklist{entryPoint};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!needed.insert(op))
        continue;
      op->walk([&](Operation *nested) {
        nested->getAttrDictionary().walk([&](SymbolRefAttr ref) {
          if (Operation *symbol = symbols.lookup(ref.getRootReference()))
            worklist.push_back(symbol);
        });
      });
    }
    OpBuilder b(module);
    auto own = spirv::ModuleOp::create(b, module.getLoc(), module.getAddressingModel(),
                                       module.getMemoryModel(), module.getVceTriple());
    OpBuilder body = OpBuilder::atBlockEnd(own.getBody());
    int64_t threadgroupBytes = 0;
    bool unknownSize = false;
    for (Operation &op : module.getBody()->getOperations()) {
      auto mode = dyn_cast<spirv::ExecutionModeOp>(op);
      if (!needed.contains(&op) && !(mode && mode.getFn() == kernel))
        continue;
      body.clone(op);
      if (auto variable = dyn_cast<spirv::GlobalVariableOp>(op)) {
        auto pointer = cast<spirv::PointerType>(variable.getType());
        if (pointer.getStorageClass() != spirv::StorageClass::Workgroup)
          continue;
        std::optional<int64_t> bytes = sizeInBytes(pointer.getPointeeType());
        unknownSize |= !bytes;
        threadgroupBytes += bytes.value_or(0);
      }
    }
    auto fail = [&](const Twine &message) {
      own.erase();
      return entryPoint.emitError() << message;
    };
    if (unknownSize)
      return fail("internal error: kernel '" + kernel +
                  "' has a workgroup variable of unknown size");
    if (threadgroupBytes > maxThreadgroupBytes)
      return fail("kernel '" + kernel + "' needs " + Twine(threadgroupBytes) +
                  " bytes of threadgroup memory; Metal gives a kernel " +
                  Twine(maxThreadgroupBytes.getValue()));
    SmallVector<uint32_t> words;
    if (failed(verify(own)) || failed(tcc::spirv_target::serialize(own, words)))
      return fail("internal error: kernel '" + kernel + "' alone is not a valid SPIR-V module");
    own.erase();
    std::string error;
    FailureOr<std::string> source = tcc::metal::translateEntryPoint(words, kernel, function, error);
    if (failed(source))
      return entryPoint.emitError() << "internal error: kernel '" << kernel << "': " << error;
    return source;
  }
};
} // namespace
