//===- TypeImport.h - ONNX data types and TypeProtos -> MLIR types ---------*- C++ -*-===//
//
// Internal to the importer. ONNX 1.12's generated types hold TypeProto.Tensor.elem_type and
// TensorProto.data_type as plain int32 fields, so data types added after 1.12 (float8,
// int4, float4, int2: 17..26) arrive as their numbers and are mapped here like the others.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_TYPEIMPORT_H
#define TCC_LIB_IMPORT_TYPEIMPORT_H

#include "tcc/Import/Importer.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <optional>
#include <string>

namespace tcc::import {

class DimSymbols;

// clang-format off
/// TensorProto.DataType numbers, including those newer than ONNX 1.12's enum.
enum DataType : int32_t {
  kUndefined = 0, kFloat = 1, kUint8 = 2, kInt8 = 3, kUint16 = 4, kInt16 = 5, kInt32 = 6,
  kInt64 = 7, kString = 8, kBool = 9, kFloat16 = 10, kDouble = 11, kUint32 = 12,
  kUint64 = 13, kComplex64 = 14, kComplex128 = 15, kBfloat16 = 16, kFloat8E4M3FN = 17,
  kFloat8E4M3FNUZ = 18, kFloat8E5M2 = 19, kFloat8E5M2FNUZ = 20, kUint4 = 21, kInt4 = 22,
  kFloat4E2M1 = 23, kFloat8E8M0 = 24, kUint2 = 25, kInt2 = 26,
};
// clang-format on

/// The ONNX name of a data type ("FLOAT", "FLOAT8E4M3FN"), or its number for unknown ones.
std::string getDataTypeName(int32_t dataType);

/// Bytes per element in ONNX tensor data; 0 for the packed sub-byte types (int4, uint4,
/// float4e2m1, int2, uint2) and for types without a fixed size.
unsigned getDataTypeBytes(int32_t dataType);

/// Whether the type's tensor data is packed several elements to a byte.
bool isSubByteDataType(int32_t dataType);

/// The element type for `dataType`; emits an error naming `what` (e.g. "input 'x'") and
/// the type when tcc has none (STRING, COMPLEX64/128, UNDEFINED, unknown numbers).
mlir::FailureOr<mlir::Type> importElementType(int32_t dataType, llvm::StringRef what,
                                              mlir::Location loc);

/// The number of elements of `shape` (all static), or nullopt when it overflows int64.
std::optional<int64_t> getElementCount(llvm::ArrayRef<int64_t> shape);

/// A graph input's type: every dim static or an expression over the module's symbols.
struct InputType {
  mlir::RankedTensorType type;
  /// One per dim over symbol positions; constants for static dims.
  llvm::SmallVector<mlir::AffineExpr> dims;
};

/// Imports the declared type of graph input `input`: it must be a tensor with a known
/// element type and rank. dim_params become symbols (see DimSymbols); a dim with neither a
/// value nor a name (or a negative value, the old exporters' "unknown") gets a fresh one.
mlir::FailureOr<InputType> importInputType(const ::onnx::ValueInfoProto &input, DimSymbols &symbols,
                                           mlir::Location loc);

/// A main-graph input as the compiled signature sees it: a tensor (one argument), a sequence
/// (one argument per element, named NAME[k]) or an absent optional (no argument).
struct GraphInputType {
  enum Kind { Tensor, Sequence, PackedSequence, Absent } kind = Tensor;
  /// One entry for a tensor, one per element for a sequence, two for a packed sequence
  /// (NAME.shapes, NAME.data), none when absent.
  llvm::SmallVector<InputType> elements;
  /// An optional present or empty at run time: `elements` ends with its flag (NAME.present,
  /// a bool scalar) after the value's entries.
  bool runtimeOptional = false;
};

/// Imports graph input `input`: a tensor as importInputType does; a sequence with the length
/// (and element shapes) of its setting in `options`; an optional as absent or as its element
/// type when `options` says so, else as its element type and a run-time flag.
mlir::FailureOr<GraphInputType> importGraphInputType(const ::onnx::ValueInfoProto &input,
                                                     DimSymbols &symbols,
                                                     const tcc::ImportOptions &options,
                                                     mlir::Location loc);

/// Imports a declared type that is only a hint (graph outputs, subgraph inputs): a ranked
/// tensor type with `?` for symbolic dims (static where the dim settings fix them), or
/// `!onnx.value` when the declaration lacks a tensor element type or a shape.
mlir::FailureOr<mlir::Type> importHintType(const ::onnx::ValueInfoProto &value,
                                           const DimSymbols &symbols, llvm::StringRef what,
                                           mlir::Location loc);

/// Imports a TYPE_PROTO attribute value: a tensor type, ranked (`?` for symbolic dims) when
/// it has a shape, unranked otherwise; `!onnx.sequence` for a sequence type.
mlir::FailureOr<mlir::Type> importTypeProto(const ::onnx::TypeProto &type, llvm::StringRef what,
                                            mlir::Location loc);

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_TYPEIMPORT_H
