// RUN: tcc-opt %s --tcc-order-loops | FileCheck %s
// A matmul's loops become (i, k, j): the reduction moves out, the output's last dim in.

// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// Maps without a reduction keep their order.
// CHECK-LABEL: func.func @copy
// CHECK: linalg.copy
func.func @copy(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  linalg.copy ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>)
  return
}
