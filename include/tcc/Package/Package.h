//===- Package.h - from the LLVM dialect to model.so -----------------------------*- C++ -*-===//
//
// The target-neutral last stages: the model's interface (what the descriptor publishes), the
// weights blob, and LLVM IR with the model descriptor (runtime/include/tcc/model_abi.h,
// through tcc/Package/ModelAbi.h). Machine code and the link are the target's
// (tcc/Target/Target.h).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_PACKAGE_PACKAGE_H
#define TCC_PACKAGE_PACKAGE_H

#include "tcc/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <memory>
#include <optional>
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

/// A packed sequence at the interface (model_abi.h's tcc_sequence_desc): the indices of its
/// NAME.shapes and NAME.data among the inputs or outputs.
struct SequenceInterface {
  std::string name;
  bool isOutput = false;
  int32_t shapesIndex = -1, dataIndex = -1;
};

/// An optional present or empty at run time (model_abi.h's tcc_optional_desc): the index of
/// its bool flag NAME.present and of the first of its value's `count` tensors (1, or 2 for
/// a packed sequence) among the inputs or outputs.
struct OptionalInterface {
  std::string name;
  bool isOutput = false;
  int32_t presentIndex = -1, firstIndex = -1, count = 0;
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
  std::vector<SequenceInterface> sequences;
  std::vector<OptionalInterface> optionals;
};

/// Reads the interface from @main of a decomposed (prim) module: argument and result names
/// (`onnx.name`), element types, shapes and the symbols bound to the inputs.
mlir::FailureOr<ModelInterface> getModelInterface(mlir::ModuleOp module);

/// `interface` as the compiled model's descriptor publishes it: output dims that the kernel
/// pipeline found to be a lone symbol, or data-dependent (TCC_DIM_DATA_DEPENDENT), say so.
/// `module` is past tcc-entry-signature.
ModelInterface publishedInterface(mlir::ModuleOp module, const ModelInterface &interface);

/// Writes a C header for a model compiled to a library (tcc --emit-header): its inputs,
/// outputs and symbolic dims as macros and comments, and `<name>_run`, a typed wrapper over
/// tcc_session_run. NAME is `stem` made a C identifier (other characters become '_');
/// `source` (the model file) appears in its first comment.
void writeModelHeader(const ModelInterface &interface, llvm::StringRef stem,
                      llvm::StringRef source, llvm::raw_ostream &os);

/// The bytes of `tcc_weights`: each packed constant at a 64-byte-aligned offset, zeros
/// between. The pieces refer to where the bytes already lie (the constants' attributes and
/// resource blobs, which the MLIR context keeps: the mapped model file itself where the
/// importer could point into it) instead of copying them, so that a model's weights are not
/// duplicated in memory while it compiles; only bytes made while packing (booleans widened
/// to bytes, splats expanded) are held here.
class WeightsBlob {
public:
  uint64_t size() const { return total; }
  bool empty() const { return total == 0; }
  /// Appends `bytes` (which must outlive the blob) at the next 64-byte boundary and returns
  /// their offset; `mapped`: they lie in a mapped file (the model's), whose pages may be
  /// given back once written.
  uint64_t append(llvm::ArrayRef<char> bytes, bool mapped = false);
  /// Appends bytes the blob keeps.
  uint64_t append(std::vector<char> bytes);
  /// Pads the size to a multiple of 64 bytes.
  void finish();
  /// Calls `write(offset, bytes, mapped)` for each piece in offset order; stops at the first
  /// false.
  bool forEachPiece(llvm::function_ref<bool(uint64_t, llvm::ArrayRef<char>, bool)> write) const;
  /// All the bytes in one buffer.
  std::vector<char> materialize() const;
  /// The same bytes at the same offsets.
  bool operator==(const WeightsBlob &other) const;

private:
  struct Piece {
    uint64_t offset;
    llvm::ArrayRef<char> bytes;
    bool mapped;
  };
  std::vector<Piece> pieces;
  std::deque<std::vector<char>> owned;
  uint64_t total = 0;
};

