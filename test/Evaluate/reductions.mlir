// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// Reductions, arg reductions, windows and scans. Expected values by hand; the pools were
// checked with numpy (np.pad with -inf, then window maxima).

// CHECK: @reduce result 0: tensor<2xf32> = [6.0, 15.0]
// CHECK: @reduce result 1: tensor<3xf32> = [5.0, 7.0, 9.0]
// CHECK: @reduce result 2: tensor<f32> = 21.0
// CHECK: @reduce result 3: tensor<2xf32> = [6.0, 120.0]
// CHECK: @reduce result 4: tensor<3xf32> = [4.0, 5.0, 6.0]
// CHECK: @reduce result 5: tensor<2xf32> = [1.0, 4.0]
func.func @reduce() -> (tensor<2xf32>, tensor<3xf32>, tensor<f32>, tensor<2xf32>, tensor<3xf32>,
                        tensor<2xf32>) {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %0 = prim.reduce sum %x dims = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %1 = prim.reduce sum %x dims = [0] : tensor<2x3xf32> -> tensor<3xf32>
  %2 = prim.reduce sum %x dims = [0, 1] : tensor<2x3xf32> -> tensor<f32>
  %3 = prim.reduce prod %x dims = [1] : tensor<2x3xf32> -> tensor<2xf32>
  %4 = prim.reduce max %x dims = [0] : tensor<2x3xf32> -> tensor<3xf32>
  %5 = prim.reduce min %x dims = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<3xf32>, tensor<f32>, tensor<2xf32>,
      tensor<3xf32>, tensor<2xf32>
}

// CHECK: @reduce_nan result 0: tensor<f32> = nan
// CHECK: @reduce_nan result 1: tensor<f32> = nan
func.func @reduce_nan() -> (tensor<f32>, tensor<f32>) {
  %x = arith.constant dense<[1.0, 0x7FC00000, 3.0]> : tensor<3xf32>
  %0 = prim.reduce max %x dims = [0] : tensor<3xf32> -> tensor<f32>
  %1 = prim.reduce min %x dims = [0] : tensor<3xf32> -> tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// The reduction of no elements is the combiner's identity.
// CHECK: @reduce_empty result 0: tensor<3xf32> = [0.0, 0.0, 0.0]
// CHECK: @reduce_empty result 1: tensor<3xf32> = [1.0, 1.0, 1.0]
// CHECK: @reduce_empty result 2: tensor<3xf32> = [-inf, -inf, -inf]
// CHECK: @reduce_empty result 3: tensor<3xf32> = [inf, inf, inf]
// CHECK: @reduce_empty result 4: tensor<i32> = -2147483648
// CHECK: @reduce_empty result 5: tensor<i32> = 2147483647
// CHECK: @reduce_empty result 6: tensor<i32> = -1
// CHECK: @reduce_empty result 7: tensor<i32> = 0
// CHECK: @reduce_empty result 8: tensor<ui8> = 0
// CHECK: @reduce_empty result 9: tensor<ui8> = 255
// CHECK: @reduce_empty result 10: tensor<ui8> = 255
func.func @reduce_empty() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
                              tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>,
                              tensor<ui8>, tensor<ui8>, tensor<ui8>) {
  %x = arith.constant dense<> : tensor<0x3xf32>
  %0 = prim.reduce sum %x dims = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %1 = prim.reduce prod %x dims = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %2 = prim.reduce max %x dims = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %3 = prim.reduce min %x dims = [0] : tensor<0x3xf32> -> tensor<3xf32>
  %i = arith.constant dense<> : tensor<0xi32>
  %4 = prim.reduce max %i dims = [0] : tensor<0xi32> -> tensor<i32>
  %5 = prim.reduce min %i dims = [0] : tensor<0xi32> -> tensor<i32>
  %6 = prim.reduce and %i dims = [0] : tensor<0xi32> -> tensor<i32>
  %7 = prim.reduce xor %i dims = [0] : tensor<0xi32> -> tensor<i32>
  %u = arith.constant dense<> : tensor<0xui8>
  %8 = prim.reduce max %u dims = [0] : tensor<0xui8> -> tensor<ui8>
  %9 = prim.reduce min %u dims = [0] : tensor<0xui8> -> tensor<ui8>
  %10 = prim.reduce and %u dims = [0] : tensor<0xui8> -> tensor<ui8>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<3xf32>, tensor<3xf32>,
      tensor<3xf32>, tensor<3xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>,
      tensor<ui8>, tensor<ui8>, tensor<ui8>
}

