//===- ModelSummary.cpp - what an ONNX model file holds, without importing it -------------===//
#include "tcc/Import/ModelSummary.h"

#include "ModelFile.h"

#include <set>

using namespace tcc;

namespace {

/// The ONNX name of a TensorProto.DataType and its size in bytes (0: variable, as strings).
std::pair<const char *, uint64_t> elementTypeOf(int32_t type) {
  switch (type) {
  case ::onnx::TensorProto::FLOAT:
    return {"float", 4};
  case ::onnx::TensorProto::UINT8:
    return {"uint8", 1};
  case ::onnx::TensorProto::INT8:
    return {"int8", 1};
  case ::onnx::TensorProto::UINT16:
    return {"uint16", 2};
  case ::onnx::TensorProto::INT16:
    return {"int16", 2};
  case ::onnx::TensorProto::INT32:
    return {"int32", 4};
  case ::onnx::TensorProto::INT64:
    return {"int64", 8};
  case ::onnx::TensorProto::STRING:
    return {"string", 0};
  case ::onnx::TensorProto::BOOL:
    return {"bool", 1};
  case ::onnx::TensorProto::FLOAT16:
    return {"float16", 2};
  case ::onnx::TensorProto::DOUBLE:
    return {"double", 8};
  case ::onnx::TensorProto::UINT32:
    return {"uint32", 4};
  case ::onnx::TensorProto::UINT64:
    return {"uint64", 8};
  case ::onnx::TensorProto::COMPLEX64:
    return {"complex64", 8};
  case ::onnx::TensorProto::COMPLEX128:
    return {"complex128", 16};
  case ::onnx::TensorProto::BFLOAT16:
    return {"bfloat16", 2};
  case 17: // FLOAT8E4M3FN (newer than this protobuf schema)
    return {"float8e4m3fn", 1};
  case 18: // FLOAT8E4M3FNUZ (newer than this protobuf schema)
    return {"float8e4m3fnuz", 1};
  case 19: // FLOAT8E5M2 (newer than this protobuf schema)
    return {"float8e5m2", 1};
  case 20: // FLOAT8E5M2FNUZ (newer than this protobuf schema)
    return {"float8e5m2fnuz", 1};
  case 21: // UINT4 (newer than this protobuf schema)
    return {"uint4", 1};
  case 22: // INT4 (newer than this protobuf schema)
    return {"int4", 1};
  default:
    return {"", 0};
  }
}

OnnxValueSummary summarizeValue(const ::onnx::ValueInfoProto &value) {
  OnnxValueSummary out;
  out.name = value.name();
  if (!value.type().has_tensor_type())
    return out;
  const ::onnx::TypeProto::Tensor &tensor = value.type().tensor_type();
  out.elementType = elementTypeOf(tensor.elem_type()).first;
  out.hasShape = tensor.has_shape();
  for (const ::onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim())
    out.dims.push_back(dim.has_dim_value()   ? std::to_string(dim.dim_value())
                       : dim.has_dim_param() ? dim.dim_param()
                                             : "?");
  return out;
}

/// Counts the nodes of `graph` and of the graphs in its nodes' attributes. `depth` bounds
/// the recursion (the reader already limits nesting).
void countNodes(const ::onnx::GraphProto &graph, OnnxModelSummary &summary, int depth) {
  for (const ::onnx::NodeProto &node : graph.node()) {
    ++summary.allNodes;
    std::string domain = node.domain();
    bool standard = domain.empty() || domain == "ai.onnx";
    ++summary.opCounts[standard ? node.op_type() : domain + ":" + node.op_type()];
    if (depth >= import::kMaxMessageDepth)
      continue;
    for (const ::onnx::AttributeProto &attribute : node.attribute()) {
      if (attribute.has_g())
        countNodes(attribute.g(), summary, depth + 1);
      for (const ::onnx::GraphProto &body : attribute.graphs())
        countNodes(body, summary, depth + 1);
    }
  }
}

} // namespace

mlir::LogicalResult tcc::summarizeOnnxModel(llvm::StringRef path, mlir::Location loc,
                                            OnnxModelSummary &summary) {
  import::ModelFile file;
  if (mlir::failed(import::readModelFile(path, loc, file)))
    return mlir::failure();
  const ::onnx::ModelProto &model = file.model;
  const ::onnx::GraphProto &graph = model.graph();
  summary = OnnxModelSummary();
  summary.fileBytes = file.buffer ? file.buffer->getBufferSize() : 0;
  summary.irVersion = model.ir_version();
  summary.producer = model.producer_name();
  summary.producerVersion = model.producer_version();
  summary.graphName = graph.name();
  for (const ::onnx::OperatorSetIdProto &opset : model.opset_import())
    summary.opsets.emplace_back(opset.domain().empty() ? "ai.onnx" : opset.domain(),
                                opset.version());
  std::set<std::string> initialized;
  std::set<std::string> files;
  for (const ::onnx::TensorProto &tensor : graph.initializer()) {
    initialized.insert(tensor.name());
    ++summary.initializers;
    // Declared bytes: the dims' product (saturating) times the element size.
    uint64_t bytes = elementTypeOf(tensor.data_type()).second;
    for (int64_t dim : tensor.dims())
      bytes = dim <= 0                             ? 0
              : bytes > UINT64_MAX / uint64_t(dim) ? UINT64_MAX
                                                   : bytes * uint64_t(dim);
    if (tensor.data_type() == ::onnx::TensorProto::STRING)
      for (const std::string &s : tensor.string_data())
        bytes += s.size();
    summary.initializerBytes += bytes;
    if (tensor.data_location() == ::onnx::TensorProto::EXTERNAL) {
      summary.externalBytes += bytes;
      for (const ::onnx::StringStringEntryProto &entry : tensor.external_data())
        if (entry.key() == "location")
          files.insert(entry.value());
    }
  }
  summary.externalFiles.assign(files.begin(), files.end());
  for (const ::onnx::ValueInfoProto &input : graph.input())
    if (!initialized.count(input.name()))
      summary.inputs.push_back(summarizeValue(input));
  for (const ::onnx::ValueInfoProto &output : graph.output())
    summary.outputs.push_back(summarizeValue(output));
  summary.mainNodes = graph.node_size();
  countNodes(graph, summary, 0);
  return mlir::success();
}
