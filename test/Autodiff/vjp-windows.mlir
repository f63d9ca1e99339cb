// RUN: tcc-opt %s --tcc-test-vjp | FileCheck %s
// VJP rules of prim.convolution (input and filter) and prim.reduce_window (sum, max, min)
// against central finite differences in f64: groups, strides, dilations, asymmetric
// padding, padding beyond the dilated filter's reach, and dynamic extents.

// 1-D, groups 2, stride 2, dilation 2, padding 2/1: [2, 4, 9] * [6, 2, 3] -> [2, 6, 4].
// CHECK-DAG: @conv1d_groups: ok
func.func @conv1d_groups(%x: tensor<2x4x9xf64>, %w: tensor<6x2x3xf64>) -> tensor<2x6x4xf64> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 2>, feature_group_count = 2 : i64, padding_high = array<i64: 1>, padding_low = array<i64: 2>, strides = array<i64: 2>} : (tensor<2x4x9xf64>, tensor<6x2x3xf64>) -> tensor<2x6x4xf64>
  return %0 : tensor<2x6x4xf64>
}

// 1-D, groups 1, no padding, stride 1.
// CHECK-DAG: @conv1d_plain: ok
func.func @conv1d_plain(%x: tensor<1x3x7xf64>, %w: tensor<2x3x3xf64>) -> tensor<1x2x5xf64> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0>, padding_low = array<i64: 0>, strides = array<i64: 1>} : (tensor<1x3x7xf64>, tensor<2x3x3xf64>) -> tensor<1x2x5xf64>
  return %0 : tensor<1x2x5xf64>
}

// Low padding (3) beyond the filter's reach (1): the first outputs see only padding.
// CHECK-DAG: @conv1d_wide_padding: ok
func.func @conv1d_wide_padding(%x: tensor<1x1x5xf64>, %w: tensor<1x1x2xf64>) -> tensor<1x1x9xf64> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1>, feature_group_count = 1 : i64, padding_high = array<i64: 2>, padding_low = array<i64: 3>, strides = array<i64: 1>} : (tensor<1x1x5xf64>, tensor<1x1x2xf64>) -> tensor<1x1x9xf64>
  return %0 : tensor<1x1x9xf64>
}

// 2-D, groups 2, strides [2, 1], dilations [1, 2], padding low [1, 0] high [0, 2].
// CHECK-DAG: @conv2d_groups: ok
func.func @conv2d_groups(%x: tensor<2x4x7x6xf64>, %w: tensor<4x2x3x2xf64>) -> tensor<2x4x3x6xf64> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 2>, feature_group_count = 2 : i64, padding_high = array<i64: 0, 2>, padding_low = array<i64: 1, 0>, strides = array<i64: 2, 1>} : (tensor<2x4x7x6xf64>, tensor<4x2x3x2xf64>) -> tensor<2x4x3x6xf64>
  return %0 : tensor<2x4x3x6xf64>
}

// 2-D, groups 1, strides [2, 2], dilations [2, 1], padding low [0, 2] high [1, 0]; the last
// input row is read by no window (stride 2).
// CHECK-DAG: @conv2d_strided: ok
func.func @conv2d_strided(%x: tensor<1x3x8x7xf64>, %w: tensor<2x3x2x3xf64>) -> tensor<1x2x4x4xf64> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 2, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 0>, padding_low = array<i64: 0, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x7xf64>, tensor<2x3x2x3xf64>) -> tensor<1x2x4x4xf64>
  return %0 : tensor<1x2x4x4xf64>
}

