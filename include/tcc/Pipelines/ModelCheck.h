//===- ModelCheck.h - which nodes of a model tcc can compile, without compiling -*- C++ -*-===//
//
// `tcc --check model.onnx` answers a user's first question, "does my model compile?": it
// decomposes every node (the step where unsupported ops, versions, dtypes and attributes
// are found) and reports each node that fails with the reason, instead of stopping at the
// first one.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_PIPELINES_MODELCHECK_H
#define TCC_PIPELINES_MODELCHECK_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tcc {

/// One node that would not compile.
struct NodeProblem {
  std::string node;   ///< the ONNX node name
  std::string opType;
  std::string domain; ///< "ai.onnx" for the default domain
  int64_t opset = 0;
  std::string dtype;  ///< element type of the node's first input, when known
  std::string reason;
};

struct ModelCheckReport {
  int64_t numNodes = 0;
  /// Node counts by op type ("Add", or "domain:Op" outside ai.onnx).
  std::map<std::string, int64_t> opCounts;
  std::vector<NodeProblem> failures;
  /// Nodes whose inputs come from failing nodes: they could not be checked.
  std::vector<NodeProblem> unchecked;
  /// Errors not tied to a node (e.g. an opset tcc does not support).
  std::vector<std::string> modelErrors;

  bool ok() const { return failures.empty() && unchecked.empty() && modelErrors.empty(); }
};

/// Decomposes the imported `module` in place, collecting every node's errors.
ModelCheckReport checkModel(mlir::ModuleOp module);

/// The report as text (one line per failing node, then the op counts) or as JSON.
void printModelCheckReport(const ModelCheckReport &report, llvm::StringRef modelPath, bool json,
                           llvm::raw_ostream &os);

} // namespace tcc

#endif // TCC_PIPELINES_MODELCHECK_H
