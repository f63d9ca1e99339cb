// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// Elementwise prim ops. Expected values: by hand, floats checked with numpy (computed in
// double, rounded once to the element type).

// CHECK: @float_binary result 0: tensor<4xf32> = [2.0, 1.0, 0.3, -4.0]
// CHECK: @float_binary result 1: tensor<4xf32> = [1.0, -5.0, -0.1, 12.0]
// CHECK: @float_binary result 2: tensor<4xf32> = [0.75, -6.0, 0.020000001, -32.0]
// CHECK: @float_binary result 3: tensor<4xf32> = [3.0, -0.6666667, 0.5, -0.5]
// CHECK: @float_binary result 4: tensor<4xf32> = [0.0, -2.0, 0.1, 4.0]
// CHECK: @float_binary result 5: tensor<4xf32> = [1.2247449, -8.0, 0.63095737, 1.5258789e-05]
// CHECK: @float_binary result 6: tensor<4xf32> = [1.2490457, -0.5880026, 0.4636476, 2.6779451]
func.func @float_binary() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
                              tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = arith.constant dense<[1.5, -2.0, 0.1, 4.0]> : tensor<4xf32>
  %b = arith.constant dense<[0.5, 3.0, 0.2, -8.0]> : tensor<4xf32>
  %0 = prim.add %a, %b : tensor<4xf32>
  %1 = prim.sub %a, %b : tensor<4xf32>
  %2 = prim.mul %a, %b : tensor<4xf32>
  %3 = prim.div %a, %b : tensor<4xf32>
  %4 = prim.rem %a, %b : tensor<4xf32>
  %5 = prim.pow %a, %b : tensor<4xf32>
  %6 = prim.atan2 %a, %b : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
      tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Rounding and sign keep -0.0; round_even sends halves to even.
// CHECK: @float_rounding result 0: tensor<4xf32> = [0.0, -2.0, 2.0, -0.0]
// CHECK: @float_rounding result 1: tensor<4xf32> = [1.0, -1.0, 3.0, -0.0]
// CHECK: @float_rounding result 2: tensor<4xf32> = [0.0, -2.0, 2.0, -0.0]
// CHECK: @float_rounding result 3: tensor<4xf32> = [0.5, 1.5, 2.5, 0.0]
// CHECK: @float_rounding result 4: tensor<4xf32> = [-0.5, 1.5, -2.5, 0.0]
// CHECK: @float_rounding result 5: tensor<4xf32> = [1.0, -1.0, 1.0, -0.0]
func.func @float_rounding() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
                                tensor<4xf32>, tensor<4xf32>) {
  %x = arith.constant dense<[0.5, -1.5, 2.5, -0.0]> : tensor<4xf32>
  %0 = prim.floor %x : tensor<4xf32>
  %1 = prim.ceil %x : tensor<4xf32>
  %2 = prim.round_even %x : tensor<4xf32>
  %3 = prim.abs %x : tensor<4xf32>
  %4 = prim.neg %x : tensor<4xf32>
  %5 = prim.sign %x : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
      tensor<4xf32>, tensor<4xf32>
}

