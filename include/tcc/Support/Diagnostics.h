//===- Diagnostics.h - compiler-style diagnostics for the tools -----------------*- C++ -*-===//
#ifndef TCC_SUPPORT_DIAGNOSTICS_H
#define TCC_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc {

/// Prints every diagnostic of a context as one line in the usual compiler form
/// `<file>: error: <message>` (notes indented below), where <file> comes from the location
/// (ONNX locations are `NameLoc(node name, FileLineColLoc(model path))`). Counts errors.
class ToolDiagnosticHandler {
public:
  ToolDiagnosticHandler(mlir::MLIRContext &context, llvm::raw_ostream &os = llvm::errs());
  ~ToolDiagnosticHandler();
  unsigned getNumErrors() const { return numErrors; }

private:
  mlir::MLIRContext &context;
  llvm::raw_ostream &os;
  mlir::DiagnosticEngine::HandlerID id;
  unsigned numErrors = 0;
};

/// The file named by a location ("" if none): the innermost FileLineColLoc.
std::string getLocationFile(mlir::Location loc);

/// The ONNX node name of a location ("" if none): the outermost NameLoc.
std::string getLocationNodeName(mlir::Location loc);

} // namespace tcc

#endif // TCC_SUPPORT_DIAGNOSTICS_H
