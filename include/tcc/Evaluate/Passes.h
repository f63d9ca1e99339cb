//===- Passes.h - passes of the prim reference evaluator ------------------------*- C++ -*-===//
#ifndef TCC_EVALUATE_PASSES_H
#define TCC_EVALUATE_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc::eval {

#define GEN_PASS_DECL
#include "tcc/Evaluate/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Evaluate/Passes.h.inc"

} // namespace tcc::eval

#endif // TCC_EVALUATE_PASSES_H