// CHECK: @float_unary result 0: tensor<3xf32> = [1.2840254, 2.7182817, 54.59815]
// CHECK: @float_unary result 1: tensor<3xf32> = [0.28402543, 1.7182819, 53.59815]
// CHECK: @float_unary result 2: tensor<3xf32> = [-1.3862944, 0.0, 1.3862944]
// CHECK: @float_unary result 3: tensor<3xf32> = [0.22314355, 0.6931472, 1.609438]
// CHECK: @float_unary result 4: tensor<3xf32> = [0.5, 1.0, 2.0]
// CHECK: @float_unary result 5: tensor<3xf32> = [2.0, 1.0, 0.5]
// CHECK: @float_unary result 6: tensor<3xf32> = [0.5621765, 0.7310586, 0.98201376]
// CHECK: @float_unary result 7: tensor<3xf32> = [0.24491866, 0.7615942, 0.9993293]
// CHECK: @float_unary result 8: tensor<3xf32> = [0.2763264, 0.8427008, 1.0]
// CHECK: @float_unary result 9: tensor<3xf32> = [0.24740396, 0.84147096, -0.7568025]
// CHECK: @float_unary result 10: tensor<3xf32> = [0.9689124, 0.5403023, -0.6536436]
// CHECK: @float_unary result 11: tensor<3xf32> = [0.25534192, 1.5574077, 1.1578213]
// CHECK: @float_unary result 12: tensor<3xf32> = [0.24497867, 0.7853982, 1.3258177]
// CHECK: @float_unary result 13: tensor<3xf32> = [0.25261232, 1.1752012, 27.289917]
// CHECK: @float_unary result 14: tensor<3xf32> = [1.0314131, 1.5430807, 27.308233]
// CHECK: @float_unary result 15: tensor<3xf32> = [0.24746646, 0.8813736, 2.0947125]
// CHECK: @float_unary result 16: tensor<3xf32> = [nan, 0.0, 2.063437]
func.func @float_unary() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
                             tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
                             tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
                             tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
                             tensor<3xf32>) {
  %x = arith.constant dense<[0.25, 1.0, 4.0]> : tensor<3xf32>
  %0 = prim.exp %x : tensor<3xf32>
  %1 = prim.expm1 %x : tensor<3xf32>
  %2 = prim.log %x : tensor<3xf32>
  %3 = prim.log1p %x : tensor<3xf32>
  %4 = prim.sqrt %x : tensor<3xf32>
  %5 = prim.rsqrt %x : tensor<3xf32>
  %6 = prim.logistic %x : tensor<3xf32>
  %7 = prim.tanh %x : tensor<3xf32>
  %8 = prim.erf %x : tensor<3xf32>
  %9 = prim.sin %x : tensor<3xf32>
  %10 = prim.cos %x : tensor<3xf32>
  %11 = prim.tan %x : tensor<3xf32>
  %12 = prim.atan %x : tensor<3xf32>
  %13 = prim.sinh %x : tensor<3xf32>
  %14 = prim.cosh %x : tensor<3xf32>
  %15 = prim.asinh %x : tensor<3xf32>
  %16 = prim.acosh %x : tensor<3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16
      : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
        tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
        tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
        tensor<3xf32>, tensor<3xf32>
}

// CHECK: @float_inverse_trig result 0: tensor<2xf32> = [0.5235988, -0.25268024]
// CHECK: @float_inverse_trig result 1: tensor<2xf32> = [1.0471976, 1.8234766]
// CHECK: @float_inverse_trig result 2: tensor<2xf32> = [0.54930615, -0.25541282]
func.func @float_inverse_trig() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %x = arith.constant dense<[0.5, -0.25]> : tensor<2xf32>
  %0 = prim.asin %x : tensor<2xf32>
  %1 = prim.acos %x : tensor<2xf32>
  %2 = prim.atanh %x : tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// f16 sums round to 11 significant bits (1000 + 0.1 stays 1000); f64 is exact IEEE.
// CHECK: @other_floats result 0: tensor<2xf16> = [0.2998, 1000.0]
// CHECK: @other_floats result 1: tensor<f64> = 0.30000000000000004
// 1 + 2^-8 ties to 1.0 in bf16; 1 + 3 * 2^-8 ties to the even 1 + 2^-6 = 1.015625.
// CHECK: @other_floats result 2: tensor<2xbf16> = [1.0, 1.016]
func.func @other_floats() -> (tensor<2xf16>, tensor<f64>, tensor<2xbf16>) {
  %a = arith.constant dense<[0.1, 1000.0]> : tensor<2xf16>
  %b = arith.constant dense<[0.2, 0.1]> : tensor<2xf16>
  %0 = prim.add %a, %b : tensor<2xf16>
  %c = arith.constant dense<0.1> : tensor<f64>
  %d = arith.constant dense<0.2> : tensor<f64>
  %1 = prim.add %c, %d : tensor<f64>
  %e = arith.constant dense<1.0> : tensor<2xbf16>
  %f = arith.constant dense<[0.00390625, 0.01171875]> : tensor<2xbf16>
  %2 = prim.add %e, %f : tensor<2xbf16>
  return %0, %1, %2 : tensor<2xf16>, tensor<f64>, tensor<2xbf16>
}

