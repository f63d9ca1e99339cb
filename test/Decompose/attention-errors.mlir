// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the Attention rule (lib/Decompose/Attention.cpp): each names the
// node, its op type and opset, and what was expected.

module {
  func.func @heads_missing(%q: tensor<1x2x4xf32>, %k: tensor<1x2x4xf32>, %v: tensor<1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): 3-D inputs need the attributes 'q_num_heads' and 'kv_num_heads' (>= 1)
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @hidden(%q: tensor<1x2x6xf32>, %k: tensor<1x2x4xf32>, %v: tensor<1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): the hidden size of Q is 6, expected a multiple of 4 (q_num_heads)
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {q_num_heads = 4 : i64, kv_num_heads = 2 : i64} : (tensor<1x2x6xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @groups(%q: tensor<1x3x2x4xf32>, %k: tensor<1x2x2x4xf32>, %v: tensor<1x2x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): the number of query heads is 3, expected a multiple of 2 (the number of key/value heads)
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {} : (tensor<1x3x2x4xf32>, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ranks(%q: tensor<1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): Q, K and V have types 'tensor<1x2x4xf32>', 'tensor<1x1x2x4xf32>' and 'tensor<1x1x2x4xf32>', expected all 3-D {{\[}}batch, sequence, hidden] or all 4-D {{\[}}batch, heads, sequence, head_size]
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {} : (tensor<1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @head_size(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x3xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): the head size of K is 3, expected 4 (the head size of Q)
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {} : (tensor<1x1x2x4xf32>, tensor<1x1x2x3xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @past_alone(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>, %pk: tensor<1x1x3x4xf32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'a' (Attention, opset 23): past_key and past_value must be given together
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v, %none, %pk) {} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, none, tensor<1x1x3x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nonpad_past(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>, %pk: tensor<1x1x3x4xf32>, %n: tensor<1xi64>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'a' (Attention, opset 24): nonpad_kv_seqlen cannot be combined with past_key and past_value
    %0 = onnx.node "Attention" opset 24 (%q, %k, %v, %none, %pk, %pk, %n) {} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, none, tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32>, tensor<1xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mode(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): attribute 'qk_matmul_output_mode' is 4, expected 0, 1, 2 or 3
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {qk_matmul_output_mode = 4 : i64} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @precision(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): attribute 'softmax_precision' is 7, expected a floating-point type (1, 10, 11 or 16)
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {softmax_precision = 7 : i64} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @causal(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): attribute 'is_causal' is 2, expected 0 or 1
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {is_causal = 2 : i64} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @softcap(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): attribute 'softcap' is -1, expected >= 0
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {softcap = -1.0 : f32} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scale(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): attribute 'scale' is -0.5, expected >= 0 (Q and K are each scaled by sqrt(scale))
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v) {scale = -0.5 : f32} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mask_long(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>, %m: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): attn_mask's last dim is 3, expected at most the total sequence length 2
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v, %m) {} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<2x3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mask_shape(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>, %m: tensor<3x2xi1>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 23): attn_mask has type 'tensor<3x2xi1>', expected dim 0 to be 1 or 2 (broadcastable to {{\[}}batch, q_heads, q_sequence, total_sequence])
    %0 = onnx.node "Attention" opset 23 (%q, %k, %v, %m) {} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<3x2xi1>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @window(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 25): attributes 'left_window_size' and 'right_window_size' are -2 and -1, expected -1 (unbounded) or >= 0
    %0 = onnx.node "Attention" opset 25 (%q, %k, %v) {left_window_size = -2 : i64} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @heads_4d(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x2x4xf32>, %v: tensor<1x1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'a' (Attention, opset 25): the attributes 'q_num_heads' and 'kv_num_heads' must not be given with 4-D inputs
    %0 = onnx.node "Attention" opset 25 (%q, %k, %v) {q_num_heads = 1 : i64, kv_num_heads = 1 : i64} : (tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>, tensor<1x1x2x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
