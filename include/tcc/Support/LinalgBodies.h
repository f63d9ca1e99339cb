//===- LinalgBodies.h - what a linalg op's body computes, asked by several stages --*- C++ -*-===//
//
// Fusion, kernel formation, the scale folding and the contraction tiler each ask whether an
// op is a contraction; they ask it here, so that they agree on what one is.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_SUPPORT_LINALGBODIES_H
#define TCC_SUPPORT_LINALGBODIES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace tcc {

/// A reduction with one output whose body yields `out + x * y` for some products x * y
/// (float or integer; the factors may be computed in the body: a convert, a zero point):
/// a contraction or a convolution. Fusion never merges into such an op, and kernel formation
/// gives it its fill and epilogue.
bool accumulatesProducts(mlir::linalg::LinalgOp op);

/// A reduction whose body is exactly `yield out + in0 * in1` on floats (any operand order of
/// the add and of the product), with two inputs and one output: what the contraction tiler
/// emits as vector FMAs, and what a scale can move through.
bool isMultiplyAdd(mlir::linalg::LinalgOp op);

/// The same with each input widened first: `yield out + extf(in0) * extf(in1)` with inputs
/// of type `narrow` (tcc-pair-bf16-contractions' bf16 pairs, in that order).
bool isWideningMultiplyAdd(mlir::linalg::LinalgOp op, mlir::Type narrow);

/// `yield out + in0 * in1` on integers (any operand order), two inputs and one output.
bool isIntegerMultiplyAdd(mlir::linalg::LinalgOp op);

/// `yield out + extui(in0) * extsi(in1)` from i8 inputs to i32 (tcc-quad-int8-contractions'
/// quads: uint8 first, int8 second).
bool isQuadMultiplyAdd(mlir::linalg::LinalgOp op);

/// The input that a float multiply-add reads as 8-bit integers, converted in its body:
/// `yield out + f(in_k) * in_other` with f a uitofp or sitofp of the i8 input, or of its
/// extui or extsi (a quantized activation's bytes read as float: tcc-fuse-elementwise with
/// `byte-operands`, for the CPU tiler, which converts the bytes it loads).
struct ByteFactor {
  unsigned input; // k
  bool isSigned;  // whether the bytes are int8 (else uint8)
};
std::optional<ByteFactor> byteMultiplyAdd(mlir::linalg::LinalgOp op);

/// The i8 block argument that `value` converts to float (a uitofp or sitofp of it, or of
/// its extui / extsi) and whether it is read as signed: the conversion byteMultiplyAdd
/// takes, and tcc-fuse-elementwise's `byte-operands` fuses.
std::optional<std::pair<mlir::BlockArgument, bool>> convertedByte(mlir::Value value);

} // namespace tcc

#endif // TCC_SUPPORT_LINALGBODIES_H
