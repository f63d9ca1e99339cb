//===- GroupedReductions.h - contractions over groups of a reduction's points -*- C++ -*-===//
//
// What tcc-pair-bf16-contractions (pairs of bf16) and tcc-quad-int8-contractions (quads of
// bytes) share: a reduction dim r of a contraction is read as r = g r' + q by both inputs, in
// layouts whose last dim is the group q; the contraction gets q as a new last (reduction) dim.
// Here: choosing r, the grouped layouts (a view, or a packing generic) and the new op.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_FUSE_GROUPEDREDUCTIONS_H
#define TCC_LIB_FUSE_GROUPEDREDUCTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <functional>
#include <optional>
#include <vector>

namespace tcc::fuse {

/// The reduction dim to group and where each of the two inputs reads it.
struct GroupedDim {
  unsigned dim;
  unsigned positions[2]; // in input `inputs[0]`, then `inputs[1]`
};

/// Of the reduction dims of static extent (at least `minExtent`) that inputs `inputs[0]` and
/// `inputs[1]` of `op` both read as a plain index (and nowhere else), with static extents
/// there, the longest whose extent is a multiple of `group`, else the longest. With
/// `preferLast`, first one that `inputs[0]` reads as its last index with an extent that is a
/// multiple of `group`: its groups are then a view of it, not a copy. With `allowDynamic`,
/// dims of dynamic extent qualify too, after all static ones (groupElements pads them).
std::optional<GroupedDim> chooseGroupedDim(mlir::linalg::LinalgOp op, const unsigned inputs[2],
                                           int64_t group, int64_t minExtent,
                                           bool preferLast = false, bool allowDynamic = false);

/// `value` under reshapes of a constant's view (collapse/expand_shape: the same elements in
/// the same order).
mlir::Value peelReshapes(mlir::Value value);

/// The shape of `type` grouped along dim `pos`: that extent divided by `group` (rounded up;
/// dynamic stays dynamic), a last dim of `group`.
llvm::SmallVector<int64_t> groupedShape(mlir::ShapedType type, unsigned pos, int64_t group);

/// `x` grouped along `pos` (zeros complete the last group, at run time for a dynamic extent)
/// with `element` elements: x'[..., r', ..., q] = convert(x[..., g r' + q, ...]). Along the last
/// dim, that is x's own order: `convert` applied elementwise (none when null) and a view; elsewhere
/// a packing generic.
mlir::Value groupElements(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, unsigned pos, int64_t group,
    mlir::Type element,
    const std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::Value)> &convert);

/// For each element of `type` grouped along `pos` (groupedShape, in row-major order), the
/// row-major index of its element in `type`, or -1 for a zero completing the last group.
std::vector<int64_t> groupedSources(mlir::ShapedType type, unsigned pos, int64_t group);

/// A constant of `type` holding `bytes` (its elements in row-major order): inline when it
/// has at most 16 elements (as tcc-fold-weights makes them), else a dense resource `name`.
mlir::Value createGroupedConstant(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::RankedTensorType type, llvm::ArrayRef<char> bytes,
                                  llvm::StringRef name, size_t alignment);

/// `op` as a contraction of `grouped[0]` and `grouped[1]` (its inputs `inputs[0]` and
/// `inputs[1]` grouped along `choice`), the group its new last (reduction) dim, with the
/// body `yield out + product(a, b)`; replaces and erases `op`, returns the new op.
mlir::linalg::GenericOp
groupContraction(mlir::linalg::LinalgOp op, const unsigned inputs[2], mlir::Value grouped0,
                 mlir::Value grouped1,
                 const std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::Value acc,
                                                 mlir::Value a, mlir::Value b)> &accumulate);

} // namespace tcc::fuse

#endif // TCC_LIB_FUSE_GROUPEDREDUCTIONS_H
