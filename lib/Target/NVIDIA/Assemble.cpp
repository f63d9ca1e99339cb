//===- Assemble.cpp - PTX checked, and assembled to cubin by CUDA's ptxas ------------------===//
#include "tcc/Target/NVIDIA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc {
#define GEN_PASS_DEF_NVIDIAASSEMBLE
#include "tcc/Target/NVIDIA/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The first external function the PTX calls (".extern .func ... name("), if any.
std::optional<std::string> externalFunction(StringRef ptx) {
  size_t at = ptx.find(".extern .func");
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef line = ptx.substr(at).take_until([](char c) { return c == '\n'; });
  return line.str();
}

struct NvidiaAssemblePass : tcc::impl::NvidiaAssembleBase<NvidiaAssemblePass> {
  using NvidiaAssembleBase::NvidiaAssembleBase;

  void runOnOperation() override {
    for (gpu::BinaryOp binary : getOperation().getOps<gpu::BinaryOp>())
      if (failed(assemble(binary)))
        return signalPassFailure();
  }

  LogicalResult assemble(gpu::BinaryOp binary) {
    SmallVector<Attribute> objects(binary.getObjects().begin(), binary.getObjects().end());
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
      if (!target || object.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      StringRef ptx = object.getObject().getValue();
      if (std::optional<std::string> call = externalFunction(ptx))
        return binary.emitError() << "the kernels for " << target.getChip()
                                  << " call a function the PTX does not define (" << *call
                                  << "): device code must not use libdevice";
      if (ptxas.empty())
        continue;
      FailureOr<std::string> cubin = runPtxas(binary, ptx, target.getChip());
      if (failed(cubin))
        return failure();
      objects.push_back(gpu::ObjectAttr::get(binary.getContext(), target,
                                             gpu::CompilationTarget::Binary,
                                             StringAttr::get(binary.getContext(), *cubin),
                                             /*properties=*/nullptr, /*kernels=*/nullptr));
    }
    binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
    return success();
  }

  FailureOr<std::string> runPtxas(gpu::BinaryOp binary, StringRef ptx, StringRef chip) {
    SmallString<128> input, output, log;
    if (llvm::sys::fs::createTemporaryFile("tcc-kernels", "ptx", input) ||
        llvm::sys::fs::createTemporaryFile("tcc-kernels", "cubin", output) ||
        llvm::sys::fs::createTemporaryFile("tcc-ptxas", "log", log))
      return binary.emitError() << "cannot create temporary files for ptxas";
    auto cleanup = llvm::make_scope_exit([&] {
      llvm::sys::fs::remove(input);
      llvm::sys::fs::remove(output);
      llvm::sys::fs::remove(log);
    });
    {
      std::error_code ec;
      llvm::raw_fd_ostream file(input, ec);
      if (ec)
        return binary.emitError() << "cannot write " << input << ": " << ec.message();
      file << ptx;
    }
    std::string arch = ("-arch=" + chip).str();
    SmallVector<StringRef> args = {ptxas, arch, "-O3", input, "-o", output};
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
    std::string message;
    int code = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt, redirects,
                                         /*SecondsToWait=*/0, /*MemoryLimit=*/0, &message);
    auto read = [](StringRef path) -> std::string {
      auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
      return buffer ? (*buffer)->getBuffer().str() : std::string();
    };
    if (code != 0)
      return binary.emitError() << "ptxas (" << ptxas << ") failed for " << chip << " with "
                                << (message.empty() ? "exit code " + std::to_string(code) : message)
                                << ": " << read(log);
    std::string cubin = read(output);
    if (cubin.empty())
      return binary.emitError() << "ptxas (" << ptxas << ") wrote no cubin for " << chip;
    return cubin;
  }
};
} // namespace
