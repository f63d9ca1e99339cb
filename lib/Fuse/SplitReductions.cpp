//===- SplitReductions.cpp - long contractions over few output tiles split along k ------===//
//
// A GPU computes a contraction in block tiles, one block per tile of outputs: a matmul of
// 4096 x 256 outputs over a reduction of 1024 has 64 tiles of 128 x 128 for 132 SMs, and
// each block walks the whole reduction. Split in S slices of the reduction, the same work
// is S times as many blocks, each walking K / S:
//
//   P[s, m, n] = sum_{k' < K/S} A[m, s, k'] B[s, k', n]      (a batch dim s; A and B are
//                                                            viewed as [M, S, K/S], [S, K/S, N])
//   C[m, n]    = init[m, n] + P[0, m, n] + P[1, m, n] + ... + P[S-1, m, n]
//
// The second line is elementwise (one read of each partial per output, in a fixed order:
// every run sums alike), so elementwise fusion merges it with the contraction's epilogue
// (bias, activation, residual), and the partials are one workspace buffer S times the
// output. S is the largest power of two up to `max-splits` that leaves slices of at least
// `slice` (and a multiple of 4: 16-byte loads). Only contractions whose columns (the output
// dims only the second input reads) are static and at most `max-columns` are split: with
// more columns there are tiles enough.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Fuse/Passes.h"
#include "tcc/Support/LinalgBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace tcc {
#define GEN_PASS_DEF_SPLITREDUCTIONS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Outputs from which a static contraction is block-tiled on a GPU (tcc-gpu-linalg-to-loops:
/// fewer take split lanes, which need no split).
constexpr int64_t kMinTiledOutputs = 1 << 18;

struct SplitReductionsPass : tcc::impl::SplitReductionsBase<SplitReductionsPass> {
  using SplitReductionsBase::SplitReductionsBase;

