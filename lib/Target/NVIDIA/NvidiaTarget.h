//===- NvidiaTarget.h - NVIDIA GPUs: kernels as PTX and cubin, host code on the CPU -*- C++ -*-===//
#ifndef TCC_LIB_TARGET_NVIDIA_NVIDIATARGET_H
#define TCC_LIB_TARGET_NVIDIA_NVIDIATARGET_H

#include "tcc/Target/Target.h"

namespace tcc {

/// The NVIDIA target for `variant`, a comma-separated list of architectures ("sm_90",
/// "sm_80,sm_90"; "" for sm_80 and sm_90), with host code for this machine's CPU tuned for
/// `cpu` (as the CPU target reads it). Fails with `error` naming the supported
/// architectures for one it does not know.
mlir::FailureOr<std::unique_ptr<Target>>
createNvidiaTarget(llvm::StringRef variant, llvm::StringRef cpu, std::string &error);

/// Registers NVIDIA's tensor-core instructions as the matrix units "nvidia-bf16" and
/// "nvidia-tf32" of tcc-gpu-linalg-to-loops (MatrixUnits.cpp).
void registerNvidiaMatrixUnits();

/// Registers the NVIDIA target's passes and `tcc-nvidia-kernel-to-llvm` (sm_90) for tcc-opt.
void registerNvidiaTarget();

} // namespace tcc

#endif // TCC_LIB_TARGET_NVIDIA_NVIDIATARGET_H
