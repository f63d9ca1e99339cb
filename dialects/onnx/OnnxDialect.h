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

namespace tcc::onnx {
/// The argument and result attribute of @main that marks the two tensors of a packed
/// sequence at the model's interface (NAME.shapes, NAME.data): NAME, the sequence's name.
inline constexpr llvm::StringLiteral kSequenceAttrName = "onnx.sequence";
/// The argument and result attributes of @main that mark an optional whose presence is
/// known at run time: its value's tensors carry kOptionalAttrName, its bool flag
/// (NAME.present) kOptionalPresentAttrName; both hold NAME, the optional's name. Before
/// decomposition, kOptionalAttrName on a result says the graph output is declared optional.
inline constexpr llvm::StringLiteral kOptionalAttrName = "onnx.optional";
inline constexpr llvm::StringLiteral kOptionalPresentAttrName = "onnx.optional_present";
} // namespace tcc::onnx

#endif // TCC_DIALECTS_ONNX_ONNXDIALECT_H
