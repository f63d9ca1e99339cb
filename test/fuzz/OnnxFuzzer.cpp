//===- OnnxFuzzer.cpp - libFuzzer target: model bytes -> import and decomposition ---------===//
//
// A model file is untrusted input to tcc: whatever its bytes, importing and decomposing it
// must give a module or diagnostics, never a crash, an abort or a read outside a buffer.
// The bytes are written to a file (the importer maps model files) named .onnx, or .onnxtxt
// when built with TCC_FUZZ_TEXT (protobuf text format), imported, and run through the
// decomposition (tcc-decompose-onnx, canonicalize, cse) as `tcc --emit=prim` would. Each
// input gets a fresh MLIRContext, so that nothing one input makes outlives it.
//
//===------------------------------------------------------------------------------------===//
#include "dialects/onnx/OnnxDialect.h"
#include "dialects/prim/PrimDialect.h"
#include "tcc/Decompose/Passes.h"
#include "tcc/Import/Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <unistd.h>

namespace {
#ifdef TCC_FUZZ_TEXT
constexpr const char *kSuffix = ".onnxtxt";
#else
constexpr const char *kSuffix = ".onnx";
#endif

/// The file this process writes each input to.
const std::string &inputPath() {
  static const std::string path = [] {
    llvm::SmallString<128> folder;
    llvm::sys::path::system_temp_directory(/*erasedOnReboot=*/true, folder);
    llvm::sys::path::append(folder, "tcc-fuzz-" + std::to_string(::getpid()) + kSuffix);
    return std::string(folder);
  }();
  return path;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(inputPath(), ec);
    if (ec)
      return 0;
    file.write(reinterpret_cast<const char *>(data), size);
  }
  mlir::DialectRegistry registry;
  registry.insert<tcc::onnx::OnnxDialect, tcc::prim::PrimDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::tensor::TensorDialect>();
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // Diagnostics are the expected outcome of most inputs: counted, not printed.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tcc::importOnnxModel(inputPath(), tcc::ImportOptions(), context);
  if (!module)
    return 0;
  mlir::PassManager pm(&context);
  pm.addPass(tcc::createDecomposeOnnx());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  (void)pm.run(*module);
  return 0;
}
