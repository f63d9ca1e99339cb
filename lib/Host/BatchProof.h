//===- BatchProof.h - does @main compute each image of its batch alone? ---------*- C++ -*-===//
//
// The proof behind tcc-mark-batch-split (MarkBatchSplit.cpp). It walks @main in order and
// gives every tensor value its batch dim or none (a weight, a value computed from weights
// only), and every index value a form in the batch extent N. A batch dim of factor F has
// extent F N, image b holding indices [b F, (b + 1) F) (F = 1: the batch itself; F = 4: the
// batch folded with 4 attention heads, [n, 4, s, d] -> [4 n, s, d]). An op is understood only
// in the forms listed below; any other op that touches a batch-dependent value ends the
// proof:
//
//   linalg ops  the batched operands' batch dims are one parallel loop l (one factor), read
//               by the dim expression l alone; no other operand and no other dim reads l;
//               the body reads linalg.index l only to extract from a batched tensor at the
//               image's own index (a gather), and nothing else batch-dependent from outside;
//               or a reduction over l that is an all-of read only by run-time checks
//   attention   q, k, v, init batched at one batch dim of the op (one factor), the bias
//               batched there too or invariant
//   tensor      empty, pad (not on the batch dim), collapse/expand_shape (the batch dim
//               grouped with static dims after it, or static 1s before it), extract/
//               insert_slice (the whole batch dim), concat (not on it), reshape (by a shape
//               whose first element is the batch extent), cast, dim, from_elements
//   index math  sums, differences and products with constants stay affine in N; a select,
//               max or min on affine comparisons is the affine form it takes for every
//               N >= 0, or the branch it always takes; other arithmetic is opaque, which only
//               more index arithmetic and never-taken branches may read
//   checks      invariant, or true for every N >= 0
//   return      every result's dim 0 is the batch dim, factor 1
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_CODEGEN_BATCHPROOF_H
#define TCC_LIB_CODEGEN_BATCHPROOF_H

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <optional>

namespace tcc {

class BatchProof {
public:
  /// A tensor's batch dim and its factor.
  struct Batched {
    int64_t dim = 0, factor = 1;
    bool operator==(const Batched &other) const {
      return dim == other.dim && factor == other.factor;
    }
    bool operator!=(const Batched &other) const { return !(*this == other); }
  };

  /// Marks `v` (an input) as batched.
  void setBatched(mlir::Value v, Batched batched) { tensors[v] = batched; }
  std::optional<Batched> batched(mlir::Value v) const;

  /// Applies `op`'s rule; false when the op does not keep images apart (or is not understood).
  bool visit(mlir::Operation *op);

  /// Multiply-adds per image of the contractions seen (loops with a reduction).
  uint64_t work = 0;

private:
  /// An index a N + b of the batch extent N (N >= 0).
  struct Affine {
    int64_t a = 0, b = 0;
    bool operator==(const Affine &other) const { return a == other.a && b == other.b; }
    int64_t at(int64_t n) const { return a * n + b; }
  };
  /// A comparison `d(N) pred 0` of an affine difference with zero.
  struct Condition {
    mlir::arith::CmpIPredicate predicate;
    Affine difference;
    bool at(int64_t n) const;
    /// Past this N the truth no longer changes (a linear difference changes sign once).
    int64_t turn() const;
    /// The truth for every N >= 0, when it is the same for all.
    std::optional<bool> constant() const;
  };

  bool isInvariant(mlir::Value v) const;
  bool isInvariant(mlir::OpFoldResult r) const;
  std::optional<Affine> affine(mlir::Value v) const;
  std::optional<Affine> affine(mlir::OpFoldResult r) const;
  /// F when `r` is the index F N (F >= 1): the extent of a batch dim of factor F.
  std::optional<int64_t> batchExtentFactor(mlir::OpFoldResult r) const;
  /// Whether every value that `op`'s regions use but do not define does not depend on the
  /// batch.
  bool capturesOnlyInvariants(mlir::Operation *op) const;

  bool visitLinalg(mlir::linalg::LinalgOp op);
  bool bodyKeepsImages(mlir::linalg::LinalgOp op, std::optional<unsigned> loop,
                       int64_t factor) const;
  bool isHarmlessClamp(mlir::Operation *op, int64_t factor) const;
  bool visitPad(mlir::tensor::PadOp op);
  bool visitCollapse(mlir::tensor::CollapseShapeOp op);
  bool visitExpand(mlir::tensor::ExpandShapeOp op);
  bool visitSlice(mlir::OffsetSizeAndStrideOpInterface op, mlir::Value source,
                  mlir::Value result, std::optional<Batched> dest);
  bool visitReshape(mlir::tensor::ReshapeOp op);
  bool visitEmpty(mlir::tensor::EmptyOp op);
  bool visitAttention(kernel::AttentionOp op);
  bool visitIndexArithmetic(mlir::Operation *op);
  /// The form of `cond ? x : y` for every N >= 0, if it has one.
  bool select(mlir::Value result, const Condition &cond, mlir::Value x, mlir::Value y);

  llvm::DenseMap<mlir::Value, Batched> tensors;
  llvm::DenseMap<mlir::Value, Affine> forms;
  llvm::DenseMap<mlir::Value, Condition> conditions;
  /// Index values that depend on N in a way not tracked: only index arithmetic reads them.
  llvm::DenseSet<mlir::Value> opaque;
  /// Shape tensors whose first element is F N and the rest invariant, with F.
  llvm::DenseMap<mlir::Value, int64_t> leadingShapes;
};

} // namespace tcc

#endif // TCC_LIB_CODEGEN_BATCHPROOF_H
