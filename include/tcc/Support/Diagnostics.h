//===- Diagnostics.h - compiler-style diagnostics for the tools -----------------*- C++ -*-===//
#ifndef TCC_SUPPORT_DIAGNOSTICS_H
#define TCC_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tcc {

/// How the tools print diagnostics: `<file>: error: <message>` lines (notes indented below),
/// or one JSON object a line: {"file", "severity", "message", "node" (the ONNX node, or ""),
/// "notes" (an array of strings)}.
enum class DiagnosticFormat { Text, Json };

/// Prints one diagnostic in `format` (the tools' own errors go through here too).
void printToolDiagnostic(llvm::raw_ostream &os, DiagnosticFormat format, llvm::StringRef file,
                         llvm::StringRef severity, llvm::StringRef message,
                         llvm::StringRef node = "", llvm::ArrayRef<std::string> notes = {});

/// Prints every diagnostic of a context with printToolDiagnostic, where <file> comes from the
/// location (ONNX locations are `NameLoc(node name, FileLineColLoc(model path))`). Counts
/// errors.
class ToolDiagnosticHandler {
public:
  ToolDiagnosticHandler(mlir::MLIRContext &context, llvm::raw_ostream &os = llvm::errs(),
                        DiagnosticFormat format = DiagnosticFormat::Text);
  ~ToolDiagnosticHandler();
  unsigned getNumErrors() const { return numErrors; }

private:
  mlir::MLIRContext &context;
  llvm::raw_ostream &os;
  DiagnosticFormat format;
  mlir::DiagnosticEngine::HandlerID id;
  unsigned numErrors = 0;
};

/// The file named by a location ("" if none): the innermost FileLineColLoc.
std::string getLocationFile(mlir::Location loc);

/// The ONNX node name of a location ("" if none): the outermost NameLoc.
std::string getLocationNodeName(mlir::Location loc);

} // namespace tcc

#endif // TCC_SUPPORT_DIAGNOSTICS_H
