//===- DataTypes.h - element types as ONNX TensorProto.DataType codes ------------*- C++ -*-===//
#ifndef TCC_SUPPORT_DATATYPES_H
#define TCC_SUPPORT_DATATYPES_H

#include "mlir/IR/Types.h"

#include <cstdint>

namespace tcc {

/// The ONNX TensorProto.DataType code (which is also the runtime's tcc_dtype) of a number
/// element type: f32 1, f16 10, f64 11, bf16 16, i1 (bool) 9, and the 8- to 64-bit
/// integers by width and signedness (`uiN` unsigned, `iN`/`siN` signed); 0 for other types.
int32_t getOnnxDataType(mlir::Type type);

} // namespace tcc

#endif // TCC_SUPPORT_DATATYPES_H
