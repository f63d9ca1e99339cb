// RUN: tcc-opt %s --tcc-test-vjp | FileCheck %s
// VJP rules of data movement, reductions, scans and contractions against central finite
// differences in f64, including broadcasting and dynamic extents (tcc.test_shapes gives the
// extents used for `?`).

// CHECK-DAG: @movement: ok
func.func @movement(%x: tensor<2x3xf64>, %y: tensor<1x3xf64>) -> (tensor<3x2xf64>, tensor<6xf64>, tensor<4x2x3xf64>, tensor<2x2xf64>, tensor<3x5xf64>, tensor<3x3xf64>, tensor<2x3xf64>) {
  %0 = prim.transpose %x, [1, 0] : tensor<2x3xf64> -> tensor<3x2xf64>
  %1 = prim.reshape %x : (tensor<2x3xf64>) -> tensor<6xf64>
  %2 = prim.broadcast_in_dim %y, dims = [1, 2] : (tensor<1x3xf64>) -> tensor<4x2x3xf64>
  %3 = prim.slice %x [0, 1] [2, 2] strides [1, 1] : tensor<2x3xf64> -> tensor<2x2xf64>
  %p = arith.constant dense<0.0> : tensor<f64>
  %4 = prim.pad %x, %p low [1, 0] high [0, 2] : (tensor<2x3xf64>, tensor<f64>) -> tensor<3x5xf64>
  %5 = prim.concatenate %x, %y dim = 0 : (tensor<2x3xf64>, tensor<1x3xf64>) -> tensor<3x3xf64>
  %6 = prim.reverse %x, dims = [1] : tensor<2x3xf64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3x2xf64>, tensor<6xf64>, tensor<4x2x3xf64>, tensor<2x2xf64>, tensor<3x5xf64>, tensor<3x3xf64>, tensor<2x3xf64>
}

// The pad value gets the sum of the padded positions' cotangents.
// CHECK-DAG: @pad_value: ok
func.func @pad_value(%x: tensor<2x2xf64>, %v: tensor<f64>) -> tensor<4x3xf64> {
  %0 = prim.pad %x, %v low [1, 1] high [1, 0] : (tensor<2x2xf64>, tensor<f64>) -> tensor<4x3xf64>
  return %0 : tensor<4x3xf64>
}

// Repeated indices accumulate.
// CHECK-DAG: @gather: ok
func.func @gather(%x: tensor<3x4x2xf64>) -> (tensor<3x5x2xf64>, tensor<2x2x4x2xf64>) {
  %i = arith.constant dense<[0, 3, 3, 1, 0]> : tensor<5xi64>
  %0 = prim.gather %x[%i] axis = 1 : (tensor<3x4x2xf64>, tensor<5xi64>) -> tensor<3x5x2xf64>
  %j = arith.constant dense<[[2, 0], [2, 2]]> : tensor<2x2xi64>
  %1 = prim.gather %x[%j] axis = 0 : (tensor<3x4x2xf64>, tensor<2x2xi64>) -> tensor<2x2x4x2xf64>
  return %0, %1 : tensor<3x5x2xf64>, tensor<2x2x4x2xf64>
}

// CHECK-DAG: @reductions: ok
func.func @reductions(%x: tensor<3x4xf64>) -> (tensor<3xf64>, tensor<4xf64>, tensor<3xf64>, tensor<f64>) {
  %0 = prim.reduce sum %x dims = [1] : tensor<3x4xf64> -> tensor<3xf64>
  %1 = prim.reduce max %x dims = [0] : tensor<3x4xf64> -> tensor<4xf64>
  %2 = prim.reduce min %x dims = [1] : tensor<3x4xf64> -> tensor<3xf64>
  %3 = prim.reduce prod %x dims = [0, 1] : tensor<3x4xf64> -> tensor<f64>
  return %0, %1, %2, %3 : tensor<3xf64>, tensor<4xf64>, tensor<3xf64>, tensor<f64>
}

// CHECK-DAG: @cumulative: ok
func.func @cumulative(%x: tensor<2x5xf64>) -> (tensor<2x5xf64>, tensor<2x5xf64>) {
  %0 = prim.cumulative sum %x dim = 1 : tensor<2x5xf64>
  %1 = prim.cumulative sum %x dim = 1 {exclusive, reverse} : tensor<2x5xf64>
  return %0, %1 : tensor<2x5xf64>, tensor<2x5xf64>
}

// Batched matmul, a contraction over two dims, and a transposed operand.
// CHECK-DAG: @dot_general: ok
func.func @dot_general(%a: tensor<2x3x4xf64>, %b: tensor<2x4x5xf64>, %c: tensor<4x2x3xf64>, %d: tensor<5x3xf64>) -> (tensor<2x3x5xf64>, tensor<f64>, tensor<5x4x2xf64>) {
  %0 = prim.dot_general %a, %b contracting = [2] x [1] batching = [0] x [0] : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>
  %1 = prim.dot_general %a, %c contracting = [0, 1, 2] x [1, 2, 0] batching = [] x [] : (tensor<2x3x4xf64>, tensor<4x2x3xf64>) -> tensor<f64>
  %2 = prim.dot_general %d, %c contracting = [1] x [2] batching = [] x [] : (tensor<5x3xf64>, tensor<4x2x3xf64>) -> tensor<5x4x2xf64>
  return %0, %1, %2 : tensor<2x3x5xf64>, tensor<f64>, tensor<5x4x2xf64>
}

// Dynamic extents: a [?, 3] input broadcast against [?, 1] and reduced.
// CHECK-DAG: @dynamic: ok
func.func @dynamic(%x: tensor<?x3xf64>, %y: tensor<?x1xf64>) -> (tensor<?xf64>, tensor<?x3xf64>) attributes {tcc.test_shapes = [array<i64: 4, 3>, array<i64: 4, 1>]} {
  %c0 = arith.constant 0 : index
  %n = prim.dim %x, 0 : tensor<?x3xf64>
  %b = prim.broadcast_in_dim %y, dims = [0, 1] sizes(%n) : (tensor<?x1xf64>) -> tensor<?x3xf64>
  %m = prim.mul %x, %b : tensor<?x3xf64>
  %e = prim.exp %m : tensor<?x3xf64>
  %0 = prim.reduce sum %e dims = [1] : tensor<?x3xf64> -> tensor<?xf64>
  return %0, %m : tensor<?xf64>, tensor<?x3xf64>
}
