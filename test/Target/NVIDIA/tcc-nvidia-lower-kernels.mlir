// RUN: tcc-opt %s --pass-pipeline='builtin.module(gpu.module(tcc-nvidia-lower-kernels))' | FileCheck %s

// A kernel to NVVM: multiplies and adds may contract into fma.rn.f32 (nvcc's -fmad=true),
// workgroup buffers are 16-byte aligned globals of address space 3 (for ld.shared.v4),
// math lowers to LLVM intrinsics rather than libdevice calls, and a barrier is bar.sync.
// CHECK: llvm.mlir.global internal @__wg_dot_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK-LABEL: llvm.func @dot
// CHECK-SAME: nvvm.kernel
// CHECK: %[[P:.*]] = llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: llvm.fadd %{{.*}}, %[[P]] {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: nvvm.barrier0
// CHECK: llvm.intr.sqrt(%{{.*}}) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
// CHECK-NOT: __nv_
module attributes {gpu.container_module} {
  gpu.module @tcc_kernels {
    gpu.func @dot(%x: memref<64xf32>, %y: memref<64xf32>) workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %x[%c0] : memref<64xf32>
      %b = memref.load %x[%c1] : memref<64xf32>
      %acc = memref.load %y[%c0] : memref<64xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      memref.store %s, %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t = memref.load %tile[%c1] : memref<64xf32, #gpu.address_space<workgroup>>
      %r = math.sqrt %t : f32
      memref.store %r, %y[%c1] : memref<64xf32>
      gpu.return
    }
  }
}
