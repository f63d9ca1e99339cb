//===- Passes.td - the AMD target: ROCDL to HSA code objects ----------------------------===//
#ifndef TCC_TARGET_AMD_PASSES
#define TCC_TARGET_AMD_PASSES

include "mlir/Pass/PassBase.td"

def AmdLowerKernels : Pass<"tcc-amd-lower-kernels", "mlir::gpu::GPUModuleOp"> {
  let summary = "The kernels of a gpu.module to the LLVM and ROCDL dialects, without ocml/ockl";
  let description = [{
    What `convert-gpu-to-rocdl` does (gpu.func as an AMDGPU kernel, thread and block ids as
    workitem/workgroup id intrinsics, arith, cf, func and memref to LLVM), except for math:
    upstream calls the ROCm device library's `__ocml_*` functions, which are not part of
    tcc's inputs (no ROCm at compile time) and which tcc's kernels do not need: their
    transcendental functions come from tcc-approximate-math (the CPU's polynomials), and the
    rest of math lowers to LLVM intrinsics that the AMDGPU backend turns into instructions
    (`v_floor_f32`, `v_sqrt_f32`, `v_fma_f32`). Block reductions of 32 lanes (what
    tcc-gpu-linalg-to-loops plans for every GPU) become butterfly shuffles within 32 lanes,
    which is right on wave32 (RDNA) and on wave64 (CDNA: two 32-lane groups per wave).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::ROCDL::ROCDLDialect"];
}

def AmdAssemble : Pass<"tcc-amd-assemble", "mlir::ModuleOp"> {
  let summary = "LLVM bitcode of each `#rocdl.target` to an HSA code object, in-process";
  let description = [{
    Runs after `gpu-module-to-binary{format=llvm}`, whose objects are optimized LLVM bitcode,
    one per `#rocdl.target`. Each is compiled with LLVM's AMDGPU back end for its chip
    (amdgcn-amd-amdhsa) and linked by the in-process LLD into an HSA code object (an ELF
    shared object, `ld.lld -shared`), which replaces the bitcode: no ROCm, no external
    assembler or linker. Bitcode that calls a function it does not define (a device-library
    `__ocml_*` / `__ockl_*` function: tcc's kernels use polynomial math, so such a call is a
    bug) is an error naming it; the link refuses undefined symbols (`--no-undefined`).
  }];
}

#endif // TCC_TARGET_AMD_PASSES
