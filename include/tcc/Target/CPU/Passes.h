//===- Passes.h - the CPU target: register tiles, loop order, thread ranges, launches -*- C++
//-*-===//
#ifndef TCC_TARGET_CPU_PASSES_H
#define TCC_TARGET_CPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Target/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Target/CPU/Passes.h.inc"

} // namespace tcc

#endif // TCC_TARGET_CPU_PASSES_H
