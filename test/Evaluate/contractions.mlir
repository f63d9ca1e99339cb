// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// dot_general and convolution. Expected values by hand, checked with numpy (einsum for the
// contractions, explicit loops over np.pad for the convolutions).

// [[1, 2, 3], [4, 5, 6]] @ [[7, 8], [9, 10], [11, 12]]
// CHECK: @matmul result 0: tensor<2x2xf32> = {{\[\[}}58.0, 64.0], [139.0, 154.0]]
func.func @matmul() -> tensor<2x2xf32> {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]> : tensor<3x2xf32>
  %0 = prim.dot_general %a, %b contracting = [1] x [0] batching = [] x []
      : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// Result dims are batch, lhs free, rhs free, wherever they sit in the operands:
// result[b, i, j] = sum_k lhs[b, i, k] * rhs[k, j, b].
// CHECK: @dot_dims result 0: tensor<2x2x1xf32> = {{\[\[\[}}-4.0], [-4.0]], {{\[\[}}15.0], [19.5]]]
// A @ B^T by contracting dim 1 of both.
// CHECK: @dot_dims result 1: tensor<2x2xf32> = {{\[\[}}-2.0, 4.0], [-2.0, 13.0]]
// CHECK: @dot_dims result 2: tensor<f32> = 32.0
func.func @dot_dims() -> (tensor<2x2x1xf32>, tensor<2x2xf32>, tensor<f32>) {
  %l = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                             [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]> : tensor<2x2x3xf32>
  %r = arith.constant dense<[[[1.0, -1.0]], [[2.0, 0.5]], [[-3.0, 2.0]]]> : tensor<3x1x2xf32>
  %0 = prim.dot_general %l, %r contracting = [2] x [0] batching = [0] x [2]
      : (tensor<2x2x3xf32>, tensor<3x1x2xf32>) -> tensor<2x2x1xf32>
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]]> : tensor<2x3xf32>
  %1 = prim.dot_general %a, %b contracting = [1] x [1] batching = [] x []
      : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %u = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %v = arith.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %2 = prim.dot_general %u, %v contracting = [0] x [0] batching = [] x []
      : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0, %1, %2 : tensor<2x2x1xf32>, tensor<2x2xf32>, tensor<f32>
}

// Integer contractions wrap: 100 * 2 + 100 * 1 = 300 = 44 in i8. An empty contraction is 0.
// Float sums accumulate in double: 2^24 + 1 - 2^24 is 1, not 0 as f32 steps would give.
// CHECK: @dot_accumulate result 0: tensor<i8> = 44
// CHECK: @dot_accumulate result 1: tensor<2x2xf32> = {{\[\[}}0.0, 0.0], [0.0, 0.0]]
// CHECK: @dot_accumulate result 2: tensor<f32> = 1.0
func.func @dot_accumulate() -> (tensor<i8>, tensor<2x2xf32>, tensor<f32>) {
  %a = arith.constant dense<[100, 100]> : tensor<2xi8>
  %b = arith.constant dense<[2, 1]> : tensor<2xi8>
  %0 = prim.dot_general %a, %b contracting = [0] x [0] batching = [] x []
      : (tensor<2xi8>, tensor<2xi8>) -> tensor<i8>
  %e = arith.constant dense<> : tensor<2x0xf32>
  %f = arith.constant dense<> : tensor<0x2xf32>
  %1 = prim.dot_general %e, %f contracting = [1] x [0] batching = [] x []
      : (tensor<2x0xf32>, tensor<0x2xf32>) -> tensor<2x2xf32>
  %u = arith.constant dense<[16777216.0, 1.0, -16777216.0]> : tensor<3xf32>
  %v = arith.constant dense<1.0> : tensor<3xf32>
  %2 = prim.dot_general %u, %v contracting = [0] x [0] batching = [] x []
      : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return %0, %1, %2 : tensor<i8>, tensor<2x2xf32>, tensor<f32>
}

// Grouped 1-D convolution, N=2 C=4 W=5, filter O=4 C/G=2 K=2, G=2: output channels 0 and 1
// read input channels 0-1, channels 2 and 3 read input channels 2-3. x = arange(40).
// out[n, o, t] = sum_{c, k} x[n, (o / 2) * 2 + c, t + k] * w[o, c, k]
// CHECK: @grouped_conv result 0: tensor<2x4x4xf32> = {{\[\[\[}}6.0, 8.0, 10.0, 12.0], [1.0, 3.0, 5.0, 7.0], [-1.0, -1.0, -1.0, -1.0], [20.0, 22.0, 24.0, 26.0]], {{\[\[}}46.0, 48.0, 50.0, 52.0], [41.0, 43.0, 45.0, 47.0], [-1.0, -1.0, -1.0, -1.0], [60.0, 62.0, 64.0, 66.0]]]
func.func @grouped_conv() -> tensor<2x4x4xf32> {
  %i = prim.iota dim = 0 : tensor<40xf32>
  %x = prim.reshape %i : (tensor<40xf32>) -> tensor<2x4x5xf32>
  %w = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[1.0, 1.0], [0.0, 0.0]],
                             [[0.0, 0.0], [1.0, -1.0]], [[2.0, 0.0], [0.0, 0.0]]]>
      : tensor<4x2x2xf32>
  %0 = prim.convolution %x, %w {strides = array<i64: 1>, padding_low = array<i64: 0>,
      padding_high = array<i64: 0>, dilations = array<i64: 1>, feature_group_count = 2 : i64}
      : (tensor<2x4x5xf32>, tensor<4x2x2xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// 2-D, zero padding 1 and stride 2 on x = 1..16; the filter is not flipped
// (cross-correlation): out[0, 0] = 4 * x[0, 0].
// CHECK: @conv_2d result 0: tensor<1x1x3x3xf32> = {{\[\[\[\[}}4.0, 18.0, 12.0], [46.0, 94.0, 44.0], [26.0, 44.0, 16.0]]]]
// Dilation 2: out[t] = x[t] * 1 + x[t + 2] * 10.
// CHECK: @conv_2d result 1: tensor<1x1x4xi32> = {{\[\[\[}}31, 42, 53, 64]]]
func.func @conv_2d() -> (tensor<1x1x3x3xf32>, tensor<1x1x4xi32>) {
  %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0],
                               [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]>
      : tensor<1x1x4x4xf32>
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %0 = prim.convolution %x, %w {strides = array<i64: 2, 2>, padding_low = array<i64: 1, 1>,
      padding_high = array<i64: 1, 1>, dilations = array<i64: 1, 1>, feature_group_count = 1 : i64}
      : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x3xf32>
  %y = arith.constant dense<[[[1, 2, 3, 4, 5, 6]]]> : tensor<1x1x6xi32>
  %v = arith.constant dense<[[[1, 10]]]> : tensor<1x1x2xi32>
  %1 = prim.convolution %y, %v {strides = array<i64: 1>, padding_low = array<i64: 0>,
      padding_high = array<i64: 0>, dilations = array<i64: 2>, feature_group_count = 1 : i64}
      : (tensor<1x1x6xi32>, tensor<1x1x2xi32>) -> tensor<1x1x4xi32>
  return %0, %1 : tensor<1x1x3x3xf32>, tensor<1x1x4xi32>
}
