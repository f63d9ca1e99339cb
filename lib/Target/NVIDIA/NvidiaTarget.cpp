//===- NvidiaTarget.cpp - NVIDIA GPUs: architectures, their PTX versions, the pipeline ----===//
#include "NvidiaTarget.h"

#include "../CPU/CpuTarget.h"
#include "../GPU/GpuPipelines.h"
#include "tcc/Target/NVIDIA/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir;

namespace {

/// An architecture tcc generates code for and the PTX ISA version its kernels declare: the
/// first version that has the architecture (PTX ISA release notes), so that the oldest
/// driver that knows the GPU can load the PTX. CUDA 13's ptxas has nothing before sm_75.
struct Architecture {
  llvm::StringLiteral chip;
  llvm::StringLiteral ptxFeature;
};
constexpr Architecture kArchitectures[] = {
    {"sm_75", "+ptx63"},   {"sm_80", "+ptx70"},  {"sm_86", "+ptx71"},  {"sm_87", "+ptx74"},
    {"sm_89", "+ptx78"},   {"sm_90", "+ptx78"},  {"sm_90a", "+ptx80"}, {"sm_100", "+ptx86"},
    {"sm_100a", "+ptx86"}, {"sm_120", "+ptx87"}, {"sm_120a", "+ptx87"}};

constexpr const char *kDefaultArchitectures = "sm_80,sm_90";

/// Threads per block of the 1-D grids (a multiple of the warp; 8 warps keep an SM busy).
constexpr int64_t kBlockSize = 256;

const Architecture *findArchitecture(llvm::StringRef chip) {
  for (const Architecture &a : kArchitectures)
    if (a.chip == chip)
      return &a;
  return nullptr;
}

std::string supportedArchitectures() {
  std::string list;
  for (const Architecture &a : kArchitectures)
    list += (list.empty() ? "" : ", ") + a.chip.str();
  return list;
}

/// CUDA's ptxas: $TCC_PTXAS ("none": do not make cubins), else ptxas on the PATH, else
/// /usr/local/cuda/bin/ptxas; empty when there is none (the model then carries PTX only,
/// which the driver compiles when the model is loaded).
std::string findPtxas() {
  if (const char *configured = std::getenv("TCC_PTXAS"))
    return llvm::StringRef(configured) == "none" ? "" : configured;
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  return "";
}

// Kernels on buffers to PTX (and cubins) inside the host code's LLVM dialect module: the GPU
// front (GpuPipelines.h), NVVM per architecture, then the host code. Math becomes LLVM
// intrinsics (PTX instructions), not libdevice's __nv_* functions (tcc-nvidia-lower-kernels);
// a stray libdevice call is caught by tcc-nvidia-assemble.
std::string pipeline(llvm::ArrayRef<const Architecture *> architectures, llvm::StringRef ptxas,
                     llvm::StringRef matrixUnit = "") {
  std::string attach;
  for (const Architecture *a : architectures)
    attach += llvm::formatv("nvvm-attach-target{{module=tcc_kernels chip={0} features={1} O=3},",
                            a->chip, a->ptxFeature)
                  .str();
  return tcc::gpuFrontPipeline(kBlockSize, matrixUnit) + attach +
         "gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         "tcc-nvidia-lower-kernels,canonicalize,cse,reconcile-unrealized-casts),"
         "gpu-module-to-binary{format=isa},tcc-nvidia-assemble{ptxas=" +
         ptxas.str() + "}," + tcc::gpuHostPipeline();
}

class NvidiaTarget final : public tcc::Target {
public:
  NvidiaTarget(tcc::HostMachine host, llvm::SmallVector<const Architecture *> architectures)
      : Target(std::move(host), describeGpu()), architectures(std::move(architectures)) {}

  llvm::StringRef getName() const override { return "nvidia"; }
  int32_t getDeviceType() const override { return 2; } // kDLCUDA

  LogicalResult buildKernelPipeline(OpPassManager &pm) const override {
    return parsePassPipeline(pipeline(architectures, findPtxas(), matrixUnit), pm);
  }

