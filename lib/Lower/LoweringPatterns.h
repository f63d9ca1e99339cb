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

/// The `tensor.dim` values of the dynamic dims of `type`, read from `like` (which has the
/// same shape), in order.
llvm::SmallVector<mlir::Value> getDynamicDims(mlir::OpBuilder &b, mlir::Location loc,
                                              mlir::Value like);

/// A `tensor.empty` of `type` whose dynamic extents come from `dynamicSizes`.
mlir::Value createEmpty(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType type,
                        mlir::ValueRange dynamicSizes);

/// Converts the scalar `x` of element type `from` to `to` with prim.convert's semantics
/// (saturating float -> int, NaN -> 0, x != 0 for i1, wrapping int -> int).
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                          mlir::Type from, mlir::Type to);

/// The identity of a combiner for `type` (sum 0, prod 1, max -inf / INT_MIN, ...), as an
/// arith constant; `kind` is a prim::ReduceKind.
mlir::Value createIdentity(mlir::OpBuilder &b, mlir::Location loc, int kind, mlir::Type type);

/// Combines two scalars with a prim::ReduceKind (max/min propagate NaN).
mlir::Value combine(mlir::OpBuilder &b, mlir::Location loc, int kind, mlir::Value lhs,
                    mlir::Value rhs);

} // namespace tcc::lower

#endif // TCC_LIB_LOWER_LOWERINGPATTERNS_H
