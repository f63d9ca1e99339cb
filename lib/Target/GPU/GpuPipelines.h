//===- GpuPipelines.h - the pass pipelines every GPU target shares -------------*- C++ -*-===//
//
// A GPU target's kernel pipeline is three parts: the shared front (kernels as 1-D grids in one
// gpu.module), the target's own device passes (attach its chips, lower the gpu.module to its
// LLVM dialect flavour, make binaries), and the shared host part (the host code lowered as
// the CPU's, with launches through the import table).
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_LIB_TARGET_GPU_GPUPIPELINES_H
#define TCC_LIB_TARGET_GPU_GPUPIPELINES_H

#include "tcc/Target/Target.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tcc {

/// What kernel generation is told of every GPU: every constant is packed into the weights
/// (the host code touches none: the blob is what is uploaded to the device). A target adds
/// what its kernels can do beyond that (NVIDIA: attention kernels).
inline TargetInfo gpuTargetInfo() {
  TargetInfo info;
  info.minPackedWeightBytes = 1;
  return info;
}

/// Launches as calls of the kernels' host functions, copies as loops, loop nests as 1-D
/// grids of `blockSize` threads, one gpu.module named tcc_kernels; contractions on
/// `matrixUnit` (tcc-gpu-linalg-to-loops's option; "" for none); reductions across the lanes
/// of 32-thread warps unless `lanes` is false. Ends with a comma.
std::string gpuFrontPipeline(int64_t blockSize, llvm::StringRef matrixUnit, bool lanes = true);

/// The host code (checks, runtime calls, launches) to the LLVM dialect, after the device code
/// has become a gpu.binary. With `terminateArguments`, each launch's argument array ends
/// with a NULL (tcc-gpu-lower-launches' terminate-arguments: SPIR-V kernels).
std::string gpuHostPipeline(bool terminateArguments = false);

} // namespace tcc

#endif // TCC_LIB_TARGET_GPU_GPUPIPELINES_H