  // bf16, fp16 and tf32 contractions on tensor cores: mma.sync needs sm_80 (every
  // architecture of the table but sm_75; its f16 form would do, bf16 and tf32 would not).
  LogicalResult setPrecision(llvm::StringRef precision, std::string &error) override {
    if (precision == "fp32") {
      matrixUnit.clear();
      info.splitReductionSlice = kSplitReductionSlice;
      return success();
    }
    if (precision != "bf16" && precision != "fp16" && precision != "tf32") {
      error = "--precision=" + precision.str() +
              " is not supported by the nvidia target; supported: fp32, tf32, bf16, fp16";
      return failure();
    }
    for (const Architecture *a : architectures)
      if (a->chip == "sm_75") {
        error = "--precision=" + precision.str() +
                " needs sm_80 or newer (tensor-core mma.sync for " + precision.str() +
                "), but the target includes sm_75";
        return failure();
      }
    tcc::registerNvidiaMatrixUnits(); // the tool may not have registered the passes
    matrixUnit = "nvidia-" + precision.str();
    // The split was measured on the fp32 block tiles only.
    info.splitReductionSlice = 0;
    return success();
  }

private:
  /// fp32 contractions of at most 512 columns split their reduction into slices of 256 or
  /// more (tcc-split-reductions). Measured on the H200 (each split as a batched matmul and a
  /// sum, 128 x 128 tiles): 4096 x 256 x 1024 from 111 to 77 us plus the sum, 6304 x 256 x
  /// 512 from 81 to 68, 4096 x 256 x 688 from 77 to 63 (2 slices).
  static constexpr int64_t kSplitReductionSlice = 256;

  static tcc::TargetInfo describeGpu() {
    tcc::TargetInfo info = tcc::gpuTargetInfo();
    // tcc-gpu-lower-attention's block tiles by default where the key count is dynamic or at
    // least 1024. Measured on the H200 (scripts/nvidia/attention_bench.py, 4 heads of 64,
    // fp32, fused / decomposed): batch 32: 0.65 at 128 keys, 0.68 at 256, 0.58 at 512;
    // batch 8: 0.89 at 128, 0.62 at 512, 0.65 at 1024, 0.60 at 2048; batch 1: 1.16 at 128,
    // 1.30 at 256 and 512, 0.80 at 2048, 0.60 at 4096. It loses where there are few query
    // rows in all (one block of 64 rows per SM or fewer); it never stores the scores.
    info.attentionKernels = true;
    info.attentionByDefault = true;
    info.attentionMinKeys = 1024;
    info.attentionMaxWidth = 128;
    info.splitReductionSlice = kSplitReductionSlice;
    info.splitReductionMaxColumns = 512;
    return info;
  }

  llvm::SmallVector<const Architecture *> architectures;
  std::string matrixUnit; // tcc-gpu-linalg-to-loops's, "" for fp32
};
} // namespace

FailureOr<std::unique_ptr<tcc::Target>>
tcc::createNvidiaTarget(llvm::StringRef variant, llvm::StringRef cpu, std::string &error) {
  llvm::SmallVector<llvm::StringRef> chips;
  (variant.empty() ? llvm::StringRef(kDefaultArchitectures) : variant)
      .split(chips, ',', -1, /*KeepEmpty=*/false);
  llvm::SmallVector<const Architecture *> architectures;
  for (llvm::StringRef chip : chips) {
    const Architecture *a = findArchitecture(chip.trim());
    if (!a) {
      error = "unknown NVIDIA architecture '" + chip.trim().str() +
              "' in --target nvidia:" + variant.str() + "; supported: " + supportedArchitectures();
      return failure();
    }
    if (!llvm::is_contained(architectures, a))
      architectures.push_back(a);
  }
  if (architectures.empty()) {
    error = "--target nvidia:" + variant.str() +
            " names no architecture; supported: " + supportedArchitectures();
    return failure();
  }
  // The host code runs on this machine's CPU (model.so loads into the process that drives
  // the GPU).
  FailureOr<std::unique_ptr<Target>> host = createCpuTarget("", cpu, error);
  if (failed(host))
    return failure();
  return std::unique_ptr<Target>(
      std::make_unique<NvidiaTarget>((*host)->getHost(), std::move(architectures)));
}

void tcc::registerNvidiaTarget() {
  registerNvidiaMatrixUnits();
  registerNvidiaTargetPasses();
  PassPipelineRegistration<>(
      "tcc-nvidia-kernel-to-llvm",
      "Lower buffers and loops to PTX for sm_90 and host code in the LLVM dialect (NVIDIA)",
      [](OpPassManager &pm) {
        (void)parsePassPipeline(pipeline({findArchitecture("sm_90")}, ""), pm);
      });
}
