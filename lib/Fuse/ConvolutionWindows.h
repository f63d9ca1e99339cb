//===- ConvolutionWindows.h - a 2-D convolution's windows copied out as channels --*- C++ -*-===//
//
// Shared by tcc-unfold-convolutions and tcc-channel-vector-convolutions (both on prim):
// which convolutions have static windows, which ones unfolding takes, the copy that makes
// a KH x KW convolution a matrix product over its output points, and their batched results.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_FUSE_CONVOLUTIONWINDOWS_H
#define TCC_LIB_FUSE_CONVOLUTIONWINDOWS_H

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace tcc::fuse {

/// A 2-D convolution's static extents (the batch may be dynamic).
struct WindowShape {
  int64_t channels, outChannels, kh, kw, oh, ow;
};

/// The shape of `op` reading `input` (its input, or the bytes that input converts): 2-D,
/// `groups` groups (one: a plain convolution), static filter, channels and maps, no negative
/// padding; nothing otherwise.
std::optional<WindowShape> windowShape(prim::ConvolutionOp op, mlir::Value input,
                                       int64_t groups = 1);

/// Whether tcc-unfold-convolutions with these options takes `op` (its conditions and rule).
bool unfolds(prim::ConvolutionOp op, int64_t vectorBits, bool splitWideFma);

/// u[n, c, ky, kx, y, x] = xp[n, c, y sy + ky dy, x sx + kx dx], with xp = `input` padded
/// as `op` pads its input (zeros; no negative padding) and `op`'s strides and dilations:
/// one linalg.generic copy of shape N x C x KH x KW x OH x OW (N may be dynamic).
mlir::Value unfoldWindows(mlir::OpBuilder &b, mlir::Location loc, prim::ConvolutionOp op,
                          mlir::Value input, int64_t kh, int64_t kw, int64_t oh, int64_t ow);

/// An empty [batch, extents...] tensor of `element`; the batch static or dynamic.
mlir::Value emptyBatched(mlir::OpBuilder &b, mlir::Location loc, mlir::OpFoldResult batch,
                         llvm::ArrayRef<int64_t> extents, mlir::Type element);

} // namespace tcc::fuse

#endif // TCC_LIB_FUSE_CONVOLUTIONWINDOWS_H
