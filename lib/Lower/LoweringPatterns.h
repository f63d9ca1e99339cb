//===- LoweringPatterns.h - prim -> linalg patterns, by op family -------------*- C++ -*-===//
#ifndef TCC_LIB_LOWER_LOWERINGPATTERNS_H
#define TCC_LIB_LOWER_LOWERINGPATTERNS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace tcc::lower {

void populateElementwiseLoweringPatterns(mlir::RewritePatternSet &patterns);  // LowerElementwise.cpp
void populateDataMovementLoweringPatterns(mlir::RewritePatternSet &patterns); // LowerDataMovement.cpp
void populateReductionLoweringPatterns(mlir::RewritePatternSet &patterns);    // LowerReductions.cpp
void populateContractionLoweringPatterns(mlir::RewritePatternSet &patterns);  // LowerContractions.cpp
void populateShapeLoweringPatterns(mlir::RewritePatternSet &patterns);        // LowerShapes.cpp
void populateStringLoweringPatterns(mlir::RewritePatternSet &patterns);       // LowerStrings.cpp

/// Whether a constant string tensor holds a non-empty text (such constants are lowered to
/// code that builds their elements; empty ones are zero bits).
bool hasText(mlir::DenseStringElementsAttr strings);

/// Code generation computes on signless integers, while prim's element types carry the
/// signedness (`uiN`). Patterns decide the scalar semantics from the prim op's types and
/// build linalg ops on signless tensors; `builtin.unrealized_conversion_cast` joins those
/// to the unsigned tensors around them until `tcc-signless-types` rewrites every type.

/// `type` with unsigned integers (also as the element type of a shaped type) replaced by
/// the signless integer of the same width; other types unchanged.
mlir::Type signless(mlir::Type type);
mlir::RankedTensorType signless(mlir::RankedTensorType type);

/// `value` as its signless type (an unrealized_conversion_cast when that differs).
mlir::Value castToSignless(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// `value` as `type`, which differs from its type at most in signedness (an
/// unrealized_conversion_cast when they differ).
mlir::Value castToType(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                       mlir::Type type);

/// The `tensor.dim` values of the dynamic dims of `type`, read from `like` (which has the
/// same shape), in order.
llvm::SmallVector<mlir::Value> getDynamicDims(mlir::OpBuilder &b, mlir::Location loc,
                                              mlir::Value like);

/// A `tensor.empty` of `type` whose dynamic extents come from `dynamicSizes`.
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType type,
                        mlir::ValueRange dynamicSizes);

/// Converts the scalar `x` of element type `from` to `to` with prim.convert's semantics
/// (saturating float -> int, NaN -> 0, x != 0 for i1, wrapping int -> int). `from` and `to`
/// are prim's types (they decide signedness); `x` and the result are signless. Float to
/// integers of at most 16 bits clamps in float and converts exactly (max, min, fptosi,
/// trunci); wider ones compare against the bounds and select.
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                          mlir::Type from, mlir::Type to);

/// The identity of a combiner for prim's element type `type` (sum 0, prod 1, max -inf /
/// INT_MIN / 0 for unsigned, ...), as an arith constant of the signless type; `kind` is a
/// prim::ReduceKind.
mlir::Value createIdentity(mlir::OpBuilder &b, mlir::Location loc, int kind, mlir::Type type);

/// Combines two (signless) scalars of prim's element type `type` with a prim::ReduceKind
/// (max/min propagate NaN; unsigned types compare unsigned).
mlir::Value combine(mlir::OpBuilder &b, mlir::Location loc, int kind, mlir::Type type,
                    mlir::Value lhs, mlir::Value rhs);

/// The type sums and products of `element` accumulate in: f32 for narrower floats (when
/// `arithmetic`), else the element type.
mlir::Type accumulatorType(mlir::Type element, bool arithmetic = true);

/// A signless tensor of `type` (dynamic extents `sizes`) filled with the scalar `value`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType type,
                         mlir::ValueRange sizes, mlir::Value value);

/// The signless tensor `value`, whose elements are of prim's type `from`, converted
/// elementwise to `element` with prim.convert's semantics; itself if the types are equal.
mlir::Value convertElements(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                            mlir::Type from, mlir::Type element);

/// The output extent of a window slid over `padded` points (convolution and pooling):
///   (padded - (dilation * (window - 1) + 1)) / stride + 1, or 0 when the window does not fit.
/// A window of 1 at stride 1 keeps `padded` itself (a batch or channel dim), so later stages
/// see the same value (and symbol) as the operand's.
mlir::Value windowExtent(mlir::OpBuilder &b, mlir::Location loc, mlir::Value padded,
                         mlir::OpFoldResult window, int64_t stride, int64_t dilation);

} // namespace tcc::lower

#endif // TCC_LIB_LOWER_LOWERINGPATTERNS_H
