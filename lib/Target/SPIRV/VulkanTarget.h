//===- VulkanTarget.h - Vulkan compute: kernels as SPIR-V, host code on the CPU -*- C++ -*-===//
#ifndef TCC_LIB_TARGET_SPIRV_VULKANTARGET_H
#define TCC_LIB_TARGET_SPIRV_VULKANTARGET_H

#include "tcc/Target/Target.h"

namespace tcc {

/// The Vulkan target (`--target vulkan`): kernels as one SPIR-V 1.5 module for Vulkan 1.2
/// compute with buffer device addresses, host code for this machine's CPU tuned for `cpu`.
/// `variant` is empty (no subgroup operations: any Vulkan 1.2 device, CPU implementations
/// included) or "subgroups" (warp reductions as shuffles on subgroups of at least 32;
/// experimental: wrong results on NVIDIA's driver, docs/targets.md).
mlir::FailureOr<std::unique_ptr<Target>>
createVulkanTarget(llvm::StringRef variant, llvm::StringRef cpu, std::string &error);

/// Registers the SPIR-V passes and `tcc-vulkan-kernel-to-llvm` for tcc-opt.
void registerVulkanTarget();

} // namespace tcc

#endif // TCC_LIB_TARGET_SPIRV_VULKANTARGET_H
