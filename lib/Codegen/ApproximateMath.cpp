//===- ApproximateMath.cpp - no libm: polynomial approximations and expansions ----------===//
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace tcc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Ops that become instructions, not library calls, at any precision.
bool isInstruction(Operation *op) {
  return isa<math::SqrtOp, math::AbsFOp, math::AbsIOp, math::FloorOp, math::CeilOp,
             math::RoundEvenOp, math::FmaOp, math::CtPopOp, math::CopySignOp, math::IPowIOp,
             math::FPowIOp, math::RsqrtOp, math::TruncOp, math::RoundOp>(op);
}

/// f64 transcendental ops have no polynomial approximation upstream: compute them in f32
/// (relative error about 1e-7 instead of 1e-16; documented in docs/design-differences.md, "Math").
struct F64ThroughF32 : RewritePattern {
  F64ThroughF32(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), 1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<math::MathDialect>(op->getDialect()) || isInstruction(op) ||
        op->getNumResults() != 1 || !op->getResult(0).getType().isF64() ||
        !llvm::all_of(op->getOperandTypes(), [](Type t) { return t.isF64(); }))
      return failure();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(arith::TruncFOp::create(rewriter, op->getLoc(), f32, v));
    OperationState state(op->getLoc(), op->getName(), operands, TypeRange{f32}, op->getAttrs());
    Operation *narrow = rewriter.create(state);
    rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, rewriter.getF64Type(), narrow->getResult(0));
    return success();
  }
};

/// powf(x, y) with IEEE's signs: exp(y log |x|) (upstream's expansion), negated for x < 0
/// and an odd integer y, NaN for x < 0 and a non-integer y, and 1 for y = 0.
/// Rewrites scalar `op` so; the magnitude is a new powf of |x|, left for the expansion.
void expandSignedPow(RewriterBase &rewriter, math::PowFOp op) {
  Location loc = op.getLoc();
  Value x = op.getLhs(), y = op.getRhs();
  Type type = op.getType();
  auto constant = [&](double v) {
    return arith::ConstantOp::create(rewriter, loc, type,
                                     rewriter.getFloatAttr(getElementTypeOrSelf(type), v))
        .getResult();
  };
  rewriter.setInsertionPoint(op);
  Value magnitude = math::PowFOp::create(rewriter, loc, math::AbsFOp::create(rewriter, loc, x), y);
  Value zero = constant(0.0), one = constant(1.0), two = constant(2.0);
  Value isInteger = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ,
                                          math::FloorOp::create(rewriter, loc, y), y);
  // y - 2 floor(y / 2) == 1
  Value half = math::FloorOp::create(rewriter, loc, arith::DivFOp::create(rewriter, loc, y, two));
  Value isOdd = arith::CmpFOp::create(
      rewriter, loc, arith::CmpFPredicate::OEQ,
      arith::SubFOp::create(rewriter, loc, y, arith::MulFOp::create(rewriter, loc, two, half)),
      one);
  Value negative = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, x, zero);
  Value nan = constant(std::numeric_limits<double>::quiet_NaN());
  Value signedResult = arith::SelectOp::create(
      rewriter, loc, isOdd, arith::NegFOp::create(rewriter, loc, magnitude), magnitude);
  Value forNegative = arith::SelectOp::create(rewriter, loc, isInteger, signedResult, nan);
  Value result = arith::SelectOp::create(rewriter, loc, negative, forNegative, magnitude);
  Value yZero = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ, y, zero);
  rewriter.replaceOpWithNewOp<arith::SelectOp>(op, yZero, one, result);
}

/// max/min with a constant that is not NaN (ReLU's 0, Clip's bounds): `x < c ? c : x`
/// (`x > c` for min) keeps a NaN x and is one vmaxps/vminps on x86, where arith.maximumf's
/// general lowering takes about four instructions (NaN of either side, -0 below +0; for
/// x = -0 and c = +0 this gives -0, the only difference).
template <typename Op, arith::CmpFPredicate Predicate>
struct ExtremumWithConstant : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op, PatternRewriter &rewriter) const override {
    for (unsigned k = 0; k < 2; ++k) {
      Value c = op->getOperand(k), x = op->getOperand(1 - k);
      Attribute attr;
      if (!matchPattern(c, m_Constant(&attr)))
        continue;
      FloatAttr value = dyn_cast<FloatAttr>(attr);
      if (auto splat = dyn_cast<SplatElementsAttr>(attr))
        value = dyn_cast<FloatAttr>(splat.getSplatValue<Attribute>());
      if (!value || value.getValue().isNaN())
        continue;
      Value beyond = arith::CmpFOp::create(rewriter, op.getLoc(), Predicate, x, c);
      rewriter.template replaceOpWithNewOp<arith::SelectOp>(op, beyond, c, x);
      return success();
    }
    return failure();
  }
};

} // namespace

LogicalResult tcc::approximateMath(Operation *root, bool instructionRounding) {
  // powf's expansion takes log(x): keep the sign of negative bases first, once per powf
  // of the input (collected before rewriting, so the powers of |x| it creates are not).
  {
    SmallVector<math::PowFOp> pows;
    root->walk([&](math::PowFOp op) {
      if (!isa<ShapedType>(op.getType())) // kernels are scalar here
        pows.push_back(op);
    });
    IRRewriter rewriter(root->getContext());
    for (math::PowFOp op : pows)
      expandSignedPow(rewriter, op);
  }
  // Then rewrite ops without an approximation into ones with one (sinh -> exp, ...).
  // Every expansion but fma's (into a multiply and an add, rounded twice): fma stays
  // one instruction, as in the approximations' own polynomials.
  {
    RewritePatternSet patterns(root->getContext());
    SmallVector<StringRef> expanded = {"ctlz",  "sinh",  "cosh",  "tan",   "tanh",
                                       "asinh", "acosh", "atanh", "ceil",  "exp2",
                                       "powf",  "fpowi", "round", "rsqrt", "clampf"};
    if (!instructionRounding)
      expanded.push_back("roundeven");
    math::populateExpansionPatterns(patterns, expanded);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return failure();
  }
  {
    RewritePatternSet patterns(root->getContext());
    patterns.add<F64ThroughF32>(root->getContext());
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return failure();
  }
  RewritePatternSet patterns(root->getContext());
  patterns.add<ExtremumWithConstant<arith::MaximumFOp, arith::CmpFPredicate::OLT>,
               ExtremumWithConstant<arith::MinimumFOp, arith::CmpFPredicate::OGT>>(
      root->getContext());
  // f16/bf16 math computes in f32; then every op with an approximation gets it.
  populateMathF32ExpansionPatterns(patterns, [](StringRef) { return true; });
  populateMathPolynomialApproximationPatterns(patterns, [](StringRef) { return true; });
  if (failed(applyPatternsGreedily(root, std::move(patterns))))
    return failure();
  return success();
}

namespace {
struct ApproximateMathPass : tcc::impl::ApproximateMathBase<ApproximateMathPass> {
  using ApproximateMathBase::ApproximateMathBase;

  void runOnOperation() override {
    if (failed(tcc::approximateMath(getOperation(), instructionRounding)))
      return signalPassFailure();
    // Whatever is left must lower to instructions, not library calls.
    WalkResult leftover = getOperation().walk([](Operation *op) {
      if (!isa<math::MathDialect>(op->getDialect()))
        return WalkResult::advance();
      if (isInstruction(op))
        return WalkResult::advance();
      op->emitError() << "no approximation of " << op->getName() << " without a math library";
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
