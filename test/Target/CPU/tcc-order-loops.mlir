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

// A row reduction (every input reads the reduced dim last: LayerNorm's sums, global
// pooling) keeps its rows outside, for threads, and the row innermost; the accumulation is
// marked reassociable so that LLVM vectorizes it with partial sums.
// CHECK-LABEL: func.func @row_sum
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
#rin = affine_map<(i, k) -> (i, k)>
#rout = affine_map<(i, k) -> (i)>
func.func @row_sum(%a: memref<64x3136xf32>, %b: memref<64xf32>) {
  linalg.generic {indexing_maps = [#rin, #rout], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x3136xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// A column reduction (the reduced dim is not the input's last) walks the output's
// fastest dim innermost instead, and keeps its exact order of additions.
// CHECK-LABEL: func.func @column_sum
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK-NOT: fastmath
#cin = affine_map<(j, k) -> (k, j)>
#cout = affine_map<(j, k) -> (j)>
func.func @column_sum(%a: memref<128x64xf32>, %b: memref<64xf32>) {
  linalg.generic {indexing_maps = [#cin, #cout], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<128x64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}