// max and min propagate NaN and order -0 below +0.
// CHECK: @nan_max_min result 0: tensor<3xf32> = [nan, nan, 0.0]
// CHECK: @nan_max_min result 1: tensor<3xf32> = [nan, nan, -0.0]
func.func @nan_max_min() -> (tensor<3xf32>, tensor<3xf32>) {
  %a = arith.constant dense<[1.0, 0x7FC00000, -0.0]> : tensor<3xf32>
  %b = arith.constant dense<[0x7FC00000, 2.0, 0.0]> : tensor<3xf32>
  %0 = prim.max %a, %b : tensor<3xf32>
  %1 = prim.min %a, %b : tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// Every comparison with NaN is false, except ne.
// CHECK: @compare_nan result 0: tensor<4xi1> = [true, false, false, false]
// CHECK: @compare_nan result 1: tensor<4xi1> = [false, true, true, true]
// CHECK: @compare_nan result 2: tensor<4xi1> = [false, false, false, false]
// CHECK: @compare_nan result 3: tensor<4xi1> = [true, false, false, false]
func.func @compare_nan() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = arith.constant dense<[1.0, 0x7FC00000, 2.0, 0x7FC00000]> : tensor<4xf32>
  %b = arith.constant dense<[1.0, 1.0, 0x7FC00000, 0x7FC00000]> : tensor<4xf32>
  %0 = prim.compare eq, %a, %b : tensor<4xf32>
  %1 = prim.compare ne, %a, %b : tensor<4xf32>
  %2 = prim.compare lt, %a, %b : tensor<4xf32>
  %3 = prim.compare ge, %a, %b : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK: @classify result 0: tensor<4xi1> = [true, false, false, false]
// CHECK: @classify result 1: tensor<4xi1> = [false, true, true, false]
func.func @classify() -> (tensor<4xi1>, tensor<4xi1>) {
  %x = arith.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, 1.0]> : tensor<4xf32>
  %0 = prim.is_nan %x : tensor<4xf32>
  %1 = prim.is_inf %x : tensor<4xf32>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// Integer division truncates; x / 0 = 0, INT_MIN / -1 = INT_MIN; x rem 0 = x.
// CHECK: @int_division result 0: tensor<6xi32> = [3, -3, 0, -2147483648, -1, 0]
// CHECK: @int_division result 1: tensor<6xi32> = [1, -1, 7, 0, 2, -5]
// CHECK: @int_division result 2: tensor<i64> = -9223372036854775808
func.func @int_division() -> (tensor<6xi32>, tensor<6xi32>, tensor<i64>) {
  %a = arith.constant dense<[7, -7, 7, -2147483648, 5, -5]> : tensor<6xi32>
  %b = arith.constant dense<[2, 2, 0, -1, -3, 0]> : tensor<6xi32>
  %0 = prim.div %a, %b : tensor<6xi32>
  %1 = prim.rem %a, %b : tensor<6xi32>
  %c = arith.constant dense<-9223372036854775808> : tensor<i64>
  %d = arith.constant dense<-1> : tensor<i64>
  %2 = prim.div %c, %d : tensor<i64>
  return %0, %1, %2 : tensor<6xi32>, tensor<6xi32>, tensor<i64>
}

// ui8 reads 200 as 200, not -56.
// CHECK: @unsigned result 0: tensor<3xui8> = [66, 0, 127]
// CHECK: @unsigned result 1: tensor<3xui8> = [2, 7, 1]
// CHECK: @unsigned result 2: tensor<3xi1> = [true, true, true]
// CHECK: @unsigned result 3: tensor<3xui8> = [203, 7, 1]
// CHECK: @unsigned result 4: tensor<3xui8> = [200, 7, 255]
// CHECK: @unsigned result 5: tensor<ui64> = 18446744073709551615
func.func @unsigned() -> (tensor<3xui8>, tensor<3xui8>, tensor<3xi1>, tensor<3xui8>,
                          tensor<3xui8>, tensor<ui64>) {
  %a = arith.constant dense<[200, 7, 255]> : tensor<3xui8>
  %b = arith.constant dense<[3, 0, 2]> : tensor<3xui8>
  %0 = prim.div %a, %b : tensor<3xui8>
  %1 = prim.rem %a, %b : tensor<3xui8>
  %2 = prim.compare gt, %a, %b : tensor<3xui8>
  %3 = prim.add %a, %b : tensor<3xui8>
  %4 = prim.max %a, %b : tensor<3xui8>
  %c = arith.constant dense<0> : tensor<ui64>
  %d = arith.constant dense<1> : tensor<ui64>
  %5 = prim.sub %c, %d : tensor<ui64>
  return %0, %1, %2, %3, %4, %5 : tensor<3xui8>, tensor<3xui8>, tensor<3xi1>, tensor<3xui8>,
      tensor<3xui8>, tensor<ui64>
}

// Shifts by >= the width (or by a negative amount) give 0, or -1 for an arithmetic shift
// of a negative value.
// CHECK: @shifts result 0: tensor<6xi8> = [8, 0, -64, 0, 0, 0]
// CHECK: @shifts result 1: tensor<6xi8> = [0, 64, 60, 0, 0, 0]
// CHECK: @shifts result 2: tensor<6xi8> = [0, -64, -4, 0, 0, -1]
func.func @shifts() -> (tensor<6xi8>, tensor<6xi8>, tensor<6xi8>) {
  %a = arith.constant dense<[1, -128, -16, 64, 3, -5]> : tensor<6xi8>
  %b = arith.constant dense<[3, 1, 2, 8, -1, 9]> : tensor<6xi8>
  %0 = prim.shift_left %a, %b : tensor<6xi8>
  %1 = prim.shift_right_logical %a, %b : tensor<6xi8>
  %2 = prim.shift_right_arithmetic %a, %b : tensor<6xi8>
  return %0, %1, %2 : tensor<6xi8>, tensor<6xi8>, tensor<6xi8>
}

// Integers wrap: neg and abs of INT_MIN are INT_MIN.
// CHECK: @int_unary result 0: tensor<4xi8> = [-128, 1, -5, 0]
// CHECK: @int_unary result 1: tensor<4xi8> = [-128, 1, 5, 0]
// CHECK: @int_unary result 2: tensor<4xi8> = [-1, -1, 1, 0]
// CHECK: @int_unary result 3: tensor<4xi8> = [127, 0, -6, -1]
// CHECK: @int_unary result 4: tensor<4xi8> = [1, 8, 2, 0]
// CHECK: @int_unary result 5: tensor<4xi8> = [44, -128, -128, 0]
func.func @int_unary() -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>,
                           tensor<4xi8>, tensor<4xi8>) {
  %x = arith.constant dense<[-128, -1, 5, 0]> : tensor<4xi8>
  %0 = prim.neg %x : tensor<4xi8>
  %1 = prim.abs %x : tensor<4xi8>
  %2 = prim.sign %x : tensor<4xi8>
  %3 = prim.not %x : tensor<4xi8>
  %4 = prim.popcount %x : tensor<4xi8>
  %a = arith.constant dense<[100, 127, -128, 0]> : tensor<4xi8>
  %b = arith.constant dense<[3, 1, -1, 5]> : tensor<4xi8>
  %c = arith.constant dense<[0, 1, 0, 0]> : tensor<4xi8>
  %m = prim.mul %a, %b : tensor<4xi8>
  %s = prim.add %m, %c : tensor<4xi8>
  return %0, %1, %2, %3, %4, %s : tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>,
      tensor<4xi8>, tensor<4xi8>
}

