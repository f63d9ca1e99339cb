//===- ParallelLoops.h - one parallel dim from two, batch-major ------------------*- C++ -*-===//
//
// Threads split an scf.parallel's first dim. When that dim is the batch (1 at batch 1), it is
// merged with a later static dim into one dim of both extents' product, batch-major
// (k -> batch k / E, index k % E): threads then split it at any batch, and each thread's
// range stays within few images. Used by tcc-range-kernels and by the contraction tiler.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_CODEGEN_PARALLELLOOPS_H
#define TCC_LIB_CODEGEN_PARALLELLOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tcc {

/// Merges dim `k` (> 0; lower bound 0, step 1) into dim 0 (lower bound 0, step 1): dim 0
/// runs to upper[0] * upper[k], and the body's induction variables become k / upper[k] and
/// k % upper[k].
void mergeIntoFirstDim(mlir::scf::ParallelOp loop, unsigned k);

} // namespace tcc

#endif // TCC_LIB_CODEGEN_PARALLELLOOPS_H
