//===- SpirvKernels.h - kernels on addresses to a SPIR-V compute module -------*- C++ -*-===//
#ifndef TCC_LIB_TARGET_SPIRV_SPIRVKERNELS_H
#define TCC_LIB_TARGET_SPIRV_SPIRVKERNELS_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tcc::spirv_target {

/// The passes before the SPIR-V conversion, as a pipeline text ending with ',': the GPU
/// front (GpuPipelines.h) with blocks of 256 threads, views folded into their accesses,
/// parallel loops inside kernels as nested loops, bf16 arithmetic in f32 and its conversions
/// as integer operations (SPIR-V has no bf16), buffers as 64-bit addresses
/// (tcc-spirv-address-buffers). `subgroups`: warp reductions across 32 lanes (subgroup
/// shuffles once converted); without, a thread per reduced row.
std::string frontPipeline(bool subgroups);

/// Runs a pass pipeline on an operation: the calling pass's runPipeline.
using PipelineRunner =
    llvm::function_ref<mlir::LogicalResult(mlir::OpPassManager &, mlir::Operation *)>;

/// What tcc-spirv-lower-kernels does before serializing (Passes.td says what), shared with
/// the targets that take SPIR-V further (Metal, through SPIRV-Cross): replaces `gpuModule`,
/// whose kernels take addresses (tcc-spirv-address-buffers), by a spirv.module of GLCompute
/// entry points, one per kernel, whose parameters are push-constant slots. `noContraction`:
/// every float add, subtract, multiply, divide and fma is decorated NoContraction (Vulkan's
/// compilers may otherwise reassociate); without, the consumer's compiler must be told to
/// keep IEEE semantics (Metal: fast math off).
mlir::FailureOr<mlir::spirv::ModuleOp> lowerKernels(mlir::gpu::GPUModuleOp gpuModule,
                                                    PipelineRunner runPipeline, bool noContraction);

/// The module's SPIR-V words; an error on the module when it does not serialize.
mlir::LogicalResult serialize(mlir::spirv::ModuleOp module, llvm::SmallVectorImpl<uint32_t> &words);

} // namespace tcc::spirv_target

#endif // TCC_LIB_TARGET_SPIRV_SPIRVKERNELS_H
