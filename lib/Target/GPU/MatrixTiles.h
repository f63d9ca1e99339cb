//===- MatrixTiles.h - contractions on a GPU's matrix units (tensor cores) -----*- C++ -*-===//
//
// With `--precision=bf16` or `tf32`, float32 contractions of the plain form
// acc + x * y run on a warp-level matrix instruction: inputs rounded to the precision,
// products and sums in float32. What a target provides is the instruction (MatrixUnit); the
// tiling, staging through workgroup memory and the epilogue are shared (MatrixTiles.cpp).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_MATRIXTILES_H
#define TCC_LIB_TARGET_GPU_MATRIXTILES_H

#include "LoopBodies.h"

#include <functional>

namespace tcc::gpu {

/// A warp's matrix instruction in the shape block tiles use: D (16 x 8, f32) = A (16 x 8
/// words) x B (8 words x 8) + C, a word being one 32-bit register that holds
/// `elementsPerWord` inputs along the reduction (2 bf16, 1 tf32). Lane l (g = l / 4,
/// t = l % 4) holds A's words at (row, word) (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4),
/// B's at (word, column) (t, g), (t + 4, g), and D's elements at (g, 2t), (g, 2t + 1),
/// (g + 8, 2t), (g + 8, 2t + 1) (NVIDIA's mma.sync m16n8k16 bf16 and m16n8k8 tf32).
struct MatrixUnit {
  int64_t elementsPerWord;
  /// The dialects of the operations `pack` and `multiply` create.
  std::function<void(mlir::DialectRegistry &)> dialects;
  /// One word from `elementsPerWord` float32 values in reduction order, each rounded to the
  /// unit's input type.
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)> pack;
  /// d = a x b + c: 4 words of A, 2 of B, 4 float32 of C; returns D's 4 float32.
  std::function<llvm::SmallVector<mlir::Value>(mlir::OpBuilder &, mlir::Location, mlir::ValueRange,
                                               mlir::ValueRange, mlir::ValueRange)>
      multiply;
  /// Optional, one warp-wide load of four matrices of 8 rows x 4 words from `tile`
  /// (workgroup memory, rows of 16 aligned bytes): lane l gives, as `indices` into `tile`,
  /// the start of row l % 8 of matrix l / 8, and gets word l % 4 of row l / 4 of each
  /// matrix, in order (NVIDIA's ldmatrix .x4). Without it, lanes load their words one by one.
  std::function<llvm::SmallVector<mlir::Value>(mlir::OpBuilder &, mlir::Location, mlir::Value,
                                               mlir::ValueRange)>
      loadMatrices;
};

/// Makes `unit` the one named `name` (a target registers its units with its passes).
void registerMatrixUnit(llvm::StringRef name, MatrixUnit unit);

/// The unit named `name`; null if none is.
const MatrixUnit *lookupMatrixUnit(llvm::StringRef name);

/// A float32 contraction acc + x * y as 128 x 128 block tiles of 8 warps on `unit`, chosen
/// on the host where the problem has at least 64 rows, 64 columns and a reduction of 16.
/// Emits the branch before `op` and returns the block of the other case (the caller lowers
/// `op` there); null when `op` does not have the form.
mlir::Block *lowerMatrixTiled(mlir::linalg::LinalgOp op, const Fusion &fusion,
                              const MatrixUnit &unit);

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_MATRIXTILES_H
