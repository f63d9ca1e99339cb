// RUN: tcc-opt %s --tcc-expand-copies | FileCheck %s
// CHECK-LABEL: func.func @copy
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%arg0 : memref<4x4xf32, strided<[8, 1]>>) outs(%arg1 : memref<4x4xf32>)
func.func @copy(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// Contiguous to contiguous (a result copied into a model output): stays one copy, which
// lowers to a memcpy.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy %arg0, %arg1 : memref<?x960x7x7xf32> to memref<?x960x7x7xf32>
// CHECK-NOT: linalg.copy
func.func @contiguous(%a: memref<?x960x7x7xf32>, %b: memref<?x960x7x7xf32>) {
  memref.copy %a, %b : memref<?x960x7x7xf32> to memref<?x960x7x7xf32>
  return
}

// A channel slice of a concatenation: per image, both sides are one contiguous block of
// 64 x 55 x 55 floats, so the copy is a parallel loop over the images with one memcpy-able
// 1-D copy per block (LLVM does not vectorize the element loops of copies between buffers
// that may alias: they ran as scalar moves).
// CHECK-LABEL: func.func @concat_slice
// CHECK: scf.parallel (%[[N:.*]]) =
// CHECK: memref.subview %arg0[%[[N]], 0, 0, 0] [1, 64, 55, 55]
// CHECK: memref.collapse_shape {{.*}} into memref<193600xf32, strided<[1], offset: ?>>
// CHECK: memref.subview %{{.*}}[%[[N]], 0, 0, 0] [1, 64, 55, 55]
// CHECK: memref.collapse_shape {{.*}} into memref<193600xf32, strided<[1], offset: ?>>
// CHECK: memref.copy {{.*}} : memref<193600xf32, strided<[1], offset: ?>> to memref<193600xf32, strided<[1], offset: ?>>
// CHECK-NOT: linalg.copy
func.func @concat_slice(%a: memref<?x64x55x55xf32>, %b: memref<?x128x55x55xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x64x55x55xf32>
  %s = memref.subview %b[0, 64, 0, 0] [%n, 64, 55, 55] [1, 1, 1, 1] : memref<?x128x55x55xf32> to memref<?x64x55x55xf32, strided<[387200, 3025, 55, 1], offset: 193600>>
  memref.copy %a, %s : memref<?x64x55x55xf32> to memref<?x64x55x55xf32, strided<[387200, 3025, 55, 1], offset: 193600>>
  return
}

// A GPU's kernels (memcpy=false): even a contiguous copy becomes a linalg.copy, which runs
// as a grid.
// RUN: tcc-opt %s --tcc-expand-copies=memcpy=false | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: func.func @contiguous
// LOOPS-NOT: memref.copy
// LOOPS: linalg.copy ins(%arg0 : memref<?x960x7x7xf32>) outs(%arg1 : memref<?x960x7x7xf32>)
