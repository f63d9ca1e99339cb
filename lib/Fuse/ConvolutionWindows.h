//===- ConvolutionWindows.h - a 2-D convolution's windows copied out as channels --*- C++ -*-===//
//
// Shared by tcc-unfold-convolutions and tcc-channel-vector-convolutions (both on prim):
// the copy that makes a KH x KW convolution a matrix product over its output points.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_FUSE_CONVOLUTIONWINDOWS_H
#define TCC_LIB_FUSE_CONVOLUTIONWINDOWS_H

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/Builders.h"

namespace tcc::fuse {

/// u[n, c, ky, kx, y, x] = xp[n, c, y sy + ky dy, x sx + kx dx], with xp = `input` padded
/// as `op` pads its input (zeros; no negative padding) and `op`'s strides and dilations:
/// one linalg.generic copy of shape N x C x KH x KW x OH x OW (N may be dynamic).
mlir::Value unfoldWindows(mlir::OpBuilder &b, mlir::Location loc, prim::ConvolutionOp op,
                          mlir::Value input, int64_t kh, int64_t kw, int64_t oh, int64_t ow);

} // namespace tcc::fuse

#endif // TCC_LIB_FUSE_CONVOLUTIONWINDOWS_H