// Bitwise combiners; integer sums wrap (100 * 3 = 300 = 44 in i8); ui8 max is unsigned.
// CHECK: @reduce_int result 0: tensor<2xi32> = [0, 4]
// CHECK: @reduce_int result 1: tensor<2xi32> = [3, 7]
// CHECK: @reduce_int result 2: tensor<2xi32> = [0, 7]
// CHECK: @reduce_int result 3: tensor<i8> = 44
// CHECK: @reduce_int result 4: tensor<ui8> = 200
// CHECK: @reduce_int result 5: tensor<2xi1> = [false, true]
func.func @reduce_int() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i8>, tensor<ui8>,
                            tensor<2xi1>) {
  %x = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = prim.reduce and %x dims = [1] : tensor<2x3xi32> -> tensor<2xi32>
  %1 = prim.reduce or %x dims = [1] : tensor<2x3xi32> -> tensor<2xi32>
  %2 = prim.reduce xor %x dims = [1] : tensor<2x3xi32> -> tensor<2xi32>
  %y = arith.constant dense<100> : tensor<3xi8>
  %3 = prim.reduce sum %y dims = [0] : tensor<3xi8> -> tensor<i8>
  %u = arith.constant dense<[5, 200, 100]> : tensor<3xui8>
  %4 = prim.reduce max %u dims = [0] : tensor<3xui8> -> tensor<ui8>
  %b = arith.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
  %5 = prim.reduce and %b dims = [1] : tensor<2x2xi1> -> tensor<2xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i8>,
      tensor<ui8>, tensor<2xi1>
}

// Ties go to the first index, or the last with select_last_index.
// CHECK: @arg_reduce result 0: tensor<2xi64> = [1, 0]
// CHECK: @arg_reduce result 1: tensor<2xi64> = [2, 2]
// CHECK: @arg_reduce result 2: tensor<2xi64> = [0, 1]
// CHECK: @arg_reduce result 3: tensor<2xi64> = [0, 3]
// CHECK: @arg_reduce result 4: tensor<3xi64> = [1, 1, 0]
// CHECK: @arg_reduce result 5: tensor<i64> = 0
func.func @arg_reduce() -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>,
                            tensor<3xi64>, tensor<i64>) {
  %x = arith.constant dense<[[1.0, 3.0, 3.0, 2.0], [5.0, -1.0, 5.0, -1.0]]> : tensor<2x4xf32>
  %0 = prim.arg_reduce argmax %x dim = 1 : tensor<2x4xf32> -> tensor<2xi64>
  %1 = prim.arg_reduce argmax %x dim = 1 {select_last_index} : tensor<2x4xf32> -> tensor<2xi64>
  %2 = prim.arg_reduce argmin %x dim = 1 : tensor<2x4xf32> -> tensor<2xi64>
  %3 = prim.arg_reduce argmin %x dim = 1 {select_last_index} : tensor<2x4xf32> -> tensor<2xi64>
  %i = arith.constant dense<[[5, -1, 7], [6, 2, -3]]> : tensor<2x3xi32>
  %5 = prim.arg_reduce argmax %i dim = 0 : tensor<2x3xi32> -> tensor<3xi64>
  %u = arith.constant dense<[200, 100]> : tensor<2xui8>
  %6 = prim.arg_reduce argmax %u dim = 0 : tensor<2xui8> -> tensor<i64>
  return %0, %1, %2, %3, %5, %6 : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>,
      tensor<3xi64>, tensor<i64>
}

