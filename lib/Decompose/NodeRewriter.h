//===- NodeRewriter.h - what a decomposition rule sees of its node --------------*- C++ -*-===//
#ifndef TCC_LIB_DECOMPOSE_NODEREWRITER_H
#define TCC_LIB_DECOMPOSE_NODEREWRITER_H

#include "dialects/onnx/OnnxDialect.h"
#include "dialects/prim/PrimBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <utility>

namespace tcc::decompose {

class RuleBuilder;

/// One node being decomposed: typed inputs, attributes with ONNX defaults, a builder placed
/// before the node, and the results the rule produces. Attribute getters that find an
/// attribute of the wrong kind emit an error and mark the node failed (see hasFailed), so
/// rules can read attributes without checking each one.
class NodeRewriter {
public:
  /// Canonical extents already computed in this function: (tensor, dim) -> extent.
  using DimCache = llvm::DenseMap<std::pair<mlir::Value, int64_t>, mlir::OpFoldResult>;

  NodeRewriter(onnx::NodeOp node, mlir::OpBuilder &builder, DimCache *dimCache = nullptr)
      : node(node), b(builder), dimCache(dimCache) {}

  /// The cache of canonical extents shared by the nodes of one function (may be null).
  DimCache *getDimCache() { return dimCache; }
  /// Swaps the cache (null: none), e.g. while building inside a loop body, whose dims must
  /// not be reused outside it. Returns the previous one.
  DimCache *setDimCache(DimCache *cache) { return std::exchange(dimCache, cache); }

  onnx::NodeOp getNode() { return node; }
  mlir::Location getLoc() { return node.getLoc(); }
  llvm::StringRef getOpType() { return node.getOpType(); }
  int64_t getVersion() { return static_cast<int64_t>(node.getVersion()); }
  mlir::MLIRContext *getContext() { return node.getContext(); }

  // Inputs. An input is absent when the node has fewer inputs or the input is `onnx.none`.
  unsigned getNumInputs() { return node.getInputs().size(); }
  bool hasInput(unsigned index);
  /// The input as a ranked tensor, or null (after an error) when absent or not a tensor.
  mlir::Value getInput(unsigned index);
  /// The input or null when absent (no error).
  mlir::Value getOptionalInput(unsigned index);
  mlir::RankedTensorType getInputType(unsigned index);
  /// The input, which must be a floating-point tensor (else an error and null).
  mlir::Value getFloatInput(unsigned index);
  unsigned getNumOutputs() { return node.getOutputs().size(); }

  // Attributes, with the default used when the node does not carry one.
  bool hasAttr(llvm::StringRef name) { return static_cast<bool>(node.getNodeAttr(name)); }
  int64_t getInt(llvm::StringRef name, int64_t defaultValue);
  std::optional<int64_t> getOptionalInt(llvm::StringRef name);
  float getFloat(llvm::StringRef name, float defaultValue);
  std::string getString(llvm::StringRef name, llvm::StringRef defaultValue);
  std::optional<llvm::SmallVector<int64_t>> getInts(llvm::StringRef name);
  std::optional<llvm::SmallVector<float>> getFloats(llvm::StringRef name);
  mlir::ElementsAttr getTensor(llvm::StringRef name);

  /// An error at the node: "node 'NAME' (OpType, opset V): " followed by the message.
  mlir::InFlightDiagnostic emitError();
  bool hasFailed() const { return failed; }

  /// Records the rule's results, one per node output (extra values are dropped).
  mlir::LogicalResult setResults(mlir::ValueRange values);
  llvm::ArrayRef<mlir::Value> getResults() const { return results; }

  /// The builder, positioned before the node.
  mlir::OpBuilder &getBuilder() { return b; }
  /// The prim builder at the node (dialects/prim/PrimBuilder.h), its extents in terms of the
  /// function's inputs (getDims).
  RuleBuilder prim();

private:
  onnx::NodeOp node;
  mlir::OpBuilder &b;
  DimCache *dimCache;
  llvm::SmallVector<mlir::Value> results;
  bool failed = false;
};

/// The prim builder of a rule: at the node's location, with each extent in terms of the
/// function's inputs (getDims, RuleSupport.h), so that equal extents are built from the same
/// values and compare equal while the graph is decomposed.
class RuleBuilder : public prim::PrimBuilder {
public:
  explicit RuleBuilder(NodeRewriter &n) : PrimBuilder(n.getBuilder(), n.getLoc()), n(n) {}
  NodeRewriter &n;
  llvm::SmallVector<mlir::OpFoldResult> dims(mlir::Value v) override;
};

inline RuleBuilder NodeRewriter::prim() { return RuleBuilder(*this); }

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_NODEREWRITER_H
