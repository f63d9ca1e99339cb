//===- FuseElementwise.cpp - pointwise producers merged into their consumers -----------===//
#include "tcc/Fuse/Passes.h"

#include "dialects/prim/PrimDialect.h"
#include "tcc/Support/LinalgBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The number of arithmetic ops of `op`'s body, or -1 when it has others (math, divisions).
int64_t arithmeticOps(linalg::GenericOp op) {
  int64_t count = 0;
  for (Operation &inner : op.getBody()->without_terminator()) {
    if (inner.getDialect()->getNamespace() != arith::ArithDialect::getDialectNamespace())
      return -1;
    if (isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
            arith::RemUIOp>(inner))
      return -1;
    ++count;
  }
  return count;
}

/// Whether recomputing `op` once per user costs less than storing its result and reading it
/// back: data movement (broadcasts, transpositions, copies), or one arithmetic op (a bias
/// add, a cast) on values that are stored anyway (not made by other pointwise ops). Without
/// that last condition recomputation cascades: LayerNorm's chain of one-op steps, and through
/// it the residual stream, would be recomputed by every later layer.
bool isCheap(linalg::GenericOp op) {
  // A runtime call (a string primitive's element) is never cheap: it may allocate, and a
  // stopword lookup scans its whole set.
  if (!op.getBody()->getOps<tcc::prim::RuntimeCallOp>().empty())
    return false;
  int64_t count = arithmeticOps(op);
  if (count == 0)
    return true;
  if (count != 1)
    return false;
  return llvm::none_of(op.getDpsInputs(), [](Value input) {
    auto producer = input.getDefiningOp<linalg::GenericOp>();
    return producer && producer.getNumReductionLoops() == 0 && arithmeticOps(producer) != 0;
  });
}

/// Whether `op` converts 8-bit integers to float32 and does nothing else
/// (tcc::convertedByte), one input read as it writes.
bool isByteToFloat(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0 ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block *body = op.getBody();
  Value result = cast<linalg::YieldOp>(body->getTerminator()).getOperand(0);
  std::optional<std::pair<BlockArgument, bool>> byte = tcc::convertedByte(result);
  // The conversion (and its extension, if any) is the whole body.
  size_t conversions = body->getOperations().size() - 1;
  Operation *convert = result.getDefiningOp();
  return byte && byte->first == body->getArgument(0) && result.getType().isF32() &&
         conversions == (convert->getOperand(0) == byte->first ? 1u : 2u);
}

/// With `byte-operands`: a conversion of bytes to float32 read by a float multiply-add
/// contraction alone is fused into it (the CPU tiler converts the bytes it loads,
/// tcc::byteMultiplyAdd): a quantized depthwise convolution reads its input's bytes.
bool fusesIntoContraction(OpOperand *use) {
  auto producer = use->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(use->getOwner());
  return producer && consumer && producer->hasOneUse() && consumer.isDpsInput(use) &&
         tcc::isMultiplyAdd(consumer) && isByteToFloat(producer);
}

bool shouldFuse(OpOperand *use, bool byteOperands) {
  auto producer = use->get().getDefiningOp<linalg::GenericOp>();
  auto consumer = dyn_cast<linalg::GenericOp>(use->getOwner());
  if (consumer && tcc::accumulatesProducts(consumer))
    return byteOperands && fusesIntoContraction(use);
  if (!producer || !consumer)
    return false;
  // Recomputed per user, a cheap producer must not make the consumer's body grow without
  // bound (x*x of x*x of ... would double it at each level).
  if (isCheap(producer) && !producer->hasOneUse()) {
    // Not a contraction's epilogue (a convolution's bias add): recomputed by a consumer it
    // would make the contraction's raw result a second reader's input, and kernel formation
    // could no longer apply it in registers; stored once, every consumer reads it.
    for (Value input : producer.getDpsInputs())
      if (auto source = input.getDefiningOp<linalg::LinalgOp>();
          source && source.getNumReductionLoops() > 0 && input.hasOneUse())
        return false;
    // A producer whose body is its yield alone (a broadcast, a transposition, a constant
    // fill) adds nothing to the consumer's body: always fused, whatever the consumer's size
    // (a quantized GELU's epilogue reads five broadcast scalars).
    size_t producerOps = producer.getBody()->getOperations().size();
    return producerOps == 1 || consumer.getBody()->getOperations().size() + producerOps <= 24;
  }
  // Fused, the producer runs once per point of the consumer: not when the consumer
  // broadcasts its result (a squeeze-excitation's sigmoid over channels would run per pixel).
  return producer->hasOneUse() && consumer.getMatchingIndexingMap(use).isPermutation();
}

