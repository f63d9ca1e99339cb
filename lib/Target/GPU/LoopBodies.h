//===- LoopBodies.h - a linalg op's payload inside hand-built GPU loops --------*- C++ -*-===//
//
// What the GPU's lowerings of linalg ops share: the loads of an op's inputs at given loop
// indices, its body cloned onto those values, and the fill and elementwise epilogue that a
// contraction's loop nest absorbs (tcc-gpu-linalg-to-loops).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_LOOPBODIES_H
#define TCC_LIB_TARGET_GPU_LOOPBODIES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace tcc::gpu {

/// The indices `map` selects from the loop indices `ivs`.
llvm::SmallVector<mlir::Value> indicesOf(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::AffineMap map, llvm::ArrayRef<mlir::Value> ivs);

/// Maps each input of `op` that its body reads to its value at loop indices `ivs`: a load,
/// or the scalar itself. Operands for which `skip` holds are left to the caller.
void mapInputs(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::LinalgOp op,
               llvm::ArrayRef<mlir::Value> ivs, mlir::IRMapping &mapping,
               llvm::function_ref<bool(mlir::OpOperand &)> skip = nullptr);

/// Clones the body of `op` (but `except`) with `mapping`, linalg.index as `ivs`; returns
/// what it yields.
llvm::SmallVector<mlir::Value> cloneBody(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                                         llvm::ArrayRef<mlir::Value> ivs, mlir::IRMapping &mapping,
                                         mlir::Operation *except = nullptr);

/// The op's payload at loop indices `ivs`, with the outputs' current values `outputs`
/// (null where the body does not read that output): loads the inputs, clones the body, and
/// returns what it yields.
llvm::SmallVector<mlir::Value> emitPayload(mlir::OpBuilder &b, mlir::Location loc,
                                           mlir::linalg::LinalgOp op,
                                           llvm::ArrayRef<mlir::Value> ivs,
                                           mlir::ValueRange outputs);

/// A contraction's neighbours in its kernel that run inside its loop nest: the fill that
/// starts its output (the accumulators start at the fill's value, no load) and the
/// elementwise epilogue that finishes it (applied to the accumulators before the one
/// store), so that the output is written once instead of three times.
struct Fusion {
  mlir::linalg::FillOp fill;
  mlir::linalg::GenericOp epilogue;
};

/// The fill and epilogue of `op` (a contraction with one output indexed by its `parallel`
/// dims in order) that can run in its loop nest; moves the epilogue's operands made between
/// the two before `op`.
Fusion findFusion(mlir::linalg::LinalgOp op, llvm::ArrayRef<int64_t> parallel);

/// The epilogue's payload at output indices `ivs`, where the contraction's output `out`
/// holds `value` (not yet stored): its other inputs are loaded there.
llvm::SmallVector<mlir::Value> emitEpilogue(mlir::OpBuilder &b, mlir::Location loc,
                                            mlir::linalg::GenericOp epilogue,
                                            llvm::ArrayRef<mlir::Value> ivs, mlir::Value value,
                                            mlir::Value out);

/// A contraction as tiles of outputs that a block of threads computes together, its inputs
/// staged through workgroup memory (BlockTiles.cpp). Emits, before `op`, a branch on the
/// problem's size between block-tiled loops and an empty branch, whose block it returns (the
/// caller lowers `op` there, for problems too small to tile); null when `op` does not have
/// the shape (two inputs, one indexed by rows and one by columns, reduction dims).
mlir::Block *lowerBlockTiled(mlir::linalg::LinalgOp op, const Fusion &fusion);

/// A contraction acc + sum of f(x, y) with few outputs (fewer than 2^18) and a long reduction
/// (at least 64): each output's reduction split across neighbouring lanes of a warp that
/// combine their sums with shuffles, each thread 4 rows of one column (SplitLanes.cpp). Emits,
/// before `op`, a branch on the problem's size and returns the block of the other case (the
/// caller lowers `op` there); null when `op` does not have the form or is statically too
/// large, or, with `always` set, when its sizes are static and fit (no other case: the
/// caller erases `op`).
mlir::Block *lowerSplitLanes(mlir::linalg::LinalgOp op, const Fusion &fusion, bool &always);

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_LOOPBODIES_H
