//===- Passes.h - what GPU targets share: device constants, grids, launches --*- C++ -*-===//
#ifndef TCC_TARGET_GPU_PASSES_H
#define TCC_TARGET_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/GPU/Passes.h.inc"

} // namespace tcc

#endif // TCC_TARGET_GPU_PASSES_H
