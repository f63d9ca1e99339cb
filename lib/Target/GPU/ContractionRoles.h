//===- ContractionRoles.h - a contraction's dims as rows, columns, reduction, batch -*- C++ -*-===//
//
// A contraction C[batch, m, n] = combine over k of X[batch, m, k] and Y[batch, n, k] (a
// matmul, a batched matmul, a convolution read as an implicit GEMM), as the GPU's tiled
// lowerings see it: each dim group (m: the parallel dims only X reads; n: only Y; k: the
// reduction dims) is one flat index, split back into its dims where memory is addressed.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_CONTRACTIONROLES_H
#define TCC_LIB_TARGET_GPU_CONTRACTIONROLES_H

#include "LoopBodies.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace tcc::gpu {

/// The contraction's dims by role, and its two inputs: `x` reads the `m` dims and not the
/// `n` dims, `y` the reverse; `batch` are the other parallel dims, `k` the reduction dims.
struct Roles {
  llvm::SmallVector<int64_t> batch, m, n, k;
  mlir::OpOperand *x = nullptr, *y = nullptr;
};

/// The roles of `op`'s dims; none unless it reads exactly two tensors, has rows, columns and
/// reduction dims, and writes one output indexed by its parallel dims in order.
std::optional<Roles> classify(mlir::linalg::LinalgOp op);

/// Values for one contraction's lowering: its loop ranges and the sizes of its dim groups.
struct Problem {
  mlir::linalg::LinalgOp op;
  const Fusion &fusion;
  Roles roles;
  llvm::SmallVector<mlir::Value> extents; // per loop dim
  mlir::Value rows, columns, depth;       // the flat extents of m, n and k
};

/// The problem of `op` (built before it: its extents, and its flat rows, columns and
/// depth), when classify() gives it roles that `accept` (if given) accepts and its loops run
/// from 0 by 1.
std::optional<Problem> analyze(mlir::linalg::LinalgOp op, const Fusion &fusion,
                               llvm::function_ref<bool(const Roles &)> accept = nullptr);

/// The product of the extents of `dims`.
mlir::Value product(mlir::OpBuilder &b, mlir::Location loc, const Problem &p,
                    llvm::ArrayRef<int64_t> dims);

/// Writes into `ivs` the dims `dims` of the flat (row-major) index `flat`.
void unflatten(mlir::OpBuilder &b, mlir::Location loc, const Problem &p,
               llvm::ArrayRef<int64_t> dims, mlir::Value flat,
               llvm::MutableArrayRef<mlir::Value> ivs);

/// Whether an input is best staged with the reduction index varying fastest between
/// neighbouring threads (its innermost memory dim follows the innermost reduction dim, as a
/// matmul's row-major A), rather than its own rows (a transposed operand, a convolution
/// over pixels with small windows).
bool reductionFastest(const Problem &p, mlir::OpOperand *input, llvm::ArrayRef<int64_t> own);

/// A tiled contraction's loop of blocks: an scf.parallel over (batch dims, row tiles, column
/// tiles, a block's threads) marked `kernel.block_threads`, and what its body starts from.
struct BlockLoop {
  mlir::scf::ParallelOp loop;
  mlir::Value thread, rowTile, columnTile;
  /// The contraction's loop indices with the batch dims set (the others 0 until set).
  llvm::SmallVector<mlir::Value> base;
};

/// Creates the loop of blocks of `tileRows` x `tileColumns` outputs and `threads` threads
/// at `b`'s insertion point.
BlockLoop createBlockLoop(mlir::OpBuilder &b, mlir::Location loc, const Problem &p,
                          int64_t tileRows, int64_t tileColumns, int64_t threads);

/// The contraction's loop indices at output (row, column) (flat row and column indices).
llvm::SmallVector<mlir::Value> outputIvs(mlir::OpBuilder &b, mlir::Location loc, const Problem &p,
                                         const BlockLoop &blocks, mlir::Value row,
                                         mlir::Value column);

/// The start of the accumulator of output (row, column): the fused fill's value, else the
/// output's (read at indices clamped into range: outputs past the end are not stored).
mlir::Value accumulatorStart(mlir::OpBuilder &b, mlir::Location loc, const Problem &p,
                             const BlockLoop &blocks, mlir::Value row, mlir::Value column);

/// Stores the accumulator `value` of output (row, column), through the fused epilogue, when
/// the output exists.
void storeOutput(mlir::OpBuilder &b, mlir::Location loc, const Problem &p, const BlockLoop &blocks,
                 mlir::Value row, mlir::Value column, mlir::Value value);

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_CONTRACTIONROLES_H