/// A value computed from constants alone and cheap to read again: a constant, or a
/// broadcast (a body that only yields) of constants — a zero point made full-size.
bool isConstantLike(Value v) {
  if (v.getDefiningOp<arith::ConstantOp>())
    return true;
  auto producer = v.getDefiningOp<linalg::GenericOp>();
  return producer && producer.getBody()->getOperations().size() == 1 &&
         llvm::all_of(producer.getDpsInputs(),
                      [](Value input) { return input.getDefiningOp<arith::ConstantOp>(); });
}

/// The input that `op` widens, when `op` is a widening step: every loop parallel, its body
/// extensions and conversions of that input (read as it writes: the identity map) and
/// additions or subtractions of constant-like values (a zero point), its result elements
/// at least as wide as the input's.
Value wideningStepInput(linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1 || op->getNumResults() != 1)
    return {};
  Value data;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (isConstantLike(input->get()))
      continue;
    if (data || !op.getMatchingIndexingMap(input).isIdentity())
      return {};
    data = input->get();
  }
  if (!data)
    return {};
  for (Operation &inner : op.getBody()->without_terminator())
    if (!isa<arith::ExtUIOp, arith::ExtSIOp, arith::UIToFPOp, arith::SIToFPOp, arith::ExtFOp,
             arith::AddIOp, arith::SubIOp, arith::AddFOp, arith::SubFOp>(inner))
      return {};
  auto width = [](Value v) { return getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth(); };
  if (!getElementTypeOrSelf(data.getType()).isIntOrFloat() || width(op->getResult(0)) < width(data))
    return {};
  return data;
}

/// A widened narrow value read by several pointwise ops or reductions (a quantized
/// activation's q - z, read by a squeeze-excitation's average pooling and its scale
/// multiply): the widening steps are copied for each reader but the first, so that each
/// reader fuses its own copy and the producer of the narrow q (a convolution's epilogue)
/// stores bytes, not the int32 or float32 values a quarter as dense. Not where a reader is a
/// contraction, which would store its copy's wide values again.
void copyWideningsPerReader(ModuleOp module) {
  SmallVector<linalg::GenericOp> tops;
  module.walk([&](linalg::GenericOp op) {
    if (wideningStepInput(op) && !op->getResult(0).hasOneUse())
      tops.push_back(op);
  });
  for (linalg::GenericOp top : tops) {
    // The steps down to the narrow input: each read by the next one alone.
    SmallVector<linalg::GenericOp> steps{top};
    Value source = wideningStepInput(top);
    while (auto step = source.getDefiningOp<linalg::GenericOp>()) {
      if (!step->hasOneUse() || !wideningStepInput(step))
        break;
      steps.push_back(step);
      source = wideningStepInput(step);
    }
    auto narrow = dyn_cast<IntegerType>(getElementTypeOrSelf(source.getType()));
    if (!narrow || narrow.getWidth() > 16 ||
        getElementTypeOrSelf(top->getResult(0).getType()).getIntOrFloatBitWidth() <=
            narrow.getWidth())
      continue;
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : top->getResult(0).getUses())
      uses.push_back(&use);
    if (!llvm::all_of(uses, [](OpOperand *use) {
          auto reader = dyn_cast<linalg::GenericOp>(use->getOwner());
          return reader && reader.isDpsInput(use) && !tcc::accumulatesProducts(reader);
        }))
      continue;
    for (OpOperand *use : llvm::drop_begin(uses)) {
      OpBuilder b(use->getOwner());
      IRMapping mapping;
      Operation *copy = nullptr;
      for (linalg::GenericOp step : llvm::reverse(steps))
        copy = b.clone(*step, mapping);
      use->set(copy->getResult(0));
    }
  }
}

