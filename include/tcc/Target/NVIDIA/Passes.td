//===- Passes.td - the NVIDIA target: PTX to cubin --------------------------------------===//
#ifndef TCC_TARGET_NVIDIA_PASSES
#define TCC_TARGET_NVIDIA_PASSES

include "mlir/Pass/PassBase.td"

def NvidiaLowerKernels : Pass<"tcc-nvidia-lower-kernels", "mlir::gpu::GPUModuleOp"> {
  let summary = "The kernels of a gpu.module to the LLVM and NVVM dialects, without libdevice";
  let description = [{
    What `convert-gpu-to-nvvm` does (gpu.func as an NVVM kernel, thread and block ids as
    PTX special registers, arith, cf, func and memref to LLVM), except for math: upstream
    calls libdevice's `__nv_*` functions for math ops and forbids the LLVM intrinsics that
    PTX has instructions for (floor, ceil, fabs, sqrt, ...). tcc's kernels get their
    transcendental functions from tcc-approximate-math (the CPU's polynomials), so the rest
    of math lowers to LLVM intrinsics, which the NVPTX backend turns into instructions
    (`cvt.rmi.f32.f32`, `abs.f32`, `sqrt.rn.f32`, `fma.rn.f32`). Memrefs are passed as their
    descriptors' fields, as `gpu-to-llvm` passes them on the host side.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

def NvidiaAssemble : Pass<"tcc-nvidia-assemble", "mlir::ModuleOp"> {
  let summary = "Check the PTX of each gpu.binary and add a cubin per architecture (ptxas)";
  let description = [{
    Runs after `gpu-module-to-binary{format=isa}`, whose objects are PTX text, one per
    `#nvvm.target`. A PTX that calls an external function (a libdevice `__nv_*` math
    function: tcc's kernels use polynomial math, so such a call is a bug) is an error naming
    it. With `ptxas` set (the path of CUDA's ptxas), each PTX is also assembled for its
    architecture (`ptxas -arch=sm_NN -O3`) and the cubin is added to the binary beside it;
    the runtime loads the cubin on that architecture and has the driver compile the PTX on
    others. A failing ptxas is an error that quotes its output.
  }];
  let options = [
    Option<"ptxas", "ptxas", "std::string", /*default=*/"\"\"",
           "path of ptxas (empty: PTX only)">,
  ];
}

#endif // TCC_TARGET_NVIDIA_PASSES