/// Moves every constant global of at least `minBytes` bytes into the 64-byte-aligned blob
/// `blob`, replacing its uses with views into the external global `tcc_weights`. Run after
/// bufferization. (CPU code keeps small constants inline; a GPU's host code must not touch
/// any, so GPU targets pack them all: TargetInfo::minPackedWeightBytes.)
mlir::LogicalResult packWeights(mlir::ModuleOp module, WeightsBlob &blob, int64_t minBytes = 64);

/// Lays out the initial values of the parameters (module attribute `kernel.parameters` from
/// tcc-entry-signature: name, byte offset, value) into `blob` and records each parameter's
/// offset and the buffer size in `interface`.
mlir::LogicalResult packParameters(mlir::ModuleOp module, ModelInterface &interface,
                                   std::vector<char> &blob);

/// An LLVM module that defines the weights symbol `weightsSymbol` (hidden, read-only,
/// 64-byte aligned, `weights.size()` bytes) and, when `parameters` is not empty,
/// `tcc_initial_parameters` from it, for the object format of `triple`. ELF: the weights
/// take no bytes in the object (a section without file contents, which the link gives file
/// space in a read-only segment of the library): fillWeights writes them into the library
/// after the link. Mach-O: the bytes are in the object.
std::unique_ptr<llvm::Module> buildWeightsModule(const WeightsBlob &weights,
                                                 llvm::StringRef weightsSymbol,
                                                 llvm::ArrayRef<char> parameters,
                                                 llvm::StringRef triple,
                                                 llvm::LLVMContext &context);

/// Whether buildWeightsModule leaves the weights to fillWeights for `triple`.
bool weightsFilledAfterLink(llvm::StringRef triple);

/// Writes `weights` into the linked ELF library at `libraryPath`, where its symbol
/// `weightsSymbol` lies in the file (buildWeightsModule reserved the space), streaming the
/// pieces from where they lie.
mlir::LogicalResult fillWeights(llvm::StringRef libraryPath, llvm::StringRef weightsSymbol,
                                const WeightsBlob &weights, std::string &error);

/// Translates a module lowered to the LLVM dialect into LLVM IR and adds the model
/// descriptor, its entry points and queries. Only the descriptor symbol is exported.
/// `deviceType` is the DLPack device type of the kernels: kDLCPU (1) writes the device
/// fields empty; another one writes them from the module's kernel.device_* attributes (a GPU
/// target's launch lowering). The kernel list comes from kernel.device_kernels or
/// kernel.profiled_kernels and kernel.kernel_nodes; `compileOptions` is recorded as is.
std::unique_ptr<llvm::Module> buildModelModule(mlir::ModuleOp module,
                                               const ModelInterface &interface,
                                               const HostMachine &host, int32_t deviceType,
                                               llvm::StringRef compileOptions,
                                               llvm::LLVMContext &context, std::string &error);

/// A fat model (ModelVariants.cpp): the hidden name of variant `variant`'s descriptor.
std::string variantDescriptorName(unsigned variant);

/// The weights symbol of a model, or of a fat model's variant `dataVariant`.
std::string weightsSymbolName(std::optional<unsigned> dataVariant = std::nullopt);

/// Makes the objects of one target of a fat model linkable beside the others': its
/// descriptor becomes the hidden variantDescriptorName(variant), its weights and initial
/// parameters (defined or referenced) those of `dataVariant` (an earlier variant whose bytes
/// are the same, or `variant` itself). `module` is a buildModelModule or buildWeightsModule.
void renameVariantSymbols(llvm::Module &module, unsigned variant, unsigned dataVariant);

/// The LLVM module that exports a fat model's table of `count` variants
/// (TCC_MODEL_VARIANTS_SYMBOL), whose descriptors the variants' objects define.
std::unique_ptr<llvm::Module> buildVariantsModule(unsigned count, llvm::StringRef triple,
                                                  llvm::LLVMContext &context);

} // namespace tcc

#endif // TCC_PACKAGE_PACKAGE_H
