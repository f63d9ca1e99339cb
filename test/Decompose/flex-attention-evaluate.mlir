// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// FlexAttention (lib/Decompose/FlexAttention.cpp, ai.onnx.preview) on constants, evaluated:
// Y = prob_mod(softmax(score_mod(scale Q K^T))) V, with grouped query heads (kv head h serves
// q heads h g .. h g + g - 1), the default scale 1 / sqrt(E), score_mod and prob_mod graphs
// inlined, and f16 inputs. Expected values by hand (a python transcription of the formula);
// values that go through exp are matched to 6 significant digits.

// Q [1, 2, 1, 2] (two q heads), K and V [1, 1, 2, 2] (one kv head), scale 1 / sqrt(2).
// K = [[1, 1], [-1, 2]], V = [[1, 2], [3, -1]].
// q head 0 = [1, 0]: scores [1, -1] / sqrt(2), p = [0.80443, 0.19557],
// Y = p0 [1, 2] + p1 [3, -1] = [1.39114, 1.41329].
// q head 1 = [0, 2] (same kv head): scores [2, 4] / sqrt(2), p = [0.19557, 0.80443],
// Y = [2.60886, -0.413289].
// CHECK: @flex result 0: tensor<1x2x1x2xf32> = {{\[\[\[\[}}1.39114{{[0-9]*}}, 1.41328{{[0-9]*}}]], {{\[\[}}2.60885{{[0-9]*}}, -0.413289{{[0-9]*}}]]]]
module {
  func.func @flex() -> tensor<*xf32> {
    %q = arith.constant dense<[[[[1.0, 0.0]], [[0.0, 2.0]]]]> : tensor<1x2x1x2xf32>
    %k = arith.constant dense<[[[[1.0, 1.0], [-1.0, 2.0]]]]> : tensor<1x1x2x2xf32>
    %v = arith.constant dense<[[[[1.0, 2.0], [3.0, -1.0]]]]> : tensor<1x1x2x2xf32>
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} : (tensor<1x2x1x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// scale 0.25, score_mod = Neg, prob_mod = 2 p, Q = [[1, 0], [0, 1]] (two query positions):
// position 0: scores 0.25 [1, -1] negated = [-0.25, 0.25], p = [0.377541, 0.622459],
// doubled, Y = 0.755082 [1, 2] + 1.244918 [3, -1] = [4.48984, 0.265244].
// position 1: scores 0.25 [1, 2] negated = [-0.25, -0.5], p = [0.562177, 0.437823],
// doubled, Y = 1.124354 [1, 2] + 0.875646 [3, -1] = [3.75129, 1.37306].
// CHECK: @flex_mods result 0: tensor<1x1x2x2xf32> = {{\[\[\[\[}}4.48983{{[0-9]*}}, 0.265244{{[0-9]*}}], [3.75129{{[0-9]*}}, 1.37305{{[0-9]*}}]]]]
module {
  func.func @flex_mods() -> tensor<*xf32> {
    %q = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
    %k = arith.constant dense<[[[[1.0, 1.0], [-1.0, 2.0]]]]> : tensor<1x1x2x2xf32>
    %v = arith.constant dense<[[[[1.0, 2.0], [3.0, -1.0]]]]> : tensor<1x1x2x2xf32>
    %two = arith.constant dense<2.0> : tensor<f32>
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {scale = 0.25 : f32} subgraphs ["score_mod", "prob_mod"] {
    ^bb0(%s: !onnx.value):
      %n = onnx.node "Neg" opset 13 (%s) {} : (!onnx.value) -> !onnx.value loc("neg"("m.onnx":0:0))
      onnx.yield %n : !onnx.value
    }, {
    ^bb0(%p: !onnx.value):
      %m = onnx.node "Mul" opset 14 (%p, %two) {} : (!onnx.value, tensor<f32>) -> !onnx.value loc("mul"("m.onnx":0:0))
      onnx.yield %m : !onnx.value
    } : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// f16, equal keys: every score is equal, p = [0.5, 0.5], Y = the mean of V's rows
// ([1, 2] and [3, -4]) = [2, -1], exact in f16, returned in f16.
// CHECK: @flex_f16 result 0: tensor<1x1x2x2xf16> = {{\[\[\[\[}}2.0, -1.0], [2.0, -1.0]]]]
module {
  func.func @flex_f16() -> tensor<*xf16> {
    %q = arith.constant dense<[[[[1.0, 3.0], [-2.0, 0.5]]]]> : tensor<1x1x2x2xf16>
    %k = arith.constant dense<[[[[1.0, 1.0], [1.0, 1.0]]]]> : tensor<1x1x2x2xf16>
    %v = arith.constant dense<[[[[1.0, 2.0], [3.0, -4.0]]]]> : tensor<1x1x2x2xf16>
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {softmax_precision = 1 : i64} : (tensor<1x1x2x2xf16>, tensor<1x1x2x2xf16>, tensor<1x1x2x2xf16>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
