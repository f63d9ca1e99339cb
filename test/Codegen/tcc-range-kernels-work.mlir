// RUN: tcc-opt %s --tcc-range-kernels | FileCheck %s
// Which kernels threads split (default min-parallel-work, 32768 estimated ops). A dynamic
// extent counts 64, but a dim of a collapse_shape counts the static extents it merged: a
// flattened fill of ? x 96 x 114 x 114 floats is large (ranged); 16 x ? floats is not.

// CHECK: module attributes {tcc.parallel_kernels = ["flat_fill"]}
// CHECK-LABEL: func.func private @flat_fill
// CHECK-SAME: %{{.*}}: index, %{{.*}}: index)
// CHECK-LABEL: func.func private @small
// CHECK-SAME: (%{{.*}}: memref<16x?xf32>)
func.func private @flat_fill(%padded: memref<?x96x114x114xf32>) attributes {tcc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %flat = memref.collapse_shape %padded [[0, 1, 2, 3]] : memref<?x96x114x114xf32> into memref<?xf32>
  %n = memref.dim %flat, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %flat[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
func.func private @small(%a: memref<16x?xf32>) attributes {tcc.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %a, %c1 : memref<16x?xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %zero, %a[%i, %j] : memref<16x?xf32>
    }
    scf.reduce
  }
  return
}
func.func @main(%a: memref<2x96x114x114xf32>, %b: memref<16x8xf32>) {
  %dyn = memref.cast %a : memref<2x96x114x114xf32> to memref<?x96x114x114xf32>
  call @flat_fill(%dyn) : (memref<?x96x114x114xf32>) -> ()
  %bd = memref.cast %b : memref<16x8xf32> to memref<16x?xf32>
  call @small(%bd) : (memref<16x?xf32>) -> ()
  return
}
