//===- AttributeImport.cpp - ONNX node attributes -> MLIR attributes -------------------===//
//
// INT -> i64, FLOAT -> f32, STRING -> string, INTS -> array<i64>, FLOATS -> array<f32>,
// STRINGS -> [strings], TENSOR(S) -> elements, TYPE_PROTO(S) -> type; GRAPH(S) become regions.
//
//===----------------------------------------------------------------------------------===//
#include "GraphImport.h"

#include "Names.h"
#include "TensorImport.h"
#include "TypeImport.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tcc::import;

using AttributeKind = ::onnx::AttributeProto::AttributeType;

namespace {

// clang-format off
/// The kind of an attribute that lacks its `type` field (old exporters), from the field
/// that holds its value; UNDEFINED when none does.
AttributeKind inferKind(const ::onnx::AttributeProto &attribute) {
  if (attribute.has_f()) return ::onnx::AttributeProto::FLOAT;
  if (attribute.has_i()) return ::onnx::AttributeProto::INT;
  if (attribute.has_s()) return ::onnx::AttributeProto::STRING;
  if (attribute.has_t()) return ::onnx::AttributeProto::TENSOR;
  if (attribute.has_g()) return ::onnx::AttributeProto::GRAPH;
  if (attribute.has_sparse_tensor()) return ::onnx::AttributeProto::SPARSE_TENSOR;
  if (attribute.has_tp()) return ::onnx::AttributeProto::TYPE_PROTO;
  if (attribute.floats_size()) return ::onnx::AttributeProto::FLOATS;
  if (attribute.ints_size()) return ::onnx::AttributeProto::INTS;
  if (attribute.strings_size()) return ::onnx::AttributeProto::STRINGS;
  if (attribute.tensors_size()) return ::onnx::AttributeProto::TENSORS;
  if (attribute.graphs_size()) return ::onnx::AttributeProto::GRAPHS;
  if (attribute.sparse_tensors_size()) return ::onnx::AttributeProto::SPARSE_TENSORS;
  if (attribute.type_protos_size()) return ::onnx::AttributeProto::TYPE_PROTOS;
  return ::onnx::AttributeProto::UNDEFINED;
}
// clang-format on

} // namespace

FailureOr<Attribute> GraphImporter::importAttribute(::onnx::AttributeProto &attribute, int kind,
                                                    StringRef nodeName, StringRef what,
                                                    Location loc,
                                                    std::optional<ByteSpan> rawDataSpan) {
  MLIRContext *context = builder.getContext();
  // Constant tensors are named after themselves, or else after their node and attribute.
  auto blobName = [&](const ::onnx::TensorProto &tensor, std::string fallback) {
    return tensor.name().empty() ? fallback : tensor.name();
  };
  switch (kind) {
  case ::onnx::AttributeProto::FLOAT:
    return Attribute(builder.getF32FloatAttr(attribute.f()));
  case ::onnx::AttributeProto::INT:
    return Attribute(builder.getI64IntegerAttr(attribute.i()));
  case ::onnx::AttributeProto::STRING:
    return Attribute(builder.getStringAttr(attribute.s()));
  case ::onnx::AttributeProto::FLOATS:
    return Attribute(DenseF32ArrayAttr::get(
        context, ArrayRef<float>(attribute.floats().data(), attribute.floats_size())));
  case ::onnx::AttributeProto::INTS:
    return Attribute(DenseI64ArrayAttr::get(
        context, ArrayRef<int64_t>(attribute.ints().data(), attribute.ints_size())));
  case ::onnx::AttributeProto::STRINGS: {
    SmallVector<Attribute> strings;
    for (const std::string &s : attribute.strings())
      strings.push_back(builder.getStringAttr(s));
    return Attribute(builder.getArrayAttr(strings));
  }
  case ::onnx::AttributeProto::TENSOR: {
    std::string name = blobName(attribute.t(), nodeName.str() + "." + attribute.name());
    FailureOr<ElementsAttr> value =
        tensors.importTensor(*attribute.mutable_t(), what, name, rawDataSpan, loc);
    return failed(value) ? FailureOr<Attribute>(failure()) : Attribute(*value);
  }
  case ::onnx::AttributeProto::TENSORS: {
    SmallVector<Attribute> values;
    for (const auto &[index, tensor] : llvm::enumerate(*attribute.mutable_tensors())) {
      std::string name =
          blobName(tensor, nodeName.str() + "." + attribute.name() + "." + std::to_string(index));
      std::string tensorWhat = "tensor " + std::to_string(index) + " of " + what.str();
      FailureOr<ElementsAttr> value =
          tensors.importTensor(tensor, tensorWhat, name, std::nullopt, loc);
      if (failed(value))
        return failure();
      values.push_back(*value);
    }
    return Attribute(builder.getArrayAttr(values));
  }
  case ::onnx::AttributeProto::TYPE_PROTO: {
    FailureOr<Type> type = importTypeProto(attribute.tp(), what, loc);
    return failed(type) ? FailureOr<Attribute>(failure()) : Attribute(TypeAttr::get(*type));
  }
  case ::onnx::AttributeProto::TYPE_PROTOS: {
    SmallVector<Attribute> types;
    for (const auto &[index, typeProto] : llvm::enumerate(attribute.type_protos())) {
      std::string typeWhat = "type " + std::to_string(index) + " of " + what.str();
      FailureOr<Type> type = importTypeProto(typeProto, typeWhat, loc);
      if (failed(type))
        return failure();
      types.push_back(TypeAttr::get(*type));
    }
    return Attribute(builder.getArrayAttr(types));
  }
  case ::onnx::AttributeProto::SPARSE_TENSOR:
  case ::onnx::AttributeProto::SPARSE_TENSORS:
    return emitError(loc) << what << " holds sparse tensors; sparse tensors are not supported";
  default:
    return emitError(loc) << what << " has unknown attribute type " << kind;
  }
}

