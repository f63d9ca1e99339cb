//===- ApproximateMath.cpp - no libm: polynomial approximations and expansions ----------===//
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {
struct ApproximateMathPass : tcc::impl::ApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    // First rewrite ops without an approximation into ones with one (sinh -> exp, ...).
    {
      RewritePatternSet patterns(&getContext());
      math::populateExpansionPatterns(patterns);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    // f16/bf16 math computes in f32; then every op with an approximation gets it.
    populateMathF32ExpansionPatterns(patterns, [](StringRef) { return true; });
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef) { return true; });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Whatever is left must lower to instructions, not library calls.
    WalkResult leftover = getOperation().walk([](Operation *op) {
      if (!isa<math::MathDialect>(op->getDialect()))
        return WalkResult::advance();
      if (isa<math::SqrtOp, math::AbsFOp, math::AbsIOp, math::FloorOp, math::CeilOp,
              math::RoundEvenOp, math::FmaOp, math::CtPopOp, math::CopySignOp,
              math::IPowIOp, math::FPowIOp, math::RsqrtOp, math::TruncOp, math::RoundOp>(op))
        return WalkResult::advance();
      op->emitError() << "no approximation of " << op->getName()
                      << " without a math library";
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
