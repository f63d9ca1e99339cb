// RUN: tcc-opt %s --split-input-file --tcc-spirv-lower-kernels --verify-diagnostics | FileCheck %s

// The gpu.module becomes a gpu.binary of the same name holding one SPIR-V module (its
// words start with the magic number 0x07230203), its target the Vulkan environment, its
// architecture a property; the launch keeps naming it.
// CHECK: gpu.launch_func  @kernels::@k
// CHECK: gpu.binary @kernels  [#gpu.object<#spirv.target_env<#spirv.vce<v1.5, {{.*}}PhysicalStorageBufferAddresses{{.*}}>, api=Vulkan, {{.*}}>, properties = {arch = "vulkan1.2"}, bin = "\03\02#\07
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @host(%p: i64, %n: index, %x: f32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%p : i64, %n : index, %x : f32)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%p: i64, %n: index, %x: f32) workgroup(%tile : memref<256xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %t = gpu.thread_id x
      memref.store %x, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %y = memref.load %tile[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      %inbounds = arith.cmpi ult, %t, %n : index
      scf.if %inbounds {
        %ptr = spirv.ConvertUToPtr %p : i64 to !spirv.ptr<f32, PhysicalStorageBuffer>
        spirv.Store "PhysicalStorageBuffer" %ptr, %y ["Aligned", 4] : f32
      }
      gpu.return
    }
  }
}

// -----

// The local size comes from the grid's block size; a kernel without one is an internal error.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{internal error: kernel @k has no known block size (tcc-gpu-form-grids)}}
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
