//===- Passes.h - SPIR-V kernels: Vulkan compute (and Metal through SPIRV-Cross) -*- C++ -*-===//
#ifndef TCC_TARGET_SPIRV_PASSES_H
#define TCC_TARGET_SPIRV_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/SPIRV/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/SPIRV/Passes.h.inc"

} // namespace tcc

#endif // TCC_TARGET_SPIRV_PASSES_H
