//===- InitAll.cpp - registration of tcc's dialects and passes ------------------------===//
#include "tcc/InitAll.h"

#include "tcc/Autodiff/Passes.h"
#include "tcc/Decompose/Passes.h"
#include "tcc/Lower/Passes.h"
#include "tcc/Codegen/Passes.h"
#include "tcc/Host/Passes.h"
#include "tcc/Fuse/Passes.h"
#include "tcc/Evaluate/Passes.h"
#include "tcc/Pipelines/Pipelines.h"
#include "tcc/Target/Target.h"

#include "dialects/kernel/KernelDialect.h"
#include "dialects/onnx/OnnxDialect.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"

void tcc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tcc::onnx::OnnxDialect, tcc::prim::PrimDialect, tcc::kernel::KernelDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::tensor::TensorDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect, mlir::scf::SCFDialect>();
  // Code generation uses upstream dialects throughout (bufferization, memref, llvm, ...) and
  // their interface implementations (bufferization models, conversions to LLVM).
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  tcc::kernel::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  // gpu-module-to-binary translates kernels (NVIDIA and AMD targets) to LLVM IR.
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::registerROCDLDialectTranslation(registry);
}

void tcc::registerAllPasses() {
  tcc::eval::registerEvaluatePasses();
  tcc::registerDecomposePasses();
  tcc::autodiff::registerAutodiffPasses();
  tcc::registerLowerPasses();
  tcc::registerFusePasses();
  tcc::registerCodegenPasses();
  tcc::registerHostPasses();
  mlir::registerAllPasses();
  tcc::registerPipelines();
  tcc::registerTargetPasses();
}
