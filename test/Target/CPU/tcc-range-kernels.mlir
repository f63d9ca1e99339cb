// RUN: tcc-opt %s --tcc-range-kernels=min-parallel-work=0 | FileCheck %s
// A kernel whose body is one scf.parallel runs a [begin, end) range of its first loop;
// its calls become kernel.launch over the whole range (run through parallel_for). @main
// gets the import table as its first argument.

// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[A:.*]]: memref<8x4xf32>, %[[BEGIN:.*]]: index, %[[END:.*]]: index)
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[BEGIN]], %{{.*}}) to (%[[END]], %{{.*}})
// A dynamic extent: the caller takes the dim of the buffer it passes (the other dim, 3, is
// too short to be split instead).
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%[[B:.*]]: memref<?x3xf32>, %[[BEGIN1:.*]]: index, %[[END1:.*]]: index)
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[BEGIN1]], %{{.*}}) to (%[[END1]], %{{.*}})
// A kernel with two loops at its top level stays whole.
// CHECK-LABEL: func.func private @kernel_2
// CHECK-SAME: (%{{.*}}: memref<8xf32>) attributes
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[X:.*]]: memref<8x4xf32>, %[[Y:.*]]: memref<?x3xf32>, %[[Z:.*]]: memref<8xf32>)
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: kernel.launch @kernel_0(%[[X]]) range(%[[EIGHT]]) : memref<8x4xf32>
// CHECK: %[[DIM:.*]] = memref.dim %[[Y]], %{{.*}} : memref<?x3xf32>
// CHECK: kernel.launch @kernel_1(%[[Y]]) range(%[[DIM]]) : memref<?x3xf32>
// CHECK: call @kernel_2(%[[Z]]) :
func.func private @kernel_0(%a: memref<8x4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
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
func.func private @kernel_1(%b: memref<?x3xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %b, %c0 : memref<?x3xf32>
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c3) step (%c1, %c1) {
    memref.store %one, %b[%i, %j] : memref<?x3xf32>
    scf.reduce
  }
  return
}
func.func private @kernel_2(%z: memref<8xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %one, %z[%i] : memref<8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %one, %z[%i] : memref<8xf32>
    scf.reduce
  }
  return
}
func.func @main(%x: memref<8x4xf32>, %y: memref<?x3xf32>, %z: memref<8xf32>) {
  kernel.launch @kernel_0(%x) : memref<8x4xf32>
  kernel.launch @kernel_1(%y) : memref<?x3xf32>
  kernel.launch @kernel_2(%z) : memref<8xf32>
  return
}
