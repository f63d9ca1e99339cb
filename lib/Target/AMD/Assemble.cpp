//===- Assemble.cpp - LLVM bitcode to HSA code objects (AMDGPU back end + LLD, in-process) ===//
#include "tcc/Target/AMD/Passes.h"
#include "tcc/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tcc {
#define GEN_PASS_DEF_AMDASSEMBLE
#include "tcc/Target/AMD/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The first function `module` calls without defining it (intrinsics aside), if any.
std::optional<std::string> externalFunction(const llvm::Module &module) {
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty())
      return f.getName().str();
  return std::nullopt;
}

struct AmdAssemblePass : tcc::impl::AmdAssembleBase<AmdAssemblePass> {
  void runOnOperation() override {
    for (gpu::BinaryOp binary : getOperation().getOps<gpu::BinaryOp>())
      if (failed(assemble(binary)))
        return signalPassFailure();
  }

  LogicalResult assemble(gpu::BinaryOp binary) {
    SmallVector<Attribute> objects;
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      auto target = dyn_cast<ROCDL::ROCDLTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Offload) {
        objects.push_back(attr);
        continue;
      }
      FailureOr<std::string> codeObject = compile(binary, object.getObject().getValue(), target);
      if (failed(codeObject))
        return failure();
      objects.push_back(gpu::ObjectAttr::get(binary.getContext(), target,
                                             gpu::CompilationTarget::Binary,
                                             StringAttr::get(binary.getContext(), *codeObject),
                                             /*properties=*/nullptr, /*kernels=*/nullptr));
    }
    binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
    return success();
  }

  FailureOr<std::string> compile(gpu::BinaryOp binary, StringRef bitcode,
                                 ROCDL::ROCDLTargetAttr target) {
    StringRef chip = target.getChip();
    llvm::LLVMContext context;
    auto buffer = llvm::MemoryBuffer::getMemBuffer(bitcode, "tcc_kernels",
                                                   /*RequiresNullTerminator=*/false);
    llvm::Expected<std::unique_ptr<llvm::Module>> module =
        llvm::parseBitcodeFile(buffer->getMemBufferRef(), context);
    if (!module)
      return binary.emitError() << "internal error: the kernels' bitcode for " << chip
                                << " does not parse: " << llvm::toString(module.takeError());
    if (std::optional<std::string> call = externalFunction(**module))
      return binary.emitError() << "the kernels for " << chip << " call a function they do not "
                                << "define (" << *call
                                << "): device code must not use the ROCm device library";

    // Optimized already (gpu-module-to-binary at the target's O level): the back end only.
    tcc::HostMachine machine;
    machine.triple = target.getTriple().str();
    machine.cpu = chip.str();
    machine.features = target.getFeatures().str();
    llvm::SmallVector<char, 0> relocatable;
    std::string error;
    if (failed(tcc::emitMachineCode(**module, machine, /*assembly=*/false, relocatable, error,
                                    /*optimize=*/false)))
      return binary.emitError() << "the AMDGPU back end failed for " << chip << ": " << error;

    // The code object is the object linked as a shared library (what the HSA loader maps).
    SmallString<128> output;
    if (llvm::sys::fs::createTemporaryFile("tcc-kernels", "hsaco", output))
      return binary.emitError() << "cannot create a temporary file for the code object";
    llvm::scope_exit cleanup([&] { llvm::sys::fs::remove(output); });
    if (failed(tcc::linkSharedLibrary({relocatable}, machine.triple, output, error)))
      return binary.emitError() << "linking the code object for " << chip << " failed: " << error;
    auto linked = llvm::MemoryBuffer::getFile(output, /*IsText=*/false);
    if (!linked)
      return binary.emitError() << "cannot read the code object for " << chip << ": "
                                << linked.getError().message();
    std::string bytes = (*linked)->getBuffer().str();
    return bytes;
  }
};
} // namespace
