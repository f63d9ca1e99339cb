// RUN: tcc-opt %s --tcc-range-kernels=min-parallel-work=0 | FileCheck %s
// Views of the arguments made in front of the loop (tcc-collapse-dims' collapse_shape, a
// pad's subview) do not keep a kernel from running ranges; an extent that is a dim of such a
// view is computed by the caller on the same view of what it passes.

// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%{{.*}}: memref<?x4x4xf32>, %[[BEGIN:.*]]: index, %[[END:.*]]: index)
// CHECK: memref.collapse_shape
// CHECK: scf.parallel (%{{.*}}) = (%[[BEGIN]]) to (%[[END]])
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%{{.*}}: memref<8x8xf32>, %{{.*}}: memref<10x10xf32>, %[[BEGIN1:.*]]: index, %[[END1:.*]]: index)
// CHECK: memref.subview
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[BEGIN1]], %{{.*}}) to (%[[END1]], %{{.*}})
// CHECK-LABEL: func.func @main
// CHECK: %[[V:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1], [2]]
// CHECK: %[[D:.*]] = memref.dim %[[V]], %{{.*}}
// CHECK: kernel.launch @kernel_0(%arg1) range(%[[D]])
// CHECK: kernel.launch @kernel_1(%arg2, %arg3) range(%{{.*}})
func.func private @kernel_0(%a: memref<?x4x4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %rows = memref.collapse_shape %a [[0, 1], [2]] : memref<?x4x4xf32> into memref<?x4xf32>
  %n = memref.dim %rows, %c0 : memref<?x4xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %one, %rows[%i, %c0] : memref<?x4xf32>
    scf.reduce
  }
  return
}
func.func private @kernel_1(%x: memref<8x8xf32>, %padded: memref<10x10xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %inner = memref.subview %padded[1, 1] [8, 8] [1, 1] : memref<10x10xf32> to memref<8x8xf32, strided<[10, 1], offset: 11>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c8) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<8x8xf32>
    memref.store %v, %inner[%i, %j] : memref<8x8xf32, strided<[10, 1], offset: 11>>
    scf.reduce
  }
  return
}
func.func @main(%a: memref<?x4x4xf32>, %x: memref<8x8xf32>, %padded: memref<10x10xf32>) {
  kernel.launch @kernel_0(%a) : memref<?x4x4xf32>
  kernel.launch @kernel_1(%x, %padded) : memref<8x8xf32>, memref<10x10xf32>
  return
}

// RUN: tcc-opt %s --tcc-range-kernels | FileCheck %s --check-prefix=SMALL
// With the default threshold these kernels (a few hundred ops) are too small to split.
// SMALL: func.func private @kernel_0(%{{.*}}: memref<?x4x4xf32>) attributes
// SMALL-NOT: kernel.launch
