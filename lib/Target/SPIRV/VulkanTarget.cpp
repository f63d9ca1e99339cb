//===- VulkanTarget.cpp - Vulkan compute: the pipeline to SPIR-V -----------------------===//
#include "VulkanTarget.h"

#include "../CPU/CpuTarget.h"
#include "../GPU/GpuPipelines.h"
#include "SpirvKernels.h"
#include "tcc/Target/SPIRV/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

// Kernels on buffers to SPIR-V inside the host code's LLVM dialect module: the GPU front
// and buffers as addresses (tcc::spirv_target::frontPipeline), upstream's SPIR-V conversion
// with parameters as push constants (tcc-spirv-lower-kernels), then the host code, whose
// launches pass an argument array that ends with NULL (the runtime copies the slots up to it).
// `subgroups`: reductions across the 32 lanes of a warp as subgroup shuffles (GPUs with
// subgroups of 32 or more); without, none (any Vulkan 1.2 device).
std::string pipeline(bool subgroups) {
  return tcc::spirv_target::frontPipeline(subgroups) +
         "tcc-spirv-lower-kernels{arch=" + (subgroups ? "vulkan1.2-subgroups" : "vulkan1.2") +
         "}," + tcc::gpuHostPipeline(/*terminateArguments=*/true);
}

class VulkanTarget final : public tcc::Target {
public:
  VulkanTarget(tcc::HostMachine host, bool subgroups)
      : Target(std::move(host), describe(subgroups)), subgroups(subgroups) {}

  llvm::StringRef getName() const override { return "vulkan"; }
  int32_t getDeviceType() const override { return 7; } // kDLVulkan

  LogicalResult buildKernelPipeline(OpPassManager &pm) const override {
    return parsePassPipeline(pipeline(subgroups), pm);
  }

private:
  /// `--attention=fused` only: tcc-gpu-lower-attention's block tiles (one thread a query
  /// row without subgroups); not measured against the decomposed products on a Vulkan GPU.
  static tcc::TargetInfo describe(bool subgroups) {
    tcc::TargetInfo info = tcc::gpuTargetInfo();
    info.attentionKernels = true;
    info.attentionMaxWidth = 128;
    // The tiles only (no warp per row): their depths in runs of 4 (16 with subgroups, where
    // the warp per row takes the rest).
    info.attentionDepthMultiple = subgroups ? 0 : 4;
    return info;
  }

  bool subgroups;
};
} // namespace

FailureOr<std::unique_ptr<tcc::Target>>
tcc::createVulkanTarget(llvm::StringRef variant, llvm::StringRef cpu, std::string &error) {
  if (!variant.empty() && variant != "subgroups") {
    error = "unknown Vulkan variant '" + variant.str() + "' in --target vulkan:" + variant.str() +
            "; supported: vulkan (any Vulkan 1.2 device), vulkan:subgroups (reductions on "
            "subgroups of 32; experimental)";
    return failure();
  }
  FailureOr<std::unique_ptr<Target>> host = createCpuTarget("", cpu, error);
  if (failed(host))
    return failure();
  return std::unique_ptr<Target>(
      std::make_unique<VulkanTarget>((*host)->getHost(), variant == "subgroups"));
}

void tcc::registerVulkanTarget() {
  registerSpirvTargetPasses();
  PassPipelineRegistration<>(
      "tcc-vulkan-kernel-to-llvm",
      "Lower buffers and loops to a SPIR-V module for Vulkan compute and host code in the "
      "LLVM dialect",
      [](OpPassManager &pm) { (void)parsePassPipeline(pipeline(/*subgroups=*/false), pm); });
}
