// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The optimizers of lib/Decompose/Training.cpp (ai.onnx.preview.training) on constants,
// evaluated: Adagrad (two optimized tensors), Adam (with and without the bias correction of
// T > 0), Momentum (standard and nesterov, T = 0 and T > 0). Expected values from the
// formulas of ONNX's reference implementation, by hand; epsilon is 0 and the other
// attributes are powers of two, so every step is exact.

// Adagrad, R = 0.5, T = 1, decay_factor 1: r = R / (1 + T decay) = 0.25.
// X1 = [1, 2], G1 = [3, -4], H1 = [7, 0]: H1' = H1 + G1^2 = [16, 16],
// X1' = X1 - r G1 / sqrt(H1') = [1 - 0.75 / 4, 2 + 1 / 4] = [0.8125, 2.25].
// X2 = [4], G2 = [0.5], H2 = [0.75]: H2' = 1, X2' = 4 - 0.25 * 0.5 = 3.875.
// Outputs: X1', X2', H1', H2'.
// CHECK: @adagrad result 0: tensor<2xf32> = [0.8125, 2.25]
// CHECK: @adagrad result 1: tensor<1xf32> = [3.875]
// CHECK: @adagrad result 2: tensor<2xf32> = [16.0, 16.0]
// CHECK: @adagrad result 3: tensor<1xf32> = [1.0]
module {
  func.func @adagrad() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %r = arith.constant dense<0.5> : tensor<f32>
    %t = arith.constant dense<1> : tensor<i64>
    %x1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %x2 = arith.constant dense<[4.0]> : tensor<1xf32>
    %g1 = arith.constant dense<[3.0, -4.0]> : tensor<2xf32>
    %g2 = arith.constant dense<[0.5]> : tensor<1xf32>
    %h1 = arith.constant dense<[7.0, 0.0]> : tensor<2xf32>
    %h2 = arith.constant dense<[0.75]> : tensor<1xf32>
    %0:4 = onnx.node "Adagrad" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x1, %x2, %g1, %g2, %h1, %h2) {decay_factor = 1.0 : f32, epsilon = 0.0 : f32} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2, %0#3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Adam, alpha = beta = 0.75, R = 0.5, X = [1, -1], G = [2, 4], V = [0, 4], H = [0, 16]:
