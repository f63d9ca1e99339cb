//===- AppleTarget.h - Apple: an arm64 macOS dylib, kernels for Metal ---------*- C++ -*-===//
#ifndef TCC_LIB_TARGET_APPLE_APPLETARGET_H
#define TCC_LIB_TARGET_APPLE_APPLETARGET_H

#include "tcc/Target/Target.h"

namespace tcc {

/// The Apple target (`--target apple`): host code for arm64 macOS (a Mach-O dylib, as
/// `cpu:arm64-macos`, tuned for `cpu`, apple-m1 by default) and the kernels for Apple's GPUs
/// as Metal Shading Language (through SPIR-V and SPIRV-Cross), which Metal compiles when the
/// model loads. `variant` must be empty.
mlir::FailureOr<std::unique_ptr<Target>> createAppleTarget(llvm::StringRef variant,
                                                           llvm::StringRef cpu, std::string &error);

/// Registers the Metal passes and `tcc-metal-kernel-to-llvm` for tcc-opt.
void registerAppleTarget();

} // namespace tcc

#endif // TCC_LIB_TARGET_APPLE_APPLETARGET_H