LogicalResult GraphImporter::importAttributes(::onnx::NodeProto &node, size_t nodeIndex,
                                              StringRef nodeName, StringRef nodeWhat, Location loc,
                                              const RawDataIndex *rawData, NodeAttributes &result) {
  llvm::StringSet<> seen;
  for (const auto &[index, attribute] : llvm::enumerate(*node.mutable_attribute())) {
    const std::string &name = attribute.name();
    if (name.empty())
      return emitError(loc) << nodeWhat << " has an attribute without a name";
    std::string what = "attribute " + quoted(name) + " of " + nodeWhat.str();
    if (!seen.insert(name).second)
      return emitError(loc) << nodeWhat << " has attribute " << quoted(name) << " twice";
    if (!attribute.ref_attr_name().empty())
      return emitError(loc) << what << " refers to function attribute "
                            << quoted(attribute.ref_attr_name())
                            << "; attribute references are not supported";

    // A `type` newer than ONNX 1.12 is an unknown enum value, which protobuf keeps out of
    // the field: then, as for old exporters that leave it out, the value decides.
    int kind = attribute.has_type() ? attribute.type() : ::onnx::AttributeProto::UNDEFINED;
    if (kind == ::onnx::AttributeProto::UNDEFINED)
      kind = inferKind(attribute);
    if (kind == ::onnx::AttributeProto::UNDEFINED)
      return emitError(loc) << what << " has neither a type nor a value";

    if (kind == ::onnx::AttributeProto::GRAPH || kind == ::onnx::AttributeProto::GRAPHS) {
      // Each graph becomes a region named after its attribute (GRAPHS: one per graph).
      auto addRegion = [&](::onnx::GraphProto *graph) {
        result.subgraphs.push_back(graph);
        result.subgraphNames.push_back(builder.getStringAttr(name));
      };
      if (kind == ::onnx::AttributeProto::GRAPH)
        addRegion(attribute.mutable_g());
      else
        for (::onnx::GraphProto &graph : *attribute.mutable_graphs())
          addRegion(&graph);
      continue;
    }

    std::optional<ByteSpan> span =
        rawData ? rawData->nodeAttribute(nodeIndex, index) : std::nullopt;
    FailureOr<Attribute> value = importAttribute(attribute, kind, nodeName, what, loc, span);
    if (failed(value))
      return failure();
    result.attributes.push_back(builder.getNamedAttr(name, *value));
  }
  return success();
}