// V' = 0.75 V + 0.25 G = [0.5, 4], H' = 0.75 H + 0.25 G^2 = [1, 16].
// T = 1: R_adjusted = R sqrt(1 - 0.75) / (1 - 0.75) = 1; X - V' / sqrt(H') = [0.5, -2];
// norm_coefficient_post 0.5 halves it: [0.25, -1].
// CHECK: @adam result 0: tensor<2xf32> = [0.25, -1.0]
// CHECK: @adam result 1: tensor<2xf32> = [0.5, 4.0]
// CHECK: @adam result 2: tensor<2xf32> = [1.0, 16.0]
// T = 0: no bias correction, the rate is R: X - 0.5 V' / sqrt(H') = [0.75, -1.5].
// CHECK: @adam result 3: tensor<2xf32> = [0.75, -1.5]
module {
  func.func @adam() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %r = arith.constant dense<0.5> : tensor<f32>
    %t1 = arith.constant dense<1> : tensor<i64>
    %t0 = arith.constant dense<0> : tensor<i64>
    %x = arith.constant dense<[1.0, -1.0]> : tensor<2xf32>
    %g = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
    %v = arith.constant dense<[0.0, 4.0]> : tensor<2xf32>
    %h = arith.constant dense<[0.0, 16.0]> : tensor<2xf32>
    %0:3 = onnx.node "Adam" domain "ai.onnx.preview.training" opset 1 (%r, %t1, %x, %g, %v, %h) {alpha = 0.75 : f32, beta = 0.75 : f32, epsilon = 0.0 : f32, norm_coefficient_post = 0.5 : f32} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("a1"("m.onnx":0:0))
    %1:3 = onnx.node "Adam" domain "ai.onnx.preview.training" opset 1 (%r, %t0, %x, %g, %v, %h) {alpha = 0.75 : f32, beta = 0.75 : f32, epsilon = 0.0 : f32} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("a0"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2, %1#0 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Momentum, R = 0.5, alpha 0.5, beta 2, norm_coefficient 0.5, X = [2, -4], G = [1, 1],
// V = [4, 0]: G_regularized = 0.5 X + G = [2, -1].
// standard, T = 1: V' = 0.5 V + 2 G_r = [6, -2]; X' = X - R V' = [-1, -3].
// CHECK: @momentum result 0: tensor<2xf32> = [-1.0, -3.0]
// CHECK: @momentum result 1: tensor<2xf32> = [6.0, -2.0]
// nesterov, T = 1: X' = X - R (G_r + alpha V') = [2 - 0.5 * 5, -4 - 0.5 * -2] = [-0.5, -3].
// CHECK: @momentum result 2: tensor<2xf32> = [-0.5, -3.0]
// standard, T = 0: beta counts as 1: V' = 0.5 V + G_r = [4, -1]; X' = [0, -3.5].
// CHECK: @momentum result 3: tensor<2xf32> = [0.0, -3.5]
// CHECK: @momentum result 4: tensor<2xf32> = [4.0, -1.0]
module {
  func.func @momentum() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %r = arith.constant dense<0.5> : tensor<f32>
    %t1 = arith.constant dense<1> : tensor<i64>
    %t0 = arith.constant dense<0> : tensor<i64>
    %x = arith.constant dense<[2.0, -4.0]> : tensor<2xf32>
    %g = arith.constant dense<[1.0, 1.0]> : tensor<2xf32>
    %v = arith.constant dense<[4.0, 0.0]> : tensor<2xf32>
    %0:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t1, %x, %g, %v) {alpha = 0.5 : f32, beta = 2.0 : f32, norm_coefficient = 0.5 : f32, mode = "standard"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("m1"("m.onnx":0:0))
    %1:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t1, %x, %g, %v) {alpha = 0.5 : f32, beta = 2.0 : f32, norm_coefficient = 0.5 : f32, mode = "nesterov"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("m2"("m.onnx":0:0))
    %2:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t0, %x, %g, %v) {alpha = 0.5 : f32, beta = 2.0 : f32, norm_coefficient = 0.5 : f32, mode = "standard"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("m0"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %2#0, %2#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Gradient of the sum of y = t * t, t = TopK(a, 3) (all of a, sorted): dy/da = 2 a, routed
// back through the sort to a's positions; a = [1, -3, 2].
// CHECK: @gradient result 0: tensor<3xf32> = [2.0, -6.0, 4.0]
// Of the sum of the top 2 of a (2 at index 2, 1 at index 0): 1 where picked, else 0.
// CHECK: @gradient result 1: tensor<3xf32> = [1.0, 0.0, 1.0]
module {
  func.func @gradient() -> (tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[1.0, -3.0, 2.0]> : tensor<3xf32>
    %k3 = arith.constant dense<[3]> : tensor<1xi64>
    %k2 = arith.constant dense<[2]> : tensor<1xi64>
    %t:2 = onnx.node "TopK" opset 11 (%a, %k3) {} : (tensor<3xf32>, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("t"("m.onnx":0:0))
    %y = onnx.node "Mul" opset 14 (%t#0, %t#0) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("y"("m.onnx":0:0))
    %0 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%a, %y) {xs = ["a"], y = "y"} : (tensor<3xf32>, !onnx.value) -> !onnx.value loc("g0"("m.onnx":0:0))
    %u:2 = onnx.node "TopK" opset 11 (%a, %k2) {} : (tensor<3xf32>, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("u"("m.onnx":0:0))
    %1 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%a, %u#0) {xs = ["a"], y = "u"} : (tensor<3xf32>, !onnx.value) -> !onnx.value loc("g1"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// With respect to constants: an initializer w = [1, -3, 2] and t = w + w (a node on constants
// only). Rules fold ops on constants as they build them, which would leave y = w * w + exp(w)
// a constant with no path back to w (a gradient of 0); the values differentiated are kept
// apart until the Gradients are decomposed. dy/dw = 2 w + exp(w); of z = t * t, dz/dt = 2 t.
// CHECK: @gradient_of_constants result 0: tensor<3xf32> = [4.71828{{[0-9]*}}, -5.95021{{[0-9]*}}, 11.3890{{[0-9]*}}]
// CHECK: @gradient_of_constants result 1: tensor<3xf32> = [4.0, -12.0, 8.0]
// t itself, as computed.
// CHECK: @gradient_of_constants result 2: tensor<3xf32> = [2.0, -6.0, 4.0]
module {
  func.func @gradient_of_constants() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %w = onnx.initializer "w" dense<[1.0, -3.0, 2.0]> : tensor<3xf32> : tensor<3xf32>
    %sq = onnx.node "Mul" opset 14 (%w, %w) {} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("sq"("m.onnx":0:0))
    %e = onnx.node "Exp" opset 13 (%w) {} : (tensor<3xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %y = onnx.node "Add" opset 14 (%sq, %e) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("y"("m.onnx":0:0))
    %0 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%w, %y) {xs = ["w"], y = "y"} : (tensor<3xf32>, !onnx.value) -> !onnx.value loc("g0"("m.onnx":0:0))
    %t = onnx.node "Add" opset 14 (%w, %w) {} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("t"("m.onnx":0:0))
    %z = onnx.node "Mul" opset 14 (%t, %t) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("z"("m.onnx":0:0))
    %1 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%t, %z) {xs = ["t"], y = "z"} : (!onnx.value, !onnx.value) -> !onnx.value loc("g1"("m.onnx":0:0))
    onnx.yield %0, %1, %t : !onnx.value, !onnx.value, !onnx.value
  }
}
