//===- Diagnostics.cpp - compiler-style diagnostics for the tools ---------------------===//
#include "tcc/Support/Diagnostics.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"

#include <vector>

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

void tcc::printToolDiagnostic(llvm::raw_ostream &os, DiagnosticFormat format, StringRef file,
                              StringRef severity, StringRef message, StringRef node,
                              ArrayRef<std::string> notes) {
  if (format == DiagnosticFormat::Json) {
    llvm::json::Array noteArray;
    for (const std::string &note : notes)
      noteArray.push_back(note);
    llvm::json::Object object{{"file", file.empty() ? "tcc" : file},
                              {"severity", severity},
                              {"message", message},
                              {"node", node},
                              {"notes", std::move(noteArray)}};
    os << llvm::json::Value(std::move(object)) << "\n";
    return;
  }
  os << (file.empty() ? "tcc" : file) << ": " << severity << ": " << message;
  // Messages from tcc's own passes name the node; upstream ones (verifier failures) don't.
  if (!node.empty() && !message.contains("'" + node.str() + "'"))
    os << " (at node '" << node << "')";
  os << "\n";
  for (const std::string &note : notes)
    os << "  note: " << note << "\n";
}

tcc::ToolDiagnosticHandler::ToolDiagnosticHandler(MLIRContext &context, llvm::raw_ostream &os,
                                                  DiagnosticFormat format)
    : context(context), os(os), format(format) {
  id = context.getDiagEngine().registerHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      ++numErrors;
    std::vector<std::string> notes;
    for (const Diagnostic &note : diag.getNotes())
      notes.push_back(note.str());
    printToolDiagnostic(this->os, this->format, getLocationFile(diag.getLocation()),
                        severityName(diag.getSeverity()), diag.str(),
                        getLocationNodeName(diag.getLocation()), notes);
    return success();
  });
}

tcc::ToolDiagnosticHandler::~ToolDiagnosticHandler() {
  context.getDiagEngine().eraseHandler(id);
}
