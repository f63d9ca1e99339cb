//===- Passes.h - the decomposition stage: onnx -> prim -------------------------*- C++ -*-===//
#ifndef TCC_DECOMPOSE_PASSES_H
#define TCC_DECOMPOSE_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Decompose/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Decompose/Passes.h.inc"

} // namespace tcc

#endif // TCC_DECOMPOSE_PASSES_H
