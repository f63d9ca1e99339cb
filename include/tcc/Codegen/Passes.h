//===- Passes.h - target-neutral kernel code generation ------------------------*- C++ -*-===//
#ifndef TCC_CODEGEN_PASSES_H
#define TCC_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Codegen/Passes.h.inc"

/// tcc-approximate-math's rewrites of the math ops nested in `root` (expansions, then
/// polynomial approximations), without its check that none is left: for a pass that wants a
/// body's math as arithmetic early (tcc-cpu-lookup-tables folds a quantized GELU's erf).
mlir::LogicalResult approximateMath(mlir::Operation *root, bool instructionRounding);

} // namespace tcc

#endif // TCC_CODEGEN_PASSES_H
