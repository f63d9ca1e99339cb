//===- Passes.h - fusion and kernel formation ----------------------------------*- C++ -*-===//
#ifndef TCC_FUSE_PASSES_H
#define TCC_FUSE_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Fuse/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Fuse/Passes.h.inc"

} // namespace tcc

#endif // TCC_FUSE_PASSES_H
