//===- Passes.h - the AMD target: ROCDL to HSA code objects --------------------*- C++ -*-===//
#ifndef TCC_TARGET_AMD_PASSES_H
#define TCC_TARGET_AMD_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/AMD/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/AMD/Passes.h.inc"

} // namespace tcc

#endif // TCC_TARGET_AMD_PASSES_H
