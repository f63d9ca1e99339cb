//===- GraphImport.h - ONNX GraphProto -> a block of `onnx` ops ------------*- C++ -*-===//
//
// Internal to the importer. A graph's initializers, nodes (in graph order) and outputs
// become onnx.initializer, onnx.node and onnx.yield in one block; graph attributes become
// regions of their node, imported the same way. Subgraphs see the enclosing graphs' values
// through ordinary MLIR region capture.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_GRAPHIMPORT_H
#define TCC_LIB_IMPORT_GRAPHIMPORT_H

#include "ModelFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <set>
#include <string>
#include <utility>

namespace tcc::import {

class DimSymbols;
class TensorImporter;

/// The values one graph can name: its own, then those of the graphs around it.
class Scope {
public:
  explicit Scope(const Scope *parent = nullptr) : parent(parent) {}
  /// The value called `name` here or in an enclosing graph, or null.
  mlir::Value lookup(llvm::StringRef name) const;
  /// Defines `name` in this graph; false when this graph already defines it.
  bool define(llvm::StringRef name, mlir::Value value) {
    return values.try_emplace(name, value).second;
  }

private:
  const Scope *parent;
  llvm::StringMap<mlir::Value> values;
};

/// The model-wide facts that nodes are checked against.
struct ModelInfo {
  /// opset_import, by normalized domain ("ai.onnx" is "").
  llvm::StringMap<int64_t> opsets;
  /// The model-local functions by (normalized domain, name); calls are inlined.
  std::map<std::pair<std::string, std::string>, const ::onnx::FunctionProto *> localFunctions;
};

/// The domain as tcc spells it: the default domain "ai.onnx" is "".
llvm::StringRef normalizeDomain(llvm::StringRef domain);

/// The node's attributes, converted; graph attributes listed apart (they become regions).
struct NodeAttributes {
  llvm::SmallVector<mlir::NamedAttribute> attributes;
  llvm::SmallVector<::onnx::GraphProto *> subgraphs;
  llvm::SmallVector<mlir::Attribute> subgraphNames;
};

class GraphImporter {
public:
  GraphImporter(const ModelInfo &info, const DimSymbols &symbols, TensorImporter &tensors,
                mlir::Location fileLoc, mlir::OpBuilder &builder)
      : info(info), symbols(symbols), tensors(tensors), fileLoc(fileLoc), builder(builder) {}

  /// Appends `graph`'s initializers, nodes and onnx.yield of its outputs to `block`, whose
  /// arguments `scope` already names. `rawData` locates the main graph's tensor bytes in
  /// the model file (null for subgraphs).
  mlir::LogicalResult importGraphBody(::onnx::GraphProto &graph, mlir::Block &block, Scope &scope,
                                      const RawDataIndex *rawData);

private:
  mlir::LogicalResult importInitializers(::onnx::GraphProto &graph, Scope &scope,
                                         const RawDataIndex *rawData);
  mlir::LogicalResult importNode(::onnx::NodeProto &node, size_t index, mlir::Block &block,
                                 Scope &scope, const RawDataIndex *rawData);
  /// Imports `graph` as the single block of `region`; its inputs are the block arguments.
  mlir::LogicalResult importSubgraph(::onnx::GraphProto &graph, mlir::Region &region,
                                     const Scope &outer, llvm::StringRef what, mlir::Location loc);
  /// Imports a call of a model-local function: its nodes, with their own names prefixed by
  /// the call's, its inputs bound to the call's, attribute references resolved from the
  /// call's attributes; the call's outputs name the function's outputs.
  mlir::LogicalResult inlineFunctionCall(::onnx::NodeProto &call,
                                         const ::onnx::FunctionProto &function,
                                         mlir::Block &block, Scope &scope, mlir::Location loc,
                                         llvm::StringRef what);
  /// The block's one onnx.none (for absent optional inputs), created on first use.
  mlir::Value getNone(mlir::Block &block, mlir::Location loc);

  /// Converts the attributes of `node` (AttributeImport.cpp). `nodeIndex` finds tensor
  /// bytes in `rawData` (null outside the main graph).
  mlir::LogicalResult importAttributes(::onnx::NodeProto &node, size_t nodeIndex,
                                       llvm::StringRef nodeName, llvm::StringRef nodeWhat,
                                       mlir::Location loc, const RawDataIndex *rawData,
                                       NodeAttributes &result);
  mlir::FailureOr<mlir::Attribute> importAttribute(::onnx::AttributeProto &attribute, int type,
                                                   llvm::StringRef nodeName, llvm::StringRef what,
                                                   mlir::Location loc,
                                                   std::optional<ByteSpan> rawDataSpan);

  const ModelInfo &info;
  const DimSymbols &symbols;
  TensorImporter &tensors;
  mlir::Location fileLoc;
  mlir::OpBuilder &builder;
  llvm::DenseMap<mlir::Block *, mlir::Value> noneValues;
  int functionDepth = 0; ///< nested inlined calls (recursion is an error)
};

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_GRAPHIMPORT_H
