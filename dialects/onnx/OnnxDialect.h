//===- OnnxDialect.h - the generic `onnx` dialect ------------------------------*- C++ -*-===//
#ifndef TCC_DIALECTS_ONNX_ONNXDIALECT_H
#define TCC_DIALECTS_ONNX_ONNXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/onnx/OnnxDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/onnx/OnnxTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/onnx/OnnxOps.h.inc"

#endif // TCC_DIALECTS_ONNX_ONNXDIALECT_H
