//===- Passes.h - host code: the model ABI's entry, checks, the workspace plan -*- C++ -*-===//
#ifndef TCC_HOST_PASSES_H
#define TCC_HOST_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Host/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Host/Passes.h.inc"

} // namespace tcc

#endif // TCC_HOST_PASSES_H
