// RUN: tcc-opt %s --tcc-gpu-merge-modules | FileCheck %s

// Two outlined kernels of one function share a name in their own modules: in the merged
// module each takes its module's name, and the launches follow.
// CHECK: gpu.module @tcc_kernels {
// CHECK-DAG: gpu.func @k_kernel(
// CHECK-DAG: gpu.func @k_kernel_0(
// CHECK-NOT: gpu.module @k_kernel
// CHECK: gpu.launch_func @tcc_kernels::@k_kernel blocks
// CHECK: gpu.launch_func @tcc_kernels::@k_kernel_0 blocks
module attributes {gpu.container_module} {
  gpu.module @k_kernel {
    gpu.func @k_kernel(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @k_kernel_0 {
    gpu.func @k_kernel(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @k(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k_kernel::@k_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @k_kernel_0::@k_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}
