//===- Passes.h - the NVIDIA target: PTX to cubin ----------------------------*- C++ -*-===//
#ifndef TCC_TARGET_NVIDIA_PASSES_H
#define TCC_TARGET_NVIDIA_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/NVIDIA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/NVIDIA/Passes.h.inc"

} // namespace tcc

#endif // TCC_TARGET_NVIDIA_PASSES_H
