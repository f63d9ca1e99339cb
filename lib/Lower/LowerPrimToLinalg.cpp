//===- LowerPrimToLinalg.cpp - the pass: prim -> linalg/tensor/arith/math -------------===//
#include "tcc/Lower/Passes.h"

#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tcc {
#define GEN_PASS_DEF_LOWERPRIMTOLINALG
#include "tcc/Lower/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

void tcc::populatePrimToLinalgPatterns(RewritePatternSet &patterns) {
  lower::populateElementwiseLoweringPatterns(patterns);
  lower::populateDataMovementLoweringPatterns(patterns);
  lower::populateReductionLoweringPatterns(patterns);
  lower::populateContractionLoweringPatterns(patterns);
  lower::populateShapeLoweringPatterns(patterns);
  lower::populateStringLoweringPatterns(patterns);
}

namespace {
struct LowerPrimToLinalgPass : tcc::impl::LowerPrimToLinalgBase<LowerPrimToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ConversionTarget target(getContext());
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect, arith::ArithDialect,
                           math::MathDialect, scf::SCFDialect, func::FuncDialect>();
    target.addIllegalDialect<prim::PrimDialect>();
    target.addLegalOp<prim::CheckOp, prim::SymbolOp, prim::BindShapeOp, prim::ExitUnlessOp>();
    // The lowered form of string primitives (LowerStrings.cpp; tcc-lower-runtime-calls).
    target.addLegalOp<prim::RuntimeCallOp, prim::RunContextOp>();
    // Computed symbols stay until tcc-entry-signature moves their computation out.
    target.addLegalOp<prim::DataSymbolOp>();
    target.addLegalDialect<LLVM::LLVMDialect>();
    // Constant string tensors with texts become code that builds their elements.
    target.addDynamicallyLegalOp<arith::ConstantOp>([](arith::ConstantOp op) {
      auto strings = dyn_cast<DenseStringElementsAttr>(op.getValue());
      return !strings || !lower::hasText(strings);
    });
    // Joins unsigned tensors to the signless ones compute ops work on (tcc-signless-types).
    target.addLegalOp<UnrealizedConversionCastOp>();
    RewritePatternSet patterns(&getContext());
    tcc::populatePrimToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
