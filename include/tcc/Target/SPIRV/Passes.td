//===- Passes.td - SPIR-V kernels: Vulkan compute (and Metal through SPIRV-Cross) -------===//
#ifndef TCC_TARGET_SPIRV_PASSES
#define TCC_TARGET_SPIRV_PASSES

include "mlir/Pass/PassBase.td"

def SpirvAddressBuffers : Pass<"tcc-spirv-address-buffers", "mlir::ModuleOp"> {
  let summary = "Kernels reach device memory through 64-bit addresses, as CUDA kernels do";
  let description = [{
    Vulkan shaders take no parameters: their buffers are bound through descriptors, which
    cannot express what tcc's host code passes a kernel (any address inside the workspace,
    views with offsets and strides computed at run time). With buffer device addresses
    (SPIR-V's PhysicalStorageBuffer64, core in Vulkan 1.2; Metal's GPU addresses) a kernel
    can take pointers as CUDA kernels do. This pass makes every memref parameter of a kernel
    in device memory an `i64` address (the aligned pointer) followed by `index` values for
    the view's dynamic offset, sizes and strides (static ones are constants), and rewrites
    both sides:
    - each `gpu.launch_func` passes `memref.extract_aligned_pointer_as_index` and the
      dynamic fields of `memref.extract_strided_metadata`;
    - in the kernel, `memref.load` / `memref.store` / `vector.load` / `vector.store` become
      `spirv.ConvertUToPtr` of `base + (offset + sum(index * stride)) * bytes` and
      `spirv.Load` / `spirv.Store` with their alignment (i1 is a byte in memory);
      `memref.dim` becomes the size.
    Views inside kernels are folded into their accesses first (fold-memref-alias-ops); a
    use of such a memref the pass does not know is an error naming the op. Stack arrays of
    kernels (`memref.alloca`) move to SPIR-V's Function storage class.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def SpirvLowerKernels : Pass<"tcc-spirv-lower-kernels", "mlir::ModuleOp"> {
  let summary = "Each gpu.module to a SPIR-V compute module, serialized into a gpu.binary";
  let description = [{
    Runs after tcc-spirv-address-buffers. Each `gpu.module` is converted to a `spirv.module`
    (Logical addressing with PhysicalStorageBuffer64, the GLSL450 memory model, SPIR-V 1.5
    for Vulkan 1.2) with upstream's patterns for gpu (ids, barriers, subgroup shuffles), scf
    (structured control flow), arith, math (GLSL.std.450), vector and workgroup / function
    memory. A kernel's parameters become push constants of 8-byte slots, slot k holding
    parameter k (an i32 or f32 in its low 4 bytes), which is what tcc-gpu-lower-launches'
    argument array points to: the runtime copies the slots in order (vkCmdPushConstants).
    Vulkan promises 128 bytes (16 slots): a kernel with more parameters reads slots 0-14
    there and the rest from device memory at the address in slot 15, which the runtime
    fills at each launch (model_abi.h, TCC_IMAGE_SPIRV). The local size is the grid's
    block size (`known_block_size`). The module is serialized and replaces the
    `gpu.module` as a `gpu.binary` with one object (its target the `#spirv.target_env`),
    which tcc-gpu-lower-launches embeds as a `spirv` image for architecture `arch` (the
    object's `arch` property): "vulkan1.2", kernels without subgroup operations (any Vulkan
    1.2 device, CPU implementations included), or "vulkan1.2-subgroups", kernels whose warp
    reductions need subgroups of at least 32 invocations.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"\"vulkan1.2\"",
           "the image's architecture: vulkan1.2 or vulkan1.2-subgroups">,
  ];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect", "::mlir::gpu::GPUDialect"];
}

#endif // TCC_TARGET_SPIRV_PASSES
