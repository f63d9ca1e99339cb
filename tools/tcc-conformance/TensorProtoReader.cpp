//===- TensorProtoReader.cpp - ONNX test data (.pb TensorProto) -> host tensors -------===//
#include "TensorProtoReader.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/onnx-data_pb.h>
#include <onnx/onnx_pb.h>

#include <cstring>

using namespace mlir;

Type tcc::conformance::elementTypeOfOnnxCode(MLIRContext &ctx, int code) {
  switch (code) {
  case ::onnx::TensorProto::FLOAT: return Float32Type::get(&ctx);
  case ::onnx::TensorProto::DOUBLE: return Float64Type::get(&ctx);
  case ::onnx::TensorProto::FLOAT16: return Float16Type::get(&ctx);
  case ::onnx::TensorProto::BFLOAT16: return BFloat16Type::get(&ctx);
  case ::onnx::TensorProto::BOOL: return IntegerType::get(&ctx, 1);
  case ::onnx::TensorProto::INT8: return IntegerType::get(&ctx, 8);
  case ::onnx::TensorProto::INT16: return IntegerType::get(&ctx, 16);
  case ::onnx::TensorProto::INT32: return IntegerType::get(&ctx, 32);
  case ::onnx::TensorProto::INT64: return IntegerType::get(&ctx, 64);
  case ::onnx::TensorProto::UINT8: return IntegerType::get(&ctx, 8, IntegerType::Unsigned);
  case ::onnx::TensorProto::UINT16: return IntegerType::get(&ctx, 16, IntegerType::Unsigned);
  case ::onnx::TensorProto::UINT32: return IntegerType::get(&ctx, 32, IntegerType::Unsigned);
  case ::onnx::TensorProto::UINT64: return IntegerType::get(&ctx, 64, IntegerType::Unsigned);
  case ::onnx::TensorProto::STRING:
    // The data sets' context may not have loaded prim yet.
    ctx.getOrLoadDialect<tcc::prim::PrimDialect>();
    return tcc::prim::StringType::get(&ctx);
  default: return nullptr;
  }
}

namespace {
/// A parsed TensorProto as a host tensor; `path` names the file in errors.
llvm::Expected<tcc::eval::Tensor> convertTensorProto(const ::onnx::TensorProto &proto,
                                                     llvm::StringRef path, MLIRContext &context);

/// Parses the protobuf message in file `path`.
llvm::Error parseFile(llvm::StringRef path, google::protobuf::MessageLite &message,
                      llvm::StringRef what) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read %s", path.str().c_str());
  if (!message.ParseFromArray((*buffer)->getBufferStart(),
                              static_cast<int>((*buffer)->getBufferSize())))
    return llvm::createStringError("%s is not a %s", path.str().c_str(), what.str().c_str());
  return llvm::Error::success();
}

/// Appends the tensors of a SequenceProto (tensor elements only).
llvm::Error appendSequence(const ::onnx::SequenceProto &sequence, llvm::StringRef path,
                           MLIRContext &context, tcc::conformance::ValueData &data) {
  if (sequence.elem_type() != ::onnx::SequenceProto::TENSOR &&
      sequence.elem_type() != ::onnx::SequenceProto::UNDEFINED)
    return llvm::createStringError("%s: only sequences of tensors are supported",
                                   path.str().c_str());
  data.kind = tcc::conformance::ValueData::Sequence;
  for (const ::onnx::TensorProto &element : sequence.tensor_values()) {
    auto tensor = convertTensorProto(element, path, context);
    if (!tensor)
      return tensor.takeError();
    data.tensors.push_back(std::move(*tensor));
  }
  return llvm::Error::success();
}
} // namespace

llvm::Expected<tcc::conformance::ValueData>
tcc::conformance::readValueProtoFile(llvm::StringRef path, ValueKind kind, MLIRContext &context) {
  ValueData data;
  if (kind == ValueKind::Tensor) {
    auto tensor = readTensorProtoFile(path, context);
    if (!tensor)
      return tensor.takeError();
    data.tensors.push_back(std::move(*tensor));
    return data;
  }
  if (kind == ValueKind::Sequence) {
    ::onnx::SequenceProto sequence;
    if (llvm::Error e = parseFile(path, sequence, "SequenceProto"))
      return std::move(e);
    if (llvm::Error e = appendSequence(sequence, path, context, data))
      return std::move(e);
    return data;
  }
  ::onnx::OptionalProto optional;
  if (llvm::Error e = parseFile(path, optional, "OptionalProto"))
    return std::move(e);
  if (optional.has_tensor_value()) {
    auto tensor = convertTensorProto(optional.tensor_value(), path, context);
    if (!tensor)
      return tensor.takeError();
    data.tensors.push_back(std::move(*tensor));
  } else if (optional.has_sequence_value()) {
    if (llvm::Error e = appendSequence(optional.sequence_value(), path, context, data))
      return std::move(e);
  } else if (optional.elem_type() == ::onnx::OptionalProto::UNDEFINED ||
             optional.elem_type() == ::onnx::OptionalProto::TENSOR ||
             optional.elem_type() == ::onnx::OptionalProto::SEQUENCE) {
    data.kind = ValueData::Absent;
  } else {
    return llvm::createStringError("%s: only optional tensors and sequences are supported",
                                   path.str().c_str());
  }
  return data;
}

