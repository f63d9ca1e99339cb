//===- SingleLaneStores.cpp - one-lane masked stores as scalar stores -------------------===//
//
// The description is in include/tcc/Target/CPU/Passes.td (tcc-cpu-single-lane-stores): a
// workaround for LLVM 22's x86 instruction selection, which stores a truncated vector under
// a constant mask of its first lane alone as the untruncated lane (a 4-byte vmovss for an
// i8 or i16 element), writing past the element.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_CPUSINGLELANESTORES
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Whether `mask` (1-D) is constant with its first lane set and no other.
bool isFirstLaneOnly(Value mask) {
  if (auto create = mask.getDefiningOp<vector::CreateMaskOp>())
    return create.getNumOperands() == 1 && getConstantIntValue(create.getOperand(0)) == 1;
  if (auto constant = mask.getDefiningOp<vector::ConstantMaskOp>())
    return constant.getMaskDimSizes().size() == 1 && constant.getMaskDimSizes()[0] == 1;
  return false;
}

/// vector.maskedstore of lane 0 alone -> memref.store of that lane.
struct SingleLaneStore : OpRewritePattern<vector::MaskedStoreOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::MaskedStoreOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getVectorType().getRank() != 1 || !isFirstLaneOnly(op.getMask()))
      return failure();
    Value lane = vector::ExtractOp::create(rewriter, op.getLoc(), op.getValueToStore(),
                                           ArrayRef<int64_t>{0});
    rewriter.replaceOpWithNewOp<memref::StoreOp>(op, lane, op.getBase(), op.getIndices());
    return success();
  }
};

struct CpuSingleLaneStoresPass : tcc::impl::CpuSingleLaneStoresBase<CpuSingleLaneStoresPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SingleLaneStore>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
