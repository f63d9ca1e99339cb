//===- Pipelines.cpp - the stages tcc runs, assembled from passes ---------------------===//
#include "tcc/Pipelines/Pipelines.h"

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

void tcc::registerPipelines() {
  mlir::PassPipelineRegistration<>("tcc-onnx-to-prim",
                                   "Decompose ONNX nodes into prim and clean up",
                                   buildOnnxToPrimPipeline);
}