// Dynamic batch, and a dynamic spatial extent (9 at run time, stride 2, padding 1/0).
// CHECK-DAG: @conv_dynamic: ok
func.func @conv_dynamic(%x: tensor<?x2x6xf64>, %w: tensor<2x2x3xf64>, %y: tensor<1x2x?xf64>) -> (tensor<?x2x2xf64>, tensor<1x2x?xf64>) attributes {tcc.test_shapes = [array<i64: 3, 2, 6>, array<i64: 2, 2, 3>, array<i64: 1, 2, 9>]} {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0>, padding_low = array<i64: 0>, strides = array<i64: 2>} : (tensor<?x2x6xf64>, tensor<2x2x3xf64>) -> tensor<?x2x2xf64>
  %1 = prim.convolution %y, %w {dilations = array<i64: 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0>, padding_low = array<i64: 1>, strides = array<i64: 2>} : (tensor<1x2x?xf64>, tensor<2x2x3xf64>) -> tensor<1x2x?xf64>
  return %0, %1 : tensor<?x2x2xf64>, tensor<1x2x?xf64>
}

// Sum pooling: window [2, 3], strides [2, 1], dilations [1, 2], padding low [1, 0] high [0, 1].
// CHECK-DAG: @pool_sum: ok
func.func @pool_sum(%x: tensor<5x6xf64>) -> tensor<3x3xf64> {
  %0 = prim.reduce_window sum %x {padding_high = array<i64: 0, 1>, padding_low = array<i64: 1, 0>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>} : tensor<5x6xf64> -> tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// Max pooling over N C H W: window 3x2, strides 2, padding 1/1 and 0/1 (overlapping windows).
// CHECK-DAG: @pool_max: ok
func.func @pool_max(%x: tensor<2x3x6x5xf64>) -> tensor<2x3x3x3xf64> attributes {tcc.test_range = [-1.0, 1.0]} {
  %0 = prim.reduce_window max %x {padding_high = array<i64: 0, 0, 1, 1>, padding_low = array<i64: 0, 0, 1, 0>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 2>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<2x3x6x5xf64> -> tensor<2x3x3x3xf64>
  return %0 : tensor<2x3x3x3xf64>
}

// Max with dilation 2 and padding 2/1; min with stride 2 and high padding.
// CHECK-DAG: @pool_dilated: ok
func.func @pool_dilated(%x: tensor<7xf64>, %y: tensor<4x5xf64>) -> (tensor<3xf64>, tensor<3x3xf64>) attributes {tcc.test_range = [-1.0, 1.0]} {
  %0 = prim.reduce_window max %x {padding_high = array<i64: 1>, padding_low = array<i64: 2>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>} : tensor<7xf64> -> tensor<3xf64>
  %1 = prim.reduce_window min %y {padding_high = array<i64: 0, 1>, padding_low = array<i64: 0, 0>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>} : tensor<4x5xf64> -> tensor<3x3xf64>
  return %0, %1 : tensor<3xf64>, tensor<3x3xf64>
}

// Dynamic extents: a dynamic batch dim outside the window, and a dynamic pooled dim (9).
// CHECK-DAG: @pool_dynamic: ok
func.func @pool_dynamic(%x: tensor<?x6xf64>, %y: tensor<?xf64>) -> (tensor<?x3xf64>, tensor<?x3xf64>, tensor<?xf64>, tensor<?xf64>) attributes {tcc.test_shapes = [array<i64: 3, 6>, array<i64: 9>]} {
  %0 = prim.reduce_window max %x {padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 1>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>} : tensor<?x6xf64> -> tensor<?x3xf64>
  %1 = prim.reduce_window sum %x {padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 1>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>} : tensor<?x6xf64> -> tensor<?x3xf64>
  %2 = prim.reduce_window sum %y {padding_high = array<i64: 1>, padding_low = array<i64: 0>, window_dilations = array<i64: 2>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : tensor<?xf64> -> tensor<?xf64>
  %3 = prim.reduce_window max %y {padding_high = array<i64: 0>, padding_low = array<i64: 1>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>} : tensor<?xf64> -> tensor<?xf64>
  return %0, %1, %2, %3 : tensor<?x3xf64>, tensor<?x3xf64>, tensor<?xf64>, tensor<?xf64>
}
