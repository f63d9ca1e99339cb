// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the rules of lib/Decompose/LinearAttention.cpp
// (CausalConvWithState, LinearAttention, TensorScatter): each names the node, its op type and
// opset, and what was expected.

module {
  func.func @conv_activation(%x: tensor<1x2x3xf32>, %w: tensor<2x1x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): attribute 'activation' is "relu", expected none, silu or swish
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w) {activation = "relu"} : (tensor<1x2x3xf32>, tensor<2x1x3xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @conv_ranks(%x: tensor<1x2x3xf32>, %w: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): input and weight have types 'tensor<1x2x3xf32>' and 'tensor<2x3xf32>', expected 3-D [batch, channels, length] and [channels, 1, k] of one element type
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w) {} : (tensor<1x2x3xf32>, tensor<2x3xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @conv_weight(%x: tensor<1x2x3xf32>, %w: tensor<2x2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): weight has type 'tensor<2x2x3xf32>', expected [channels, 1, k] with a static k >= 1
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w) {} : (tensor<1x2x3xf32>, tensor<2x2x3xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @conv_kernel(%x: tensor<1x2x3xf32>, %w: tensor<2x1x?xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): weight has type 'tensor<2x1x?xf32>', expected [channels, 1, k] with a static k >= 1
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w) {} : (tensor<1x2x3xf32>, tensor<2x1x?xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @conv_channels(%x: tensor<1x?x3xf32>, %w: tensor<2x1x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): input has type 'tensor<1x?x3xf32>', expected a static channel count (the convolution's group)
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w) {} : (tensor<1x?x3xf32>, tensor<2x1x3xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @conv_past_type(%x: tensor<1x2x3xf32>, %w: tensor<2x1x3xf32>, %p: tensor<1x2x2xf16>) -> (tensor<*xf32>, tensor<*xf32>) {
    %none = onnx.none
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): past_state has type 'tensor<1x2x2xf16>', expected 3-D [batch, channels, k - 1] of 'f32'
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w, %none, %p) {} : (tensor<1x2x3xf32>, tensor<2x1x3xf32>, none, tensor<1x2x2xf16>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @conv_past_shape(%x: tensor<1x2x3xf32>, %w: tensor<2x1x3xf32>, %p: tensor<1x2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %none = onnx.none
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): past_state has type 'tensor<1x2x3xf32>', expected [batch, channels, 2]
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w, %none, %p) {} : (tensor<1x2x3xf32>, tensor<2x1x3xf32>, none, tensor<1x2x3xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @conv_bias(%x: tensor<1x2x3xf32>, %w: tensor<2x1x3xf32>, %b: tensor<2x1xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): bias has type 'tensor<2x1xf32>', expected [channels] of 'f32'
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w, %b) {} : (tensor<1x2x3xf32>, tensor<2x1x3xf32>, tensor<2x1xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_rule(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): attribute 'update_rule' is "retnet", expected linear, gated, delta or gated_delta
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "retnet"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_heads(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): attributes 'q_num_heads' and 'kv_num_heads' are required, >= 1, and q_num_heads must be a multiple of kv_num_heads
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 3 : i64, kv_num_heads = 2 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_needs_decay(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): update_rule gated needs the decay input
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "gated"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_forbids_decay(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %g: tensor<1x2x1xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %none = onnx.none
    // CHECK: error: node 'attn' (LinearAttention, opset 27): update_rule linear forbids the decay input
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %none, %g) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, none, tensor<1x2x1xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_needs_beta(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): update_rule delta needs the beta input
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "delta"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_forbids_beta(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %g: tensor<1x2x1xf32>, %b: tensor<1x2x1xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %none = onnx.none
    // CHECK: error: node 'attn' (LinearAttention, opset 27): update_rule gated forbids the beta input
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %none, %g, %b) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "gated"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, none, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_ranks(%q: tensor<1x2x4xf32>, %k: tensor<1x2x1x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): query, key and value have types 'tensor<1x2x4xf32>', 'tensor<1x2x1x2xf32>' and 'tensor<1x2x2xf32>', expected 3-D [batch, sequence, heads * head_size] of one type
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x1x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_dynamic_steps(%q: tensor<1x?x4xf32>, %k: tensor<1x?x2xf32>, %v: tensor<1x?x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): query has type 'tensor<1x?x4xf32>', expected a static sequence length >= 1 (the recurrence is unrolled)
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x?x4xf32>, tensor<1x?x2xf32>, tensor<1x?x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_steps(%q: tensor<1x2x4xf32>, %k: tensor<1x3x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): key/value has type 'tensor<1x3x2xf32>', expected the sequence length of query (2)
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x3x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_unpack(%q: tensor<1x2x5xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): query has type 'tensor<1x2x5xf32>', expected a static last dim that is a multiple of 2
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x5xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_key_size(%q: tensor<1x2x4xf32>, %k: tensor<1x2x3xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): key has head size 3, expected that of query (2)
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x3xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_decay(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %g: tensor<1x2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %none = onnx.none
    // CHECK: error: node 'attn' (LinearAttention, opset 27): decay has type 'tensor<1x2x3xf32>', expected [batch, sequence, kv_num_heads] or [batch, sequence, kv_num_heads * d_k] (last dim 1 or 2)
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %none, %g) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "gated"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, none, tensor<1x2x3xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_beta(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %b: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %none = onnx.none
    // CHECK: error: node 'attn' (LinearAttention, opset 27): beta has type 'tensor<1x2x2xf32>', expected [batch, sequence, kv_num_heads] or [batch, sequence, 1]
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %none, %none, %b) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "delta"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, none, none, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_past_rank(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %s: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): past_state has type 'tensor<1x2x2xf32>', expected [batch, kv_num_heads, d_k, d_v] = [1 heads, 2, 2]
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %s) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attn_past_shape(%q: tensor<1x2x4xf32>, %k: tensor<1x2x2xf32>, %v: tensor<1x2x2xf32>, %s: tensor<1x1x2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): past_state has type 'tensor<1x1x2x3xf32>', expected [batch, 1, 2, 2]
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v, %s) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x1x2x3xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @scatter_mode(%past: tensor<1x4x2xf32>, %upd: tensor<1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): attribute 'mode' is "ring", expected linear or circular
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd) {mode = "ring"} : (tensor<1x4x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_types(%past: tensor<1x4x2xf32>, %upd: tensor<1x2x2xf16>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): past_cache and update have types 'tensor<1x4x2xf32>' and 'tensor<1x2x2xf16>', expected one rank and element type
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd) {} : (tensor<1x4x2xf32>, tensor<1x2x2xf16>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_axis_range(%past: tensor<1x4x2xf32>, %upd: tensor<1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): axis 3 is out of range for rank 3
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd) {axis = 3 : i64} : (tensor<1x4x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_batch_axis(%past: tensor<1x4x2xf32>, %upd: tensor<1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): attribute 'axis' is -3, expected a dim after the batch dim 0
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd) {axis = -3 : i64} : (tensor<1x4x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_too_long(%past: tensor<1x4x2xf32>, %upd: tensor<1x5x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): update has 5 positions along the axis, expected at most past_cache's 4
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd) {} : (tensor<1x4x2xf32>, tensor<1x5x2xf32>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_indices(%past: tensor<1x4x2xf32>, %upd: tensor<1x2x2xf32>, %w: tensor<1xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): write_indices has type 'tensor<1xf32>', expected an integer vector [batch]
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd, %w) {} : (tensor<1x4x2xf32>, tensor<1x2x2xf32>, tensor<1xf32>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Static extents that disagree: one error naming both values, nothing built after it (each
// of these failed the verifier or crashed before).
module {
  func.func @conv_channels_mismatch(%x: tensor<1x2x3xf32>, %w: tensor<3x1x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'conv' (CausalConvWithState, opset 27): weight's dim 0 must equal the input's channels (3 vs 2)
    %0:2 = onnx.node "CausalConvWithState" opset 27 (%x, %w) {} : (tensor<1x2x3xf32>, tensor<3x1x3xf32>) -> (!onnx.value, !onnx.value) loc("conv"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attention_batch_mismatch(%q: tensor<1x2x4xf32>, %k: tensor<2x2x2xf32>, %v: tensor<1x2x2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attn' (LinearAttention, opset 27): key and value must have the batch size of query (2 vs 1)
    %0:2 = onnx.node "LinearAttention" opset 27 (%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 1 : i64, update_rule = "linear"} : (tensor<1x2x4xf32>, tensor<2x2x2xf32>, tensor<1x2x2xf32>) -> (!onnx.value, !onnx.value) loc("attn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @scatter_shape_mismatch(%past: tensor<1x4x2xf32>, %upd: tensor<1x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): update must have past_cache's shape except along the axis (3 vs 2)
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd) {} : (tensor<1x4x2xf32>, tensor<1x2x3xf32>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_indices_mismatch(%past: tensor<2x4x2xf32>, %upd: tensor<2x1x2xf32>, %i: tensor<3xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'scatter' (TensorScatter, opset 24): write_indices must have one entry per batch (3 vs 2)
    %0 = onnx.node "TensorScatter" opset 24 (%past, %upd, %i) {} : (tensor<2x4x2xf32>, tensor<2x1x2xf32>, tensor<3xi64>) -> !onnx.value loc("scatter"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
