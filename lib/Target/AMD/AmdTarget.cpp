//===- AmdTarget.cpp - AMD GPUs: chips, their wave sizes, the pipeline --------------------===//
#include "AmdTarget.h"

#include "../CPU/CpuTarget.h"
#include "../GPU/GpuPipelines.h"
#include "tcc/Target/AMD/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace {

/// A chip tcc generates code for and its wave size: CDNA (gfx9) runs waves of 64 lanes only;
/// RDNA (gfx10 and later) runs 32 natively, the size HIP compiles for.
struct Chip {
  llvm::StringLiteral name;
  bool wave64;
};
constexpr Chip kChips[] = {{"gfx908", true},   {"gfx90a", true},   {"gfx942", true},
                           {"gfx950", true},   {"gfx1030", false}, {"gfx1100", false},
                           {"gfx1101", false}, {"gfx1102", false}, {"gfx1200", false},
                           {"gfx1201", false}};

/// CDNA 2 (MI200), CDNA 3 (MI300) and RDNA 3 (Radeon 7000).
constexpr const char *kDefaultChips = "gfx90a,gfx942,gfx1100";

/// Threads per block of the 1-D grids: 4 waves of 64 or 8 of 32, as on NVIDIA.
constexpr int64_t kBlockSize = 256;

/// The code object version the kernels declare: 5, which ROCm 5.3 and later load (the
/// version 6 that LLVM defaults to needs ROCm 6.2).
constexpr const char *kCodeObjectAbi = "500";

const Chip *findChip(llvm::StringRef name) {
  for (const Chip &c : kChips)
    if (c.name == name)
      return &c;
  return nullptr;
}

std::string supportedChips() {
  std::string list;
  for (const Chip &c : kChips)
    list += (list.empty() ? "" : ", ") + c.name.str();
  return list;
}

// Kernels on buffers to HSA code objects inside the host code's LLVM dialect module: the GPU
// front (GpuPipelines.h), ROCDL per chip, optimized bitcode (gpu-module-to-binary), then the
// AMDGPU back end and LLD in-process (tcc-amd-assemble), then the host code. Math becomes
// LLVM intrinsics (AMDGPU instructions), not the ROCm device library's __ocml_* functions.
std::string pipeline(llvm::ArrayRef<const Chip *> chips) {
  std::string attach;
  for (const Chip *c : chips)
    attach += llvm::formatv("rocdl-attach-target{{module=tcc_kernels chip={0} abi={1} O=3 "
                            "wave64={2}},",
                            c->name, kCodeObjectAbi, c->wave64 ? "true" : "false")
                  .str();
  return tcc::gpuFrontPipeline(kBlockSize, "") + attach +
         "gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         "tcc-amd-lower-kernels,canonicalize,cse,reconcile-unrealized-casts),"
         "gpu-module-to-binary{format=llvm},tcc-amd-assemble," +
         tcc::gpuHostPipeline();
}

class AmdTarget final : public tcc::Target {
public:
  AmdTarget(tcc::HostMachine host, llvm::SmallVector<const Chip *> chips)
      : Target(std::move(host), tcc::gpuTargetInfo()), chips(std::move(chips)) {}

  llvm::StringRef getName() const override { return "amd"; }
  int32_t getDeviceType() const override { return 10; } // kDLROCM

  LogicalResult buildKernelPipeline(OpPassManager &pm) const override {
    return parsePassPipeline(pipeline(chips), pm);
  }

  // Matrix cores (MFMA, WMMA) are not used yet: contractions run in fp32 on the vector units.
  LogicalResult setPrecision(llvm::StringRef precision, std::string &error) override {
    if (precision == "fp32")
      return success();
    error = "--precision=" + precision.str() +
            " is not supported by the amd target yet (its matrix cores are not used); it "
            "computes in fp32";
    return failure();
  }

private:
  llvm::SmallVector<const Chip *> chips;
};
} // namespace

FailureOr<std::unique_ptr<tcc::Target>>
tcc::createAmdTarget(llvm::StringRef variant, llvm::StringRef cpu, std::string &error) {
  llvm::SmallVector<llvm::StringRef> names;
  (variant.empty() ? llvm::StringRef(kDefaultChips) : variant)
      .split(names, ',', -1, /*KeepEmpty=*/false);
  llvm::SmallVector<const Chip *> chips;
  for (llvm::StringRef name : names) {
    const Chip *c = findChip(name.trim());
    if (!c) {
      error = "unknown AMD chip '" + name.trim().str() + "' in --target amd:" + variant.str() +
              "; supported: " + supportedChips();
      return failure();
    }
    if (!llvm::is_contained(chips, c))
      chips.push_back(c);
  }
  if (chips.empty()) {
    error = "--target amd:" + variant.str() + " names no chip; supported: " + supportedChips();
    return failure();
  }
  // The host code runs on this machine's CPU (model.so loads into the process that drives
  // the GPU).
  FailureOr<std::unique_ptr<Target>> host = createCpuTarget("", cpu, error);
  if (failed(host))
    return failure();
  return std::unique_ptr<Target>(std::make_unique<AmdTarget>((*host)->getHost(), std::move(chips)));
}

void tcc::registerAmdTarget() {
  registerAmdTargetPasses();
  PassPipelineRegistration<>(
      "tcc-amd-kernel-to-llvm",
      "Lower buffers and loops to an HSA code object for gfx942 and host code in the LLVM "
      "dialect (AMD)",
      [](OpPassManager &pm) { (void)parsePassPipeline(pipeline({findChip("gfx942")}), pm); });
}
