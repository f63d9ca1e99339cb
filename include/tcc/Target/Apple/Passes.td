//===- Passes.td - Apple GPUs: kernels as Metal Shading Language ----------------------===//
#ifndef TCC_TARGET_APPLE_PASSES
#define TCC_TARGET_APPLE_PASSES

include "mlir/Pass/PassBase.td"

def MetalLowerKernels : Pass<"tcc-metal-lower-kernels", "mlir::ModuleOp"> {
  let summary = "Each gpu.module to Metal Shading Language through SPIR-V and SPIRV-Cross";
  let description = [{
    Runs where tcc-spirv-lower-kernels would (after tcc-spirv-address-buffers) and lowers the
    kernels as it does (lib/Target/SPIRV/SpirvKernels.h): GLCompute entry points whose
    parameters are 8-byte push-constant slots and whose device memory is 64-bit addresses.
    Then each kernel is cut out into a SPIR-V module of its own (its entry point, execution
    modes, and the globals and functions it reaches: SPIRV-Cross would declare every
    workgroup variable of a module in each kernel) and translated to Metal Shading Language
    3.0 for macOS by SPIRV-Cross's C API: push constants become `constant` buffer 0,
    PhysicalStorageBuffer pointers `device` pointers made from GPU addresses, workgroup
    variables `threadgroup` ones. The translations follow each other in one text, each after
    a line `// tcc-kernel: <name> <function>` (TCC_MSL_KERNEL_MARKER, model_abi.h; the MSL
    function is the kernel's name without the runs of underscores C++ reserves), and replace the
    `gpu.module` as a `gpu.binary` with one object (properties `arch = "metal3"`,
    `format = "msl"`), which tcc-gpu-lower-launches embeds as an `msl` image. A kernel whose
    workgroup variables exceed `max-threadgroup-bytes` (Metal's 32 KiB) is an error.
  }];
  let options = [
    Option<"maxThreadgroupBytes", "max-threadgroup-bytes", "int64_t", /*default=*/"32768",
           "the most threadgroup memory a kernel may declare">,
  ];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect", "::mlir::gpu::GPUDialect"];
}

#endif // TCC_TARGET_APPLE_PASSES