// NaN is larger than every number for argmax and smaller for argmin: the first NaN wins.
// CHECK: @arg_reduce_nan result 0: tensor<i64> = 1
// CHECK: @arg_reduce_nan result 1: tensor<i64> = 1
func.func @arg_reduce_nan() -> (tensor<i64>, tensor<i64>) {
  %x = arith.constant dense<[1.0, 0x7FC00000, 9.0, 0x7FC00000, -9.0]> : tensor<5xf32>
  %0 = prim.arg_reduce argmax %x dim = 0 : tensor<5xf32> -> tensor<i64>
  %1 = prim.arg_reduce argmin %x dim = 0 : tensor<5xf32> -> tensor<i64>
  return %0, %1 : tensor<i64>, tensor<i64>
}

// A 3x3 max pool padded by 1 on x = -(1..16): the padding is -inf, not 0.
// CHECK: @max_pool result 0: tensor<1x1x4x4xf32> = {{\[\[\[\[}}-1.0, -1.0, -2.0, -3.0], [-1.0, -1.0, -2.0, -3.0], [-5.0, -5.0, -6.0, -7.0], [-9.0, -9.0, -10.0, -11.0]]]]
// CHECK: @max_pool result 1: tensor<1x1x2x2xf32> = {{\[\[\[\[}}-1.0, -2.0], [-5.0, -6.0]]]]
func.func @max_pool() -> (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) {
  %x = arith.constant dense<[[[[-1.0, -2.0, -3.0, -4.0], [-5.0, -6.0, -7.0, -8.0],
                               [-9.0, -10.0, -11.0, -12.0], [-13.0, -14.0, -15.0, -16.0]]]]>
      : tensor<1x1x4x4xf32>
  %0 = prim.reduce_window max %x {window_dimensions = array<i64: 1, 1, 3, 3>,
      window_strides = array<i64: 1, 1, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>,
      padding_low = array<i64: 0, 0, 1, 1>, padding_high = array<i64: 0, 0, 1, 1>}
      : tensor<1x1x4x4xf32> -> tensor<1x1x4x4xf32>
  %1 = prim.reduce_window max %x {window_dimensions = array<i64: 1, 1, 3, 3>,
      window_strides = array<i64: 1, 1, 2, 2>, window_dilations = array<i64: 1, 1, 1, 1>,
      padding_low = array<i64: 0, 0, 1, 1>, padding_high = array<i64: 0, 0, 1, 1>}
      : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  return %0, %1 : tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>
}

// Dilated sum window: out[i] = x[i] + x[i + 2]; an i32 max window pads with INT_MIN.
// CHECK: @windows result 0: tensor<3xf32> = [4.0, 6.0, 8.0]
// CHECK: @windows result 1: tensor<3xi32> = [-5, -5, -7]
// CHECK: @windows result 2: tensor<2x2xf32> = {{\[\[}}10.0, 18.0], [42.0, 50.0]]
func.func @windows() -> (tensor<3xf32>, tensor<3xi32>, tensor<2x2xf32>) {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %0 = prim.reduce_window sum %x {window_dimensions = array<i64: 2>,
      window_strides = array<i64: 1>, window_dilations = array<i64: 2>,
      padding_low = array<i64: 0>, padding_high = array<i64: 0>} : tensor<5xf32> -> tensor<3xf32>
  %i = arith.constant dense<[-5, -7]> : tensor<2xi32>
  %1 = prim.reduce_window max %i {window_dimensions = array<i64: 2>,
      window_strides = array<i64: 1>, window_dilations = array<i64: 1>,
      padding_low = array<i64: 1>, padding_high = array<i64: 1>} : tensor<2xi32> -> tensor<3xi32>
  %y = prim.iota dim = 0 : tensor<16xf32>
  %z = prim.reshape %y : (tensor<16xf32>) -> tensor<4x4xf32>
  %2 = prim.reduce_window sum %z {window_dimensions = array<i64: 2, 2>,
      window_strides = array<i64: 2, 2>, window_dilations = array<i64: 1, 1>,
      padding_low = array<i64: 0, 0>, padding_high = array<i64: 0, 0>}
      : tensor<4x4xf32> -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xi32>, tensor<2x2xf32>
}