llvm::Expected<tcc::eval::Tensor>
tcc::conformance::readTensorProtoFile(llvm::StringRef path, MLIRContext &context) {
  ::onnx::TensorProto proto;
  if (llvm::Error e = parseFile(path, proto, "TensorProto"))
    return std::move(e);
  return convertTensorProto(proto, path, context);
}

namespace {
llvm::Expected<tcc::eval::Tensor> convertTensorProto(const ::onnx::TensorProto &proto,
                                                     llvm::StringRef path, MLIRContext &context) {
  Type type = tcc::conformance::elementTypeOfOnnxCode(context, proto.data_type());
  if (!type)
    return llvm::createStringError("%s: unsupported data type %d", path.str().c_str(),
                                   proto.data_type());
  SmallVector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  // Test data is small: refuse absurd shapes before allocating (a file that is not really a
  // TensorProto can parse into anything).
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d < 0 || d > (int64_t(1) << 31) || (d > 0 && elements > (int64_t(1) << 31) / d))
      return llvm::createStringError("%s: shape is negative or too large", path.str().c_str());
    elements *= d;
  }
  if (proto.data_type() == ::onnx::TensorProto::STRING) {
    // string_data holds the elements (bytes, UTF-8 by convention); there is no raw form.
    if (proto.has_raw_data())
      return llvm::createStringError("%s: a string tensor with raw_data (strings are stored "
                                     "in string_data)",
                                     path.str().c_str());
    if (proto.string_data_size() != elements)
      return llvm::createStringError("%s: %d strings for %lld elements", path.str().c_str(),
                                     proto.string_data_size(), (long long)elements);
    tcc::eval::Tensor tensor;
    tensor.elementType = type;
    tensor.shape = shape;
    tensor.strings.assign(proto.string_data().begin(), proto.string_data().end());
    return tensor;
  }
  tcc::eval::Tensor tensor = tcc::eval::Tensor::zeros(type, shape);
  int64_t count = tensor.getNumElements();
  size_t bytes = tensor.bytes.size();
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != bytes)
      return llvm::createStringError("%s: raw_data has %zu bytes, expected %zu",
                                     path.str().c_str(), proto.raw_data().size(), bytes);
    std::memcpy(tensor.bytes.data(), proto.raw_data().data(), bytes);
    return tensor;
  }
  auto expect = [&](int64_t n) -> llvm::Error {
    if (n != count)
      return llvm::createStringError("%s: %lld values for %lld elements", path.str().c_str(),
                                     (long long)n, (long long)count);
    return llvm::Error::success();
  };
  switch (proto.data_type()) {
  case ::onnx::TensorProto::FLOAT:
    if (auto e = expect(proto.float_data_size()))
      return std::move(e);
    for (int64_t i = 0; i < count; ++i)
      tensor.setDouble(i, proto.float_data(i));
    break;
  case ::onnx::TensorProto::DOUBLE:
    if (auto e = expect(proto.double_data_size()))
      return std::move(e);
    for (int64_t i = 0; i < count; ++i)
      tensor.setDouble(i, proto.double_data(i));
    break;
  case ::onnx::TensorProto::INT64:
    if (auto e = expect(proto.int64_data_size()))
      return std::move(e);
    for (int64_t i = 0; i < count; ++i)
      tensor.setInt(i, proto.int64_data(i));
    break;
  case ::onnx::TensorProto::UINT32:
  case ::onnx::TensorProto::UINT64:
    if (auto e = expect(proto.uint64_data_size()))
      return std::move(e);
    for (int64_t i = 0; i < count; ++i)
      tensor.setInt(i, static_cast<int64_t>(proto.uint64_data(i)));
    break;
  case ::onnx::TensorProto::FLOAT16:
  case ::onnx::TensorProto::BFLOAT16:
    // int32_data holds the raw 16-bit patterns.
    if (auto e = expect(proto.int32_data_size()))
      return std::move(e);
    for (int64_t i = 0; i < count; ++i) {
      uint16_t bits = static_cast<uint16_t>(proto.int32_data(i));
      std::memcpy(tensor.bytes.data() + 2 * i, &bits, 2);
    }
    break;
  default:
    if (auto e = expect(proto.int32_data_size()))
      return std::move(e);
    for (int64_t i = 0; i < count; ++i)
      tensor.setInt(i, proto.int32_data(i));
    break;
  }
  return tensor;
}
} // namespace
