//===- Importer.h - ONNX protobuf -> `onnx` dialect -----------------------------*- C++ -*-===//
#ifndef TCC_IMPORT_IMPORTER_H
#define TCC_IMPORT_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tcc {

/// A user's setting for one symbolic dim (`tcc --dim NAME=V` or `--dim NAME=MIN:MAX`).
struct DimSetting {
  int64_t min = 1;
  std::optional<int64_t> max; ///< none: unbounded
  bool isFixed() const { return max && *max == min; }
};

/// A sequence graph input specialized while compiling (`tcc --sequence-length NAME=N`, or the
/// conformance runner from a case's data): its length, and optionally each element's static
/// shape (otherwise every element has the sequence's declared element type, which then needs
/// a shape). At the ABI the input is `length` tensors named NAME[0], NAME[1], ...
struct SequenceSetting {
  int64_t length = 0;
  std::vector<llvm::SmallVector<int64_t>> elementShapes; ///< empty, or one per element
};

struct ImportOptions {
  /// Settings for symbolic dims, keyed by the ONNX dim_param name (a name inside an
  /// expression such as "2*batch", or a whole dim_param that is not an expression). A key
  /// that no graph input uses is an error.
  llvm::StringMap<DimSetting> dims;
  /// The sequence graph inputs (also inside optionals), keyed by input name. A sequence
  /// input without a setting is an error; a setting no sequence input uses is one too.
  llvm::StringMap<SequenceSetting> sequences;
  /// Optional graph inputs compiled as absent: they leave the signature and the graph sees
  /// an empty optional.
  llvm::StringSet<> absentInputs;
  /// Optional graph inputs compiled as present: a plain tensor (or sequence) input. Any
  /// other optional input is present or empty at run time: its value's tensors and a bool
  /// NAME.present.
  llvm::StringSet<> presentInputs;
};

/// Imports the ONNX model at `path` into a new module of `context`: binary protobuf, or
/// protobuf text format when the file name ends in `.onnxtxt`. The graph becomes
/// `func.func @main`; see docs/ARCHITECTURE.md (Import) for the IR's shape. Every problem is
/// emitted as an error diagnostic (at the model file, or at the offending node's location)
/// and yields a null module. `context` must have tcc's dialects registered. `filesRead`,
/// when given, receives the files the import read once it succeeded: `path`, then the
/// external data files (as the model's folder joined with their locations), for depfiles.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxModel(llvm::StringRef path,
                                                  const ImportOptions &options,
                                                  mlir::MLIRContext &context,
                                                  std::vector<std::string> *filesRead = nullptr);

} // namespace tcc

#endif // TCC_IMPORT_IMPORTER_H
