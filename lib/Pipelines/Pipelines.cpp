//===- Pipelines.cpp - the stages tcc runs, assembled from passes ---------------------===//
#include "tcc/Pipelines/Pipelines.h"

#include "llvm/Support/FormatVariadic.h"

#include "tcc/Decompose/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void tcc::buildOnnxToPrimPipeline(mlir::OpPassManager &pm) {
  pm.addPass(tcc::createDecomposeOnnx());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  // CSE merges equal dims; a second round folds the checks between them.
  pm.addPass(mlir::createCanonicalizerPass());
}

// The later stages are written as textual pipelines of registered passes: each step is a
// pass that tcc-opt can also run alone.
static constexpr const char *kPrimToKernel =
    "tcc-fold-weights,canonicalize,tcc-lower-prim-to-linalg,tcc-signless-types,canonicalize,cse,"
    "tcc-fuse-elementwise,canonicalize,cse,tcc-fold-scales,tcc-mark-batch-split,"
    "tcc-entry-signature,"
    "eliminate-empty-tensors,canonicalize,cse,tcc-outline-kernels,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},cse,canonicalize,drop-equivalent-buffer-results,"
    "buffer-results-to-out-params,canonicalize,tcc-plan-buffers,tcc-loop-exits";

static constexpr const char *kKernelToLLVM =
    "tcc-collapse-dims,cse,tcc-tile-contractions{{vector-bits={0} split-wide-fma={1}},tcc-expand-copies,tcc-order-loops,convert-linalg-to-parallel-loops,tcc-range-kernels,"
    "tcc-lower-checks,tcc-approximate-math,tcc-lower-runtime-calls,canonicalize,"
    "expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-math-to-funcs,"
    "convert-vector-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-math-to-llvm,"
    "convert-index-to-llvm,convert-func-to-llvm,"
    "convert-cf-to-llvm,reconcile-unrealized-casts,canonicalize";

mlir::LogicalResult tcc::buildPrimToKernelPipeline(mlir::OpPassManager &pm) {
  return mlir::parsePassPipeline(kPrimToKernel, pm);
}

mlir::LogicalResult tcc::buildKernelToLLVMPipeline(mlir::OpPassManager &pm, int vectorBits,
                                                    bool splitWideFma) {
  return mlir::parsePassPipeline(llvm::formatv(kKernelToLLVM, vectorBits, splitWideFma ? "true" : "false").str(),
                                 pm);
}

void tcc::registerPipelines() {
  mlir::PassPipelineRegistration<>("tcc-onnx-to-prim",
                                   "Decompose ONNX nodes into prim and clean up",
                                   buildOnnxToPrimPipeline);
  mlir::PassPipelineRegistration<>(
      "tcc-prim-to-kernel", "Lower prim to linalg, bufferize, plan the workspace",
      [](mlir::OpPassManager &pm) { (void)buildPrimToKernelPipeline(pm); });
  mlir::PassPipelineRegistration<>(
      "tcc-kernel-to-llvm", "Lower buffers and loops to the LLVM dialect",
      [](mlir::OpPassManager &pm) { (void)buildKernelToLLVMPipeline(pm, 256); });
}
