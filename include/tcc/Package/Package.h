//===- Package.h - from the LLVM dialect to model.so -----------------------------*- C++ -*-===//
//
// The last stages of the pipeline: the model's interface (what the descriptor publishes),
// the CPU target, LLVM IR with the model descriptor (runtime/include/tcc/model_abi.h),
// machine code, and the in-process link into a shared library.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_PACKAGE_PACKAGE_H
#define TCC_PACKAGE_PACKAGE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tcc {

struct TensorInterface {
  std::string name;
  int32_t dtype = 0;                  ///< tcc_dtype (ONNX TensorProto code)
  llvm::SmallVector<int64_t> shape;   ///< -1 for a symbolic dim
  llvm::SmallVector<int32_t> symbols; ///< index into ModelInterface::symbols, or -1
};

struct SymbolInterface {
  std::string name;
  int64_t min = 1, max = -1;
  /// Computed from input elements before the run (@data_symbols), not bound by an input dim.
  bool computed = false;
};

/// What a compiled model publishes: its inputs, outputs and symbolic dims.
struct ModelInterface {
  std::vector<TensorInterface> inputs, outputs;
  /// Tensors the session keeps in its writable parameter buffer (tcc --grad/--train), with
  /// static shapes, in @main's argument order; their byte offsets in the buffer are set when
  /// the buffer is laid out (tcc-entry-signature).
  std::vector<TensorInterface> parameters;
  std::vector<int64_t> parameterOffsets;
  int64_t parametersSize = 0;
  std::vector<SymbolInterface> symbols;
};

/// Reads the interface from @main of a decomposed (prim) module: argument and result names
/// (`onnx.name`), element types, shapes and the symbols bound to the inputs.
mlir::FailureOr<ModelInterface> getModelInterface(mlir::ModuleOp module);

/// The machine code is generated for.
struct CpuTarget {
  std::string triple;   ///< e.g. x86_64-unknown-linux-gnu
  std::string cpu;      ///< e.g. x86-64-v3
  std::string features; ///< the LLVM feature string for `cpu` (may be empty)
  std::string requiredFeatures; ///< what the runtime checks at load, e.g. "+avx2,+fma"
};

/// Resolves `--target` ("host", "cpu", "cpu:x86_64-linux", "cpu:aarch64-linux") and `--cpu`
/// ("" for the portable baseline x86-64-v3 / generic armv8.2-a, "native", or a CPU name).
mlir::FailureOr<CpuTarget> resolveCpuTarget(llvm::StringRef target, llvm::StringRef cpu,
                                            std::string &error);

/// Moves every large constant global into one 64-byte-aligned blob (`blob`), replacing its
/// uses with views into the external global `tcc_weights`. Run after bufferization.
mlir::LogicalResult packWeights(mlir::ModuleOp module, std::vector<char> &blob);

/// Lays out the initial values of the parameters (module attribute `tcc.parameters` from
/// tcc-entry-signature: name, byte offset, value) into `blob` and records each parameter's
/// offset and the buffer size in `interface`.
mlir::LogicalResult packParameters(mlir::ModuleOp module, ModelInterface &interface,
                                   std::vector<char> &blob);

/// An LLVM module that defines `tcc_weights` (hidden, read-only, 64-byte aligned) from `blob`
/// and, when `parameters` is not empty, `tcc_initial_parameters` from it.
std::unique_ptr<llvm::Module> buildWeightsModule(llvm::ArrayRef<char> blob,
                                                 llvm::ArrayRef<char> parameters,
                                                 llvm::LLVMContext &context);

/// Translates a module lowered to the LLVM dialect into LLVM IR and adds the model
/// descriptor, its entry points and queries. Only the descriptor symbol is exported.
std::unique_ptr<llvm::Module> buildModelModule(mlir::ModuleOp module,
                                               const ModelInterface &interface,
                                               const CpuTarget &target,
                                               llvm::LLVMContext &context, std::string &error);

/// Optimizes `module` (O3, unless `optimize` is false) and emits an object file or assembly.
mlir::LogicalResult emitMachineCode(llvm::Module &module, const CpuTarget &target,
                                    bool assembly, llvm::SmallVectorImpl<char> &out,
                                    std::string &error, bool optimize = true);

/// Links `objects` into the shared library `outputPath` with the in-process LLD, adding
/// compiler-rt's builtins statically. In-process links are serialized.
mlir::LogicalResult linkSharedLibrary(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                                      llvm::StringRef outputPath, std::string &error);

} // namespace tcc

#endif // TCC_PACKAGE_PACKAGE_H
