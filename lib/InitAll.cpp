//===- InitAll.cpp - registration of tcc's dialects and passes ------------------------===//
#include "tcc/InitAll.h"

#include "tcc/Decompose/Passes.h"
#include "tcc/Evaluate/Passes.h"
#include "tcc/Pipelines/Pipelines.h"

#include "dialects/onnx/OnnxDialect.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void tcc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tcc::onnx::OnnxDialect, tcc::prim::PrimDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::tensor::TensorDialect>();
}

void tcc::registerAllPasses() {
  // Upstream passes that tcc's pipelines use, so tcc-opt can run them alone.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  tcc::eval::registerEvaluatePasses();
  tcc::registerDecomposePasses();
  tcc::registerPipelines();
}
