//===- ModelSummary.h - what an ONNX model file holds, without importing it ---*- C++ -*-===//
//
// For `tcc inspect model.onnx`: the model's producer and opsets, its graph inputs and
// outputs with their shapes, its op histogram (subgraphs included) and the size of its
// weights, read with the importer's hardened file reader (no node is decomposed).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_IMPORT_MODELSUMMARY_H
#define TCC_IMPORT_MODELSUMMARY_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tcc {

/// A graph input or output: its element type's ONNX name ("float", "int64", "" when not a
/// tensor) and dims (a number, a dim_param name, or "?" when unknown).
struct OnnxValueSummary {
  std::string name;
  std::string elementType;
  std::vector<std::string> dims;
  bool hasShape = false;
};

struct OnnxModelSummary {
  uint64_t fileBytes = 0;
  int64_t irVersion = 0;
  std::string producer, producerVersion, graphName;
  /// (domain, version); "ai.onnx" for the default domain.
  std::vector<std::pair<std::string, int64_t>> opsets;
  /// Inputs that are not initializers, and outputs.
  std::vector<OnnxValueSummary> inputs, outputs;
  /// Nodes of the main graph, and of every subgraph (If/Loop/Scan bodies) in all.
  int64_t mainNodes = 0, allNodes = 0;
  /// Node counts by op type ("Add", or "domain:Op" outside ai.onnx), subgraphs included.
  std::map<std::string, int64_t> opCounts;
  /// Initializers of the main graph: their count and bytes (stored in the file or in
  /// external data files), and the external files they name.
  int64_t initializers = 0;
  uint64_t initializerBytes = 0, externalBytes = 0;
  std::vector<std::string> externalFiles;
};

/// Reads the model at `path` (binary, or text when it ends in .onnxtxt) into `summary`.
/// Emits one error at `loc` and fails when the file cannot be read or parsed.
mlir::LogicalResult summarizeOnnxModel(llvm::StringRef path, mlir::Location loc,
                                       OnnxModelSummary &summary);

} // namespace tcc

#endif // TCC_IMPORT_MODELSUMMARY_H
