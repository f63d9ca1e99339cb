//===- LowerShapes.cpp - prim.dim -> tensor.dim, prim.loop -> scf.for --------------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// prim.loop -> scf.for over [0, count) with the carried values as iter_args (the body moves
/// over; its prim.yield becomes scf.yield).
struct LoopToFor : OpRewritePattern<prim::LoopOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::LoopOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(rewriter, loc, zero, op.getCount(), one, op.getInits());
    // Carried values keep their extents (prim.loop's semantics): later stages resolve dims
    // of the iteration arguments and results to the inits' (tcc-entry-signature).
    loop->setAttr(prim::PrimDialect::kInvariantExtentsAttrName, rewriter.getUnitAttr());
    rewriter.eraseBlock(loop.getBody());
    rewriter.inlineRegionBefore(op.getBody(), loop.getRegion(), loop.getRegion().end());
    // ... and the body's yield states it for dynamic extents, checked at run time.
    Block *body = loop.getBody();
    rewriter.setInsertionPoint(body->getTerminator());
    for (auto [k, init] : llvm::enumerate(op.getInits())) {
      auto type = cast<RankedTensorType>(init.getType());
      Value yielded = body->getTerminator()->getOperand(k);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d))
          continue;
        Value same = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, tensor::DimOp::create(rewriter, loc, yielded, d),
            tensor::DimOp::create(rewriter, loc, init, d));
        prim::CheckOp::create(rewriter, loc, same,
                              rewriter.getStringAttr("a loop-carried value changed its extent"));
      }
    }
    // A while loop's condition (exit_unless): read first in every iteration; tcc-loop-exits
    // makes the loop stop when it is false.
    if (std::optional<int64_t> k = op.getExitUnless()) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(body);
      Value flag = tensor::ExtractOp::create(rewriter, loc, body->getArgument(*k + 1),
                                             ValueRange{});
      prim::ExitUnlessOp::create(rewriter, loc, flag);
    }
    // Each next value is copied into its iteration argument, so the loop updates its carried
    // buffers in place (bufferization requires yields equivalent to the iteration arguments).
    Operation *yield = body->getTerminator();
    for (unsigned k = 0; k < yield->getNumOperands(); ++k) {
      Value next = yield->getOperand(k);
      Value carried = body->getArgument(k + 1);
      if (next == carried)
        continue;
      Value copied = linalg::CopyOp::create(rewriter, loc, next, carried).getResult(0);
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(k, copied); });
    }
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct YieldToScf : OpRewritePattern<prim::YieldOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::YieldOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, op.getValues());
    return success();
  }
};
} // namespace

void lower::populateShapeLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<DimToTensorDim, LoopToFor, YieldToScf>(patterns.getContext());
}
