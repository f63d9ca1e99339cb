//===- SamplingMath.h - elementwise index and weight math for sampling rules ----*- C++ -*-===//
//
// Shared by the rules that sample at data-dependent positions (Sampling.cpp, DeformConv.cpp).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_SAMPLINGMATH_H
#define TCC_LIB_DECOMPOSE_SAMPLINGMATH_H

#include "RuleSupport.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace tcc::decompose {

/// The prim builder at the node for elementwise arithmetic on tensors of one shape `shape`,
/// with constants, extents and lower-rank tensors broadcast to it.
struct TensorMath : RuleBuilder {
  TensorMath(NodeRewriter &n, llvm::SmallVector<mlir::OpFoldResult> shape, mlir::Type real)
      : RuleBuilder(n), shape(std::move(shape)), real(real) {}
  llvm::SmallVector<mlir::OpFoldResult> shape;
  mlir::Type real; // the floating-point type of coordinates and weights

  mlir::Type i64() { return b.getI64Type(); }
  mlir::Value constant(double v, mlir::Type t) { return fill(scalar(t, v), shape); }
  mlir::Value constant(double v) { return constant(v, real); }
  /// An index extent, splat, as `t`.
  mlir::Value extent(mlir::OpFoldResult e, mlir::Type t) {
    if (auto c = mlir::getConstantIntValue(e))
      return constant(static_cast<double>(*c), t);
    return fill(convert(makeShapeTensor(n, {e}, i64(), /*scalar=*/true), t), shape);
  }
  /// `v` broadcast to `shape`, its dim i becoming dim mapping[i].
  mlir::Value along(mlir::Value v, llvm::ArrayRef<int64_t> mapping) {
    return create<prim::BroadcastInDimOp>(prim::tensorType(shape, elementOf(v)), v,
                                          prim::dynamicExtents(shape),
                                          b.getDenseI64ArrayAttr(mapping));
  }
  mlir::Value iota(int64_t dim, mlir::Type t) {
    return convert(RuleBuilder::iota(shape, dim, i64()), t);
  }
  /// An integral real as an i64 index clamped into [0, extent - 1] (truncating; NaN -> 0).
  mlir::Value toIndex(mlir::Value x, mlir::OpFoldResult extent) {
    return clampIndex(convert(x, i64()), extent);
  }
  /// An i64 index clamped into [0, extent - 1] (0 for an empty axis, which is never read).
  mlir::Value clampIndex(mlir::Value i, mlir::OpFoldResult extent) {
    mlir::OpFoldResult last = maxIndex(subIndex(extent, b.getIndexAttr(1)), b.getIndexAttr(0));
    return clamp(constant(0, i64()), i, this->extent(last, i64()));
  }
};

/// `v` (of shape `dims`) broadcast over a trailing channel dim of extent `channels`.
inline mlir::Value overChannels(NodeRewriter &n, mlir::Value v,
                                llvm::ArrayRef<mlir::OpFoldResult> dims,
                                mlir::OpFoldResult channels) {
  llvm::SmallVector<mlir::OpFoldResult> wide(dims);
  wide.push_back(channels);
  return TensorMath{n, wide, {}}.along(v, llvm::to_vector(llvm::seq<int64_t>(0, dims.size())));
}

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_SAMPLINGMATH_H
