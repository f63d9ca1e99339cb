//===- ExpandCopies.cpp - memref.copy as memcpys or loops (no runtime library) -----------===//
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tcc {
#define GEN_PASS_DEF_EXPANDCOPIES
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The first dim from which `type` is a static, contiguous row-major block (strides the
/// products of the static sizes after them); `rank` when even the last dim is not.
int64_t contiguousFrom(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return type.getRank();
  int64_t expected = 1, from = type.getRank();
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (strides[d] != expected || ShapedType::isDynamic(type.getDimSize(d)))
      break;
    expected *= type.getDimSize(d);
    from = d;
  }
  return from;
}

/// A copy whose source and target are both contiguous from dim `from` on (a channel slice
/// of a concatenation, per image): a parallel loop over the dims before it, each step one
/// memcpy of the contiguous block (a 1-D view of it, which the LLVM lowering copies with
/// memcpy).
void copyBlocks(memref::CopyOp copy, int64_t from) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value source = copy.getSource(), target = copy.getTarget();
  auto type = cast<MemRefType>(source.getType());
  int64_t rank = type.getRank();
  // One block at `offsets` (the outer dims' indices).
  auto copyBlock = [&](OpBuilder &at, SmallVector<OpFoldResult> offsets) {
    offsets.resize(rank, at.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, at.getIndexAttr(1));
    for (int64_t k = 0; k < rank; ++k)
      sizes.push_back(k < from ? at.getIndexAttr(1) : at.getIndexAttr(type.getDimSize(k)));
    SmallVector<int64_t> blockShape(type.getShape().drop_front(from));
    ReassociationIndices all;
    for (int64_t k = 0; k < rank - from; ++k)
      all.push_back(k);
    auto block = [&](Value buffer) {
      auto view = memref::SubViewOp::create(
          at, loc,
          cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
              blockShape, cast<MemRefType>(buffer.getType()), offsets, sizes, strides)),
          buffer, offsets, sizes, strides);
      return memref::CollapseShapeOp::create(at, loc, view, SmallVector<ReassociationIndices>{all})
          .getResult();
    };
    memref::CopyOp::create(at, loc, block(source), block(target));
  };
  if (from == 0) {
    copyBlock(b, {});
  } else {
    // The outer dims as one parallel loop nest, which threads can split.
    SmallVector<Value> lower, upper, steps;
    for (int64_t d = 0; d < from; ++d) {
      lower.push_back(arith::ConstantIndexOp::create(b, loc, 0));
      upper.push_back(memref::DimOp::create(b, loc, source, d));
      steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    }
    scf::ParallelOp::create(b, loc, lower, upper, steps,
                            [&](OpBuilder &inner, Location, ValueRange ivs) {
                              SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
                              copyBlock(inner, offsets);
                            });
  }
  copy.erase();
}

struct ExpandCopiesPass : tcc::impl::ExpandCopiesBase<ExpandCopiesPass> {
  using ExpandCopiesBase::ExpandCopiesBase;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      // Between contiguous buffers a copy lowers to one memcpy (LLVM's intrinsic), faster
      // than a loop nest; only strided ones would call the runtime library.
      auto source = cast<MemRefType>(copy.getSource().getType());
      auto target = cast<MemRefType>(copy.getTarget().getType());
      if (!memcpy) {
        OpBuilder builder(copy);
        linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(), copy.getTarget());
        copy.erase();
        continue;
      }
      if (source.getLayout().isIdentity() && target.getLayout().isIdentity())
        continue;
      // Contiguous blocks of at least 256 elements in both: a memcpy per block. (Loops of
      // scalar moves otherwise: LLVM does not vectorize copies between buffers that may
      // alias.)
      int64_t from = std::max(contiguousFrom(source), contiguousFrom(target));
      int64_t block = 1;
      for (int64_t d = from; d < source.getRank(); ++d)
        block *= source.getDimSize(d);
      if (from < source.getRank() && block >= 256) {
        copyBlocks(copy, from);
        continue;
      }
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(), copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
