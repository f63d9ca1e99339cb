//===- Compiler.h - one call from an imported model to any output ------------*- C++ -*-===//
#ifndef TCC_PIPELINES_COMPILER_H
#define TCC_PIPELINES_COMPILER_H

#include "tcc/Package/Package.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcc {

/// What to produce: IR after a stage, LLVM IR, assembly, an object or the model library.
enum class EmitKind { Onnx, Prim, Kernel, LLVM, Asm, Obj, So };

/// Parses an --emit value; std::nullopt if unknown.
std::optional<EmitKind> parseEmitKind(llvm::StringRef name);

struct CompileOptions {
  EmitKind emit = EmitKind::So;
  /// What to compile for (tcc::createTarget); required from the kernel stage on. Several
  /// targets (tcc::createTargets) make one library with code for each (--emit=so only).
  std::vector<std::shared_ptr<const Target>> targets;
  bool printIrAfterAll = false;
  mlir::OpPrintingFlags printing;
  /// Differentiate (tcc-autodiff): what with respect to ("params", "inputs" or names) and
  /// the loss output ("" = output cotangents are inputs). Empty `gradWrt`: no gradients.
  std::string gradWrt;
  std::string gradLoss;
  /// > 0 (with gradLoss): the library also takes one SGD step on the parameters, in place.
  double learningRate = 0;
  /// > 0 (tcc --kv-cache N): a decoder's caches are session parameters of N positions,
  /// appended in place (tcc-kv-cache).
  int64_t kvCacheCapacity = 0;
  /// When set and a library or object is built: receives the model's interface as its
  /// descriptor publishes it (for --emit-header).
  ModelInterface *interface = nullptr;
  /// Debugging. `printIrAfter`: pass arguments ("tcc-fuse-elementwise") after which the IR
  /// is printed to stderr. `dumpDirectory`: the IR after every pass, one file each, in a
  /// folder per stage (1-decompose, 2-kernel, 3-target), then the host code's LLVM IR
  /// (model.ll) and assembly (model.s). `timing`: per-pass and per-stage times go under it.
  std::vector<std::string> printIrAfter;
  std::string dumpDirectory;
  mlir::TimingScope *timing = nullptr;
  /// The kernel stage's choices (--attention, --explain).
  KernelPipelineOptions kernelStage;
  /// The options as the artifact's descriptor records them (a command line without paths).
  std::string recordedOptions;
  /// Called with what the compile is doing (a stage, a target, a count of kernels), for a
  /// progress display; from several threads for several targets. Null: nothing is reported.
  std::function<void(const std::string &)> progress;
  /// Threads for the back end of the host code (tcc -j): the library is the same bytes for
  /// any number.
  unsigned jobs = 1;
  /// Test-only (tcc verify --inject-fault): miscompile every kernel that computes this ONNX
  /// node (injectFault), to show that verify finds it.
  std::string injectFaultNode;
};

/// Miscompiles, on purpose, every kernel function of `module` (the kernel stage's output)
/// that computes ONNX node `node`: what its last linalg.generic yields, v, becomes 2 v + 1
/// (or its last float fill's value gets 1 added). Fails with `error` when no kernel computes `node`.
mlir::LogicalResult injectFault(mlir::ModuleOp module, llvm::StringRef node, std::string &error);

/// Compiles an imported module (the `onnx` dialect) as far as `options.emit`. Textual
/// results (IR, LLVM IR, assembly) go to `text`; an object or library is written to
/// `outputPath`. Errors are emitted as diagnostics; `error` holds any that are not.
mlir::LogicalResult compileModule(mlir::ModuleOp module, const CompileOptions &options,
                                  llvm::raw_ostream &text, llvm::StringRef outputPath,
                                  std::string &error);

} // namespace tcc

#endif // TCC_PIPELINES_COMPILER_H
