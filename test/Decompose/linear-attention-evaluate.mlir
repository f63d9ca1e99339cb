// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/LinearAttention.cpp on constants, evaluated:
// CausalConvWithState (with and without past_state and bias, silu, k = 1), LinearAttention
// (each update_rule, grouped query heads, per-head and per-key-dim decay, past_state) and
// TensorScatter (linear and circular). Expected values by hand from the formulas of ONNX's
// reference implementations (checked with a python transcription of them); values that go
// through exp are matched to 6 significant digits.

// CausalConvWithState, x [1, 2, 3] = [[1, 2, 3], [4, 5, 6]], w [2, 1, 3] = [[1, 0, -1]],
// [[0.5, 1, 2]], bias [1, -2], past_state [[10, 20], [0, -1]]:
// padded channel 0 = [10, 20, 1, 2, 3], y[t] = p[t] - p[t + 2] + 1 = [10, 19, -1];
// channel 1 = [0, -1, 4, 5, 6], y[t] = 0.5 p[t] + p[t + 1] + 2 p[t + 2] - 2 = [5, 11.5, 17].
// present_state = the last k - 1 = 2 padded positions.
// CHECK: @conv_state result 0: tensor<1x2x3xf32> = {{\[\[\[}}10.0, 19.0, -1.0], [5.0, 11.5, 17.0]]]
// CHECK: @conv_state result 1: tensor<1x2x2xf32> = {{\[\[\[}}2.0, 3.0], [5.0, 6.0]]]
// No past_state (zeros) and no bias: [0, 0, 1, 2, 3] -> [-1, -2, -2]; [0, 0, 4, 5, 6] ->
// [8, 14, 19].
// CHECK: @conv_state result 2: tensor<1x2x3xf32> = {{\[\[\[}}-1.0, -2.0, -2.0], [8.0, 14.0, 19.0]]]
// silu, x = [[-1, 0, 2]], w = [[[1, 1]]]: padded [0, -1, 0, 2], conv [-1, -1, 2],
// v / (1 + e^-v) = [-0.268941, -0.268941, 1.76159]; present_state [[2]].
// CHECK: @conv_state result 3: tensor<1x1x3xf32> = {{\[\[\[}}-0.268941{{[0-9]*}}, -0.268941{{[0-9]*}}, 1.76159{{[0-9]*}}]]]
// CHECK: @conv_state result 4: tensor<1x1x1xf32> = {{\[\[\[}}2.0]]]
// k = 1, w = [[[2]], [[-1]]]: a per-channel scale; present_state is empty.
// CHECK: @conv_state result 5: tensor<1x2x3xf32> = {{\[\[\[}}2.0, 4.0, 6.0], [-4.0, -5.0, -6.0]]]
// CHECK: @conv_state result 6: tensor<1x2x0xf32> = {{\[\[}}[], []]]
module {
  func.func @conv_state() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]> : tensor<1x2x3xf32>
    %w = arith.constant dense<[[[1.0, 0.0, -1.0]], [[0.5, 1.0, 2.0]]]> : tensor<2x1x3xf32>
    %b = arith.constant dense<[1.0, -2.0]> : tensor<2xf32>
    %past = arith.constant dense<[[[10.0, 20.0], [0.0, -1.0]]]> : tensor<1x2x2xf32>
    %x1 = arith.constant dense<[[[-1.0, 0.0, 2.0]]]> : tensor<1x1x3xf32>
    %w1 = arith.constant dense<[[[1.0, 1.0]]]> : tensor<1x1x2xf32>
    %wk = arith.constant dense<[[[2.0]], [[-1.0]]]> : tensor<2x1x1xf32>
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w, %b, %past) {} : (tensor<1x2x3xf32>, tensor<2x1x3xf32>, tensor<2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("c0"("m.onnx":0:0))
    %1:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w) {} : (tensor<1x2x3xf32>, tensor<2x1x3xf32>) -> (!onnx.value, !onnx.value) loc("c1"("m.onnx":0:0))
    %2:2 = onnx.node "CausalConvWithState" opset 27 (%x1, %w1) {activation = "silu"} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> (!onnx.value, !onnx.value) loc("c2"("m.onnx":0:0))
    %3:2 = onnx.node "CausalConvWithState" opset 27 (%x, %wk) {} : (tensor<1x2x3xf32>, tensor<2x1x1xf32>) -> (!onnx.value, !onnx.value) loc("c3"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %2#0, %2#1, %3#0, %3#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// LinearAttention, B = 1, T = 2, q_num_heads 2, kv_num_heads 1 (both q heads read kv head 0),
// d_k = d_v = 2, scale 0.5. Per step: q = [[1, 0], [0, 2]] then [[1, 1], [-1, 0]],
// k = [1, 2] then [0, 1], v = [3, -1] then [2, 4].
// linear: S = k (x) v = [[3, -1], [6, -2]]; o = 0.5 q S = [1.5, -0.5], [6, -2];
// S += [0, 1] (x) [2, 4] = [[3, -1], [8, 2]]; o = [5.5, 0.5], [-1.5, 0.5].
// CHECK: @linear_attention result 0: tensor<1x2x4xf32> = {{\[\[\[}}1.5, -0.5, 6.0, -2.0], [5.5, 0.5, -1.5, 0.5]]]
// CHECK: @linear_attention result 1: tensor<1x1x2x2xf32> = {{\[\[\[\[}}3.0, -1.0], [8.0, 2.0]]]]
// delta, beta [[[0.5], [2]]] (one for all heads): v0 = 0.5 ([3, -1] - S^T k) = [1.5, -0.5],
// S = [[1.5, -0.5], [3, -1]], o = [0.75, -0.25], [3, -1];
// v1 = 2 ([2, 4] - S^T [0, 1]) = 2 ([2, 4] - [3, -1]) = [-2, 10], S = [[1.5, -0.5], [1, 9]],
// o = 0.5 [2.5, 8.5] = [1.25, 4.25] and 0.5 (-[1.5, -0.5]) = [-0.75, 0.25].
// CHECK: @linear_attention result 2: tensor<1x2x4xf32> = {{\[\[\[}}0.75, -0.25, 3.0, -1.0], [1.25, 4.25, -0.75, 0.25]]]
// CHECK: @linear_attention result 3: tensor<1x1x2x2xf32> = {{\[\[\[\[}}1.5, -0.5], [1.0, 9.0]]]]
module {
  func.func @linear_attention() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %q = arith.constant dense<[[[1.0, 0.0, 0.0, 2.0], [1.0, 1.0, -1.0, 0.0]]]> : tensor<1x2x4xf32>
    %k = arith.constant dense<[[[1.0, 2.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
    %v = arith.constant dense<[[[3.0, -1.0], [2.0, 4.0]]]> : tensor<1x2x2xf32>
    %beta = arith.constant dense<[[[0.5], [2.0]]]> : tensor<1x2x1xf32>
    %none = onnx.none
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, scale = 0.5 : f32, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("l0"("m.onnx":0:0))
    %1:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %none, %none, %beta) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, scale = 0.5 : f32, update_rule = "delta"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, none, none, tensor<1x2x1xf32>) -> (!onnx.value, !onnx.value) loc("l1"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %1#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// One step, 2 q heads and 2 kv heads, d_k = 4 (default scale 1 / sqrt(4) = 0.5), d_v = 2,
// past_state S0. q = [1, 0, 0, 1 | 0, 1, 1, 0], k = [1, 0, 1, 0 | 0, 2, 0, 0],
// v = [1, 2 | -1, 1].
// gated, decay per head [-1, 0.5]: S = S0 e^g + k (x) v; head 0: S0 [[1, 0], [0, 1], [2, 0],
// [0, 0]] e^-1 + rows 0 and 2 += [1, 2]; o = 0.5 (S[0] + S[3]) = [0.5 + e^-1 / 2, 1];
// head 1: S0 [[0, 1], [1, 0], [0, 0], [1, 1]] e^0.5, row 1 += 2 [-1, 1];
// o = 0.5 (S[1] + S[2]) = [(e^0.5 - 2) / 2, 1].
// CHECK: @gated result 0: tensor<1x1x4xf32> = {{\[\[\[}}0.683939{{[0-9]*}}, 1.0, -0.175639{{[0-9]*}}, 1.0]]]
// CHECK: @gated result 1: tensor<1x2x4x2xf32> = {{\[\[\[\[}}1.36787{{[0-9]*}}, 2.0], [0.0, 0.367879{{[0-9]*}}], [1.73575{{[0-9]*}}, 2.0], [0.0, 0.0]], {{\[\[}}0.0, 1.64872{{[0-9]*}}], [-0.351278{{[0-9]*}}, 2.0], [0.0, 0.0], [1.64872{{[0-9]*}}, 1.64872{{[0-9]*}}]]]]
// gated_delta, decay per key dim [0, -1, 0, 0.5 | 0, 0, 1, 0], beta per head [0.5, 2]:
// head 0: S = S0 diag(e^g) = [[1, 0], [0, e^-1], [2, 0], [0, 0]]; S^T k = [3, 0],
// v' = 0.5 ([1, 2] - [3, 0]) = [-1, 1]; S rows 0, 2 += [-1, 1]: [[0, 1], .., [1, 1], ..];
// o = 0.5 (S[0] + S[3]) = [0, 0.5]. head 1: S = S0 (row 2 is 0); S^T k = 2 S0[1] = [2, 0],
// v' = 2 ([-1, 1] - [2, 0]) = [-6, 2]; row 1 += 2 v' = [-11, 4]; o = 0.5 (S[1] + S[2]) =
// [-5.5, 2].
// CHECK: @gated result 2: tensor<1x1x4xf32> = {{\[\[\[}}0.0, 0.5, -5.5, 2.0]]]
// CHECK: @gated result 3: tensor<1x2x4x2xf32> = {{\[\[\[\[}}0.0, 1.0], [0.0, 0.367879{{[0-9]*}}], [1.0, 1.0], [0.0, 0.0]], {{\[\[}}0.0, 1.0], [-11.0, 4.0], [0.0, 0.0], [1.0, 1.0]]]]
module {
  func.func @gated() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %q = arith.constant dense<[[[1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0]]]> : tensor<1x1x8xf32>
    %k = arith.constant dense<[[[1.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0]]]> : tensor<1x1x8xf32>
    %v = arith.constant dense<[[[1.0, 2.0, -1.0, 1.0]]]> : tensor<1x1x4xf32>
    %s0 = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [2.0, 0.0], [0.0, 0.0]], [[0.0, 1.0], [1.0, 0.0], [0.0, 0.0], [1.0, 1.0]]]]> : tensor<1x2x4x2xf32>
    %g = arith.constant dense<[[[-1.0, 0.5]]]> : tensor<1x1x2xf32>
    %gk = arith.constant dense<[[[0.0, -1.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0]]]> : tensor<1x1x8xf32>
    %beta = arith.constant dense<[[[0.5, 2.0]]]> : tensor<1x1x2xf32>
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %s0, %g) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "gated"} : (tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x4xf32>, tensor<1x2x4x2xf32>, tensor<1x1x2xf32>) -> (!onnx.value, !onnx.value) loc("l0"("m.onnx":0:0))
    %1:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %s0, %gk, %beta) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64} : (tensor<1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x4xf32>, tensor<1x2x4x2xf32>, tensor<1x1x8xf32>, tensor<1x1x2xf32>) -> (!onnx.value, !onnx.value) loc("l1"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %1#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// TensorScatter on past = [[0, 0], [1, 1], [2, 2], [3, 3]] (axis -2, max length 4), update
// [[10, 11], [20, 21]]. linear, write_indices [1]: rows 1 and 2.
// CHECK: @tensor_scatter result 0: tensor<1x4x2xf32> = {{\[\[\[}}0.0, 0.0], [10.0, 11.0], [20.0, 21.0], [3.0, 3.0]]]
// circular, write_indices [3]: rows 3 and (3 + 1) mod 4 = 0.
// CHECK: @tensor_scatter result 1: tensor<1x4x2xf32> = {{\[\[\[}}20.0, 21.0], [1.0, 1.0], [2.0, 2.0], [10.0, 11.0]]]
// No write_indices: from row 0.
// CHECK: @tensor_scatter result 2: tensor<1x4x2xf32> = {{\[\[\[}}10.0, 11.0], [20.0, 21.0], [2.0, 2.0], [3.0, 3.0]]]
// 4-D [2, 1, 3, 1], one position per batch, write_indices [2, 0]: batch 0 row 2, batch 1 row 0.
// CHECK: @tensor_scatter result 3: tensor<2x1x3x1xf32> = {{\[\[\[\[}}0.0], [1.0], [7.0]]], {{\[\[\[}}8.0], [4.0], [5.0]]]]
module {
  func.func @tensor_scatter() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %past = arith.constant dense<[[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]]> : tensor<1x4x2xf32>
    %upd = arith.constant dense<[[[10.0, 11.0], [20.0, 21.0]]]> : tensor<1x2x2xf32>
    %w1 = arith.constant dense<[1]> : tensor<1xi64>
    %w3 = arith.constant dense<[3]> : tensor<1xi64>
    %p4 = arith.constant dense<[[[[0.0], [1.0], [2.0]]], [[[3.0], [4.0], [5.0]]]]> : tensor<2x1x3x1xf32>
    %u4 = arith.constant dense<[[[[7.0]]], [[[8.0]]]]> : tensor<2x1x1x1xf32>
    %w20 = arith.constant dense<[2, 0]> : tensor<2xi32>
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd, %w1) {} : (tensor<1x4x2xf32>, tensor<1x2x2xf32>, tensor<1xi64>) -> !onnx.value loc("t0"("m.onnx":0:0))
    %1 = onnx.node "TensorScatter" opset 24 (%past, %upd, %w3) {mode = "circular"} : (tensor<1x4x2xf32>, tensor<1x2x2xf32>, tensor<1xi64>) -> !onnx.value loc("t1"("m.onnx":0:0))
    %2 = onnx.node "TensorScatter" opset 24 (%past, %upd) {} : (tensor<1x4x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("t2"("m.onnx":0:0))
    %3 = onnx.node "TensorScatter" opset 24 (%p4, %u4, %w20) {} : (tensor<2x1x3x1xf32>, tensor<2x1x1x1xf32>, tensor<2xi32>) -> !onnx.value loc("t3"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}
