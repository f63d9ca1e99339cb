// RUN: tcc-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tcc-amd-lower-kernels),gpu-module-to-binary{format=llvm},tcc-amd-assemble)' --verify-diagnostics | FileCheck %s

// (The failing case comes first: LLD in-process resets the process's cl::opts, tcc-opt's
// --pass-pipeline among them, so that later splits would run no pass.)

// A call of a function the kernels do not define (a device-library function would be one:
// tcc's kernels use polynomial math) is an error naming it.
module attributes {gpu.container_module} {
  // expected-error @+1 {{the kernels for gfx942 call a function they do not define (tcc_helper): device code must not use the ROCm device library}}
  gpu.module @tcc_kernels [#rocdl.target<chip = "gfx942">] {
    llvm.func @tcc_helper(f32) -> f32
    gpu.func @call(%x: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<256xf32>
      %b = llvm.call @tcc_helper(%a) : (f32) -> f32
      memref.store %b, %x[%i] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

// Bitcode per #rocdl.target becomes an HSA code object made in-process (AMDGPU back end,
// then LLD): an ELF (EM_AMDGPU = 0xE0, ELFOSABI_AMDGPU_HSA = 0x40) replacing the bitcode.
// CHECK: gpu.binary @tcc_kernels [#gpu.object<#rocdl.target<chip = "gfx90a", abi = "500">, bin = "\7FELF\02\01\01@\03\00\00\00\00\00\00\00\03\00\E0\00
// CHECK-SAME: #gpu.object<#rocdl.target<chip = "gfx1100", abi = "500">, bin = "\7FELF\02\01\01@\03\00\00\00\00\00\00\00\03\00\E0\00
// CHECK-NOT: offload =
module attributes {gpu.container_module} {
  gpu.module @tcc_kernels [#rocdl.target<chip = "gfx90a", abi = "500">, #rocdl.target<chip = "gfx1100", abi = "500">] {
    gpu.func @double(%x: memref<256xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<256xf32>
      %b = arith.addf %a, %a : f32
      memref.store %b, %x[%i] : memref<256xf32>
      gpu.return
    }
  }
}
