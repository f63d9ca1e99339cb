//===- SpirvEnvironment.cpp - what the SPIR-V kernels may use -------------------------===//
#include "SpirvEnvironment.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"

mlir::spirv::TargetEnvAttr tcc::spirv_target::vulkanEnvironment(mlir::MLIRContext *ctx) {
  ctx->getOrLoadDialect<mlir::spirv::SPIRVDialect>();
  constexpr const char *kEnvironment =
      "#spirv.target_env<#spirv.vce<v1.5, [Shader, Int8, Int16, Int64, Float16, Float64, "
      "StorageBuffer8BitAccess, StorageBuffer16BitAccess, PhysicalStorageBufferAddresses, "
      "GroupNonUniform, GroupNonUniformShuffle, GroupNonUniformArithmetic, "
      "GroupNonUniformBallot, GroupNonUniformVote], [SPV_KHR_storage_buffer_storage_class, "
      "SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_physical_storage_buffer]>, "
      "api=Vulkan, #spirv.resource_limits<max_compute_workgroup_invocations = 1024, "
      "max_compute_workgroup_size = [1024, 1024, 64], subgroup_size = 32>>";
  return mlir::cast<mlir::spirv::TargetEnvAttr>(mlir::parseAttribute(kEnvironment, ctx));
}
