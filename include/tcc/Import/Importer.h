//===- Importer.h - ONNX protobuf -> `onnx` dialect -----------------------------*- C++ -*-===//
#ifndef TCC_IMPORT_IMPORTER_H
#define TCC_IMPORT_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

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

struct ImportOptions {
  /// Settings for symbolic dims, keyed by the ONNX dim_param name (a name inside an
  /// expression such as "2*batch", or a whole dim_param that is not an expression). A key
  /// that no graph input uses is an error.
  llvm::StringMap<DimSetting> dims;
};

/// Imports the ONNX model at `path` into a new module of `context`: binary protobuf, or
/// protobuf text format when the file name ends in `.onnxtxt`. The graph becomes
/// `func.func @main`; see docs/ARCHITECTURE.md (Import) for the IR's shape. Every problem is
/// emitted as an error diagnostic (at the model file, or at the offending node's location)
/// and yields a null module. `context` must have tcc's dialects registered.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxModel(llvm::StringRef path,
                                                  const ImportOptions &options,
                                                  mlir::MLIRContext &context);

} // namespace tcc

#endif // TCC_IMPORT_IMPORTER_H
