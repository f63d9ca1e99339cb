//===- FoldScales.cpp - per-channel scales of a contraction's input moved into its weights -===//
//
// A squeeze-excitation block scales a feature map per image and channel, then a 1x1
// convolution contracts over those channels:
//
//   y[n,o,h,w] = sum_c W[o,c] (s[n,c] x[n,c,h,w])  =  sum_c (W[o,c] s[n,c]) x[n,c,h,w]
//
// The scaled map is a full pass over memory (n c h w products, written and read back); the
// scaled weights W'[n,o,c] = W[o,c] s[n,c] take n o c products. When the scale reads no dim
// of the map that the weights do not (it is constant over h and w) and the weights are the
// smaller side (o < h w), the contraction reads x and W' instead.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"
#include "tcc/Support/LinalgBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_FOLDSCALES
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// For an all-parallel `yield in0 * in1`, the input operand with the identity map (the map)
/// and the other one (the scale).
std::optional<std::pair<OpOperand *, OpOperand *>> scaledMap(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      op.getBody()->getOperations().size() != 2)
    return std::nullopt;
  auto mul = cast<linalg::YieldOp>(op.getBody()->getTerminator()).getOperand(0).getDefiningOp<arith::MulFOp>();
  Block *body = op.getBody();
  if (!mul || !((mul.getLhs() == body->getArgument(0) && mul.getRhs() == body->getArgument(1)) ||
                (mul.getLhs() == body->getArgument(1) && mul.getRhs() == body->getArgument(0))))
    return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isIdentity())
    return std::nullopt;
  for (unsigned k = 0; k < 2; ++k) {
    OpOperand *map = op.getDpsInputOperand(k), *scale = op.getDpsInputOperand(1 - k);
    if (op.getMatchingIndexingMap(map).isIdentity() && map->get().getType() == op.getResult(0).getType())
      return std::make_pair(map, scale);
  }
  return std::nullopt;
}

/// The dims `map`'s results read.
llvm::SmallBitVector dimsRead(AffineMap map) {
  llvm::SmallBitVector dims(map.getNumDims());
  for (AffineExpr e : map.getResults())
    e.walk([&](AffineExpr inner) {
      if (auto d = dyn_cast<AffineDimExpr>(inner))
        dims.set(d.getPosition());
    });
  return dims;
}

struct FoldScaleIntoWeights : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op, PatternRewriter &rewriter) const override {
    if (!tcc::isMultiplyAdd(op) || !op.hasPureTensorSemantics())
      return failure();
    for (unsigned k = 0; k < 2; ++k) {
      OpOperand *scaledOperand = op.getDpsInputOperand(k), *weights = op.getDpsInputOperand(1 - k);
      auto producer = scaledOperand->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !producer->hasOneUse())
        continue;
      std::optional<std::pair<OpOperand *, OpOperand *>> parts = scaledMap(producer);
      if (!parts)
        continue;
      OpOperand *mapOperand = parts->first, *scaleOperand = parts->second;
      // Everything in the contraction's dims.
      AffineMap mapAccess = op.getMatchingIndexingMap(scaledOperand);
      AffineMap scaleAccess = producer.getMatchingIndexingMap(scaleOperand).compose(mapAccess);
      AffineMap weightAccess = op.getMatchingIndexingMap(weights);
      if (!weightAccess.isProjectedPermutation())
        continue;
      llvm::SmallBitVector mapDims = dimsRead(mapAccess), weightDims = dimsRead(weightAccess),
                          scaleDims = dimsRead(scaleAccess);
      // Scaled weights are indexed by the weights' dims and the scale's: those the map
      // does not read (o) must not outnumber those only the map reads (h w; a scale that
      // varies along them keeps them in the scaled weights, which are then no smaller).
      llvm::SmallBitVector scaled = weightDims;
      scaled |= scaleDims;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      int64_t added = 1, saved = 1;
      bool dynamic = false;
      for (unsigned d = 0; d < ranges.size(); ++d) {
        bool inScaled = scaled.test(d), inMap = mapDims.test(d);
        if (inScaled == inMap)
          continue;
        if (ShapedType::isDynamic(ranges[d])) {
          dynamic = true;
          break;
        }
        (inScaled ? added : saved) *= ranges[d];
      }
      // Strictly fewer: with equal sizes (self-attention's scaled q against k) the scale
      // would move back and forth between the operands.
      if (dynamic || added >= saved)
        continue;

      // W'[the scale's own dims (n), in the contraction's order, then W's dims in W's
      // order] = W * s: W's layout stays the inner one (a blocked convolution's filter
      // keeps its 16 output channels last, the vectors the tiler loads).
      Location loc = rewriter.getFusedLoc({producer.getLoc(), op.getLoc()});
      SmallVector<unsigned> dims;
      for (unsigned d = 0; d < ranges.size(); ++d)
        if (scaled.test(d) && !weightDims.test(d))
          dims.push_back(d);
      for (AffineExpr e : weightAccess.getResults())
        dims.push_back(cast<AffineDimExpr>(e).getPosition());
      // The sizes from the operands the contraction keeps (not the scaled map, which goes).
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[scaledOperand->getOperandNumber()] = producer.getMatchingIndexingMap(mapOperand).compose(mapAccess);
      rewriter.modifyOpInPlace(op, [&] { scaledOperand->set(mapOperand->get()); });
      SmallVector<Range> loops = cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(rewriter, op.getLoc());
      SmallVector<OpFoldResult> sizes;
      for (unsigned d : dims)
        sizes.push_back(loops[d].size);
      Type element = getElementTypeOrSelf(weights->get().getType());
      Value empty = tensor::EmptyOp::create(rewriter, loc, sizes, element);
      MLIRContext *ctx = rewriter.getContext();
      // From the contraction's dims to W''s: dim dims[i] -> i.
      SmallVector<AffineExpr> replacements(ranges.size(), getAffineConstantExpr(0, ctx));
      for (auto [i, d] : llvm::enumerate(dims))
        replacements[d] = getAffineDimExpr(i, ctx);
      auto restrict = [&](AffineMap map) {
        return map.replaceDimsAndSymbols(replacements, {}, dims.size(), 0);
      };
      AffineMap identity = AffineMap::getMultiDimIdentityMap(dims.size(), ctx);
      SmallVector<utils::IteratorType> parallel(dims.size(), utils::IteratorType::parallel);
      auto scaledWeights = linalg::GenericOp::create(
          rewriter, loc, empty.getType(), ValueRange{weights->get(), scaleOperand->get()}, ValueRange{empty},
          ArrayRef<AffineMap>{restrict(weightAccess), restrict(scaleAccess), identity}, parallel,
          [](OpBuilder &b, Location l, ValueRange args) {
            linalg::YieldOp::create(b, l, ValueRange{arith::MulFOp::create(b, l, args[0], args[1]).getResult()});
          });
      // W' as the contraction's weights: read at the scaled dims.
      SmallVector<AffineExpr> results;
      for (unsigned d : dims)
        results.push_back(getAffineDimExpr(d, ctx));
      AffineMap scaledAccess = AffineMap::get(ranges.size(), 0, results, ctx);
      maps[weights->getOperandNumber()] = scaledAccess;
      rewriter.modifyOpInPlace(op, [&] {
        weights->set(scaledWeights.getResult(0));
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }
};

struct FoldScalesPass : tcc::impl::FoldScalesBase<FoldScalesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldScaleIntoWeights>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
