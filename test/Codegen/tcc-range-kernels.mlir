// RUN: tcc-opt %s --tcc-range-kernels | FileCheck %s
// A kernel whose body is one scf.parallel runs a [begin, end) range of its first loop;
// calls pass the whole range and the kernel is listed for parallel_for. @main gets the
// import table as its first argument.

// CHECK: module attributes {tcc.parallel_kernels = [{extent = 8 : i64, name = "kernel_0"}]}
// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[A:.*]]: memref<8x4xf32>, %[[BEGIN:.*]]: index, %[[END:.*]]: index)
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[BEGIN]], %{{.*}}) to (%[[END]], %{{.*}})
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[X:.*]]: memref<8x4xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: call @kernel_0(%[[X]], %[[ZERO]], %[[EIGHT]])
func.func private @kernel_0(%a: memref<8x4xf32>) attributes {tcc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
    memref.store %one, %a[%i, %j] : memref<8x4xf32>
    scf.reduce
  }
  return
}
func.func @main(%x: memref<8x4xf32>) {
  call @kernel_0(%x) : (memref<8x4xf32>) -> ()
  return
}
