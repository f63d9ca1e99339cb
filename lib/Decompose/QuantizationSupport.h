//===- QuantizationSupport.h - what the quantization rules share -----------*- C++ -*-===//
//
// Quantization.cpp (the standard QuantizeLinear, DequantizeLinear and integer contractions)
// and ContribQuantization.cpp (ONNX Runtime's com.microsoft QLinear* ops) build on these.
// A quantized tensor is an integer q with a scale s and a zero point z: x ~ (q - z) * s.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_QUANTIZATIONSUPPORT_H
#define TCC_LIB_DECOMPOSE_QUANTIZATIONSUPPORT_H

#include "RuleSupport.h"

namespace tcc::decompose {

inline mlir::Type f32Type(NodeRewriter &n) { return mlir::Float32Type::get(n.getContext()); }
inline mlir::Type i32Type(NodeRewriter &n) { return mlir::IntegerType::get(n.getContext(), 32); }

/// int8, uint8, int16 or uint16.
bool isQuantizedIntType(mlir::Type type);

/// Whether `v` holds a quantized integer type; else an error naming `what`.
bool checkQuantized(NodeRewriter &n, mlir::Value v, llvm::StringRef what);

/// A scale or zero point broadcast to the shape `dims` of the tensor it applies to:
/// per tensor (a scalar or a 1-element vector), per axis (a vector along `axis`), or blocked
/// (`blockSize` > 0); null after an error naming `what`.
mlir::Value broadcastParameter(NodeRewriter &n, mlir::Value param,
                               llvm::ArrayRef<mlir::OpFoldResult> dims, int64_t axis,
                               int64_t blockSize, llvm::StringRef what);

/// saturate(round_half_even(v) + z) into `type` (v and z in float32; z may be null).
mlir::Value roundAndSaturate(NodeRewriter &n, mlir::Value v, mlir::Value zeroPoint,
                             mlir::Type type);

/// convert(q, i32) - z, with z a scalar or a vector along `axis` of q (or null: none); null
/// after an error naming `what`.
mlir::Value centered(NodeRewriter &n, mlir::Value q, mlir::Value zeroPoint, int64_t axis,
                     llvm::StringRef what);

/// (convert(q, i32) - z) * s in float32, the difference exact in int32: s and z (z may be
/// null) read as broadcastParameter does (per tensor, along `axis`, or blocked); null after an
/// error naming x_scale or x_zero_point. DequantizeLinear's body.
mlir::Value dequantized(NodeRewriter &n, mlir::Value q, mlir::Value scale, mlir::Value zeroPoint,
                        int64_t axis, int64_t blockSize);

/// x's channels (dim 1) moved last (`back`: NCHW -> NHWC) or its last dim moved to 1.
mlir::Value moveChannels(NodeRewriter &n, mlir::Value x, bool back);

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_QUANTIZATIONSUPPORT_H