// Integer pow: negative exponents give 0 unless the base is 1 or -1; results wrap.
// CHECK: @int_pow result 0: tensor<6xi32> = [1024, -1, 1, 0, 1, -2147483648]
// CHECK: @int_pow result 1: tensor<i8> = -13
func.func @int_pow() -> (tensor<6xi32>, tensor<i8>) {
  %a = arith.constant dense<[2, -1, 1, 3, -1, 2]> : tensor<6xi32>
  %b = arith.constant dense<[10, -3, -5, -1, 4, 31]> : tensor<6xi32>
  %0 = prim.pow %a, %b : tensor<6xi32>
  %c = arith.constant dense<3> : tensor<i8>
  %d = arith.constant dense<5> : tensor<i8>
  %1 = prim.pow %c, %d : tensor<i8>
  return %0, %1 : tensor<6xi32>, tensor<i8>
}

// i1 is a boolean: bitwise ops are logical.
// CHECK: @booleans result 0: tensor<4xi1> = [true, false, false, false]
// CHECK: @booleans result 1: tensor<4xi1> = [true, true, true, false]
// CHECK: @booleans result 2: tensor<4xi1> = [false, true, true, false]
// CHECK: @booleans result 3: tensor<4xi1> = [false, false, true, true]
func.func @booleans() -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = arith.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %0 = prim.and %a, %b : tensor<4xi1>
  %1 = prim.or %a, %b : tensor<4xi1>
  %2 = prim.xor %a, %b : tensor<4xi1>
  %3 = prim.not %a : tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK: @select_clamp result 0: tensor<3xf32> = [1.0, 5.0, 3.0]
