//===- InvariantLoops.h - dims of loop-carried values of prim.loop's loops ------*- C++ -*-===//
//
// prim.loop's carried values keep their extents (checked at run time), and its lowering marks
// the scf.for `prim.invariant_extents`. So a dim of such a loop's iteration argument or result
// is the dim of its init: what lets every size inside the loop be arithmetic over the
// symbols, on tensors (tcc-entry-signature) and on buffers (tcc-plan-buffers).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_CODEGEN_INVARIANTLOOPS_H
#define TCC_LIB_CODEGEN_INVARIANTLOOPS_H

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace tcc {

/// DimOpTy (tensor::DimOp or memref::DimOp) of an iteration argument or result of a loop
/// marked prim.invariant_extents -> the same dim of the loop's init.
template <typename DimOpTy>
struct DimOfInvariantLoop : mlir::OpRewritePattern<DimOpTy> {
  using mlir::OpRewritePattern<DimOpTy>::OpRewritePattern;
  mlir::LogicalResult matchAndRewrite(DimOpTy dim,
                                      mlir::PatternRewriter &rewriter) const override {
    mlir::Value source = dim.getSource();
    mlir::scf::ForOp loop;
    unsigned k = 0;
    if (auto arg = mlir::dyn_cast<mlir::BlockArgument>(source)) {
      loop = mlir::dyn_cast<mlir::scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return mlir::failure();
      k = arg.getArgNumber() - 1;
    } else if (auto result = mlir::dyn_cast<mlir::OpResult>(source)) {
      loop = mlir::dyn_cast<mlir::scf::ForOp>(result.getOwner());
      k = result.getResultNumber();
    }
    if (!loop || !loop->hasAttr(tcc::prim::PrimDialect::kInvariantExtentsAttrName))
      return mlir::failure();
    rewriter.modifyOpInPlace(dim, [&] { dim.getSourceMutable().assign(loop.getInitArgs()[k]); });
    return mlir::success();
  }
};

} // namespace tcc

#endif // TCC_LIB_CODEGEN_INVARIANTLOOPS_H
