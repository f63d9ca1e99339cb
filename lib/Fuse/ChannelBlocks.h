//===- ChannelBlocks.h - activations in blocks of 16 channels, channels last -*- C++ -*-===//
//
// tcc-channel-vector-convolutions' channels-last form keeps a convolution's input and
// output as [n, h, w, c / 16, 16] (NHWC, the channels in blocks of one 512-bit vector).
// The NCHW tensor the rest of the model sees is `toChannelsFirst` of it, a reshape of a
// transpose; the convolution reads `toChannelBlocks` of its NCHW input. Between two such
// convolutions the pair cancels once the elementwise ops in between (bias, residual add,
// ReLU), poolings and concatenations of whole blocks compute on the blocked tensors:
// `sinkChannelBlocks` moves them there, so that a chain of convolutions pays one
// transposing copy where it starts and one where it ends (none where it starts at a stem,
// which reads an image's channels as they are).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_FUSE_CHANNELBLOCKS_H
#define TCC_LIB_FUSE_CHANNELBLOCKS_H

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseSet.h"

namespace tcc::fuse {

/// The channels of one block: one 512-bit vector of float32.
constexpr int64_t kChannelBlock = 16;

/// b[n, y, x, cb, l] = x[n, 16 cb + l, y, x]: a rank-4 NCHW tensor whose channels are a
/// multiple of 16, as a reshape and a transpose.
mlir::Value toChannelBlocks(mlir::OpBuilder &b, mlir::Location loc, mlir::Value nchw);

/// x[n, 16 cb + l, y, x] = b[n, y, x, cb, l]: the inverse, a transpose and a reshape.
mlir::Value toChannelsFirst(mlir::OpBuilder &b, mlir::Location loc, mlir::Value blocked);

/// The candidates worth computing channels last: those of a chain (convolutions joined
/// through the elementwise ops, slices, window reductions and concatenations that
/// `sinkChannelBlocks` moves, and the padding of a quantized convolution's bytes, which
/// the convolution's blocked form makes on blocks) with at least `minConvolutionsPerCopy`
/// convolutions per transposing copy the chain would need (a value made outside it, or read outside
/// it). `stems` read their input channels first as it is and write blocks: they join a chain by
/// their output alone.
llvm::DenseSet<mlir::Operation *> selectChains(llvm::ArrayRef<prim::ConvolutionOp> candidates,
                                               llvm::ArrayRef<prim::ConvolutionOp> stems,
                                               double minConvolutionsPerCopy);

/// Rewrites `module` until no pattern applies:
///   toChannelBlocks(toChannelsFirst(z)) = z;
///   e(toChannelsFirst(a), ...) = toChannelsFirst(e(a, ...)) for an elementwise prim op e
///   whose other operands are blocked tensors made the same way, broadcast scalars, a
///   per-channel vector broadcast along dim 1 (a bias), values already blocked elsewhere
///   (a residual whose blocked form a convolution reads), or elementwise ops of such values
///   made again on their blocks (a residual's dequantization): no new copy is made; a
///   widening conversion only where its own readers take blocks too;
///   slice(toChannelsFirst(z)) = toChannelsFirst(slice(z)) for a slice of whole channels.
///   w(toChannelsFirst(z)) = toChannelsFirst(w'(z)) for a window reduction over the maps
///   alone (a pooling), w' the same window on the blocks' y and x.
///   concat(toChannelsFirst(z1), ..., dim 1) = toChannelsFirst(concat(z1, ..., dim 3)) for
///   operands of whole blocks of channels.
void sinkChannelBlocks(mlir::ModuleOp module);

} // namespace tcc::fuse

#endif // TCC_LIB_FUSE_CHANNELBLOCKS_H
