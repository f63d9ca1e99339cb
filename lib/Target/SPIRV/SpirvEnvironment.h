//===- SpirvEnvironment.h - what the SPIR-V kernels may use ------------------*- C++ -*-===//
#ifndef TCC_LIB_TARGET_SPIRV_SPIRVENVIRONMENT_H
#define TCC_LIB_TARGET_SPIRV_SPIRVENVIRONMENT_H

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace tcc::spirv_target {

/// SPIR-V 1.5 for Vulkan 1.2 compute: 64-bit buffer addresses (PhysicalStorageBuffer64),
/// 8/16/64-bit integers and 16/64-bit floats in arithmetic and in buffers, subgroup
/// shuffles and arithmetic, subgroups of 32 (what the kernels' warp reductions assume; a
/// GPU with wider subgroups runs them as groups of 32, as AMD's wave64 does). The
/// capabilities a module declares are those its instructions need (spirv-update-vce); the
/// runtime enables the matching device features.
mlir::spirv::TargetEnvAttr vulkanEnvironment(mlir::MLIRContext *ctx);

} // namespace tcc::spirv_target

#endif // TCC_LIB_TARGET_SPIRV_SPIRVENVIRONMENT_H
