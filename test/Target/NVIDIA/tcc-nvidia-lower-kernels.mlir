// RUN: tcc-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tcc-nvidia-lower-kernels))' | FileCheck %s

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

// -----

// Block tiles of 256 threads with workgroup buffers ask ptxas for two blocks per SM
// (nvvm.minctasm = 2: at most 128 registers a thread); a kernel of another block size, one
// without workgroup memory, or tensor-core tiles (ldmatrix, mma.sync) do not.
// CHECK-LABEL: llvm.func @tiles
// CHECK-SAME: nvvm.minctasm = 2
// CHECK-LABEL: llvm.func @other_size
// CHECK-NOT: nvvm.minctasm
// CHECK-LABEL: llvm.func @no_workgroup
// CHECK-NOT: nvvm.minctasm
// CHECK-LABEL: llvm.func @matrix_tiles
// CHECK-NOT: nvvm.minctasm
module attributes {gpu.container_module} {
  gpu.module @tcc_kernels {
    gpu.func @tiles(%x: memref<64xf32>) workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %a = memref.load %x[%c0] : memref<64xf32>
      memref.store %a, %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @other_size(%x: memref<64xf32>) workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %a = memref.load %x[%c0] : memref<64xf32>
      memref.store %a, %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @no_workgroup(%x: memref<64xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %a = memref.load %x[%c0] : memref<64xf32>
      memref.store %a, %x[%c0] : memref<64xf32>
      gpu.return
    }
    gpu.func @matrix_tiles(%x: memref<64xi32>, %p: !llvm.ptr<3>) workgroup(%tile: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %l = nvvm.ldmatrix %p {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 1 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> i32
      memref.store %l, %x[%c0] : memref<64xi32>
      gpu.return
    }
  }
}