// CHECK: @select_clamp result 1: tensor<3xf32> = [0.0, 0.5, nan]
// CHECK: @select_clamp result 2: tensor<2xui8> = [10, 200]
func.func @select_clamp() -> (tensor<3xf32>, tensor<3xf32>, tensor<2xui8>) {
  %p = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = arith.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %0 = prim.select %p, %a, %b : tensor<3xi1>, tensor<3xf32>
  %lo = arith.constant dense<0.0> : tensor<3xf32>
  %hi = arith.constant dense<1.0> : tensor<3xf32>
  %x = arith.constant dense<[-1.0, 0.5, 0x7FC00000]> : tensor<3xf32>
  %1 = prim.clamp %lo, %x, %hi : tensor<3xf32>
  %ilo = arith.constant dense<10> : tensor<2xui8>
  %ihi = arith.constant dense<200> : tensor<2xui8>
  %ix = arith.constant dense<[5, 250]> : tensor<2xui8>
  %2 = prim.clamp %ilo, %ix, %ihi : tensor<2xui8>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<2xui8>
}

// Float -> integer truncates toward zero and saturates; NaN gives 0.
// CHECK: @convert_saturate result 0: tensor<6xi8> = [127, -128, 0, -3, 3, 127]
// CHECK: @convert_saturate result 1: tensor<6xui8> = [255, 0, 0, 0, 3, 255]
// CHECK: @convert_saturate result 2: tensor<6xi32> = [2147483647, -2147483648, 0, -3, 3, 2147483647]
// CHECK: @convert_saturate result 3: tensor<6xi64> = [10000000000, -10000000000, 0, -3, 3, 9223372036854775807]
// CHECK: @convert_saturate result 4: tensor<4xi1> = [false, false, true, true]
func.func @convert_saturate() -> (tensor<6xi8>, tensor<6xui8>, tensor<6xi32>, tensor<6xi64>,
                                  tensor<4xi1>) {
  %x = arith.constant dense<[1.0e10, -1.0e10, 0x7FC00000, -3.7, 3.7, 0x7F800000]> : tensor<6xf32>
  %0 = prim.convert %x : tensor<6xf32> to tensor<6xi8>
  %1 = prim.convert %x : tensor<6xf32> to tensor<6xui8>
  %2 = prim.convert %x : tensor<6xf32> to tensor<6xi32>
  %3 = prim.convert %x : tensor<6xf32> to tensor<6xi64>
  %y = arith.constant dense<[0.0, -0.0, 0.5, 2.0]> : tensor<4xf32>
  %4 = prim.convert %y : tensor<4xf32> to tensor<4xi1>
  return %0, %1, %2, %3, %4 : tensor<6xi8>, tensor<6xui8>, tensor<6xi32>, tensor<6xi64>,
      tensor<4xi1>
}

