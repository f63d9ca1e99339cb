// RUN: tcc-opt %s --pass-pipeline='builtin.module(gpu.module(tcc-amd-lower-kernels))' | FileCheck %s

// A kernel to ROCDL: multiplies and adds may contract into v_fma_f32, workgroup buffers are
// 16-byte aligned globals of address space 3 (LDS), math lowers to LLVM intrinsics rather
// than the ROCm device library's __ocml_* calls (floor and sqrt too, which upstream's
// legality forbids), a barrier is rocdl.barrier (s_barrier between workgroup fences), a warp reduction is 5 butterfly shuffles
// (ds_bpermute within 32 lanes), and the known block size becomes the flat work-group size.
// CHECK: llvm.mlir.global internal @__wg_dot_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x f32>
// CHECK-LABEL: llvm.func @dot
// CHECK-SAME: rocdl.flat_work_group_size = "256,256"
// CHECK-SAME: rocdl.kernel
// CHECK: %[[P:.*]] = llvm.fmul %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: llvm.fadd %{{.*}}, %[[P]] {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK: rocdl.barrier
// CHECK: llvm.intr.sqrt(%{{.*}}) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
// CHECK: llvm.intr.floor(%{{.*}}) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
// CHECK-COUNT-5: rocdl.ds_bpermute
// CHECK-NOT: rocdl.ds_bpermute
// CHECK-NOT: __ocml_
module attributes {gpu.container_module} {
  gpu.module @tcc_kernels [#rocdl.target<chip = "gfx942">] {
    gpu.func @dot(%x: memref<64xf32>, %y: memref<64xf32>) workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
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
      %f = math.floor %r : f32
      %sum = gpu.subgroup_reduce add %f uniform : (f32) -> f32
      memref.store %sum, %y[%c1] : memref<64xf32>
      gpu.return
    }
  }
}

