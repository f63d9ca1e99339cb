//===- Passes.h - reverse-mode autodiff over prim -------------------------------*- C++ -*-===//
#ifndef TCC_AUTODIFF_PASSES_H
#define TCC_AUTODIFF_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc::autodiff {

#define GEN_PASS_DECL
#include "tcc/Autodiff/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Autodiff/Passes.h.inc"

} // namespace tcc::autodiff

#endif // TCC_AUTODIFF_PASSES_H
