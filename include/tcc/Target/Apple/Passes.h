//===- Passes.h - Apple GPUs: kernels as Metal Shading Language -----------*- C++ -*-===//
#ifndef TCC_TARGET_APPLE_PASSES_H
#define TCC_TARGET_APPLE_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/Apple/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/Apple/Passes.h.inc"

} // namespace tcc

#endif // TCC_TARGET_APPLE_PASSES_H
