//===- AmdTarget.h - AMD GPUs: kernels as HSA code objects, host code on the CPU -*- C++ -*-===//
#ifndef TCC_LIB_TARGET_AMD_AMDTARGET_H
#define TCC_LIB_TARGET_AMD_AMDTARGET_H

#include "tcc/Target/Target.h"

namespace tcc {

/// The AMD target for `variant`, a comma-separated list of chips ("gfx942",
/// "gfx90a,gfx1100"; "" for gfx90a, gfx942 and gfx1100), with host code for this machine's
/// CPU tuned for `cpu` (as the CPU target reads it). Fails with `error` naming the supported
/// chips for one it does not know.
mlir::FailureOr<std::unique_ptr<Target>> createAmdTarget(llvm::StringRef variant,
                                                         llvm::StringRef cpu, std::string &error);

/// Registers the AMD target's passes and `tcc-amd-kernel-to-llvm` (gfx942) for tcc-opt.
void registerAmdTarget();

} // namespace tcc

#endif // TCC_LIB_TARGET_AMD_AMDTARGET_H
