//===- Scalarize.h - elements of small computed tensors as scalar arithmetic ---*- C++ -*-===//
#ifndef TCC_LIB_DECOMPOSE_SCALARIZE_H
#define TCC_LIB_DECOMPOSE_SCALARIZE_H

#include "RuleSupport.h"

namespace tcc::decompose {

/// `index` clamped into [0, count - 1] (0 for an empty axis, which is never read).
mlir::Value clampRow(NodeRewriter &n, mlir::OpFoldResult index, mlir::OpFoldResult count);

/// Element `index` (index values, one per dim) of an integer or floating-point tensor that
/// the model computes from graph inputs by a few data-movement and elementwise prim ops (a
/// table the sequence rules built, a trip count computed with 0-d tensor ops), as scalar
/// arithmetic on the inputs' elements (reads clamped into them), which tcc-data-extents can
/// compute before the run; null when the tensor is computed otherwise or the expression
/// grows past a budget of 256 ops (Scalarize.cpp).
mlir::Value scalarizeElement(NodeRewriter &n, mlir::Value tensor,
                             llvm::ArrayRef<mlir::Value> index);

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_SCALARIZE_H