  void runOnOperation() override {
    if (slice <= 0 || maxSplits < 2)
      return;
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) { candidates.push_back(op); });
    for (linalg::LinalgOp op : candidates)
      if (int64_t splits = splitsOf(op); splits > 1)
        split(op, splits);
  }

  /// How many slices `op`'s reduction is split into (1: not split).
  int64_t splitsOf(linalg::LinalgOp op) const {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() != 1 || !tcc::isMultiplyAdd(op) || op.hasIndexSemantics() ||
        op->getNumRegions() != 1 || op->getNumResults() != 1 ||
        !getElementTypeOrSelf(op->getResult(0).getType()).isF32())
      return 1;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<unsigned> reductions;
    op.getReductionDims(reductions);
    int64_t depth = ranges[reductions.front()];
    if (ShapedType::isDynamic(depth))
      return 1;
    AffineMap x = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
    AffineMap y = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (!out.isProjectedPermutation())
      return 1;
    // Each input reads the reduction as one dim of its own (split as a view).
    AffineExpr reduction = getAffineDimExpr(reductions.front(), op.getContext());
    for (AffineMap map : {x, y})
      if (llvm::count_if(map.getResults(),
                         [&](AffineExpr e) { return e.isFunctionOfDim(reductions.front()); }) !=
              1 ||
          !map.getResultPosition(reduction))
        return 1;
    // Rows (dims X reads and Y does not) and columns (Y and not X): both must exist.
    int64_t columns = 1, rows = 0, outputs = 1;
    bool dynamicOutputs = false;
    for (AffineExpr e : out.getResults()) {
      unsigned d = cast<AffineDimExpr>(e).getPosition();
      bool inX = x.isFunctionOfDim(d), inY = y.isFunctionOfDim(d);
      if (ShapedType::isDynamic(ranges[d]))
        dynamicOutputs = true;
      else
        outputs *= ranges[d];
      if (inY && !inX) {
        if (ShapedType::isDynamic(ranges[d]))
          return 1;
        columns *= ranges[d];
      } else if (inX && !inY) {
        ++rows;
      }
    }
    if (rows == 0 || columns > maxColumns || (!dynamicOutputs && outputs < kMinTiledOutputs))
      return 1;
    int64_t splits = 1;
    while (splits * 2 <= maxSplits && depth % (splits * 2 * 4) == 0 &&
           depth / (splits * 2) >= slice)
      splits *= 2;
    return splits;
  }

  void split(linalg::LinalgOp op, int64_t splits) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    MLIRContext *ctx = b.getContext();
    SmallVector<unsigned> reductions;
    op.getReductionDims(reductions);
    unsigned k = reductions.front();
    int64_t depth = op.getStaticLoopRanges()[k];
    int64_t part = depth / splits;
    unsigned loops = op.getNumLoops();
    // The partials' loops: s first, then the op's (k ranging over one slice). Each input's
    // k dim becomes two, [S, K / S] (a view: tensor.expand_shape), read as (s, k).
    AffineExpr s = getAffineDimExpr(0, ctx);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      int64_t position = *map.getResultPosition(getAffineDimExpr(k, ctx));
      SmallVector<AffineExpr> results;
      SmallVector<ReassociationIndices> groups;
      SmallVector<OpFoldResult> shape = tensor::getMixedSizes(b, loc, input->get());
      SmallVector<OpFoldResult> expanded;
      for (auto [i, e] : llvm::enumerate(map.getResults())) {
        int64_t next = results.size();
        if (int64_t(i) == position) {
          results.push_back(s);
          results.push_back(e.shiftDims(loops, 1));
          groups.push_back({next, next + 1});
          expanded.push_back(b.getIndexAttr(splits));
          expanded.push_back(b.getIndexAttr(part));
        } else {
          results.push_back(e.shiftDims(loops, 1));
          groups.push_back({next});
          expanded.push_back(shape[i]);
        }
      }
      auto type = cast<RankedTensorType>(input->get().getType());
      auto expandedType =
          RankedTensorType::get(decomposeMixedValues(expanded).first, type.getElementType());
      inputs.push_back(
          tensor::ExpandShapeOp::create(b, loc, expandedType, input->get(), groups, expanded));
      maps.push_back(AffineMap::get(loops + 1, 0, results, ctx));
    }
    AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    SmallVector<AffineExpr> partialResults{s};
    for (AffineExpr e : outMap.getResults())
      partialResults.push_back(e.shiftDims(loops, 1));
    maps.push_back(AffineMap::get(loops + 1, 0, partialResults, ctx));
    SmallVector<utils::IteratorType> iterators{utils::IteratorType::parallel};
    llvm::append_range(iterators, op.getIteratorTypesArray());

    // The partials: [S, output dims...], zero-filled.
    Value init = op.getDpsInitOperand(0)->get();
    auto fill = init.getDefiningOp<linalg::FillOp>();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<OpFoldResult> outputSizes =
        tensor::getMixedSizes(b, loc, fill ? fill.getDpsInitOperand(0)->get() : init);
    SmallVector<OpFoldResult> sizes{b.getIndexAttr(splits)};
    llvm::append_range(sizes, outputSizes);
    Value empty = tensor::EmptyOp::create(b, loc, sizes, resultType.getElementType());
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value zeros = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
    auto partial = linalg::GenericOp::create(b, loc, zeros.getType(), inputs, ValueRange{zeros},
                                             maps, iterators);
    IRMapping mapping;
    op->getRegion(0).cloneInto(&partial.getRegion(), mapping);
    partial->setDiscardableAttrs(op->getDiscardableAttrDictionary());

    // The sum of the partials, elementwise over the output: the init (a fill's value, else
    // the tensor) first, then the slices in order.
    unsigned rank = resultType.getRank();
    SmallVector<Value> sumInputs;
    SmallVector<AffineMap> sumMaps;
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    std::optional<Value> start;
    if (fill) {
      if (!matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
        start = fill.getInputs()[0];
    } else {
      sumInputs.push_back(init);
      sumMaps.push_back(identity);
    }
    for (int64_t i = 0; i < splits; ++i) {
      SmallVector<AffineExpr> results{getAffineConstantExpr(i, ctx)};
      llvm::append_range(results, identity.getResults());
      sumInputs.push_back(partial.getResult(0));
      sumMaps.push_back(AffineMap::get(rank, 0, results, ctx));
    }
    Value output = tensor::EmptyOp::create(b, loc, outputSizes, resultType.getElementType());
    sumMaps.push_back(identity);
    SmallVector<utils::IteratorType> parallel(rank, utils::IteratorType::parallel);
    auto sum = linalg::GenericOp::create(
        b, loc, resultType, sumInputs, ValueRange{output}, sumMaps, parallel,
        [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
          Value acc = start ? *start : args[0];
          for (Value v : args.drop_front(start ? 0 : 1).drop_back())
            acc = arith::AddFOp::create(nested, nestedLoc, acc, v);
          linalg::YieldOp::create(nested, nestedLoc, acc);
        });
    op->getResult(0).replaceAllUsesWith(sum.getResult(0));
    op->erase();
    if (fill && fill->use_empty())
      fill.erase();
  }
};

} // namespace
