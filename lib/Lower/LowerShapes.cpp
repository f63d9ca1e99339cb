//===- LowerShapes.cpp - prim.dim -> tensor.dim ---------------------------------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc;

namespace {
struct DimToTensorDim : OpRewritePattern<prim::DimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::DimOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::DimOp>(op, op.getOperand(),
                                               static_cast<int64_t>(op.getIndex()));
    return success();
  }
};
} // namespace

void lower::populateShapeLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<DimToTensorDim>(patterns.getContext());
}
