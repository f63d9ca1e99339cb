//===- RuntimeAxes.h - axes and other structural values read at run time ------*- C++ -*-===//
//
// Squeeze, Unsqueeze, Slice and CumSum may take their axes as graph inputs: values known only
// when the model runs. The rules then compute, per dim, whether (and how) it is affected, as
// index arithmetic over the axes' elements; extents computed that way become symbols computed
// before the run (tcc-data-extents), and the axes' validity becomes run-time checks naming the
// node.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_RUNTIMEAXES_H
#define TCC_LIB_DECOMPOSE_RUNTIMEAXES_H

#include "RuleSupport.h"

namespace tcc::decompose {

/// The elements of the shape-like input `index` (a 0-d or 1-d integer tensor of static
/// length) as index values; std::nullopt when the node does not have it, or after an error
/// naming the input.
std::optional<llvm::SmallVector<mlir::OpFoldResult>> getShapeInput(NodeRewriter &n, unsigned index);

/// Whether input `index` is given and its value is known only at run time.
bool isRuntimeInput(NodeRewriter &n, unsigned index);

/// Emits `prim.check(condition, message)` (message prefixed with the node) unless it folds to
/// true.
void checkTrue(NodeRewriter &n, mlir::Value condition, const llvm::Twine &message);

/// The entries of the 0-d or 1-d integer input `index` (of static length) normalized into
/// [0, rank) as index values, with run-time checks that each was in [-rank, rank) and, when
/// `distinct`, that none repeats. Null after an error (the input's shape).
std::optional<llvm::SmallVector<mlir::Value>> runtimeAxes(NodeRewriter &n, unsigned index,
                                                          int64_t rank, bool distinct);

/// runtimeAxes of input `index` (distinct) when the node has it, else 0, 1, ..., count - 1
/// (the default axes of Slice and Pad).
std::optional<llvm::SmallVector<mlir::Value>> runtimeAxesOrFirst(NodeRewriter &n, unsigned index,
                                                                 int64_t rank, int64_t count);

/// Whether some entry of `axes` equals `dim` (an i1).
mlir::Value isListed(NodeRewriter &n, llvm::ArrayRef<mlir::Value> axes, int64_t dim);

/// `values[index]` for a run-time `index` in [0, values.size()) (a chain of selects; the
/// first value for an index outside).
mlir::OpFoldResult pick(NodeRewriter &n, mlir::Value index,
                        llvm::ArrayRef<mlir::OpFoldResult> values);

/// x padded (or cropped, where negative) by run-time amounts: per dim d with lo[d] set, the
/// output has in + lo[d] + hi[d] elements, position p copying source index p - lo[d] by
/// Pad's `mode` formula (constant: `value` outside the input); every index stays in range
/// whatever the amounts (Padding.cpp).
mlir::Value padAtRuntime(NodeRewriter &n, mlir::Value x, llvm::ArrayRef<mlir::OpFoldResult> lo,
                         llvm::ArrayRef<mlir::OpFoldResult> hi, llvm::StringRef mode,
                         mlir::Value value);

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_RUNTIMEAXES_H
