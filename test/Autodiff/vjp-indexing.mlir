// RUN: tcc-opt %s --tcc-test-vjp | FileCheck %s
// VJP rules of sort, scatter, compact, strided slices, cumulative prod/max/min and reduce prod
// (with exact zeros) against central finite differences in f64.

// Values are sorted along either dim, ascending or descending; indices carry no gradient.
// CHECK-DAG: @sort: ok
func.func @sort(%x: tensor<3x5xf64>) -> (tensor<3x5xf64>, tensor<3x5xf64>) {
  %0:2 = prim.sort %x dim = 1 : tensor<3x5xf64> -> tensor<3x5xf64>, tensor<3x5xi64>
  %1:2 = prim.sort %x dim = 0 {descending} : tensor<3x5xf64> -> tensor<3x5xf64>, tensor<3x5xi64>
  return %0#0, %1#0 : tensor<3x5xf64>, tensor<3x5xf64>
}

// CHECK-DAG: @sort_dynamic: ok
func.func @sort_dynamic(%x: tensor<?x4xf64>) -> tensor<?x4xf64> attributes {tcc.test_shapes = [array<i64: 3, 4>]} {
  %0:2 = prim.sort %x dim = 1 {descending} : tensor<?x4xf64> -> tensor<?x4xf64>, tensor<?x4xi64>
  return %0#0 : tensor<?x4xf64>
}

// Overwriting scatter of rows (K = 1): place 1 is written by rows 0 and 2 (row 2 wins, so
// row 0's update gets no gradient), row 3 is out of range (skipped).
// CHECK-DAG: @scatter_rows: ok
func.func @scatter_rows(%x: tensor<5x3xf64>, %u: tensor<4x3xf64>) -> tensor<5x3xf64> {
  %i = arith.constant dense<[[1], [3], [1], [7]]> : tensor<4x1xi64>
  %0 = prim.scatter %x[%i], %u : (tensor<5x3xf64>, tensor<4x1xi64>, tensor<4x3xf64>) -> tensor<5x3xf64>
  return %0 : tensor<5x3xf64>
}

// Elements (K = 2) with batch dims 2x2 and i32 indices, duplicates, a negative index.
// CHECK-DAG: @scatter_elements: ok
func.func @scatter_elements(%x: tensor<3x4xf64>, %u: tensor<2x2xf64>, %v: tensor<5xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>) {
  %i = arith.constant dense<[[[0, 1], [2, 3]], [[0, 1], [-1, 0]]]> : tensor<2x2x2xi32>
  %0 = prim.scatter %x[%i], %u : (tensor<3x4xf64>, tensor<2x2x2xi32>, tensor<2x2xf64>) -> tensor<3x4xf64>
  %j = arith.constant dense<[[0, 1], [2, 3], [0, 1], [1, 4], [2, 0]]> : tensor<5x2xi64>
  %1 = prim.scatter %x[%j], %v combine = sum : (tensor<3x4xf64>, tensor<5x2xi64>, tensor<5xf64>) -> tensor<3x4xf64>
  return %0, %1 : tensor<3x4xf64>, tensor<3x4xf64>
}

// CHECK-DAG: @scatter_dynamic: ok
func.func @scatter_dynamic(%x: tensor<?x3xf64>, %u: tensor<3x3xf64>) -> (tensor<?x3xf64>, tensor<?x3xf64>) attributes {tcc.test_shapes = [array<i64: 4, 3>, array<i64: 3, 3>]} {
  %i = arith.constant dense<[[2], [0], [2]]> : tensor<3x1xi64>
  %0 = prim.scatter %x[%i], %u : (tensor<?x3xf64>, tensor<3x1xi64>, tensor<3x3xf64>) -> tensor<?x3xf64>
  %1 = prim.scatter %x[%i], %u combine = sum : (tensor<?x3xf64>, tensor<3x1xi64>, tensor<3x3xf64>) -> tensor<?x3xf64>
  return %0, %1 : tensor<?x3xf64>, tensor<?x3xf64>
}

// Compaction along either dim (the result extent is data-dependent).
// CHECK-DAG: @compact: ok
func.func @compact(%x: tensor<5x3xf64>, %y: tensor<2x4xf64>) -> (tensor<?x3xf64>, tensor<2x?xf64>) {
  %m = arith.constant dense<[true, false, true, true, false]> : tensor<5xi1>
  %0 = prim.compact %x, %m dim = 0 : (tensor<5x3xf64>, tensor<5xi1>) -> tensor<?x3xf64>
  %n = arith.constant dense<[false, true, false, true]> : tensor<4xi1>
  %1 = prim.compact %y, %n dim = 1 : (tensor<2x4xf64>, tensor<4xi1>) -> tensor<2x?xf64>
  return %0, %1 : tensor<?x3xf64>, tensor<2x?xf64>
}

