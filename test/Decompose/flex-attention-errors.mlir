// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of FlexAttention (lib/Decompose/FlexAttention.cpp,
// ai.onnx.preview): each names the node, its op type, domain and opset, and what was
// expected.

module {
  func.func @ranks(%q: tensor<1x2x2xf32>, %k: tensor<1x1x2x2xf32>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): Q, K and V have types 'tensor<1x2x2xf32>', 'tensor<1x1x2x2xf32>' and 'tensor<1x1x2x2xf32>', expected 4-D [batch, heads, sequence, head_size]
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} : (tensor<1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @element_types(%q: tensor<1x1x2x2xf32>, %k: tensor<1x1x2x2xf16>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): Q, K and V have element types 'f32', 'f16' and 'f32', expected one type
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf16>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @softmax_precision(%q: tensor<1x1x2x2xf32>, %k: tensor<1x1x2x2xf32>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): attribute 'softmax_precision' is 7, expected a floating-point type (1, 10, 11 or 16)
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {softmax_precision = 7 : i64} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @heads(%q: tensor<1x3x2x2xf32>, %k: tensor<1x2x2x2xf32>, %v: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): Q and K have types 'tensor<1x3x2x2xf32>' and 'tensor<1x2x2x2xf32>', expected static heads and head size, Q's heads a multiple of K's
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} : (tensor<1x3x2x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dynamic_heads(%q: tensor<1x?x2x2xf32>, %k: tensor<1x1x2x2xf32>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): Q and K have types 'tensor<1x?x2x2xf32>' and 'tensor<1x1x2x2xf32>', expected static heads and head size, Q's heads a multiple of K's
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} : (tensor<1x?x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mod_outputs(%q: tensor<1x1x2x2xf32>, %k: tensor<1x1x2x2xf32>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): graph attribute 'score_mod' has 2 outputs, expected 1
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} subgraphs ["score_mod"] {
    ^bb0(%s: !onnx.value):
      %n = onnx.node "Neg" opset 13 (%s) {} : (!onnx.value) -> !onnx.value loc("neg"("m.onnx":0:0))
      onnx.yield %n, %s : !onnx.value, !onnx.value
    } : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mod_type(%q: tensor<1x1x2x2xf32>, %k: tensor<1x1x2x2xf32>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): graph attribute 'prob_mod' yields 'tensor<1x1x2x2xi1>', expected a floating-point tensor
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} subgraphs ["prob_mod"] {
    ^bb0(%p: !onnx.value):
      %h = onnx.node "Constant" opset 13 () {value_float = 0.5 : f32} : () -> !onnx.value loc("half"("m.onnx":0:0))
      %b = onnx.node "Greater" opset 13 (%p, %h) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("gt"("m.onnx":0:0))
      onnx.yield %b : !onnx.value
    } : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Static extents that disagree: one error naming both values, nothing built after it.
module {
  func.func @flex_sequence_mismatch(%q: tensor<1x1x2x2xf32>, %k: tensor<1x1x3x2xf32>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): V's sequence length must be K's (2 vs 3)
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} : (tensor<1x1x2x2xf32>, tensor<1x1x3x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @flex_head_size_mismatch(%q: tensor<1x1x2x2xf32>, %k: tensor<1x1x2x3xf32>, %v: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (FlexAttention, domain ai.onnx.preview, opset 1): K's head size must be Q's (3 vs 2)
    %0 = onnx.node "FlexAttention" domain "ai.onnx.preview" opset 1 (%q, %k, %v) {} : (tensor<1x1x2x2xf32>, tensor<1x1x2x3xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
