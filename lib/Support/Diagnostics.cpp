//===- Diagnostics.cpp - compiler-style diagnostics for the tools ---------------------===//
#include "tcc/Support/Diagnostics.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

std::string tcc::getLocationFile(Location loc) {
  std::string file;
  loc->walk([&](Location inner) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
      file = fileLoc.getFilename().str();
      if (fileLoc.getLine() != 0)
        file += ":" + std::to_string(fileLoc.getLine()) + ":" + std::to_string(fileLoc.getColumn());
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return file;
}

std::string tcc::getLocationNodeName(Location loc) {
  std::string name;
  loc->walk([&](Location inner) {
    if (auto nameLoc = dyn_cast<NameLoc>(inner)) {
      name = nameLoc.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

static StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error: return "error";
  case DiagnosticSeverity::Warning: return "warning";
  case DiagnosticSeverity::Remark: return "remark";
  case DiagnosticSeverity::Note: return "note";
  }
  return "error";
}

tcc::ToolDiagnosticHandler::ToolDiagnosticHandler(MLIRContext &context, llvm::raw_ostream &os)
    : context(context), os(os) {
  id = context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++numErrors;
    std::string file = getLocationFile(diag.getLocation());
    std::string message = diag.str();
    // Messages from tcc's own passes name the node; upstream ones (verifier failures) don't.
    std::string node = getLocationNodeName(diag.getLocation());
    if (!node.empty() && message.find("'" + node + "'") == std::string::npos)
      message += " (at node '" + node + "')";
    this->os << (file.empty() ? "tcc" : file) << ": " << severityName(diag.getSeverity())
             << ": " << message << "\n";
    for (const Diagnostic &note : diag.getNotes())
      this->os << "  note: " << note.str() << "\n";
    return success();
  });
}

tcc::ToolDiagnosticHandler::~ToolDiagnosticHandler() {
  context.getDiagEngine().eraseHandler(id);
}
