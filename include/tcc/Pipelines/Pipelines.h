//===- Pipelines.h - the stages tcc runs, assembled from passes ---------------*- C++ -*-===//
#ifndef TCC_PIPELINES_PIPELINES_H
#define TCC_PIPELINES_PIPELINES_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tcc {

/// onnx -> prim: decomposition by the rule registry, then canonicalization and CSE (which
/// fold the shape arithmetic the rules leave behind).
void buildOnnxToPrimPipeline(mlir::OpPassManager &pm);

/// prim -> buffers: lowering to linalg on tensors, bufferization, the workspace plan. The
/// result is the IR `tcc --emit=kernel` prints.
mlir::LogicalResult buildPrimToKernelPipeline(mlir::OpPassManager &pm);

/// buffers -> the LLVM dialect: contraction tiles for `vectorBits`-bit vectors (256: AVX2,
/// 512: AVX-512), loops, run-time checks, math approximations, LLVM.
/// `splitWideFma`: the target core runs a 512-bit FMA as two 256-bit halves (Zen 4).
mlir::LogicalResult buildKernelToLLVMPipeline(mlir::OpPassManager &pm, int vectorBits = 256,
                                              bool splitWideFma = false);

/// Registers the pipelines above under their names (`tcc-onnx-to-prim`,
/// `tcc-prim-to-kernel`, `tcc-kernel-to-llvm`) for tcc-opt.
void registerPipelines();

} // namespace tcc

#endif // TCC_PIPELINES_PIPELINES_H
