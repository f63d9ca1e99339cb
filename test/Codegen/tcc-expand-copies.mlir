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