// CHECK: @cumulative result 0: tensor<4xi32> = [1, 3, 6, 10]
// CHECK: @cumulative result 1: tensor<4xi32> = [0, 1, 3, 6]
// CHECK: @cumulative result 2: tensor<4xi32> = [10, 9, 7, 4]
// CHECK: @cumulative result 3: tensor<4xi32> = [9, 7, 4, 0]
// CHECK: @cumulative result 4: tensor<4xi32> = [1, 2, 6, 24]
// CHECK: @cumulative result 5: tensor<4xf32> = [3.0, 3.0, 4.0, 4.0]
// CHECK: @cumulative result 6: tensor<4xf32> = [inf, 3.0, 1.0, 1.0]
// CHECK: @cumulative result 7: tensor<2x2xf32> = {{\[\[}}1.0, 2.0], [4.0, 6.0]]
func.func @cumulative() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>,
                            tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>) {
  %x = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = prim.cumulative sum %x dim = 0 : tensor<4xi32>
  %1 = prim.cumulative sum %x dim = 0 {exclusive} : tensor<4xi32>
  %2 = prim.cumulative sum %x dim = 0 {reverse} : tensor<4xi32>
  %3 = prim.cumulative sum %x dim = 0 {exclusive, reverse} : tensor<4xi32>
  %4 = prim.cumulative prod %x dim = 0 : tensor<4xi32>
  %f = arith.constant dense<[3.0, 1.0, 4.0, 1.0]> : tensor<4xf32>
  %5 = prim.cumulative max %f dim = 0 : tensor<4xf32>
  %6 = prim.cumulative min %f dim = 0 {exclusive} : tensor<4xf32>
  %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %7 = prim.cumulative sum %m dim = 0 : tensor<2x2xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>,
      tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<2x2xf32>
}

// Stable in both directions (equal values keep the lower source index first); NaN is larger
// than every number; unsigned values compare unsigned.
// CHECK: @sort result 0: tensor<6xf32> = [1.0, 2.0, 2.0, 3.0, 5.0, nan]
// CHECK: @sort result 1: tensor<6xi64> = [4, 0, 3, 1, 2, 5]
// CHECK: @sort result 2: tensor<6xf32> = [nan, 5.0, 3.0, 2.0, 2.0, 1.0]
// CHECK: @sort result 3: tensor<6xi64> = [5, 2, 1, 0, 3, 4]
// CHECK: @sort result 4: tensor<2x2xui8> = {{\[\[}}200, 1], [3, 2]]
func.func @sort() -> (tensor<6xf32>, tensor<6xi64>, tensor<6xf32>, tensor<6xi64>, tensor<2x2xui8>) {
  %x = arith.constant dense<[2.0, 3.0, 5.0, 2.0, 1.0, 0x7FC00000]> : tensor<6xf32>
  %0:2 = prim.sort %x dim = 0 : tensor<6xf32> -> tensor<6xf32>, tensor<6xi64>
  %1:2 = prim.sort %x dim = 0 {descending} : tensor<6xf32> -> tensor<6xf32>, tensor<6xi64>
  %u = arith.constant dense<[[1, 200], [3, 2]]> : tensor<2x2xui8>
  %2:2 = prim.sort %u dim = 1 {descending} : tensor<2x2xui8> -> tensor<2x2xui8>, tensor<2x2xi64>
  return %0#0, %0#1, %1#0, %1#1, %2#0 : tensor<6xf32>, tensor<6xi64>, tensor<6xf32>, tensor<6xi64>, tensor<2x2xui8>
}
