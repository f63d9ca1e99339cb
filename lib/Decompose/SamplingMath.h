//===- SamplingMath.h - elementwise index and weight math for sampling rules ----*- C++ -*-===//
//
// Shared by the rules that sample at data-dependent positions (Sampling.cpp, DeformConv.cpp).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_SAMPLINGMATH_H
#define TCC_LIB_DECOMPOSE_SAMPLINGMATH_H

#include "PrimBuilder.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace tcc::decompose {

/// Elementwise arithmetic on tensors of one shape `dims`, with constants, extents and
/// lower-rank tensors broadcast to it.
struct TensorMath {
  NodeRewriter &n;
  llvm::SmallVector<mlir::OpFoldResult> dims;
  mlir::Type real; // the floating-point type of coordinates and weights

  mlir::OpBuilder &b() { return n.getBuilder(); }
  mlir::Type i64() { return b().getI64Type(); }
  template <typename OpTy, typename... Args> mlir::Value op(Args... args) {
    return OpTy::create(b(), n.getLoc(), args...);
  }
  mlir::Value constant(double v, mlir::Type t) { return fill(n, scalarConstant(n, t, v), dims); }
  mlir::Value constant(double v) { return constant(v, real); }
  /// An index extent, splat, as `t`.
  mlir::Value extent(mlir::OpFoldResult e, mlir::Type t) {
    if (auto c = mlir::getConstantIntValue(e))
      return constant(static_cast<double>(*c), t);
    return fill(n, convert(n, makeShapeTensor(n, {e}, i64(), /*scalar=*/true), t), dims);
  }
  /// `v` broadcast to `dims`, its dim i becoming dim mapping[i].
  mlir::Value along(mlir::Value v, llvm::ArrayRef<int64_t> mapping) {
    return prim::BroadcastInDimOp::create(b(), n.getLoc(), getTensorType(dims, elementOf(v)), v,
                                          getDynamicExtents(n, dims),
                                          b().getDenseI64ArrayAttr(mapping));
  }
  mlir::Value iota(int64_t dim, mlir::Type t) {
    mlir::Value i = op<prim::IotaOp>(getTensorType(dims, i64()), getDynamicExtents(n, dims), dim);
    return convert(n, i, t);
  }
  mlir::Value add(mlir::Value a, mlir::Value c) { return op<prim::AddOp>(a, c); }
  mlir::Value sub(mlir::Value a, mlir::Value c) { return op<prim::SubOp>(a, c); }
  mlir::Value mul(mlir::Value a, mlir::Value c) { return op<prim::MulOp>(a, c); }
  mlir::Value div(mlir::Value a, mlir::Value c) { return op<prim::DivOp>(a, c); }
  mlir::Value max(mlir::Value a, mlir::Value c) { return op<prim::MaxOp>(a, c); }
  mlir::Value floor(mlir::Value a) { return op<prim::FloorOp>(a); }
  mlir::Value cmp(prim::CompareDirection d, mlir::Value a, mlir::Value c) {
    return op<prim::CompareOp>(d, a, c);
  }
  mlir::Value select(mlir::Value p, mlir::Value a, mlir::Value c) {
    return op<prim::SelectOp>(p, a, c);
  }
  mlir::Value both(mlir::Value a, mlir::Value c) { return op<prim::AndOp>(a, c); }
  mlir::Value either(mlir::Value a, mlir::Value c) { return op<prim::OrOp>(a, c); }
  mlir::Value negate(mlir::Value a) { return op<prim::NotOp>(a); }
  mlir::Value clamp(mlir::Value lo, mlir::Value x, mlir::Value hi) {
    return op<prim::ClampOp>(lo, x, hi);
  }
  /// An integral real as an i64 index clamped into [0, extent - 1] (truncating; NaN -> 0).
  mlir::Value toIndex(mlir::Value x, mlir::OpFoldResult extent) {
    return clampIndex(convert(n, x, i64()), extent);
  }
  /// An i64 index clamped into [0, extent - 1] (0 for an empty axis, which is never read).
  mlir::Value clampIndex(mlir::Value i, mlir::OpFoldResult extent) {
    mlir::OpFoldResult last =
        maxIndex(n, subIndex(n, extent, b().getIndexAttr(1)), b().getIndexAttr(0));
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
