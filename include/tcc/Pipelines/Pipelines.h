//===- Pipelines.h - the stages tcc runs, assembled from passes ---------------*- C++ -*-===//
#ifndef TCC_PIPELINES_PIPELINES_H
#define TCC_PIPELINES_PIPELINES_H

#include "tcc/Target/Target.h"

#include "mlir/Support/LLVM.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tcc {

/// onnx -> prim: decomposition by the rule registry, then canonicalization and CSE (which
/// fold the shape arithmetic the rules leave behind). `kvCacheCapacity` > 0 (tcc
/// --kv-cache): a decoder's past/present caches become session parameters of that many
/// positions (tcc-kv-cache).
void buildOnnxToPrimPipeline(mlir::OpPassManager &pm, int64_t kvCacheCapacity = 0);

/// Choices of the kernel stage that are the user's, not the target's.
struct KernelPipelineOptions {
  /// Attention blocks become `kernel.attention` where the target has a kernel for it and it
  /// is the target's default (`tcc --attention=auto`, TargetInfo::attentionByDefault), or
  /// wherever the target has one (`fused`), or stay decomposed (`decomposed`).
  enum class Attention { Auto, Fused, Decomposed };
  Attention attention = Attention::Auto;
  /// `--attention`'s word (auto, fused, decomposed) as the choice; Auto for any other (the
  /// command lines check the word first).
  static Attention parseAttention(llvm::StringRef word) {
    return word == "fused" ? Attention::Fused
           : word == "decomposed" ? Attention::Decomposed
                                  : Attention::Auto;
  }
  /// Remarks on what was fused or proved and why not (`tcc --explain=attention,batch-split`).
  bool explainAttention = false;
  bool explainBatchSplit = false;
};

/// prim -> buffers: lowering to linalg on tensors, kernel formation for a processor with
/// `info`, bufferization, the workspace plan. The result is the IR `tcc --emit=kernel` prints.
mlir::LogicalResult buildPrimToKernelPipeline(mlir::OpPassManager &pm,
                                              const TargetInfo &info = TargetInfo(),
                                              const KernelPipelineOptions &options = {});

/// Registers the pipelines above under their names (`tcc-onnx-to-prim`,
/// `tcc-prim-to-kernel`) for tcc-opt; the targets register theirs (`tcc-kernel-to-llvm`,
/// the CPU's) with tcc::registerTargetPasses.
/// After `tcc-prim-to-kernel` the pipeline is the target's (Target::buildKernelPipeline).
void registerPipelines();

} // namespace tcc

#endif // TCC_PIPELINES_PIPELINES_H
