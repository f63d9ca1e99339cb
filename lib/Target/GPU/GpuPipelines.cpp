//===- GpuPipelines.cpp - the pass pipelines every GPU target shares -------------------===//
#include "GpuPipelines.h"

#include "llvm/Support/FormatVariadic.h"

std::string tcc::gpuFrontPipeline(int64_t blockSize, llvm::StringRef matrixUnit, bool lanes) {
  return llvm::formatv("tcc-gpu-call-kernels,tcc-gpu-lower-attention{{subgroups={3}},"
                       "tcc-collapse-dims,cse,tcc-"
                       "expand-copies{{memcpy=false},"
                       "tcc-gpu-linalg-to-loops{{matrix-unit={1}{2}},tcc-approximate-math,"
                       "tcc-gpu-device-constants,tcc-gpu-device-checks,"
                       "tcc-gpu-form-grids{{block-size={0}},gpu-kernel-outlining,"
                       "tcc-gpu-merge-modules,",
                       blockSize, matrixUnit, lanes ? "" : " lanes=false", lanes)
      .str();
}

std::string tcc::gpuHostPipeline(bool terminateArguments) {
  return std::string("tcc-lower-checks,tcc-lower-runtime-calls,canonicalize,expand-strided-"
                     "metadata,lower-affine,convert-scf-to-cf,finalize-memref-to-llvm,convert-"
                     "arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,gpu-to-llvm,") +
         (terminateArguments ? "tcc-gpu-lower-launches{terminate-arguments}"
                             : "tcc-gpu-lower-launches") +
         ",convert-cf-to-llvm,reconcile-unrealized-casts,canonicalize";
}
