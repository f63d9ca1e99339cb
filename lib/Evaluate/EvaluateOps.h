//===- EvaluateOps.h - the evaluator's op families and shared helpers (internal) -*- C++ -*-===//
//
// The evaluator walks a function and hands each op to the family evaluators below in turn;
// each family owns one TypeSwitch over its ops, so an op's reference semantics live in one
// place. Family evaluators return plain error messages; Evaluator.cpp prefixes the op name
// and location.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_EVALUATE_EVALUATEOPS_H
#define TCC_LIB_EVALUATE_EVALUATEOPS_H

#include "tcc/Evaluate/Evaluator.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace tcc::eval::detail {

/// The tensors computed so far in one evaluation, keyed by SSA value. Scalars (index, i64,
/// f32, ...) are 0-d tensors.
class Environment {
public:
  /// The tensor of `value`. The evaluator checks that every operand of an op has one
  /// before it dispatches the op; a missing value reads as an empty tensor.
  const Tensor &get(mlir::Value value) const;
  /// True once `value` has been computed.
  bool contains(mlir::Value value) const { return tensors.count(value) != 0; }
  /// Records the tensor of `value`.
  void set(mlir::Value value, Tensor tensor) { tensors[value] = std::move(tensor); }

private:
  llvm::DenseMap<mlir::Value, Tensor> tensors;
};

/// State that lives for one evaluation of a function.
struct EvaluationState {
  /// The value each module symbol got from the first `prim.bind_shape` that bound it.
  llvm::StringMap<int64_t> symbolValues;
};

/// The results of an op, in result order.
using Results = std::vector<Tensor>;

/// What a family evaluator makes of an op: std::nullopt when the op is not of its family,
/// else the op's results or an error that says what went wrong.
using FamilyResult = std::optional<llvm::Expected<Results>>;

/// Elementwise prim ops (PrimElementwise.td).
FamilyResult evaluateElementwiseOp(mlir::Operation *op, const Environment &env);
/// Data movement prim ops (PrimDataMovement.td).
FamilyResult evaluateDataMovementOp(mlir::Operation *op, const Environment &env);
/// Reductions, windows, contractions and scans (PrimReductions.td).
FamilyResult evaluateStructuredOp(mlir::Operation *op, const Environment &env);
/// prim.dim, prim.check, prim.bind_shape and prim.symbol (PrimShapes.td).
FamilyResult evaluateShapeOp(mlir::Operation *op, const Environment &env, EvaluationState &state);
/// prim.format, prim.parse, prim.change_case and prim.string_in (PrimStrings.td).
FamilyResult evaluateStringOp(mlir::Operation *op, const Environment &env);
/// The upstream arith and tensor ops that decomposed IR contains.
FamilyResult evaluateUpstreamOp(mlir::Operation *op, const Environment &env);

//===----------------------------------------------------------------------------------===//
// Errors, shapes and tensors.
//===----------------------------------------------------------------------------------===//

/// An evaluation error with message `what`.
llvm::Error makeError(const llvm::Twine &what);

/// `shape` as `2x3` (`scalar` for rank 0), for error messages.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// The row-major strides of `shape`.
llvm::SmallVector<int64_t> getStrides(llvm::ArrayRef<int64_t> shape);

/// Steps `index` to the next row-major position within `shape`; false after the last.
bool advanceIndex(llvm::MutableArrayRef<int64_t> index, llvm::ArrayRef<int64_t> shape);

/// A zero-filled tensor, or an error for an unsupported element type, a negative extent or
/// a size beyond the evaluator's limit.
llvm::Expected<Tensor> makeTensor(mlir::Type elementType, llvm::ArrayRef<int64_t> shape);

/// The element type of result `index` of `op` (the type itself for a scalar result).
mlir::Type getResultElementType(mlir::Operation *op, unsigned index = 0);

/// The extents of `type`, each `?` taken in order from `dynamicSizes` (0-d index tensors).
llvm::Expected<llvm::SmallVector<int64_t>>
resolveShape(mlir::ShapedType type, mlir::ValueRange dynamicSizes, const Environment &env);

/// An error unless `a` and `b` have one shape.
llvm::Error checkSameShape(const Tensor &a, const Tensor &b, llvm::StringRef aName,
                           llvm::StringRef bName);

/// An error unless each attribute list has `rank` entries.
llvm::Error checkListSizes(llvm::ArrayRef<llvm::ArrayRef<int64_t>> lists, int64_t rank,
                           llvm::StringRef what);

//===----------------------------------------------------------------------------------===//
// Elements.
//===----------------------------------------------------------------------------------===//

/// The width in bits that integers of `type` wrap to (index is 64, i1 is 1).
unsigned getIntegerWidth(mlir::Type type);

/// True when integers of `type` are zero-extended: unsigned integers and i1 (a boolean).
bool isUnsignedElement(mlir::Type type);

/// The low `width` bits of `bits`.
uint64_t truncateToWidth(uint64_t bits, unsigned width);

/// The low `width` bits of `bits` read as a signed integer.
int64_t signExtend(uint64_t bits, unsigned width);

/// The low `width` bits of `bits`, sign- or zero-extended to 64 bits.
int64_t wrapToWidth(uint64_t bits, unsigned width, bool isUnsigned);

/// `v` truncated toward zero and saturated to a `width`-bit integer; NaN gives 0. The result
/// is sign- or zero-extended to 64 bits.
int64_t saturatingFloatToInt(double v, unsigned width, bool isUnsigned);

/// Stores integer `v` (read as unsigned when `isUnsigned`) into float element `i` of `t`,
/// rounded to nearest even once.
void setIntegerAsFloat(Tensor &t, int64_t i, int64_t v, bool isUnsigned);

/// True for `!prim.string`, whose tensors hold their elements in `strings`.
bool isStringElement(mlir::Type type);

/// Copies element `from` of `src` into element `to` of `dst` (one element type, strings
/// included): the one way data movement moves elements.
void copyElement(Tensor &dst, int64_t to, const Tensor &src, int64_t from);

/// The raw bits of element `i` (zero-extended).
uint64_t loadBits(const Tensor &t, int64_t i);

/// Stores the low bits of `bits` as element `i`.
void storeBits(Tensor &t, int64_t i, uint64_t bits);

/// max(a, b) and min(a, b) that return NaN when either is NaN (and order -0 below +0).
double maximumPropagatingNaN(double a, double b);
double minimumPropagatingNaN(double a, double b);

} // namespace tcc::eval::detail

#endif // TCC_LIB_EVALUATE_EVALUATEOPS_H
