// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// Attention (opsets 23 to 25) on constants, evaluated: grouped-query heads, a causal mask
// with a past, fully masked rows, nonpad_kv_seqlen, softcap and the qk_matmul_output modes,
// the opset-25 window. Expected values by hand, or from numpy where stated.

// GQA: 2 q heads share the one kv head; 3-D inputs split into heads and merged back
// (numpy: ONNX's reference implementation).
// CHECK: @gqa result 0: tensor<1x2x4xf32> = {{\[\[\[}}3.0, {{3.99999[0-9]*|4.0}}, 3.40667{{[0-9]*}}, 4.40667{{[0-9]*}}], [3.67484{{[0-9]*}}, 4.6748{{[0-9]*}}, 3.51046{{[0-9]*}}, 4.51046{{[0-9]*}}]]]
module {
  func.func @gqa() -> tensor<*xf32> {
    %q = arith.constant dense<[[[1.0, 0.0, 0.0, 1.0], [0.0, 2.0, 1.0, 1.0]]]> : tensor<1x2x4xf32>
    %k = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]]> : tensor<1x3x2xf32>
    %v = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<1x3x2xf32>
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Q = 0 gives uniform weights over the keys causal masking leaves: with a past of 1, query
// i sees keys j <= i + 1 (bottom-right aligned), so row 0 averages 2 rows of V and row 1 all 3.
// CHECK: @causal_past result 0: tensor<1x1x2x2xf32> = {{\[\[\[\[}}6.0, 12.0], [6.0, 10.6666{{[0-9]*}}]]]]
// CHECK: @causal_past result 1: tensor<1x1x3x2xf32> = {{\[\[\[\[}}5.0, 5.0], [1.0, 0.0], [0.0, 1.0]]]]
// CHECK: @causal_past result 2: tensor<1x1x3x2xf32> = {{\[\[\[\[}}10.0, 20.0], [2.0, 4.0], [6.0, 8.0]]]]
module {
  func.func @causal_past() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %q = arith.constant dense<[[[[0.0, 0.0], [0.0, 0.0]]]]> : tensor<1x1x2x2xf32>
    %k = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
    %v = arith.constant dense<[[[[2.0, 4.0], [6.0, 8.0]]]]> : tensor<1x1x2x2xf32>
    %pk = arith.constant dense<[[[[5.0, 5.0]]]]> : tensor<1x1x1x2xf32>
    %pv = arith.constant dense<[[[[10.0, 20.0]]]]> : tensor<1x1x1x2xf32>
    %none = onnx.none
    %0:3 = onnx.node "Attention" opset 23 (%q, %k, %v, %none, %pk, %pv) {is_causal = 1 : i64} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, none, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Causal with a past and scale 0.5 (numpy: ONNX's reference implementation).
// CHECK: @causal_scores result 0: tensor<1x1x3x2xf32> = {{\[\[\[\[}}0.244918{{[0-9]*}}, 1.24491{{[0-9]*}}], [-0.701874{{[0-9]*}}, 0.298125{{[0-9]*}}], [1.0, 2.0]]]]
module {
  func.func @causal_scores() -> tensor<*xf32> {
    %q = arith.constant dense<[[[[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]]]> : tensor<1x1x3x2xf32>
    %k = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
    %v = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
    %pk = arith.constant dense<[[[[2.0, -1.0]]]]> : tensor<1x1x1x2xf32>
    %pv = arith.constant dense<[[[[-1.0, 0.0]]]]> : tensor<1x1x1x2xf32>
    %none = onnx.none
    %0:3 = onnx.node "Attention" opset 23 (%q, %k, %v, %none, %pk, %pv) {is_causal = 1 : i64, scale = 0.5 : f32} : (tensor<1x1x3x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, none, tensor<1x1x1x2xf32>, tensor<1x1x1x2xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

// A row whose boolean mask is all False gives zeros in Y and in the probabilities (mode 3).
// CHECK: @fully_masked result 0: tensor<1x1x2x2xf32> = {{\[\[\[\[}}1.0, 2.0], [0.0, 0.0]]]]
// CHECK: @fully_masked result 1: tensor<1x1x2x2xf32> = {{\[\[\[\[}}1.0, 0.0], [0.0, 0.0]]]]
module {
  func.func @fully_masked() -> (tensor<*xf32>, tensor<*xf32>) {
    %q = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
    %k = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>
    %v = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
    %m = arith.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
    %0:4 = onnx.node "Attention" opset 23 (%q, %k, %v, %m) {qk_matmul_output_mode = 3 : i64} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<2x2xi1>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    onnx.yield %0#0, %0#3 : !onnx.value, !onnx.value
  }
}

// -----

// nonpad_kv_seqlen [1, 2] with is_causal: batch b sees keys j <= nonpad[b] - 1 (offset
// nonpad[b] - q_len) and j < nonpad[b]: key 0 in batch 0, keys 0 and 1 in batch 1.
// CHECK: @nonpad_causal result 0: tensor<2x1x1x2xf32> = {{\[\[\[\[}}1.0, 2.0]]], {{\[\[\[}}2.0, 3.0]]]]
module {
  func.func @nonpad_causal() -> tensor<*xf32> {
    %q = arith.constant dense<0.0> : tensor<2x1x1x2xf32>
    %k = arith.constant dense<1.0> : tensor<2x1x3x2xf32>
    %v = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0], [5.0, 9.0]]], [[[1.0, 2.0], [3.0, 4.0], [5.0, 9.0]]]]> : tensor<2x1x3x2xf32>
    %len = arith.constant dense<[1, 2]> : tensor<2xi64>
    %none = onnx.none
    %0 = onnx.node "Attention" opset 24 (%q, %k, %v, %none, %none, %none, %len) {is_causal = 1 : i64} : (tensor<2x1x1x2xf32>, tensor<2x1x3x2xf32>, tensor<2x1x3x2xf32>, none, none, none, tensor<2xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// QK = [2, 1, 6]; softcap 2: 2 tanh(QK / 2) (mode 1); plus the float mask padded with -inf
// to the 3 keys (mode 2); Y = softmax(mode 2) V.
// CHECK: @softcap_modes result 0: tensor<1x1x1x1xf32> = {{\[\[\[\[}}1.10919{{[0-9]*}}]]]]
// CHECK: @softcap_modes result 1: tensor<1x1x1x3xf32> = {{\[\[\[\[}}1.52318{{[0-9]*}}, 0.924234{{[0-9]*}}, 1.99010{{[0-9]*}}]]]]
// CHECK: @softcap_modes result 2: tensor<1x1x1x3xf32> = {{\[\[\[\[}}2.02318{{[0-9]*}}, -0.0757656{{[0-9]*}}, -inf]]]]
module {
  func.func @softcap_modes() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %q = arith.constant dense<[[[[2.0, 1.0]]]]> : tensor<1x1x1x2xf32>
    %k = arith.constant dense<[[[[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]]]]> : tensor<1x1x3x2xf32>
    %v = arith.constant dense<[[[[1.0], [2.0], [3.0]]]]> : tensor<1x1x3x1xf32>
    %m = arith.constant dense<[[0.5, -1.0]]> : tensor<1x2xf32>
    %0:4 = onnx.node "Attention" opset 23 (%q, %k, %v, %m) {scale = 1.0 : f32, softcap = 2.0 : f32, qk_matmul_output_mode = 1 : i64} : (tensor<1x1x1x2xf32>, tensor<1x1x3x2xf32>, tensor<1x1x3x1xf32>, tensor<1x2xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    %1:4 = onnx.node "Attention" opset 23 (%q, %k, %v, %m) {scale = 1.0 : f32, softcap = 2.0 : f32, qk_matmul_output_mode = 2 : i64} : (tensor<1x1x1x2xf32>, tensor<1x1x3x2xf32>, tensor<1x1x3x1xf32>, tensor<1x2xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("b"("m.onnx":0:0))
    onnx.yield %0#0, %0#3, %1#3 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Opset 25's window, left 0 and right 1: query i sees keys i and i + 1.
// CHECK: @window result 0: tensor<1x1x3x1xf32> = {{\[\[\[\[}}1.5], [3.0], [4.0]]]]
module {
  func.func @window() -> tensor<*xf32> {
    %q = arith.constant dense<0.0> : tensor<1x1x3x1xf32>
    %k = arith.constant dense<0.0> : tensor<1x1x3x1xf32>
    %v = arith.constant dense<[[[[1.0], [2.0], [4.0]]]]> : tensor<1x1x3x1xf32>
    %0 = onnx.node "Attention" opset 25 (%q, %k, %v) {left_window_size = 0 : i64, right_window_size = 1 : i64} : (tensor<1x1x3x1xf32>, tensor<1x1x3x1xf32>, tensor<1x1x3x1xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
