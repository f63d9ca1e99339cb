//===- KernelPreparation.h - a gpu.module readied for its target's LLVM lowering -*- C++ -*-===//
#ifndef TCC_LIB_TARGET_GPU_KERNELPREPARATION_H
#define TCC_LIB_TARGET_GPU_KERNELPREPARATION_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace tcc::gpu {

/// What every GPU target does to its kernels before converting them to its LLVM dialect
/// flavour (tcc-nvidia-lower-kernels, tcc-amd-lower-kernels):
/// - float ops may contract: a multiply feeding an add may become one fused multiply-add
///   (what nvcc and hipcc do by default): one rounding instead of two, half the instructions
///   of a dot product;
/// - workgroup buffers are aligned to 16 bytes, so that runs of 4 words load as one 16-byte
///   shared-memory load (block tiles read them so);
/// - warp reductions (tcc-gpu-linalg-to-loops plans 32 lanes, whole or in clusters of
///   neighbouring lanes: SplitLanes.cpp) become butterfly shuffles within 32 lanes.
mlir::LogicalResult prepareKernels(mlir::gpu::GPUModuleOp module);

} // namespace tcc::gpu

#endif // TCC_LIB_TARGET_GPU_KERNELPREPARATION_H
