//===- GraphImport.cpp - ONNX GraphProto -> a block of `onnx` ops ----------------------===//
#include "GraphImport.h"

#include "Names.h"
#include "SymbolImport.h"
#include "TensorImport.h"
#include "TypeImport.h"

#include "dialects/onnx/OnnxDialect.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace tcc::import;

Value Scope::lookup(StringRef name) const {
  for (const Scope *scope = this; scope; scope = scope->parent)
    if (auto it = scope->values.find(name); it != scope->values.end())
      return it->second;
  return nullptr;
}

StringRef tcc::import::normalizeDomain(StringRef domain) {
  return domain == "ai.onnx" ? StringRef() : domain;
}

Value GraphImporter::getNone(Block &block, Location loc) {
  Value &none = noneValues[&block];
  if (!none)
    none = tcc::onnx::NoneOp::create(builder, loc, builder.getNoneType()).getResult();
  return none;
}

LogicalResult GraphImporter::importInitializers(::onnx::GraphProto &graph, Scope &scope,
                                                const RawDataIndex *rawData) {
  for (const auto &[index, tensor] : llvm::enumerate(*graph.mutable_initializer())) {
    const std::string &name = tensor.name();
    if (name.empty())
      return emitError(fileLoc) << "initializer " << index << " of graph " << quoted(graph.name())
                                << " has no name";
    std::string what = "initializer " + quoted(name);
    Location loc = NameLoc::get(builder.getStringAttr(printable(name)), fileLoc);
    FailureOr<ElementsAttr> value = tensors.importTensor(
        tensor, what, name, rawData ? rawData->initializer(index) : std::nullopt, loc);
    if (failed(value))
      return failure();
    auto op = tcc::onnx::InitializerOp::create(builder, loc, value->getShapedType(), name, *value);
    if (!scope.define(name, op.getResult()))
      return emitError(loc) << what << " is defined twice in graph " << quoted(graph.name());
  }
  if (graph.sparse_initializer_size() > 0)
    return emitError(fileLoc) << "graph " << quoted(graph.name()) << " has sparse initializer "
                              << quoted(graph.sparse_initializer(0).values().name())
                              << "; sparse tensors are not supported";
  return success();
}

LogicalResult GraphImporter::importNode(::onnx::NodeProto &node, size_t index, Block &block,
                                        Scope &scope, const RawDataIndex *rawData) {
  const std::string &opType = node.op_type();
  std::string name = node.name().empty() ? opType + "_" + std::to_string(index) : node.name();
  // The location names the node for every later diagnostic, so it is kept printable.
  Location loc = NameLoc::get(builder.getStringAttr(printable(name)), fileLoc);
  std::string what = "node " + quoted(name) + " (" + printable(opType) + ")";
  if (opType.empty())
    return emitError(loc) << "node " << quoted(name) << " has no op_type";

  StringRef domain = normalizeDomain(node.domain());
  auto function = info.localFunctions.find({domain.str(), opType});
  if (function != info.localFunctions.end())
    return inlineFunctionCall(node, *function->second, block, scope, loc, what);
  auto opset = info.opsets.find(domain);
  if (opset == info.opsets.end())
    return emitError(loc) << what << " is in domain " << quoted(domain)
                          << ", which the model's opset_import does not list";

  SmallVector<Value> inputs;
  for (const std::string &input : node.input()) {
    if (input.empty()) {
      inputs.push_back(getNone(block, loc));
      continue;
    }
    Value value = scope.lookup(input);
    if (!value)
      return emitError(loc) << what << " uses " << quoted(input)
                            << ", which no graph input, initializer or earlier node defines "
                               "(ONNX graphs must be topologically sorted)";
    inputs.push_back(value);
  }
  // Gradient (ai.onnx.preview.training) names the tensor it differentiates, y, by an
  // attribute: it becomes a last, extra operand, so the rule can reach its producer.
  if (opType == "Gradient" && domain == "ai.onnx.preview.training") {
    for (const ::onnx::AttributeProto &attribute : node.attribute()) {
      if (attribute.name() != "y")
        continue;
      Value y = scope.lookup(attribute.s());
      if (!y)
        return emitError(loc) << what << " differentiates " << quoted(attribute.s())
                              << ", which no graph input, initializer or earlier node defines";
      inputs.push_back(y);
    }
  }

  NodeAttributes attributes;
  if (failed(importAttributes(node, index, name, what, loc, rawData, attributes)))
    return failure();
  SmallVector<Type> resultTypes(node.output_size(),
                                tcc::onnx::ValueType::get(builder.getContext()));
  ArrayAttr subgraphNames =
      attributes.subgraphs.empty() ? ArrayAttr() : builder.getArrayAttr(attributes.subgraphNames);
  auto op = tcc::onnx::NodeOp::create(
      builder, loc, resultTypes, inputs, builder.getStringAttr(opType),
      builder.getStringAttr(domain), builder.getI64IntegerAttr(opset->second),
      builder.getDictionaryAttr(attributes.attributes), subgraphNames, attributes.subgraphs.size());
  for (const auto &[region, subgraph] : llvm::enumerate(attributes.subgraphs)) {
    std::string subgraphWhat =
        "subgraph " + quoted(cast<StringAttr>(attributes.subgraphNames[region]).getValue()) +
        " of " + what;
    if (failed(importSubgraph(*subgraph, op.getSubgraphs()[region], scope, subgraphWhat, loc)))
      return failure();
  }

  for (const auto &[position, output] : llvm::enumerate(node.output())) {
    if (output.empty()) // an optional output the node does not produce
      continue;
    if (!scope.define(output, op.getResult(position)))
      return emitError(loc) << what << " defines " << quoted(output)
                            << ", which is already defined in its graph (ONNX names are "
                               "assigned once)";
  }
  return success();
}

