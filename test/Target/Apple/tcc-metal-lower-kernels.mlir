// RUN: tcc-opt %s --split-input-file --tcc-metal-lower-kernels --verify-diagnostics | FileCheck %s

// The gpu.module becomes a gpu.binary of the same name holding one MSL text (a property says
// so, and its architecture, metal3), in which each kernel is a translation unit after its
// marker line: `kernel void` with the parameter slots as buffer 0, device memory through
// 64-bit addresses, and only the threadgroup memory of that kernel (@a's tile is not
// declared in @b). A name with "__" (reserved in C++) keeps its kernel name on the marker
// line beside the function SPIRV-Cross names.
// CHECK: gpu.launch_func  @kernels::@a
// CHECK: gpu.launch_func  @kernels::@b__c
// CHECK: gpu.binary @kernels  [#gpu.object<#spirv.target_env<{{.*}}>, properties = {arch = "metal3", format = "msl"}, assembly = "// Metal Shading Language 3.0, made by tcc through SPIR-V and SPIRV-Cross: 2 kernels, each a translation unit of its own after its marker line\0A// tcc-kernel: a a\0A
// CHECK-SAME: #include <metal_stdlib>
// CHECK-SAME: kernel void a(constant [[A:_[0-9]+]]& a_parameters [[B0:\[\[buffer\(0\)\]\]]]
// CHECK-SAME: threadgroup [[TILE:_[0-9]+]] _workgroup_mem
// CHECK-SAME: threadgroup_barrier(mem_flags::mem_threadgroup)
// CHECK-SAME: reinterpret_cast<device float*>(a_parameters._m0)
// CHECK-SAME: // tcc-kernel: b__c b_c\0A
// CHECK-SAME: kernel void b_c(constant {{_[0-9]+}}& b_c_parameters [[B0]])\0A{\0A *(reinterpret_cast<device uint*>(b_c_parameters._m0)) = 1u;\0A}
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @host(%p: i64, %n: index, %x: f32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@a blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%p : i64, %n : index, %x : f32)
    gpu.launch_func @kernels::@b__c blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%p : i64)
    return
  }
  gpu.module @kernels {
    gpu.func @a(%p: i64, %n: index, %x: f32) workgroup(%tile : memref<256xf32, #gpu.address_space<workgroup>>) kernel
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
    gpu.func @b__c(%p: i64) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %one = arith.constant 1 : i32
      %ptr = spirv.ConvertUToPtr %p : i64 to !spirv.ptr<i32, PhysicalStorageBuffer>
      spirv.Store "PhysicalStorageBuffer" %ptr, %one ["Aligned", 4] : i32
      gpu.return
    }
  }
}

// -----

// Metal gives a kernel 32 KiB of threadgroup memory (max-threadgroup-bytes): more is an
// error naming the kernel.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{kernel 'big' needs 40000 bytes of threadgroup memory; Metal gives a kernel 32768}}
    gpu.func @big(%x: f32) workgroup(%tile : memref<10000xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %t = gpu.thread_id x
      memref.store %x, %tile[%t] : memref<10000xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