/// Merges one fusable producer into a consumer; the fused op's location lists both ONNX
/// nodes (the kernel's name takes the consumer's, in front).
struct FuseProducer : OpRewritePattern<linalg::GenericOp> {
  FuseProducer(MLIRContext *context, bool byteOperands)
      : OpRewritePattern(context), byteOperands(byteOperands) {}
  bool byteOperands;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      if (!linalg::areElementwiseOpsFusable(&operand) || !shouldFuse(&operand, byteOperands))
        continue;
      Operation *producer = operand.get().getDefiningOp();
      Location loc = rewriter.getFusedLoc({consumer.getLoc(), producer->getLoc()});
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        return failure();
      fused->fusedOp->setLoc(loc);
      // The consumer's results are replaced; the producer stays for its other users (some
      // may come before the fused op) and goes once it has none.
      for (auto [original, replacement] : fused->replacements)
        if (original.getDefiningOp() != producer)
          rewriter.replaceAllUsesWith(original, replacement);
      rewriter.eraseOp(consumer);
      return success();
    }
    return failure();
  }
};

/// A splat constant input (Clip's bounds after their broadcast fused in, as 0-d tensors)
/// becomes a scalar constant in the body: kernels then see the value (a max with 0 needs
/// no NaN handling for the constant side) instead of loading it from a buffer.
struct SplatInputToScalar : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op, PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto constant = input->get().getDefiningOp<arith::ConstantOp>();
      auto splat = constant ? dyn_cast<SplatElementsAttr>(constant.getValue()) : nullptr;
      BlockArgument arg = op.getMatchingBlockArgument(input);
      if (!splat || arg.use_empty() || !splat.getElementType().isIntOrFloat())
        continue;
      rewriter.setInsertionPointToStart(op.getBody());
      Value scalar =
          arith::ConstantOp::create(rewriter, op.getLoc(), splat.getSplatValue<TypedAttr>());
      rewriter.replaceAllUsesWith(arg, scalar);
      return success();
    }
    return failure();
  }
};

/// A reshape between a contraction's result (or its bias add) and the elementwise op that
/// reads it (GPT-2's Conv1D: addmm on [B*S, N], then a view as [B, S, N] for GELU) is folded
/// into that op by collapsing its loops, so that the op can become the contraction's
/// epilogue; other reshapes stay where they are.
bool foldsReshapeOfContraction(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::GenericOp>(operand->getOwner());
  if (!consumer || consumer.getNumReductionLoops() != 0)
    return false;
  auto reshape = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
  // Read by this op alone (its extents aside).
  if (!reshape || llvm::any_of(reshape->getUsers(), [&](Operation *user) {
        return user != consumer && !isa<tensor::DimOp>(user);
      }))
    return false;
  auto source = reshape.getSrc().getDefiningOp<linalg::LinalgOp>();
  if (!source || tcc::accumulatesProducts(source))
    return bool(source);
  // The contraction's epilogue so far (a bias add), read by the reshape alone.
  return source.getNumReductionLoops() == 0 && source->hasOneUse() &&
         llvm::any_of(source.getDpsInputs(), [](Value input) {
           auto op = input.getDefiningOp<linalg::LinalgOp>();
           return op && tcc::accumulatesProducts(op) && input.hasOneUse();
         });
}

/// An extent of an expanded tensor is one of the expansion's sizes: once a reshape's other
/// reader folded it (foldsReshapeOfContraction), reading its extents keeps it alive no more,
/// and its source has one reader left.
struct ExpandedExtent : OpRewritePattern<tensor::DimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::DimOp dim, PatternRewriter &rewriter) const override {
    auto expand = dim.getSource().getDefiningOp<tensor::ExpandShapeOp>();
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!expand || !index || *index < 0 || *index >= expand.getResultType().getRank())
      return failure();
    OpFoldResult size = expand.getMixedOutputShape()[*index];
    rewriter.replaceOp(dim, getValueOrCreateConstantIndexOp(rewriter, dim.getLoc(), size));
    return success();
  }
};

struct FuseElementwisePass : tcc::impl::FuseElementwiseBase<FuseElementwisePass> {
  using FuseElementwiseBase::FuseElementwiseBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    copyWideningsPerReader(getOperation());
    RewritePatternSet patterns(context);
    patterns.add<FuseProducer>(context, byteOperands);
    patterns.add<SplatInputToScalar>(context);
    linalg::populateFoldReshapeOpsByCollapsingPatterns(patterns, foldsReshapeOfContraction);
    patterns.add<ExpandedExtent>(context);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
    // Each round fuses along the whole graph; long chains (unrolled pooling windows) may need
    // more rounds than the default. Stopping early leaves valid, less fused IR.
    GreedyRewriteConfig config;
    config.setMaxIterations(64);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
