//===- AppleTarget.cpp - Apple: the pipeline to Metal Shading Language -----------------===//
#include "AppleTarget.h"

#include "../CPU/CpuTarget.h"
#include "../GPU/GpuPipelines.h"
#include "../SPIRV/SpirvKernels.h"
#include "tcc/Target/Apple/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

// The kernels go the Vulkan target's way to SPIR-V (without subgroup operations: Metal, as
// Vulkan, does not promise that a SIMD-group is converged again after lanes diverged), then
// each becomes MSL (tcc-metal-lower-kernels); the host code's launches pass an argument
// array that ends with NULL, as for Vulkan.
std::string pipeline() {
  return tcc::spirv_target::frontPipeline(/*subgroups=*/false) + "tcc-metal-lower-kernels," +
         tcc::gpuHostPipeline(/*terminateArguments=*/true);
}

class AppleTarget final : public tcc::Target {
public:
  explicit AppleTarget(tcc::HostMachine host) : Target(std::move(host), tcc::gpuTargetInfo()) {}

  llvm::StringRef getName() const override { return "apple"; }
  int32_t getDeviceType() const override { return 8; } // kDLMetal

  LogicalResult buildKernelPipeline(OpPassManager &pm) const override {
    return parsePassPipeline(pipeline(), pm);
  }
};
} // namespace

FailureOr<std::unique_ptr<tcc::Target>>
tcc::createAppleTarget(llvm::StringRef variant, llvm::StringRef cpu, std::string &error) {
  if (!variant.empty()) {
    error = "unknown Apple variant '" + variant.str() + "' in --target apple:" + variant.str() +
            "; supported: apple (arm64 macOS, kernels for Metal 3 GPUs)";
    return failure();
  }
  FailureOr<std::unique_ptr<Target>> host = createCpuTarget("arm64-macos", cpu, error);
  if (failed(host))
    return failure();
  return std::unique_ptr<Target>(std::make_unique<AppleTarget>((*host)->getHost()));
}

void tcc::registerAppleTarget() {
  registerAppleTargetPasses();
  PassPipelineRegistration<>(
      "tcc-metal-kernel-to-llvm",
      "Lower buffers and loops to Metal Shading Language kernels and host code in the LLVM "
      "dialect",
      [](OpPassManager &pm) { (void)parsePassPipeline(pipeline(), pm); });
}
