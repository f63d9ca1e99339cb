// RUN: tcc-opt %s --split-input-file --tcc-fold-weights | FileCheck %s

// Gemm with transB = 1: the constant weight [N, K] is transposed to [K, N] at compile time
// so the result's fastest dim is the weight's last; the transpose is evaluated away.
// CHECK-LABEL: func.func @main
// CHECK-NOT: prim.transpose
// CHECK: %[[WT:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK: prim.dot_general %arg0, %[[WT]] contracting = [1] x [0] batching = [] x []
func.func @main(%x: tensor<5x3xf32>) -> tensor<5x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = prim.dot_general %x, %w contracting = [1] x [1] batching = [] x [] : (tensor<5x3xf32>, tensor<2x3xf32>) -> tensor<5x2xf32>
  return %y : tensor<5x2xf32>
}

// -----

// A chain of weight-only ops folds in order (a BatchNorm scale into a filter); an op that
// reads an input stays; a broadcast, which would grow the weights, stays code.
// CHECK-LABEL: func.func @main
// CHECK: %[[S:.*]] = arith.constant dense<[2.000000e+00, 6.000000e+00, 1.200000e+01]> : tensor<3xf32>
// CHECK: %[[T:.*]] = arith.constant dense<[4.000000e+00, 1.200000e+01, 2.400000e+01]> : tensor<3xf32>
// CHECK: %[[B:.*]] = prim.broadcast_in_dim %[[T]]
// CHECK: prim.mul %arg0, %[[B]]
func.func @main(%x: tensor<100x3xf32>) -> tensor<100x3xf32> {
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = arith.constant dense<[2.0, 3.0, 4.0]> : tensor<3xf32>
  %s = prim.mul %a, %b : tensor<3xf32>
  %t = prim.add %s, %s : tensor<3xf32>
  %bt = prim.broadcast_in_dim %t, dims = [1] : (tensor<3xf32>) -> tensor<100x3xf32>
  %y = prim.mul %x, %bt : tensor<100x3xf32>
  return %y : tensor<100x3xf32>
}

// -----

// Beyond 256 elements the folded value is a resource blob, not inline elements.
// CHECK-LABEL: func.func @main
// CHECK: %[[W:.*]] = arith.constant dense_resource<folded{{.*}}> : tensor<17x16xf32>
// CHECK: prim.dot_general %arg0, %[[W]] contracting = [1] x [0]
func.func @main(%x: tensor<2x17xf32>) -> tensor<2x16xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0], [2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0], [2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<16x17xf32>
  %y = prim.dot_general %x, %w contracting = [1] x [1] batching = [] x [] : (tensor<2x17xf32>, tensor<16x17xf32>) -> tensor<2x16xf32>
  return %y : tensor<2x16xf32>
}

// -----

// Ops on strings stay code: a folded format would be a constant of texts (which compiled code
// cannot hold), and text semantics belong to the runtime (case mapping follows the running
// machine's C.UTF-8 tables).
// CHECK-LABEL: func.func @main
// CHECK: prim.format
// CHECK: prim.reshape
// CHECK: prim.parse
// CHECK: prim.string_in
func.func @main() -> (tensor<2x1x!prim.string>, tensor<2xf32>, tensor<2xi1>) {
  %a = arith.constant dense<[1.5, 2.0]> : tensor<2xf32>
  %s = prim.format %a : tensor<2xf32> to tensor<2x!prim.string>
  %r = prim.reshape %s : (tensor<2x!prim.string>) -> tensor<2x1x!prim.string>
  %t = arith.constant dense<["1.5", "2"]> : tensor<2x!prim.string>
  %x = prim.parse %t : tensor<2x!prim.string> to tensor<2xf32>
  %m = prim.string_in %t set = ["2"] ignore_case = true : tensor<2x!prim.string>
  return %r, %x, %m : tensor<2x1x!prim.string>, tensor<2xf32>, tensor<2xi1>
}

// -----

// A quantized convolution's requantization scale, w_scale[c] * x_scale / y_scale, each
// factor broadcast to the activation's shape (its batch dynamic): each op is computed on
// its operands' union of dims ([c]) and folded, then broadcast, so the run time reads a
// [3] constant. An op that reads a value other than a broadcast constant stays.
// CHECK-LABEL: func.func @main
// CHECK: %[[R:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK: %[[B:.*]] = prim.broadcast_in_dim %[[R]], dims = [1] sizes(%{{.*}}) : (tensor<3xf32>) -> tensor<?x3x5xf32>
// CHECK-NOT: prim.div
// CHECK: prim.mul %arg0, %[[B]]
func.func @main(%x: tensor<?x3x5xf32>, %n: index) -> tensor<?x3x5xf32> {
  %ws = arith.constant dense<[0.5, 1.0, 2.0]> : tensor<3xf32>
  %xs = arith.constant dense<4.0> : tensor<f32>
  %ys = arith.constant dense<2.0> : tensor<f32>
  %wsb = prim.broadcast_in_dim %ws, dims = [1] sizes(%n) : (tensor<3xf32>) -> tensor<?x3x5xf32>
  %xsb = prim.broadcast_in_dim %xs, dims = [] sizes(%n) : (tensor<f32>) -> tensor<?x3x5xf32>
  %ysb = prim.broadcast_in_dim %ys, dims = [] sizes(%n) : (tensor<f32>) -> tensor<?x3x5xf32>
  %p = prim.mul %xsb, %wsb : tensor<?x3x5xf32>
  %r = prim.div %p, %ysb : tensor<?x3x5xf32>
  %y = prim.mul %x, %r : tensor<?x3x5xf32>
  return %y : tensor<?x3x5xf32>
}

// -----

// A depthwise filter minus its per-channel zero points: w - broadcast(zw) to [32, 1, 3, 3]
// (288 elements, more than zw's 32 and than an inline constant), then converted. The
// broadcast alone would grow, so fold() leaves it; the subtraction is folded with the
// broadcast evaluated inside (no larger than w), then the conversion; the broadcast, read
// by nothing else, goes. Its first values: w[0, 0, 0, 0..2] - zw[0] = -5 + 1, 0 + 1, 5 + 1.
// CHECK-LABEL: func.func @main
// CHECK-NOT: prim.broadcast_in_dim
// CHECK-NOT: prim.sub
// CHECK: %[[W:.*]] = arith.constant dense_resource<{{folded.*}}> : tensor<32x1x3x3xf32>
// CHECK: return %[[W]]
// CHECK: 0x04000000000080C00000803F0000C040
func.func @main() -> tensor<32x1x3x3xf32> {
  %w = arith.constant dense<[-5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0, 5, -1, 4, -2, 3, -3, 2, -4, 1, -5, 0]> : tensor<288xi32>
  %w4 = prim.reshape %w : (tensor<288xi32>) -> tensor<32x1x3x3xi32>
  %zw = arith.constant dense<[-1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0]> : tensor<32xi32>
  %zb = prim.broadcast_in_dim %zw, dims = [0] : (tensor<32xi32>) -> tensor<32x1x3x3xi32>
  %d = prim.sub %w4, %zb : tensor<32x1x3x3xi32>
  %f = prim.convert %d : tensor<32x1x3x3xi32> to tensor<32x1x3x3xf32>
  return %f : tensor<32x1x3x3xf32>
}