// Strided slices: static, and a dynamic offset and size (rows 1, 3, 5 of 8; row 7 unread).
// CHECK-DAG: @strided_slice: ok
func.func @strided_slice(%x: tensor<7x6xf64>, %y: tensor<?x5xf64>) -> (tensor<3x2xf64>, tensor<?x2xf64>) attributes {tcc.test_shapes = [array<i64: 7, 6>, array<i64: 8, 5>]} {
  %0 = prim.slice %x [1, 0] [3, 2] strides [2, 3] : tensor<7x6xf64> -> tensor<3x2xf64>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = prim.dim %y, 0 : tensor<?x5xf64>
  %m = arith.subi %n, %c1 : index
  %s = arith.divsi %m, %c2 : index
  %1 = prim.slice %y [%c1, 1] [%s, 2] strides [2, 2] : tensor<?x5xf64> -> tensor<?x2xf64>
  return %0, %1 : tensor<3x2xf64>, tensor<?x2xf64>
}

// CHECK-DAG: @cumulative: ok
func.func @cumulative(%x: tensor<2x5xf64>) -> (tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>) attributes {tcc.test_range = [-1.0, 1.0]} {
  %0 = prim.cumulative prod %x dim = 1 : tensor<2x5xf64>
  %1 = prim.cumulative prod %x dim = 1 {exclusive, reverse} : tensor<2x5xf64>
  %2 = prim.cumulative max %x dim = 1 : tensor<2x5xf64>
  %3 = prim.cumulative min %x dim = 1 {exclusive} : tensor<2x5xf64>
  %4 = prim.cumulative max %x dim = 0 {reverse} : tensor<2x5xf64>
  %5 = prim.cumulative min %x dim = 1 {reverse} : tensor<2x5xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>, tensor<2x5xf64>
}

// CHECK-DAG: @cumulative_dynamic: ok
func.func @cumulative_dynamic(%x: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) attributes {tcc.test_shapes = [array<i64: 6>], tcc.test_range = [-1.0, 1.0]} {
  %0 = prim.cumulative prod %x dim = 0 {exclusive} : tensor<?xf64>
  %1 = prim.cumulative max %x dim = 0 : tensor<?xf64>
  return %0, %1 : tensor<?xf64>, tensor<?xf64>
}

// Products through exact zeros: the inputs are all 0 (test_range), so x + c has the values of
// c exactly, one or two of them zero; no rule may divide by an element.
// CHECK-DAG: @products_with_zeros: ok
func.func @products_with_zeros(%x: tensor<2x5xf64>) -> (tensor<2x5xf64>, tensor<2x5xf64>, tensor<2xf64>, tensor<f64>) attributes {tcc.test_range = [0.0, 0.0]} {
  %c = arith.constant dense<[[2.0, 0.0, 3.0, 0.5, 1.5], [0.0, 1.25, 0.0, 2.0, 0.75]]> : tensor<2x5xf64>
  %y = prim.add %x, %c : tensor<2x5xf64>
  %0 = prim.cumulative prod %y dim = 1 : tensor<2x5xf64>
  %1 = prim.cumulative prod %y dim = 1 {exclusive, reverse} : tensor<2x5xf64>
  %2 = prim.reduce prod %y dims = [1] : tensor<2x5xf64> -> tensor<2xf64>
  %3 = prim.reduce prod %y dims = [0, 1] : tensor<2x5xf64> -> tensor<f64>
  return %0, %1, %2, %3 : tensor<2x5xf64>, tensor<2x5xf64>, tensor<2xf64>, tensor<f64>
}

// reduce prod over non-trailing dims, dynamic.
// CHECK-DAG: @reduce_prod: ok
func.func @reduce_prod(%x: tensor<3x?x2xf64>) -> (tensor<?xf64>, tensor<3xf64>) attributes {tcc.test_shapes = [array<i64: 3, 4, 2>]} {
  %0 = prim.reduce prod %x dims = [2, 0] : tensor<3x?x2xf64> -> tensor<?xf64>
  %1 = prim.reduce prod %x dims = [1, 2] : tensor<3x?x2xf64> -> tensor<3xf64>
  return %0, %1 : tensor<?xf64>, tensor<3xf64>
}

// CHECK-DAG: @expm1_log1p: ok
func.func @expm1_log1p(%x: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %0 = prim.expm1 %x : tensor<4xf64>
  %1 = prim.log1p %x : tensor<4xf64>
  return %0, %1 : tensor<4xf64>, tensor<4xf64>
}
