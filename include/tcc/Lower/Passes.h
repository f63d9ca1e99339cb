//===- Passes.h - the lowering stage: prim -> linalg on tensors -----------------*- C++ -*-===//
#ifndef TCC_LOWER_PASSES_H
#define TCC_LOWER_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Lower/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Lower/Passes.h.inc"

/// All prim -> linalg/tensor/arith/math patterns.
void populatePrimToLinalgPatterns(mlir::RewritePatternSet &patterns);

} // namespace tcc

#endif // TCC_LOWER_PASSES_H
