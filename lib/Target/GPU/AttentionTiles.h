//===- AttentionTiles.h - kernel.attention as query tiles over staged key tiles --*- C++ -*-===//
//
// The block-tiled form of a GPU's attention kernel (AttentionTiles.cpp): a block of 64
// query rows walks the keys in tiles of 32 staged in workgroup memory, `lanes` threads a
// row (and, with lanes > 1, 2 rows a thread). tcc-gpu-lower-attention chooses it where
// there are enough query rows; the warp per row (LowerAttention.cpp) serves the rest.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_ATTENTIONTILES_H
#define TCC_LIB_TARGET_GPU_ATTENTIONTILES_H

#include "dialects/kernel/KernelDialect.h"

#include "mlir/IR/Builders.h"

namespace tcc::gpu {

/// Query rows of one block of the tiled kernel.
inline constexpr int64_t kAttentionBlockRows = 64;

/// Whether emitAttentionTiles can lower `op` (on buffers) with `lanes` threads a row: the
/// query depth D and the value depth E static, at most 128, multiples of 4 · lanes.
bool canTileAttention(tcc::kernel::AttentionOp op, int64_t lanes);

/// Emits the tiled kernel of `op` at `b`'s insertion point: an scf.parallel over the batch
/// dims, the blocks of query rows and the block's threads (128 with lanes = 4: 2 rows a
/// thread; 64 with lanes = 1), marked
/// `kernel.block_threads`. `lanes` > 1 needs subgroups (clustered reductions of that size).
/// Does not erase `op`.
void emitAttentionTiles(mlir::OpBuilder &b, tcc::kernel::AttentionOp op, int64_t lanes);

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_ATTENTIONTILES_H
