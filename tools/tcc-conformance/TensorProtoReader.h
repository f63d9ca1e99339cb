//===- TensorProtoReader.h - ONNX test data (.pb TensorProto) -> host tensors --*- C++ -*-===//
#ifndef TCC_TOOLS_CONFORMANCE_TENSORPROTOREADER_H
#define TCC_TOOLS_CONFORMANCE_TENSORPROTOREADER_H

#include "tcc/Evaluate/Evaluator.h"

#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tcc::conformance {

/// The MLIR element type of an ONNX TensorProto data type code (tcc_dtype), or null. STRING
/// (8) is `!prim.string` (loading the prim dialect into `context` if need be).
mlir::Type elementTypeOfOnnxCode(mlir::MLIRContext &context, int code);

/// Reads a serialized TensorProto file (an ONNX test case's input_N.pb / output_N.pb). A
/// STRING tensor's elements (string_data) go to Tensor::strings, its bytes stay empty.
llvm::Expected<eval::Tensor> readTensorProtoFile(llvm::StringRef path,
                                                 mlir::MLIRContext &context);

/// What a test data file holds for one graph value, flattened to tensors: one for a tensor,
/// the elements of a sequence, none for an empty optional.
struct ValueData {
  enum Kind { Tensor, Sequence, Absent } kind = Tensor;
  std::vector<eval::Tensor> tensors;
};

/// How a value's file is serialized: TensorProto, SequenceProto or OptionalProto.
enum class ValueKind { Tensor, Sequence, Optional };

/// Reads the serialized value of `kind` in `path` (an input_N.pb / output_N.pb).
llvm::Expected<ValueData> readValueProtoFile(llvm::StringRef path, ValueKind kind,
                                             mlir::MLIRContext &context);

} // namespace tcc::conformance

#endif // TCC_TOOLS_CONFORMANCE_TENSORPROTOREADER_H
