//===- TensorProtoReader.cpp - ONNX test data (.pb TensorProto) -> host tensors -------===//
#include "TensorProtoReader.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"

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
  default: return nullptr;
  }
}

llvm::Expected<tcc::eval::Tensor>
tcc::conformance::readTensorProtoFile(llvm::StringRef path, MLIRContext &context) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read %s", path.str().c_str());
  ::onnx::TensorProto proto;
  if (!proto.ParseFromArray((*buffer)->getBufferStart(),
                            static_cast<int>((*buffer)->getBufferSize())))
    return llvm::createStringError("%s is not a TensorProto", path.str().c_str());
  Type type = elementTypeOfOnnxCode(context, proto.data_type());
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
  eval::Tensor tensor = eval::Tensor::zeros(type, shape);
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
