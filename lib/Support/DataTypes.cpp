//===- DataTypes.cpp - element types as ONNX TensorProto.DataType codes ----------------===//
#include "tcc/Support/DataTypes.h"

#include "mlir/IR/BuiltinTypes.h"

int32_t tcc::getOnnxDataType(mlir::Type type) {
  if (type.isF32()) return 1;
  if (type.isF16()) return 10;
  if (type.isF64()) return 11;
  if (type.isBF16()) return 16;
  if (type.isInteger(1)) return 9;
  auto integer = mlir::dyn_cast<mlir::IntegerType>(type);
  if (!integer)
    return 0;
  bool u = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 8: return u ? 2 : 3;
  case 16: return u ? 4 : 5;
  case 32: return u ? 12 : 6;
  case 64: return u ? 13 : 7;
  default: return 0;
  }
}
