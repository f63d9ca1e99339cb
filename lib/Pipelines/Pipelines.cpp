//===- Pipelines.cpp - the stages tcc runs, assembled from passes ---------------------===//
#include "tcc/Pipelines/Pipelines.h"

#include "tcc/Decompose/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void tcc::buildOnnxToPrimPipeline(mlir::OpPassManager &pm, int64_t kvCacheCapacity) {
  pm.addPass(tcc::createDecomposeOnnx());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // CSE merges equal dims; a second round folds the checks between them.
  pm.addPass(mlir::createCanonicalizerPass());
  // Selects on extents that the symbols' ranges decide (Reshape's 0 and -1), then what that
  // exposes.
  pm.addPass(tcc::createSimplifyExtents());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createCanonicalizerPass());
  if (kvCacheCapacity > 0) {
    // tcc --kv-cache: the caches become parameters, their length an input.
    tcc::KvCacheOptions cache;
    cache.capacity = kvCacheCapacity;
    pm.addPass(tcc::createKvCache(cache));
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
  }
  // Extents read from inputs' elements become computed symbols: before the model's interface
  // (which lists the symbols) is read.
  pm.addPass(tcc::createDataExtents());
}

// The later stages are written as textual pipelines of registered passes: each step is a
// pass that tcc-opt can also run alone.
static constexpr const char *kPrimToKernel =
    "tcc-requantize-clamps,{3}tcc-fold-weights,canonicalize,tcc-lower-prim-to-linalg,tcc-signless-types,canonicalize,cse,"
    "{4}{2}tcc-fuse-elementwise{6},canonicalize,cse,tcc-fold-scales,{5}tcc-mark-batch-split{1},"
    "tcc-entry-signature,"
    "eliminate-empty-tensors,canonicalize,cse,tcc-outline-kernels{{min-in-place-pad-row={0}},"
    "one-shot-bufferize{{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},cse,canonicalize,drop-equivalent-buffer-results,"
    "buffer-results-to-out-params,canonicalize,tcc-plan-buffers,tcc-loop-exits,"
    "tcc-form-launches";

mlir::LogicalResult tcc::buildPrimToKernelPipeline(mlir::OpPassManager &pm,
                                                   const TargetInfo &info,
                                                   const KernelPipelineOptions &options) {
  // Long contractions over few output tiles split along the reduction (GPUs).
  std::string split = info.splitReductionSlice > 0
                          ? llvm::formatv("tcc-split-reductions{{slice={0} max-columns={1}},",
                                          info.splitReductionSlice, info.splitReductionMaxColumns)
                                .str()
                          : std::string();
  // Convolutions on narrow maps as matrix products (CPUs), on prim: the filter's new view
  // is folded into the weights with the rest.
  std::string unfold =
      info.unfoldConvolutions
          ? llvm::formatv("tcc-unfold-convolutions{{vector-bits={0} split-wide-fma={1}},",
                          info.vectorBits, info.splitWideFma ? "true" : "false")
                .str()
          : std::string();
  // Before both: convolutions whose output rows fill vectors poorly, vectorized along their
  // output channels (x86 CPUs), the filter's transpose folded into the weights.
  if (info.channelVectorConvolutions)
    unfold =
        llvm::formatv("tcc-channel-vector-convolutions{{vector-bits={0} split-wide-fma={1}{2}},",
                      info.vectorBits, info.splitWideFma ? "true" : "false",
                      info.int8Quads ? " integer-quads=true" : "")
            .str() +
        unfold;
  // Then strided ones as sums over column phases (x86 CPUs): the unfolded products have
  // unit strides.
  if (info.splitStridedConvolutions)
    unfold += llvm::formatv("tcc-split-strided-convolutions{{vector-bits={0} all-widths={1}},",
                            info.vectorBits, info.splitStridedAllWidths ? "true" : "false")
                  .str();
  // Quantized contractions in uint8 x int8 (CPUs with AVX512-VNNI), on prim before the
  // weights are folded; on linalg, their operands read as 4-byte quads (vpdpbusd).
  if (info.int8Quads)
    unfold = "tcc-integer-contractions,canonicalize,cse," + unfold;
  // --precision=bf16 on CPUs with AVX512-BF16: contractions read bf16 pairs (vdpbf16ps).
  std::string pairs = info.bf16Pairs ? "tcc-pair-bf16-contractions,canonicalize,cse," : "";
  if (info.int8Quads)
    pairs += "tcc-quad-int8-contractions,canonicalize,cse,";
  std::string pipeline =
      llvm::formatv(kPrimToKernel, info.minInPlacePadRow,
                    options.explainBatchSplit ? "{explain=true}" : "", split, unfold, pairs,
                    info.accumulateResiduals ? "tcc-accumulate-residuals," : "",
                    info.byteContractionOperands ? "{byte-operands=true}" : "")
          .str();
  using Attention = KernelPipelineOptions::Attention;
  bool fuse = info.attentionKernels &&
              (options.attention == Attention::Fused ||
               (options.attention == Attention::Auto && info.attentionByDefault));
  if (fuse)
    pipeline = llvm::formatv("tcc-match-attention{{max-width={0} min-keys={1} "
                             "depth-multiple={2} explain={3}},",
                             info.attentionMaxWidth,
                             options.attention == Attention::Auto ? info.attentionMinKeys : 0,
                             info.attentionDepthMultiple, options.explainAttention)
                   .str() +
               pipeline;
  return mlir::parsePassPipeline(pipeline, pm);
}

void tcc::registerPipelines() {
  mlir::PassPipelineRegistration<>("tcc-onnx-to-prim",
                                   "Decompose ONNX nodes into prim and clean up",
                                   [](mlir::OpPassManager &pm) { buildOnnxToPrimPipeline(pm); });
  mlir::PassPipelineRegistration<>(
      "tcc-prim-to-kernel", "Lower prim to linalg, bufferize, plan the workspace",
      [](mlir::OpPassManager &pm) { (void)buildPrimToKernelPipeline(pm); });
}
