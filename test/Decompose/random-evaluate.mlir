// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The random rules of lib/Decompose/Random.cpp on constants, evaluated. Only what does not
// depend on the generator's numbers is checked: shapes and element types, value ranges
// (through comparisons of the draw's min and max), determinism (a draw is a pure function of
// the seed and the element index, so equal seeds draw equal numbers), and draws whose
// outcome is certain (Bernoulli with p = 0 or 1, Multinomial with one possible class).

// RandomUniform shape [2, 3], low 2, high 5: f32 of that shape, every value in [2, 5).
// CHECK: @uniform result 0: tensor<2x3xf32> = {{\[\[}}{{.*}}]]
// min >= 2 and max < 5:
// CHECK: @uniform result 1: tensor<i1> = true
// CHECK: @uniform result 2: tensor<i1> = true
// A second node with the same seed draws the same numbers: Equal is true everywhere.
// CHECK: @uniform result 3: tensor<2x3xi1> = {{\[\[}}true, true, true], [true, true, true]]
// Another seed draws other numbers: not all equal.
// CHECK: @uniform result 4: tensor<i1> = false
module {
  func.func @uniform() -> (tensor<*xf32>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>, tensor<*xi1>) {
    %low = arith.constant dense<2.0> : tensor<f32>
    %high = arith.constant dense<5.0> : tensor<f32>
    %0 = onnx.node "RandomUniform" opset 22 () {shape = array<i64: 2, 3>, low = 2.0 : f32, high = 5.0 : f32, seed = 7.0 : f32} : () -> !onnx.value loc("u0"("m.onnx":0:0))
    %min = onnx.node "ReduceMin" opset 18 (%0) {keepdims = 0 : i64} : (!onnx.value) -> !onnx.value loc("min"("m.onnx":0:0))
    %max = onnx.node "ReduceMax" opset 18 (%0) {keepdims = 0 : i64} : (!onnx.value) -> !onnx.value loc("max"("m.onnx":0:0))
    %1 = onnx.node "GreaterOrEqual" opset 16 (%min, %low) {} : (!onnx.value, tensor<f32>) -> !onnx.value loc("ge"("m.onnx":0:0))
    %2 = onnx.node "Less" opset 13 (%max, %high) {} : (!onnx.value, tensor<f32>) -> !onnx.value loc("lt"("m.onnx":0:0))
    %same = onnx.node "RandomUniform" opset 22 () {shape = array<i64: 2, 3>, low = 2.0 : f32, high = 5.0 : f32, seed = 7.0 : f32} : () -> !onnx.value loc("u1"("m.onnx":0:0))
    %3 = onnx.node "Equal" opset 13 (%0, %same) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("eq"("m.onnx":0:0))
    %other = onnx.node "RandomUniform" opset 22 () {shape = array<i64: 2, 3>, low = 2.0 : f32, high = 5.0 : f32, seed = 8.0 : f32} : () -> !onnx.value loc("u2"("m.onnx":0:0))
    %eq = onnx.node "Equal" opset 13 (%0, %other) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("eq2"("m.onnx":0:0))
    %4 = onnx.node "ReduceMin" opset 18 (%eq) {keepdims = 0 : i64} : (!onnx.value) -> !onnx.value loc("all"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// RandomUniformLike takes the input's shape and element type (f64 here), default [0, 1):
// min >= 0 and max < 1.
// CHECK: @uniform_like result 0: tensor<3x2xf64> = {{\[\[}}{{.*}}]]
// CHECK: @uniform_like result 1: tensor<i1> = true
// CHECK: @uniform_like result 2: tensor<i1> = true
// dtype 10 overrides the type: f16.
// CHECK: @uniform_like result 3: tensor<3x2xf16> = {{\[\[}}{{.*}}]]
module {
  func.func @uniform_like() -> (tensor<*xf64>, tensor<*xi1>, tensor<*xi1>, tensor<*xf16>) {
    %x = arith.constant dense<0.0> : tensor<3x2xf64>
    %zero = arith.constant dense<0.0> : tensor<f64>
    %one = arith.constant dense<1.0> : tensor<f64>
    %0 = onnx.node "RandomUniformLike" opset 22 (%x) {} : (tensor<3x2xf64>) -> !onnx.value loc("u"("m.onnx":0:0))
    %min = onnx.node "ReduceMin" opset 18 (%0) {keepdims = 0 : i64} : (!onnx.value) -> !onnx.value loc("min"("m.onnx":0:0))
    %max = onnx.node "ReduceMax" opset 18 (%0) {keepdims = 0 : i64} : (!onnx.value) -> !onnx.value loc("max"("m.onnx":0:0))
    %1 = onnx.node "GreaterOrEqual" opset 16 (%min, %zero) {} : (!onnx.value, tensor<f64>) -> !onnx.value loc("ge"("m.onnx":0:0))
    %2 = onnx.node "Less" opset 13 (%max, %one) {} : (!onnx.value, tensor<f64>) -> !onnx.value loc("lt"("m.onnx":0:0))
    %3 = onnx.node "RandomUniformLike" opset 22 (%x) {dtype = 10 : i64} : (tensor<3x2xf64>) -> !onnx.value loc("h"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// RandomNormal mean 10, scale 0.001, shape [4]: Box-Muller's radius is
// sqrt(-2 ln(1 - u1)) <= sqrt(2 * 24 ln 2) < 5.8 for u1 <= 1 - 2^-24, so every value is
// within 10 +- 0.0058: min > 9.99 and max < 10.01.
// CHECK: @normal result 0: tensor<4xf32> = [{{.*}}]
// CHECK: @normal result 1: tensor<i1> = true
// CHECK: @normal result 2: tensor<i1> = true
// RandomNormalLike of an f32 input with dtype 11: f64 of the input's shape.
// CHECK: @normal result 3: tensor<2x2xf64> = {{\[\[}}{{.*}}]]
module {
  func.func @normal() -> (tensor<*xf32>, tensor<*xi1>, tensor<*xi1>, tensor<*xf64>) {
    %lo = arith.constant dense<9.99> : tensor<f32>
    %hi = arith.constant dense<10.01> : tensor<f32>
    %x = arith.constant dense<0.0> : tensor<2x2xf32>
    %0 = onnx.node "RandomNormal" opset 22 () {shape = array<i64: 4>, mean = 10.0 : f32, scale = 0.001 : f32} : () -> !onnx.value loc("n"("m.onnx":0:0))
    %min = onnx.node "ReduceMin" opset 18 (%0) {keepdims = 0 : i64} : (!onnx.value) -> !onnx.value loc("min"("m.onnx":0:0))
    %max = onnx.node "ReduceMax" opset 18 (%0) {keepdims = 0 : i64} : (!onnx.value) -> !onnx.value loc("max"("m.onnx":0:0))
    %1 = onnx.node "Greater" opset 13 (%min, %lo) {} : (!onnx.value, tensor<f32>) -> !onnx.value loc("gt"("m.onnx":0:0))
    %2 = onnx.node "Less" opset 13 (%max, %hi) {} : (!onnx.value, tensor<f32>) -> !onnx.value loc("lt"("m.onnx":0:0))
    %3 = onnx.node "RandomNormalLike" opset 22 (%x) {dtype = 11 : i64} : (tensor<2x2xf32>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Bernoulli with p in {0, 1} is certain: 1 exactly where p = 1 (u < 1 always, u < 0 never),
// in p's type by default, or in dtype (7: int64, 9: bool).
// CHECK: @bernoulli result 0: tensor<4xf32> = [0.0, 1.0, 1.0, 0.0]
// CHECK: @bernoulli result 1: tensor<4xi64> = [0, 1, 1, 0]
// CHECK: @bernoulli result 2: tensor<4xi1> = [false, true, true, false]
module {
  func.func @bernoulli() -> (tensor<*xf32>, tensor<*xi64>, tensor<*xi1>) {
    %p = arith.constant dense<[0.0, 1.0, 1.0, 0.0]> : tensor<4xf32>
    %0 = onnx.node "Bernoulli" opset 22 (%p) {} : (tensor<4xf32>) -> !onnx.value loc("b0"("m.onnx":0:0))
    %1 = onnx.node "Bernoulli" opset 22 (%p) {dtype = 7 : i64, seed = 3.0 : f32} : (tensor<4xf32>) -> !onnx.value loc("b1"("m.onnx":0:0))
    %2 = onnx.node "Bernoulli" opset 22 (%p) {dtype = 9 : i64} : (tensor<4xf32>) -> !onnx.value loc("b2"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Multinomial where each row has one class of probability 1 (the others' logits are -1000:
// exp(-1000) is 0 in f32): row 0 always draws class 1, row 1 class 2; int32 by default.
// CHECK: @multinomial result 0: tensor<2x4xi32> = {{\[\[}}1, 1, 1, 1], [2, 2, 2, 2]]
// dtype 7: int64; a row whose only class is 0.
// CHECK: @multinomial result 1: tensor<1x3xi64> = {{\[\[}}0, 0, 0]]
module {
  func.func @multinomial() -> (tensor<*xi32>, tensor<*xi64>) {
    %x = arith.constant dense<[[-1000.0, 0.0, -1000.0], [-1000.0, -1000.0, 0.0]]> : tensor<2x3xf32>
    %y = arith.constant dense<[[5.0, -1000.0, -1000.0]]> : tensor<1x3xf32>
    %0 = onnx.node "Multinomial" opset 22 (%x) {sample_size = 4 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("m0"("m.onnx":0:0))
    %1 = onnx.node "Multinomial" opset 22 (%y) {sample_size = 3 : i64, dtype = 7 : i64, seed = 1.0 : f32} : (tensor<1x3xf32>) -> !onnx.value loc("m1"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
