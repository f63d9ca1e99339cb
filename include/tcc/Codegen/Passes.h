//===- Passes.h - target-neutral kernel code generation ------------------------*- C++ -*-===//
#ifndef TCC_CODEGEN_PASSES_H
#define TCC_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Codegen/Passes.h.inc"

} // namespace tcc

#endif // TCC_CODEGEN_PASSES_H