LogicalResult GraphImporter::inlineFunctionCall(::onnx::NodeProto &call,
                                                const ::onnx::FunctionProto &function,
                                                Block &block, Scope &scope, Location loc,
                                                StringRef what) {
  if (functionDepth >= 32)
    return emitError(loc) << what << " calls model-local functions nested more than 32 deep "
                                     "(recursion is not allowed in ONNX)";
  if (call.input_size() > function.input_size() || call.output_size() > function.output_size())
    return emitError(loc) << what << " passes " << call.input_size() << " inputs and "
                          << call.output_size() << " outputs to function "
                          << quoted(function.name()) << ", which has " << function.input_size()
                          << " and " << function.output_size();
  // The body sees only its inputs (functions do not capture the caller's values).
  Scope inner;
  for (int i = 0; i < function.input_size(); ++i) {
    Value value = i < call.input_size() && !call.input(i).empty() ? scope.lookup(call.input(i))
                                                                   : getNone(block, loc);
    if (!value)
      return emitError(loc) << what << " uses " << quoted(call.input(i))
                            << ", which no graph input, initializer or earlier node defines";
    inner.define(function.input(i), value);
  }
  std::string prefix = call.name().empty() ? call.op_type() : call.name();
  ++functionDepth;
  for (int k = 0; k < function.node_size(); ++k) {
    ::onnx::NodeProto node = function.node(k);
    node.set_name(prefix + "/" + (node.name().empty() ? node.op_type() + "_" + std::to_string(k)
                                                      : node.name()));
    // Attribute references take the call's attribute of that name, or are dropped (absent:
    // the op's default applies).
    auto *attributes = node.mutable_attribute();
    for (int a = attributes->size() - 1; a >= 0; --a) {
      ::onnx::AttributeProto &attribute = attributes->at(a);
      if (attribute.ref_attr_name().empty())
        continue;
      const ::onnx::AttributeProto *given = nullptr;
      for (const ::onnx::AttributeProto &c : call.attribute())
        if (c.name() == attribute.ref_attr_name())
          given = &c;
      if (!given) {
        attributes->DeleteSubrange(a, 1);
        continue;
      }
      std::string name = attribute.name();
      attribute = *given;
      attribute.set_name(name);
    }
    if (failed(importNode(node, k, block, inner, /*rawData=*/nullptr))) {
      --functionDepth;
      return failure();
    }
  }
  --functionDepth;
  for (int j = 0; j < call.output_size(); ++j) {
    if (call.output(j).empty())
      continue;
    Value value = inner.lookup(function.output(j));
    if (!value)
      return emitError(loc) << what << ": function " << quoted(function.name())
                            << " does not define its output " << quoted(function.output(j));
    if (!scope.define(call.output(j), value))
      return emitError(loc) << what << " defines " << quoted(call.output(j))
                            << ", which is already defined in its graph (ONNX names are "
                               "assigned once)";
  }
  return success();
}

LogicalResult GraphImporter::importSubgraph(::onnx::GraphProto &graph, Region &region,
                                            const Scope &outer, StringRef what, Location loc) {
  Block &block = region.emplaceBlock();
  Scope scope(&outer);
  for (const ::onnx::ValueInfoProto &input : graph.input()) {
    std::string inputWhat = "input " + quoted(input.name()) + " of " + what.str();
    if (input.name().empty())
      return emitError(loc) << what << " has an input without a name";
    FailureOr<Type> type = importHintType(input, symbols, inputWhat, loc);
    if (failed(type))
      return failure();
    if (!scope.define(input.name(), block.addArgument(*type, loc)))
      return emitError(loc) << inputWhat << " is listed twice";
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&block);
  return importGraphBody(graph, block, scope, /*rawData=*/nullptr);
}

LogicalResult GraphImporter::importGraphBody(::onnx::GraphProto &graph, Block &block, Scope &scope,
                                             const RawDataIndex *rawData) {
  builder.setInsertionPointToEnd(&block);
  if (failed(importInitializers(graph, scope, rawData)))
    return failure();
  for (const auto &[index, node] : llvm::enumerate(*graph.mutable_node()))
    if (failed(importNode(node, index, block, scope, rawData)))
      return failure();

  SmallVector<Value> outputs;
  for (const auto &[index, output] : llvm::enumerate(graph.output())) {
    if (output.name().empty())
      return emitError(fileLoc) << "output " << index << " of graph " << quoted(graph.name())
                                << " has no name";
    Value value = scope.lookup(output.name());
    if (!value)
      return emitError(fileLoc) << "output " << quoted(output.name()) << " of graph "
                                << quoted(graph.name())
                                << " is not defined by any input, initializer or node";
    outputs.push_back(value);
  }
  tcc::onnx::YieldOp::create(builder, fileLoc, outputs);
  return success();
}