// Integer -> integer wraps, extending by the source's signedness; i1 converts as 0 or 1.
// CHECK: @convert_ints result 0: tensor<3xi8> = [44, -1, -128]
// CHECK: @convert_ints result 1: tensor<2xi32> = [-1, 5]
// CHECK: @convert_ints result 2: tensor<2xi32> = [255, 5]
// CHECK: @convert_ints result 3: tensor<3xi1> = [true, true, true]
// CHECK: @convert_ints result 4: tensor<2xf32> = [1.0, 0.0]
// CHECK: @convert_ints result 5: tensor<2xi32> = [1, 0]
// CHECK: @convert_ints result 6: tensor<2xui8> = [255, 5]
func.func @convert_ints() -> (tensor<3xi8>, tensor<2xi32>, tensor<2xi32>, tensor<3xi1>,
                              tensor<2xf32>, tensor<2xi32>, tensor<2xui8>) {
  %a = arith.constant dense<[300, -1, 128]> : tensor<3xi32>
  %0 = prim.convert %a : tensor<3xi32> to tensor<3xi8>
  %s = arith.constant dense<[-1, 5]> : tensor<2xi8>
  %1 = prim.convert %s : tensor<2xi8> to tensor<2xi32>
  %u = arith.constant dense<[255, 5]> : tensor<2xui8>
  %2 = prim.convert %u : tensor<2xui8> to tensor<2xi32>
  %3 = prim.convert %a : tensor<3xi32> to tensor<3xi1>
  %b = arith.constant dense<[true, false]> : tensor<2xi1>
  %4 = prim.convert %b : tensor<2xi1> to tensor<2xf32>
  %5 = prim.convert %b : tensor<2xi1> to tensor<2xi32>
  %6 = prim.convert %s : tensor<2xi8> to tensor<2xui8>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xi8>, tensor<2xi32>, tensor<2xi32>, tensor<3xi1>,
      tensor<2xf32>, tensor<2xi32>, tensor<2xui8>
}

// Conversions to float round to nearest even, once: 65520 ties up to inf in f16, and
// 2^53 + 2^29 + 1 rounds up to 2^53 + 2^30 in f32 (rounding through f64 first would give
// 2^53).
// CHECK: @convert_floats result 0: tensor<4xf16> = [inf, 0.1, 1.001, 1.0]
// CHECK: @convert_floats result 1: tensor<3xf32> = [16777216.0, 16777220.0, 9007200000000000.0]
// CHECK: @convert_floats result 2: tensor<2xf32> = [255.0, 1.8446744e+19]
// CHECK: @convert_floats result 3: tensor<f32> = 0.1
func.func @convert_floats() -> (tensor<4xf16>, tensor<3xf32>, tensor<2xf32>, tensor<f32>) {
  %x = arith.constant dense<[65520.0, 0.1, 1.0009765625, 1.00048828125]> : tensor<4xf32>
  %0 = prim.convert %x : tensor<4xf32> to tensor<4xf16>
  %i = arith.constant dense<[16777217, 16777219, 9007199791611905]> : tensor<3xi64>
  %1 = prim.convert %i : tensor<3xi64> to tensor<3xf32>
  %u = arith.constant dense<[255, 18446744073709551615]> : tensor<2xui64>
  %2 = prim.convert %u : tensor<2xui64> to tensor<2xf32>
  %d = arith.constant dense<0.1> : tensor<f64>
  %3 = prim.convert %d : tensor<f64> to tensor<f32>
  return %0, %1, %2, %3 : tensor<4xf16>, tensor<3xf32>, tensor<2xf32>, tensor<f32>
}

// CHECK: @bitcast result 0: tensor<2xi32> = [1065353216, -1073741824]
// CHECK: @bitcast result 1: tensor<2xf32> = [1.0, -2.0]
func.func @bitcast() -> (tensor<2xi32>, tensor<2xf32>) {
  %x = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
  %0 = prim.bitcast_convert %x : tensor<2xf32> to tensor<2xi32>
  %1 = prim.bitcast_convert %0 : tensor<2xi32> to tensor<2xf32>
  return %0, %1 : tensor<2xi32>, tensor<2xf32>
}
