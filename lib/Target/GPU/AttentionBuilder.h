//===- AttentionBuilder.h - what the GPU's two attention kernels build alike -----*- C++ -*-===//
//
// The block tiles (AttentionTiles.cpp) and the warp per row (LowerAttention.cpp) lower one
// kernel.attention each: the op, a builder at its place, the batch indices of the thread,
// and the arithmetic both write the same way (the score's softcap, bias and causal mask, the
// NaN-propagating maximum, multiply-adds, indices).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_ATTENTIONBUILDER_H
#define TCC_LIB_TARGET_GPU_ATTENTIONBUILDER_H

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <limits>

namespace tcc::gpu {

class AttentionBuilder {
protected:
  AttentionBuilder(mlir::OpBuilder &builder, tcc::kernel::AttentionOp op)
      : op(op), b(op.getLoc(), builder), rank(op.getRank()) {}

  /// The bias value of score (row, key), broadcast as bias_dims says.
  mlir::Value biasAt(mlir::Value row, mlir::Value key) {
    auto type = mlir::cast<mlir::MemRefType>(op.getBias().getType());
    llvm::SmallVector<mlir::Value> at;
    for (auto [t, d] : llvm::enumerate(*op.getBiasDims()))
      at.push_back(type.getDimSize(t) == 1 ? index(0)
                   : d == rank - 1         ? key
                   : d == rank - 2         ? row
                                           : batch[d]);
    return mlir::memref::LoadOp::create(b, op.getBias(), at);
  }
  /// s, or -inf where `key` is past `row`'s causal diagonal (kernel.attention's `causal`).
  mlir::Value causalMasked(mlir::Value s, mlir::Value row, mlir::Value key) {
    std::optional<int64_t> t = op.getCausal();
    if (!t)
      return s;
    mlir::Value inside = mlir::arith::CmpIOp::create(
        b, mlir::arith::CmpIPredicate::ule, key, mlir::arith::AddIOp::create(b, row, index(*t)));
    return mlir::arith::SelectOp::create(b, inside, s,
                                         constant(-std::numeric_limits<float>::infinity()));
  }
  /// max(a, x), NaN if either is: compare and select (no libdevice).
  mlir::Value nanMax(mlir::Value a, mlir::Value x) {
    using mlir::arith::CmpFPredicate;
    mlir::Value greater = mlir::arith::CmpFOp::create(b, CmpFPredicate::OGT, a, x);
    mlir::Value larger = mlir::arith::SelectOp::create(b, greater, a, x);
    mlir::Value nan = mlir::arith::CmpFOp::create(b, CmpFPredicate::UNO, a, a);
    return mlir::arith::SelectOp::create(b, nan, a, larger);
  }
  /// With a softcap c: c · tanh(s / c) (math.tanh: approximated later, no libdevice); else s.
  mlir::Value capped(mlir::Value s) {
    std::optional<llvm::APFloat> cap = op.getSoftcap();
    if (!cap)
      return s;
    mlir::Value c = constant(cap->convertToFloat());
    return mlir::arith::MulFOp::create(
        b, c, mlir::math::TanhOp::create(b, mlir::arith::DivFOp::create(b, s, c)));
  }
  /// a · x + y (the NVIDIA lowering contracts it into one fma.rn).
  mlir::Value fma(mlir::Value a, mlir::Value x, mlir::Value y) {
    return mlir::arith::AddFOp::create(b, mlir::arith::MulFOp::create(b, a, x), y);
  }
  /// The thread's batch indices, then `last2`.
  llvm::SmallVector<mlir::Value> indices(llvm::ArrayRef<mlir::Value> last2) {
    llvm::SmallVector<mlir::Value> all(batch);
    llvm::append_range(all, last2);
    return all;
  }
  /// The same for the keys and values: with grouped heads (kernel.attention's
  /// getKeyGroup), query head h reads key head h / G.
  llvm::SmallVector<mlir::Value> keyIndices(llvm::ArrayRef<mlir::Value> last2) {
    llvm::SmallVector<mlir::Value> all(batch);
    if (int64_t group = op.getKeyGroup(); group > 1)
      all[rank - 3] = mlir::arith::DivUIOp::create(b, all[rank - 3], index(group));
    llvm::append_range(all, last2);
    return all;
  }
  mlir::Value dim(mlir::Value memref, int64_t d) {
    return mlir::memref::DimOp::create(b, memref, d);
  }
  mlir::Value index(int64_t v) { return mlir::arith::ConstantIndexOp::create(b, v); }
  mlir::Value constant(float v) { return mlir::arith::ConstantOp::create(b, b.getF32FloatAttr(v)); }

  tcc::kernel::AttentionOp op;
  mlir::ImplicitLocOpBuilder b;
  int64_t rank;
  llvm::SmallVector<mlir::Value> batch;
};

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_ATTENTIONBUILDER_H
