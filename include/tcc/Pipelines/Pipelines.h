//===- Pipelines.h - the stages tcc runs, assembled from passes ---------------*- C++ -*-===//
#ifndef TCC_PIPELINES_PIPELINES_H
#define TCC_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tcc {

/// onnx -> prim: decomposition by the rule registry, then canonicalization and CSE (which
/// fold the shape arithmetic the rules leave behind).
void buildOnnxToPrimPipeline(mlir::OpPassManager &pm);

/// Registers the pipelines above under their names (`tcc-onnx-to-prim`) for tcc-opt.
void registerPipelines();

} // namespace tcc

#endif // TCC_PIPELINES_PIPELINES_H
