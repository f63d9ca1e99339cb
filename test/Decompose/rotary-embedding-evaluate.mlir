// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// RotaryEmbedding (lib/Decompose/RotaryEmbedding.cpp) on constants, evaluated: 4-D and 3-D
// inputs, halves and interleaved pairs, position_ids into 2-D caches, partial rotation.
// Expected values from ONNX's reference formula, computed by hand (a python transcription):
// with c, s the cache rows of each (batch, position) and x1, x2 the halves (or the even and
// odd features) of the first R features, real = c x1 - s x2, imag = s x1 + c x2.

// 4-D X [B=1, H=2, S=2, D=4], 3-D caches [1, 2, 2], halves: x1 = x[0:2], x2 = x[2:4].
// Head 0, position 0 (c = [0, 1], s = [1, 0]), x = [1, 2, 3, 4]:
//   real = [0 - 3, 2 - 0] = [-3, 2], imag = [1 + 0, 0 + 4] = [1, 4].
// Head 0, position 1 (c = [0.5, 2], s = [-1, 0.5]), x = [5, 6, 7, 8]:
//   real = [2.5 + 7, 12 - 4] = [9.5, 8], imag = [-5 + 3.5, 3 + 16] = [-1.5, 19].
// Head 1: x = [-1, 0, 2, 1] -> [-2, 0, -1, 1]; x = [3, -2, 1, 0] -> [2.5, -4, -2.5, -1].
// CHECK: @rope_4d result 0: tensor<1x2x2x4xf32> = {{\[\[\[\[}}-3.0, 2.0, 1.0, 4.0], [9.5, 8.0, -1.5, 19.0]], {{\[\[}}-2.0, 0.0, -1.0, 1.0], [2.5, -4.0, -2.5, -1.0]]]]
module {
  func.func @rope_4d() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], [[-1.0, 0.0, 2.0, 1.0], [3.0, -2.0, 1.0, 0.0]]]]> : tensor<1x2x2x4xf32>
    %c = arith.constant dense<[[[0.0, 1.0], [0.5, 2.0]]]> : tensor<1x2x2xf32>
    %s = arith.constant dense<[[[1.0, 0.0], [-1.0, 0.5]]]> : tensor<1x2x2xf32>
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {} : (tensor<1x2x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// 3-D X [1, 2, 8] with num_heads 2 (D = 4), interleaved (x1 = x[0::2], x2 = x[1::2]),
// position_ids [[2, 0]] into caches [3, 2]: position 0 of the sequence reads row 2
// (c = [0.5, 2], s = [2, -0.5]), position 1 reads row 0 (c = [1, 0], s = [0, 1]).
// Head 0 at position 0, x = [1, 2, 3, 4]: pairs (1, 2), (3, 4):
//   (0.5 - 4, 2 + 1) = (-3.5, 3), (6 + 2, -1.5 + 8) = (8, 6.5).
// Head 1 at position 0, x = [5, 6, 7, 8]: (2.5 - 12, 10 + 3) = (-9.5, 13),
//   (14 + 4, -3.5 + 16) = (18, 12.5).
// Position 1, x = [-1, 2, -3, 4 | 0, 1, 0, -1]: pair 0 unchanged (c = 1, s = 0);
//   pair 1 (c = 0, s = 1): (-x2, x1): (-4, -3) and (1, 0).
// CHECK: @rope_3d result 0: tensor<1x2x8xf32> = {{\[\[\[}}-3.5, 3.0, 8.0, 6.5, -9.5, 13.0, 18.0, 12.5], [-1.0, 2.0, -4.0, -3.0, 0.0, 1.0, 1.0, 0.0]]]
module {
  func.func @rope_3d() -> tensor<*xf32> {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [-1.0, 2.0, -3.0, 4.0, 0.0, 1.0, 0.0, -1.0]]]> : tensor<1x2x8xf32>
    %c = arith.constant dense<[[1.0, 0.0], [0.0, -1.0], [0.5, 2.0]]> : tensor<3x2xf32>
    %s = arith.constant dense<[[0.0, 1.0], [1.0, 0.0], [2.0, -0.5]]> : tensor<3x2xf32>
    %p = arith.constant dense<[[2, 0]]> : tensor<1x2xi64>
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s, %p) {interleaved = 1 : i64, num_heads = 2 : i64} : (tensor<1x2x8xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<1x2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Partial rotation, rotary_embedding_dim 2 of D = 4: features 2 and 3 pass through.
// 4-D X [1, 1, 2, 4], caches [1, 2, 1]: position 0 (c = 0, s = 1): (1, 2) -> (-2, 1);
// position 1 (c = 2, s = -1): (5, 6) -> (10 + 6, -5 + 12) = (16, 7).
// CHECK: @rope_partial result 0: tensor<1x1x2x4xf32> = {{\[\[\[\[}}-2.0, 1.0, 3.0, 4.0], [16.0, 7.0, 7.0, 8.0]]]]
// 3-D X [1, 2, 4] (num_heads 1), interleaved, position_ids [[1, 1]] into caches [2, 1]
// (row 1: c = 0.5, s = 2): (1, 2) -> (0.5 - 4, 2 + 1) = (-3.5, 3);
// (5, 6) -> (2.5 - 12, 10 + 3) = (-9.5, 13).
// CHECK: @rope_partial result 1: tensor<1x2x4xf32> = {{\[\[\[}}-3.5, 3.0, 3.0, 4.0], [-9.5, 13.0, 7.0, 8.0]]]
module {
  func.func @rope_partial() -> (tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]]> : tensor<1x1x2x4xf32>
    %c = arith.constant dense<[[[0.0], [2.0]]]> : tensor<1x2x1xf32>
    %s = arith.constant dense<[[[1.0], [-1.0]]]> : tensor<1x2x1xf32>
    %x3 = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<1x2x4xf32>
    %c2 = arith.constant dense<[[3.0], [0.5]]> : tensor<2x1xf32>
    %s2 = arith.constant dense<[[-1.0], [2.0]]> : tensor<2x1xf32>
    %p = arith.constant dense<[[1, 1]]> : tensor<1x2xi64>
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {rotary_embedding_dim = 2 : i64} : (tensor<1x1x2x4xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> !onnx.value loc("r0"("m.onnx":0:0))
    %1 = onnx.node "RotaryEmbedding" opset 23 (%x3, %c2, %s2, %p) {interleaved = 1 : i64, num_heads = 1 : i64, rotary_embedding_dim = 2 : i64} : (tensor<1x2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<1x2xi64>) -> !onnx.value loc("r1"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
