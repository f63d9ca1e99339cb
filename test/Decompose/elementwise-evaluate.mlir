// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Elementwise.cpp on constants, evaluated: the unary math ops,
// Round (half to even), the integer forms of Neg/Abs/Sign/BitwiseNot, IsNaN/IsInf with
// detect_*, broadcasting binary ops, integer Div (truncating) and Mod (fmod 0 and 1, ints,
// unsigned, floats at opset 28), Pow (general, constant exponents, int exponent, ints),
// BitShift, logic and bitwise ops, comparisons, Where, the variadic ops, Clip 6/11/13, Cast,
// CastLike, BitCast, Identity, Dropout and opset 6's axis broadcast. Expected values from
// the ONNX formulas, computed with python3's math module rounded to f32 (transcendental
// values checked to their first 5-6 significant digits).

// exp(x), log(x), sqrt(x), 1 / x at x = [0.5, 1, 4]: e^0.5 = 1.648721, e^4 = 54.59815,
// ln 0.5 = -0.693147, ln 4 = 1.386294, sqrt 0.5 = 0.707107.
// CHECK: @positive result 0: tensor<3xf32> = [1.64872{{[0-9]*}}, 2.71828{{[0-9]*}}, 54.5981{{[0-9]*}}]
// CHECK: @positive result 1: tensor<3xf32> = [-0.69314{{[0-9]*}}, 0.0, 1.38629{{[0-9]*}}]
// CHECK: @positive result 2: tensor<3xf32> = [0.70710{{[0-9]*}}, 1.0, 2.0]
// CHECK: @positive result 3: tensor<3xf32> = [2.0, 1.0, 0.25]
module {
  func.func @positive() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[0.5, 1.0, 4.0]> : tensor<3xf32>
    %0 = onnx.node "Exp" opset 13 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Log" opset 13 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Sqrt" opset 13 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Reciprocal" opset 13 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// At x = [-0.5, 0, 0.5]: sin 0.5 = 0.479426, cos 0.5 = 0.877583, tan 0.5 = 0.546302,
// asin 0.5 = pi/6 = 0.523599, acos = [2pi/3, pi/2, pi/3], atan 0.5 = 0.463648.
// CHECK: @trig result 0: tensor<3xf32> = [-0.479425{{[0-9]*}}, 0.0, 0.479425{{[0-9]*}}]
// CHECK: @trig result 1: tensor<3xf32> = [0.877582{{[0-9]*}}, 1.0, 0.877582{{[0-9]*}}]
// CHECK: @trig result 2: tensor<3xf32> = [-0.546302{{[0-9]*}}, 0.0, 0.546302{{[0-9]*}}]
// CHECK: @trig result 3: tensor<3xf32> = [-0.523598{{[0-9]*}}, 0.0, 0.523598{{[0-9]*}}]
// CHECK: @trig result 4: tensor<3xf32> = [2.09439{{[0-9]*}}, 1.57079{{[0-9]*}}, 1.04719{{[0-9]*}}]
// CHECK: @trig result 5: tensor<3xf32> = [-0.463647{{[0-9]*}}, 0.0, 0.463647{{[0-9]*}}]
module {
  func.func @trig() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-0.5, 0.0, 0.5]> : tensor<3xf32>
    %0 = onnx.node "Sin" opset 7 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Cos" opset 7 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Tan" opset 7 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Asin" opset 7 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Acos" opset 7 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "Atan" opset 7 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// At x = [-0.5, 0, 0.5]: sinh 0.5 = 0.521095, cosh 0.5 = 1.127626, asinh 0.5 = 0.481212,
// atanh 0.5 = 0.549306, erf 0.5 = 0.520500, tanh 0.5 = 0.462117,
// sigmoid(-+0.5) = 1 / (1 + e^(+-0.5)) = 0.377541, 0.622459; acosh [1, 2, 3] = [0, 1.316958,
// 1.762747].
// CHECK: @hyperbolic result 0: tensor<3xf32> = [-0.521095{{[0-9]*}}, 0.0, 0.521095{{[0-9]*}}]
// CHECK: @hyperbolic result 1: tensor<3xf32> = [1.12762{{[0-9]*}}, 1.0, 1.12762{{[0-9]*}}]
// CHECK: @hyperbolic result 2: tensor<3xf32> = [-0.481211{{[0-9]*}}, 0.0, 0.481211{{[0-9]*}}]
// CHECK: @hyperbolic result 3: tensor<3xf32> = [-0.549306{{[0-9]*}}, 0.0, 0.549306{{[0-9]*}}]
// CHECK: @hyperbolic result 4: tensor<3xf32> = [-0.520{{[0-9]*}}, 0.0, 0.520{{[0-9]*}}]
// CHECK: @hyperbolic result 5: tensor<3xf32> = [-0.462117{{[0-9]*}}, 0.0, 0.462117{{[0-9]*}}]
// CHECK: @hyperbolic result 6: tensor<3xf32> = [0.377540{{[0-9]*}}, 0.5, 0.622459{{[0-9]*}}]
// CHECK: @hyperbolic result 7: tensor<3xf32> = [0.0, 1.31695{{[0-9]*}}, 1.76274{{[0-9]*}}]
module {
  func.func @hyperbolic() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-0.5, 0.0, 0.5]> : tensor<3xf32>
    %y = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %0 = onnx.node "Sinh" opset 9 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Cosh" opset 9 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Asinh" opset 9 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Atanh" opset 9 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Erf" opset 13 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "Tanh" opset 13 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    %6 = onnx.node "Sigmoid" opset 13 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    %7 = onnx.node "Acosh" opset 9 (%y) {} : (tensor<3xf32>) -> !onnx.value loc("h"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5, %6, %7 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [-2.5, -0.5, 0, 0.5, 1.5, 2.7]: floor, ceil (ceil -0.5 = -0), Round halves to even
// (-2.5 -> -2, -0.5 -> -0, 0.5 -> 0, 1.5 -> 2), Neg (-0 for 0), Abs, Sign.
// CHECK: @rounding result 0: tensor<6xf32> = [-3.0, -1.0, 0.0, 0.0, 1.0, 2.0]
// CHECK: @rounding result 1: tensor<6xf32> = [-2.0, -0.0, 0.0, 1.0, 2.0, 3.0]
// CHECK: @rounding result 2: tensor<6xf32> = [-2.0, -0.0, 0.0, 0.0, 2.0, 3.0]
// CHECK: @rounding result 3: tensor<6xf32> = [2.5, 0.5, -0.0, -0.5, -1.5, -2.7]
// CHECK: @rounding result 4: tensor<6xf32> = [2.5, 0.5, 0.0, 0.5, 1.5, 2.7]
// CHECK: @rounding result 5: tensor<6xf32> = [-1.0, -1.0, 0.0, 1.0, 1.0, 1.0]
module {
  func.func @rounding() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-2.5, -0.5, 0.0, 0.5, 1.5, 2.7]> : tensor<6xf32>
    %0 = onnx.node "Floor" opset 13 (%x) {} : (tensor<6xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Ceil" opset 13 (%x) {} : (tensor<6xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Round" opset 11 (%x) {} : (tensor<6xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Neg" opset 13 (%x) {} : (tensor<6xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Abs" opset 13 (%x) {} : (tensor<6xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "Sign" opset 13 (%x) {} : (tensor<6xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Integers: Neg, Abs, Sign of [-3, 0, 5]; BitwiseNot ~x = -x - 1 (i32) and 255 - x (u8);
// Not of booleans.
// CHECK: @integer_unary result 0: tensor<3xi32> = [3, 0, -5]
// CHECK: @integer_unary result 1: tensor<3xi32> = [3, 0, 5]
// CHECK: @integer_unary result 2: tensor<3xi32> = [-1, 0, 1]
// CHECK: @integer_unary result 3: tensor<3xi32> = [2, -1, -6]
// CHECK: @integer_unary result 4: tensor<2xui8> = [255, 250]
// CHECK: @integer_unary result 5: tensor<2xi1> = [false, true]
module {
  func.func @integer_unary() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-3, 0, 5]> : tensor<3xi32>
    %u = arith.constant dense<[0, 5]> : tensor<2xui8>
    %b = arith.constant dense<[true, false]> : tensor<2xi1>
    %0 = onnx.node "Neg" opset 13 (%x) {} : (tensor<3xi32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Abs" opset 13 (%x) {} : (tensor<3xi32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Sign" opset 13 (%x) {} : (tensor<3xi32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "BitwiseNot" opset 18 (%x) {} : (tensor<3xi32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "BitwiseNot" opset 18 (%u) {} : (tensor<2xui8>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "Not" opset 1 (%b) {} : (tensor<2xi1>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [-inf, inf, nan, 1]: IsNaN; IsInf with both signs, only +inf (detect_negative = 0),
// only -inf (detect_positive = 0), and neither.
// CHECK: @nan_inf result 0: tensor<4xi1> = [false, false, true, false]
// CHECK: @nan_inf result 1: tensor<4xi1> = [true, true, false, false]
// CHECK: @nan_inf result 2: tensor<4xi1> = [false, true, false, false]
// CHECK: @nan_inf result 3: tensor<4xi1> = [true, false, false, false]
// CHECK: @nan_inf result 4: tensor<4xi1> = [false, false, false, false]
module {
  func.func @nan_inf() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[0xFF800000, 0x7F800000, 0x7FC00000, 1.0]> : tensor<4xf32>
    %0 = onnx.node "IsNaN" opset 13 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "IsInf" opset 10 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "IsInf" opset 10 (%x) {detect_negative = 0 : i64} : (tensor<4xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "IsInf" opset 10 (%x) {detect_positive = 0 : i64} : (tensor<4xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "IsInf" opset 10 (%x) {detect_negative = 0 : i64, detect_positive = 0 : i64} : (tensor<4xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// a = [[1, 2, 3], [4, 5, 6]] with b = [10, 20, 30] broadcast over the rows: a + b, a - b,
// a * b, a / b; then [[1], [2]] * [[1, 2, 3]] broadcasts both ways (an outer product).
// CHECK: @broadcast result 0: tensor<2x3xf32> = {{\[\[}}11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]
// CHECK: @broadcast result 1: tensor<2x3xf32> = {{\[\[}}-9.0, -18.0, -27.0], [-6.0, -15.0, -24.0]]
// CHECK: @broadcast result 2: tensor<2x3xf32> = {{\[\[}}10.0, 40.0, 90.0], [40.0, 100.0, 180.0]]
// CHECK: @broadcast result 3: tensor<2x3xf32> = {{\[\[}}0.1, 0.1, 0.1], [0.4, 0.25, 0.2]]
// CHECK: @broadcast result 4: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]
module {
  func.func @broadcast() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %b = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
    %c = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %d = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
    %0 = onnx.node "Add" opset 14 (%a, %b) {} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Sub" opset 14 (%a, %b) {} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Mul" opset 14 (%a, %b) {} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Div" opset 14 (%a, %b) {} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Mul" opset 14 (%c, %d) {} : (tensor<2x1xf32>, tensor<1x3xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Integer Div truncates toward zero (-7 / 2 = -3, 7 / -2 = -3, -7 / -2 = 3).
// Mod of a = [-7, 7, -7, 7, 6] by b = [3, -3, -3, 3, -3]: fmod = 0 takes b's sign
// (python's a % b: [2, -2, -1, 1, 0]); fmod = 1 takes a's (C fmod: [-1, 1, -1, 1, 0]).
// Unsigned: [7, 200] mod [3, 7] = [1, 4].
// CHECK: @integer_division result 0: tensor<4xi32> = [-3, -3, 3, 3]
// CHECK: @integer_division result 1: tensor<5xi32> = [2, -2, -1, 1, 0]
// CHECK: @integer_division result 2: tensor<5xi32> = [-1, 1, -1, 1, 0]
// CHECK: @integer_division result 3: tensor<2xui8> = [1, 4]
module {
  func.func @integer_division() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[-7, 7, -7, 7]> : tensor<4xi32>
    %b = arith.constant dense<[2, -2, -2, 2]> : tensor<4xi32>
    %c = arith.constant dense<[-7, 7, -7, 7, 6]> : tensor<5xi32>
    %d = arith.constant dense<[3, -3, -3, 3, -3]> : tensor<5xi32>
    %e = arith.constant dense<[7, 200]> : tensor<2xui8>
    %f = arith.constant dense<[3, 7]> : tensor<2xui8>
    %0 = onnx.node "Div" opset 14 (%a, %b) {} : (tensor<4xi32>, tensor<4xi32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Mod" opset 13 (%c, %d) {} : (tensor<5xi32>, tensor<5xi32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Mod" opset 13 (%c, %d) {fmod = 1 : i64} : (tensor<5xi32>, tensor<5xi32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Mod" opset 13 (%e, %f) {} : (tensor<2xui8>, tensor<2xui8>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Float Mod of [-7.5, 7.5, 4, -4] by [2, -2, -2, 2]: fmod = 1 is C fmod (a's sign, -0 for
// -4); fmod = 0 (opset 28) is numpy.mod (b's sign, also on a zero remainder).
// CHECK: @float_mod result 0: tensor<4xf32> = [-1.5, 1.5, 0.0, -0.0]
// CHECK: @float_mod result 1: tensor<4xf32> = [0.5, -0.5, -0.0, 0.0]
module {
  func.func @float_mod() -> (tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[-7.5, 7.5, 4.0, -4.0]> : tensor<4xf32>
    %b = arith.constant dense<[2.0, -2.0, -2.0, 2.0]> : tensor<4xf32>
    %0 = onnx.node "Mod" opset 13 (%a, %b) {fmod = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Mod" opset 28 (%a, %b) {} : (tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// Pow: [2, 4, 9] ^ [3, -1, 0.5] = [8, 0.25, 3]; constant exponents 2 and 3 (exact products):
// [-3, 1.5]^2 = [9, 2.25], [-3, 1.5]^3 = [-27, 3.375]; an i64 exponent with a float base
// (opset 12): [2, 4] ^ [3, -1] = [8, 0.25]; integers: [2, 3, -2] ^ [3, 2, 3] = [8, 9, -8].
// CHECK: @pow result 0: tensor<3xf32> = [8.0, 0.25, 3.0]
// CHECK: @pow result 1: tensor<2xf32> = [9.0, 2.25]
// CHECK: @pow result 2: tensor<2xf32> = [-27.0, 3.375]
// CHECK: @pow result 3: tensor<2xf32> = [8.0, 0.25]
// CHECK: @pow result 4: tensor<3xi64> = [8, 9, -8]
module {
  func.func @pow() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[2.0, 4.0, 9.0]> : tensor<3xf32>
    %b = arith.constant dense<[3.0, -1.0, 0.5]> : tensor<3xf32>
    %x = arith.constant dense<[-3.0, 1.5]> : tensor<2xf32>
    %two = arith.constant dense<2.0> : tensor<f32>
    %three = arith.constant dense<3> : tensor<1xi64>
    %c = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
    %d = arith.constant dense<[3, -1]> : tensor<2xi64>
    %e = arith.constant dense<[2, 3, -2]> : tensor<3xi64>
    %f = arith.constant dense<[3, 2, 3]> : tensor<3xi64>
    %0 = onnx.node "Pow" opset 15 (%a, %b) {} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Pow" opset 15 (%x, %two) {} : (tensor<2xf32>, tensor<f32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Pow" opset 15 (%x, %three) {} : (tensor<2xf32>, tensor<1xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Pow" opset 15 (%c, %d) {} : (tensor<2xf32>, tensor<2xi64>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Pow" opset 15 (%e, %f) {} : (tensor<3xi64>, tensor<3xi64>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// BitShift: u8 [1, 255] << [2, 1] = [4, 510 mod 256 = 254]; u32 [16, 255] >> [2, 4] =
// [4, 15]; opset 28's signed right shift fills with the sign: [-16, 16] >> 2 = [-4, 4].
// CHECK: @bitshift result 0: tensor<2xui8> = [4, 254]
// CHECK: @bitshift result 1: tensor<2xui32> = [4, 15]
// CHECK: @bitshift result 2: tensor<2xi32> = [-4, 4]
module {
  func.func @bitshift() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[1, 255]> : tensor<2xui8>
    %b = arith.constant dense<[2, 1]> : tensor<2xui8>
    %c = arith.constant dense<[16, 255]> : tensor<2xui32>
    %d = arith.constant dense<[2, 4]> : tensor<2xui32>
    %e = arith.constant dense<[-16, 16]> : tensor<2xi32>
    %f = arith.constant dense<2> : tensor<i32>
    %0 = onnx.node "BitShift" opset 11 (%a, %b) {direction = "LEFT"} : (tensor<2xui8>, tensor<2xui8>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "BitShift" opset 11 (%c, %d) {direction = "RIGHT"} : (tensor<2xui32>, tensor<2xui32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "BitShift" opset 28 (%e, %f) {direction = "RIGHT"} : (tensor<2xi32>, tensor<i32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Booleans [[T], [F]] with [T, F] broadcast to 2x2: And, Or, Xor. Bitwise on i32:
// 12 & 10 = 8, -1 & 5 = 5; 12 | 10 = 14, -1 | 5 = -1; 12 ^ 10 = 6, -1 ^ 5 = ~5 = -6.
// CHECK: @logic result 0: tensor<2x2xi1> = {{\[\[}}true, false], [false, false]]
// CHECK: @logic result 1: tensor<2x2xi1> = {{\[\[}}true, true], [true, false]]
// CHECK: @logic result 2: tensor<2x2xi1> = {{\[\[}}false, true], [true, false]]
// CHECK: @logic result 3: tensor<2xi32> = [8, 5]
// CHECK: @logic result 4: tensor<2xi32> = [14, -1]
// CHECK: @logic result 5: tensor<2xi32> = [6, -6]
module {
  func.func @logic() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[true], [false]]> : tensor<2x1xi1>
    %b = arith.constant dense<[true, false]> : tensor<2xi1>
    %c = arith.constant dense<[12, -1]> : tensor<2xi32>
    %d = arith.constant dense<[10, 5]> : tensor<2xi32>
    %0 = onnx.node "And" opset 7 (%a, %b) {} : (tensor<2x1xi1>, tensor<2xi1>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Or" opset 7 (%a, %b) {} : (tensor<2x1xi1>, tensor<2xi1>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Xor" opset 7 (%a, %b) {} : (tensor<2x1xi1>, tensor<2xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "BitwiseAnd" opset 18 (%c, %d) {} : (tensor<2xi32>, tensor<2xi32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "BitwiseOr" opset 18 (%c, %d) {} : (tensor<2xi32>, tensor<2xi32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "BitwiseXor" opset 18 (%c, %d) {} : (tensor<2xi32>, tensor<2xi32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// [1, 2, 3] against [2] (broadcast): ==, <, >, <=, >=.
// CHECK: @compare result 0: tensor<3xi1> = [false, true, false]
// CHECK: @compare result 1: tensor<3xi1> = [true, false, false]
// CHECK: @compare result 2: tensor<3xi1> = [false, false, true]
// CHECK: @compare result 3: tensor<3xi1> = [true, true, false]
// CHECK: @compare result 4: tensor<3xi1> = [false, true, true]
module {
  func.func @compare() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %b = arith.constant dense<[2.0]> : tensor<1xf32>
    %0 = onnx.node "Equal" opset 13 (%a, %b) {} : (tensor<3xf32>, tensor<1xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Less" opset 13 (%a, %b) {} : (tensor<3xf32>, tensor<1xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Greater" opset 13 (%a, %b) {} : (tensor<3xf32>, tensor<1xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "LessOrEqual" opset 16 (%a, %b) {} : (tensor<3xf32>, tensor<1xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "GreaterOrEqual" opset 16 (%a, %b) {} : (tensor<3xf32>, tensor<1xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Where(c [2x1], x [3], y scalar) broadcasts all three: row 0 takes x, row 1 takes y = 0.
// The variadic ops fold a = [[1], [5]], b = [2, 4, 6] and c = 3 (all broadcast to 2x3):
// max = [[3, 4, 6], [5, 5, 6]], min = [[1, 1, 1], [2, 3, 3]], sum = [[6, 8, 10], [10, 12, 14]],
// mean = sum / 3 = [[2, 8/3, 10/3], [10/3, 4, 14/3]]; Max of one input is that input.
// CHECK: @where_variadic result 0: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]
// CHECK: @where_variadic result 1: tensor<2x3xf32> = {{\[\[}}3.0, 4.0, 6.0], [5.0, 5.0, 6.0]]
// CHECK: @where_variadic result 2: tensor<2x3xf32> = {{\[\[}}1.0, 1.0, 1.0], [2.0, 3.0, 3.0]]
// CHECK: @where_variadic result 3: tensor<2x3xf32> = {{\[\[}}6.0, 8.0, 10.0], [10.0, 12.0, 14.0]]
// CHECK: @where_variadic result 4: tensor<2x3xf32> = {{\[\[}}2.0, 2.6666667, 3.3333333], [3.3333333, 4.0, 4.6666665]]
// CHECK: @where_variadic result 5: tensor<3xf32> = [2.0, 4.0, 6.0]
module {
  func.func @where_variadic() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %c = arith.constant dense<[[true], [false]]> : tensor<2x1xi1>
    %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %y = arith.constant dense<0.0> : tensor<f32>
    %a = arith.constant dense<[[1.0], [5.0]]> : tensor<2x1xf32>
    %b = arith.constant dense<[2.0, 4.0, 6.0]> : tensor<3xf32>
    %s = arith.constant dense<3.0> : tensor<f32>
    %0 = onnx.node "Where" opset 16 (%c, %x, %y) {} : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Max" opset 13 (%a, %b, %s) {} : (tensor<2x1xf32>, tensor<3xf32>, tensor<f32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Min" opset 13 (%a, %b, %s) {} : (tensor<2x1xf32>, tensor<3xf32>, tensor<f32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Sum" opset 13 (%a, %b, %s) {} : (tensor<2x1xf32>, tensor<3xf32>, tensor<f32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Mean" opset 13 (%a, %b, %s) {} : (tensor<2x1xf32>, tensor<3xf32>, tensor<f32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "Max" opset 13 (%b) {} : (tensor<3xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [-2, -0.5, 0.5, 2]. Clip 6 (attributes): [-1, 1] clamps both ends; only max = 0 (min
// defaults to the lowest float). Clip 11 (inputs): only min = 0 (max absent). Clip 13 on
// i32 [-5, 3, 9] to [0, 5] = [0, 3, 5]. min > max sets every value to max (min(max(x, 1), -1)).
// CHECK: @clip result 0: tensor<4xf32> = [-1.0, -0.5, 0.5, 1.0]
// CHECK: @clip result 1: tensor<4xf32> = [-2.0, -0.5, 0.0, 0.0]
// CHECK: @clip result 2: tensor<4xf32> = [0.0, 0.0, 0.5, 2.0]
// CHECK: @clip result 3: tensor<3xi32> = [0, 3, 5]
// CHECK: @clip result 4: tensor<4xf32> = [-1.0, -1.0, -1.0, -1.0]
module {
  func.func @clip() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-2.0, -0.5, 0.5, 2.0]> : tensor<4xf32>
    %zero = arith.constant dense<0.0> : tensor<f32>
    %none = onnx.none
    %i = arith.constant dense<[-5, 3, 9]> : tensor<3xi32>
    %lo = arith.constant dense<0> : tensor<i32>
    %hi = arith.constant dense<5> : tensor<i32>
    %0 = onnx.node "Clip" opset 6 (%x) {min = -1.0 : f32, max = 1.0 : f32} : (tensor<4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Clip" opset 6 (%x) {max = 0.0 : f32} : (tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Clip" opset 11 (%x, %zero, %none) {} : (tensor<4xf32>, tensor<f32>, none) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Clip" opset 13 (%i, %lo, %hi) {} : (tensor<3xi32>, tensor<i32>, tensor<i32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %one = arith.constant dense<1.0> : tensor<f32>
    %minus = arith.constant dense<-1.0> : tensor<f32>
    %4 = onnx.node "Clip" opset 13 (%x, %one, %minus) {} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Cast f32 -> i32 truncates toward zero; i64 16777217 -> f32 rounds to nearest even
// (16777216); f32 -> bool is x != 0; bool -> f32 is 0/1; f32 -> f16 rounds halves to even
// (1 + 2^-11 -> 1, 1 + 3 * 2^-11 -> 1 + 2^-9 = 1.001953125, printed 1.002). CastLike takes the
// element type of its second input.
// CHECK: @cast result 0: tensor<3xi32> = [-1, 2, 0]
// CHECK: @cast result 1: tensor<2xf32> = [16777216.0, -3.0]
// CHECK: @cast result 2: tensor<3xi1> = [false, true, true]
// CHECK: @cast result 3: tensor<2xf32> = [1.0, 0.0]
// CHECK: @cast result 4: tensor<2xf16> = [1.0, 1.002]
// CHECK: @cast result 5: tensor<2xf64> = [1.0, -2.0]
module {
  func.func @cast() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[-1.7, 2.9, -0.5]> : tensor<3xf32>
    %b = arith.constant dense<[16777217, -3]> : tensor<2xi64>
    %c = arith.constant dense<[0.0, 2.0, -0.5]> : tensor<3xf32>
    %d = arith.constant dense<[true, false]> : tensor<2xi1>
    %e = arith.constant dense<[1.00048828125, 1.00146484375]> : tensor<2xf32>
    %f = arith.constant dense<[1, -2]> : tensor<2xi32>
    %like = arith.constant dense<0.0> : tensor<1xf64>
    %0 = onnx.node "Cast" opset 21 (%a) {to = 6 : i64} : (tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Cast" opset 21 (%b) {to = 1 : i64} : (tensor<2xi64>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Cast" opset 21 (%c) {to = 9 : i64} : (tensor<3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Cast" opset 21 (%d) {to = 1 : i64} : (tensor<2xi1>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Cast" opset 21 (%e) {to = 10 : i64} : (tensor<2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "CastLike" opset 21 (%f, %like) {} : (tensor<2xi32>, tensor<1xf64>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// BitCast keeps the bits: f32 1.0 = 0x3F800000 = 1065353216, -2.0 = 0xC0000000 =
// -1073741824 as i32; i32 -1 = 0xFFFFFFFF = 4294967295 as u32. Identity passes x on;
// Dropout at inference (training_mode false) gives x and an all-true mask (opsets 7, 12).
// CHECK: @bits_identity result 0: tensor<2xi32> = [1065353216, -1073741824]
// CHECK: @bits_identity result 1: tensor<1xui32> = [4294967295]
// CHECK: @bits_identity result 2: tensor<2xf32> = [1.0, -2.0]
// CHECK: @bits_identity result 3: tensor<2xf32> = [1.0, -2.0]
// CHECK: @bits_identity result 4: tensor<2xi1> = [true, true]
// CHECK: @bits_identity result 5: tensor<2xf32> = [1.0, -2.0]
// CHECK: @bits_identity result 6: tensor<2xi1> = [true, true]
module {
  func.func @bits_identity() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
    %m = arith.constant dense<-1> : tensor<1xi32>
    %ratio = arith.constant dense<0.5> : tensor<f32>
    %train = arith.constant dense<false> : tensor<i1>
    %0 = onnx.node "BitCast" opset 26 (%x) {to = 6 : i64} : (tensor<2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "BitCast" opset 26 (%m) {to = 12 : i64} : (tensor<1xi32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Identity" opset 21 (%x) {} : (tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3:2 = onnx.node "Dropout" opset 12 (%x, %ratio, %train) {} : (tensor<2xf32>, tensor<f32>, tensor<i1>) -> (!onnx.value, !onnx.value) loc("d"("m.onnx":0:0))
    %4:2 = onnx.node "Dropout" opset 7 (%x) {ratio = 0.3 : f32} : (tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3#0, %3#1, %4#0, %4#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Opset 6's broadcast = 1 aligns B at `axis`: A [2x3] + B [2] at axis 0 adds B[i] to row i
// ([[11, 12, 13], [24, 25, 26]]); without axis B aligns with the trailing dims
// (A * [1, 0, -1] = [[1, 0, -3], [4, 0, -6]]). Opset 1's Pow likewise: A ^ [1, 2] at axis 0
// raises row i to B[i] = [[1, 2, 3], [16, 25, 36]].
// CHECK: @legacy_broadcast result 0: tensor<2x3xf32> = {{\[\[}}11.0, 12.0, 13.0], [24.0, 25.0, 26.0]]
// CHECK: @legacy_broadcast result 1: tensor<2x3xf32> = {{\[\[}}1.0, 0.0, -3.0], [4.0, 0.0, -6.0]]
// CHECK: @legacy_broadcast result 2: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [16.0, 25.0, 36.0]]
module {
  func.func @legacy_broadcast() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %b = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
    %c = arith.constant dense<[1.0, 0.0, -1.0]> : tensor<3xf32>
    %e = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %0 = onnx.node "Add" opset 6 (%a, %b) {broadcast = 1 : i64, axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Mul" opset 6 (%a, %c) {broadcast = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Pow" opset 1 (%a, %e) {broadcast = 1 : i64, axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Add, Sub and Mul of int64 shape-like vectors stay index arithmetic, with the same values:
// [5, 3] - [1] = [4, 2], [2, 3] * [4, 5] = [8, 15], [2, 3] + [4, 5] = [6, 8].
// CHECK: @shape_arithmetic result 0: tensor<2xi64> = [4, 2]
// CHECK: @shape_arithmetic result 1: tensor<2xi64> = [8, 15]
// CHECK: @shape_arithmetic result 2: tensor<2xi64> = [6, 8]
module {
  func.func @shape_arithmetic() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[5, 3]> : tensor<2xi64>
    %b = arith.constant dense<[1]> : tensor<1xi64>
    %c = arith.constant dense<[2, 3]> : tensor<2xi64>
    %d = arith.constant dense<[4, 5]> : tensor<2xi64>
    %0 = onnx.node "Sub" opset 14 (%a, %b) {} : (tensor<2xi64>, tensor<1xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Mul" opset 14 (%c, %d) {} : (tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Add" opset 14 (%c, %d) {} : (tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}
