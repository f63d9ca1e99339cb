// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Activation.cpp on constants, evaluated: each activation at a few
// points including negative ones and the piecewise boundaries, PRelu's broadcast slope (and
// opset 6's per-channel one), Softmax/LogSoftmax/Hardmax along an axis (opset 13) and over
// the flattened trailing dims (opset 11). Expected values from the ONNX formulas, computed
// with python3's math module (transcendental values checked to their first 5-6 digits).

// x = [-2, -0.5, 0, 1.5]: relu = max(x, 0); leaky_relu = x < 0 ? alpha x : x (alpha 0.01,
// then 0.1); relu of i32 (opset 14).
// CHECK: @relu_family result 0: tensor<4xf32> = [0.0, 0.0, 0.0, 1.5]
// CHECK: @relu_family result 1: tensor<4xf32> = [-0.02, -0.005, 0.0, 1.5]
// CHECK: @relu_family result 2: tensor<4xf32> = [-0.2, -0.05, 0.0, 1.5]
// CHECK: @relu_family result 3: tensor<3xi32> = [0, 0, 4]
module {
  func.func @relu_family() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-2.0, -0.5, 0.0, 1.5]> : tensor<4xf32>
    %i = arith.constant dense<[-3, 0, 4]> : tensor<3xi32>
    %0 = onnx.node "Relu" opset 14 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "LeakyRelu" opset 16 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "LeakyRelu" opset 16 (%x) {alpha = 0.1 : f32} : (tensor<4xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Relu" opset 14 (%i) {} : (tensor<3xi32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [-2, -0.5, 0, 1.5]. elu = x < 0 ? alpha (e^x - 1) : x: e^-2 - 1 = -0.864665,
// e^-0.5 - 1 = -0.393469 (alpha 1, then 2). selu = gamma (x <= 0 ? alpha (e^x - 1) : x),
// alpha = 1.673263, gamma = 1.050701: [-1.520166, -0.691758, 0, 1.576052].
// celu (alpha 2) = max(0, x) + min(0, 2 (e^(x / 2) - 1)): 2 (e^-1 - 1) = -1.264241,
// 2 (e^-0.25 - 1) = -0.442398.
// CHECK: @exponential_units result 0: tensor<4xf32> = [-0.86466{{[0-9]*}}, -0.393469{{[0-9]*}}, 0.0, 1.5]
// CHECK: @exponential_units result 1: tensor<4xf32> = [-1.7293{{[0-9]*}}, -0.786938{{[0-9]*}}, 0.0, 1.5]
// CHECK: @exponential_units result 2: tensor<4xf32> = [-1.52016{{[0-9]*}}, -0.691758{{[0-9]*}}, 0.0, 1.57605{{[0-9]*}}]
// CHECK: @exponential_units result 3: tensor<4xf32> = [-1.26424{{[0-9]*}}, -0.442398{{[0-9]*}}, 0.0, 1.5]
module {
  func.func @exponential_units() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-2.0, -0.5, 0.0, 1.5]> : tensor<4xf32>
    %0 = onnx.node "Elu" opset 6 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Elu" opset 6 (%x) {alpha = 2.0 : f32} : (tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Selu" opset 6 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Celu" opset 12 (%x) {alpha = 2.0 : f32} : (tensor<4xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [-3, -0.5, 0, 1.5, 3]: hard_sigmoid = max(0, min(1, alpha x + beta)), defaults 0.2/0.5:
// [-0.1 -> 0, 0.4, 0.5, 0.8, 1.1 -> 1]; alpha 0.5, beta 0.25: [0, 0, 0.25, 1, 1].
// x = [-4, -1, 0, 1, 4]: hard_swish = x max(0, min(1, x / 6 + 0.5)) = [-4 * 0 = -0, -1/3, 0,
// 2/3, 4].
// CHECK: @hard result 0: tensor<5xf32> = [0.0, 0.4, 0.5, 0.8, 1.0]
// CHECK: @hard result 1: tensor<5xf32> = [0.0, 0.0, 0.25, 1.0, 1.0]
// CHECK: @hard result 2: tensor<5xf32> = [-0.0, -0.333333{{[0-9]*}}, 0.0, 0.666666{{[0-9]*}}, 4.0]
module {
  func.func @hard() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-3.0, -0.5, 0.0, 1.5, 3.0]> : tensor<5xf32>
    %y = arith.constant dense<[-4.0, -1.0, 0.0, 1.0, 4.0]> : tensor<5xf32>
    %0 = onnx.node "HardSigmoid" opset 6 (%x) {} : (tensor<5xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "HardSigmoid" opset 6 (%x) {alpha = 0.5 : f32, beta = 0.25 : f32} : (tensor<5xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "HardSwish" opset 14 (%y) {} : (tensor<5xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [-2, -0.5, 0, 1.5]: softplus = ln(1 + e^x) = [0.126928, 0.474077, ln 2, 1.701413];
// softsign = x / (1 + |x|) = [-2/3, -1/3, 0, 0.6]; mish = x tanh(softplus(x)) =
// [-0.252501, -0.220744, 0, 1.403370].
// thresholded_relu = x > alpha ? x : 0 at [-2, 0.5, 1, 1.5]: alpha 1 (x = 1 is not above it),
// then alpha 0.4.
// CHECK: @smooth result 0: tensor<4xf32> = [0.12692{{[0-9]*}}, 0.47407{{[0-9]*}}, 0.69314{{[0-9]*}}, 1.70141{{[0-9]*}}]
// CHECK: @smooth result 1: tensor<4xf32> = [-0.666666{{[0-9]*}}, -0.333333{{[0-9]*}}, 0.0, 0.6]
// CHECK: @smooth result 2: tensor<4xf32> = [-0.252501{{[0-9]*}}, -0.220743{{[0-9]*}}, 0.0, 1.40337{{[0-9]*}}]
// CHECK: @smooth result 3: tensor<4xf32> = [0.0, 0.0, 0.0, 1.5]
// CHECK: @smooth result 4: tensor<4xf32> = [0.0, 0.5, 1.0, 1.5]
module {
  func.func @smooth() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-2.0, -0.5, 0.0, 1.5]> : tensor<4xf32>
    %t = arith.constant dense<[-2.0, 0.5, 1.0, 1.5]> : tensor<4xf32>
    %0 = onnx.node "Softplus" opset 1 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Softsign" opset 1 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Mish" opset 18 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "ThresholdedRelu" opset 10 (%t) {} : (tensor<4xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "ThresholdedRelu" opset 10 (%t) {alpha = 0.4 : f32} : (tensor<4xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [-2, -0.5, 0, 1.5]: swish = x sigmoid(alpha x): alpha 1 = [-0.238406, -0.188771, 0,
// 1.226361], alpha 2 = [-0.035972, -0.134471, 0, 1.428861]. gelu = x Phi(x) =
// 0.5 x (1 + erf(x / sqrt 2)) = [-0.045500, -0.154269, 0, 1.399789]; tanh approximation
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) = [-0.045402, -0.154286, 0, 1.399572].
// CHECK: @swish_gelu result 0: tensor<4xf32> = [-0.238405{{[0-9]*}}, -0.188770{{[0-9]*}}, 0.0, 1.22636{{[0-9]*}}]
// CHECK: @swish_gelu result 1: tensor<4xf32> = [-0.0359724{{[0-9]*}}, -0.134470{{[0-9]*}}, 0.0, 1.42886{{[0-9]*}}]
// CHECK: @swish_gelu result 2: tensor<4xf32> = [-0.0455002{{[0-9]*}}, -0.154268{{[0-9]*}}, 0.0, 1.39978{{[0-9]*}}]
// CHECK: @swish_gelu result 3: tensor<4xf32> = [-0.045402{{[0-9]*}}, -0.15428{{[0-9]*}}, 0.0, 1.39957{{[0-9]*}}]
module {
  func.func @swish_gelu() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[-2.0, -0.5, 0.0, 1.5]> : tensor<4xf32>
    %0 = onnx.node "Swish" opset 24 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Swish" opset 24 (%x) {alpha = 2.0 : f32} : (tensor<4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Gelu" opset 20 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Gelu" opset 20 (%x) {approximate = "tanh"} : (tensor<4xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// swiglu(a, b) = a sigmoid(alpha a) b at a = [-1, 0.5, 2], b = [2, 2, -1]:
// alpha 1: [-0.537883, 0.622459, -1.761594]; alpha 0.5: [-0.755082, 0.562177, -1.462117].
// CHECK: @swiglu result 0: tensor<3xf32> = [-0.53788{{[0-9]*}}, 0.622459{{[0-9]*}}, -1.76159{{[0-9]*}}]
// CHECK: @swiglu result 1: tensor<3xf32> = [-0.755081{{[0-9]*}}, 0.562176{{[0-9]*}}, -1.46211{{[0-9]*}}]
module {
  func.func @swiglu() -> (tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[-1.0, 0.5, 2.0]> : tensor<3xf32>
    %b = arith.constant dense<[2.0, 2.0, -1.0]> : tensor<3xf32>
    %0 = onnx.node "SwiGLU" opset 28 (%a, %b) {} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "SwiGLU" opset 28 (%a, %b) {alpha = 0.5 : f32} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// prelu = x < 0 ? slope x : x. Opset 16: slope [0.1, 0.2, 0.3] broadcast over the rows of
// [[-1, 2, -3], [4, -5, 6]]: -3 * f32(0.3) rounds to -0.90000004. Opset 6: a slope with one
// value per channel [0.5, 2] applies along dim 1 of a [1, 2, 3] input.
// CHECK: @prelu result 0: tensor<2x3xf32> = {{\[\[}}-0.1, 2.0, -0.90000004], [4.0, -1.0, 6.0]]
// CHECK: @prelu result 1: tensor<1x2x3xf32> = {{\[\[\[}}-0.5, -1.0, 3.0], [-2.0, -4.0, 3.0]]]
module {
  func.func @prelu() -> (tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[-1.0, 2.0, -3.0], [4.0, -5.0, 6.0]]> : tensor<2x3xf32>
    %s = arith.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
    %y = arith.constant dense<[[[-1.0, -2.0, 3.0], [-1.0, -2.0, 3.0]]]> : tensor<1x2x3xf32>
    %c = arith.constant dense<[0.5, 2.0]> : tensor<2xf32>
    %0 = onnx.node "PRelu" opset 16 (%x, %s) {} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "PRelu" opset 6 (%y, %c) {} : (tensor<1x2x3xf32>, tensor<2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// Opset 13, x = [[1, 2, 3], [-1, 0, 1]]: softmax along the last axis is e^(x - max) / sum =
// [0.090031, 0.244728, 0.665241] for both rows; along axis 0 each column is (v, v - 2):
// [e^2, 1] / (e^2 + 1) = [0.880797, 0.119203]. log_softmax [1, 2, 3] = x - ln(e + e^2 + e^3)
// = x - 3.407606.
// CHECK: @softmax13 result 0: tensor<2x3xf32> = {{\[\[}}0.090030{{[0-9]*}}, 0.244728{{[0-9]*}}, 0.66524{{[0-9]*}}], [0.090030{{[0-9]*}}, 0.244728{{[0-9]*}}, 0.66524{{[0-9]*}}]]
// CHECK: @softmax13 result 1: tensor<2x3xf32> = {{\[\[}}0.88079{{[0-9]*}}, 0.88079{{[0-9]*}}, 0.88079{{[0-9]*}}], [0.119202{{[0-9]*}}, 0.119202{{[0-9]*}}, 0.119202{{[0-9]*}}]]
// CHECK: @softmax13 result 2: tensor<3xf32> = [-2.40760{{[0-9]*}}, -1.40760{{[0-9]*}}, -0.40760{{[0-9]*}}]
module {
  func.func @softmax13() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]]> : tensor<2x3xf32>
    %v = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %0 = onnx.node "Softmax" opset 13 (%x) {} : (tensor<2x3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Softmax" opset 13 (%x) {axis = 0 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "LogSoftmax" opset 13 (%v) {} : (tensor<3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Opset 11 coerces x [2, 2, 2] to [2, 4] at axis 1: the softmax runs over the 4 trailing
// values [0, 1, 2, 3] -> e^k / sum = [0.032059, 0.087144, 0.236883, 0.643914] (opset 13
// would use dim 1 alone), and the all-ones batch gives 0.25 each. Hardmax (opset 11, axis 1)
// marks the first maximum of each flattened row: [0, 5, 5, 1] -> index 1, [2, 1, 0, 3] ->
// index 3. Hardmax 13 along the last axis of [[1, 3, 3], [2, 0, 1]] (ties: the first).
// CHECK: @coerced result 0: tensor<2x2x2xf32> = {{\[\[\[}}0.032058{{[0-9]*}}, 0.087144{{[0-9]*}}], [0.236882{{[0-9]*}}, 0.643914{{[0-9]*}}]], {{\[\[}}0.25, 0.25], [0.25, 0.25]]]
// CHECK: @coerced result 1: tensor<2x2x2xf32> = {{\[\[\[}}0.0, 1.0], [0.0, 0.0]], {{\[\[}}0.0, 0.0], [0.0, 1.0]]]
// CHECK: @coerced result 2: tensor<2x3xf32> = {{\[\[}}0.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
module {
  func.func @coerced() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[1.0, 1.0], [1.0, 1.0]]]> : tensor<2x2x2xf32>
    %h = arith.constant dense<[[[0.0, 5.0], [5.0, 1.0]], [[2.0, 1.0], [0.0, 3.0]]]> : tensor<2x2x2xf32>
    %t = arith.constant dense<[[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]]> : tensor<2x3xf32>
    %0 = onnx.node "Softmax" opset 11 (%x) {axis = 1 : i64} : (tensor<2x2x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Hardmax" opset 11 (%h) {axis = 1 : i64} : (tensor<2x2x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Hardmax" opset 13 (%t) {} : (tensor<2x3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Large inputs: softplus(x) = max(x, 0) + log1p(e^-|x|) stays finite where log1p(e^x) would
// overflow (e^100 is inf in float32): softplus(100) = 100, softplus(-100) = e^-100 (a
// float32 denormal), softplus(88.8) = 88.8; mish(100) = 100 tanh(100) = 100.
// CHECK: @large result 0: tensor<3xf32> = [100.0, 3.{{[0-9]*}}e-44, 88.8{{[0-9]*}}]
// CHECK: @large result 1: tensor<3xf32> = [100.0, -3.{{[0-9]*}}e-42, 88.8{{[0-9]*}}]
module {
  func.func @large() -> (tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[100.0, -100.0, 88.8]> : tensor<3xf32>
    %0 = onnx.node "Softplus" opset 1 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Mish" opset 18 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
