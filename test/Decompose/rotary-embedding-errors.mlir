// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the RotaryEmbedding rule (lib/Decompose/RotaryEmbedding.cpp):
// each names the node, its op type and opset, and what was expected.

module {
  func.func @rank(%x: tensor<2x8xf32>, %c: tensor<2x4xf32>, %s: tensor<2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): X has rank 2, expected 3 ([B, S, hidden]) or 4 ([B, num_heads, S, head_size])
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {} : (tensor<2x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @num_heads(%x: tensor<1x2x8xf32>, %c: tensor<1x2x4xf32>, %s: tensor<1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): a 3-D X needs the attribute num_heads (> 0)
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {} : (tensor<1x2x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @hidden(%x: tensor<1x2x8xf32>, %c: tensor<1x2x4xf32>, %s: tensor<1x2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): the hidden size must be static and a multiple of num_heads (3)
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {num_heads = 3 : i64} : (tensor<1x2x8xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @head_size(%x: tensor<1x2x2x?xf32>, %c: tensor<1x2x2xf32>, %s: tensor<1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): the head size must be static
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {} : (tensor<1x2x2x?xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @rotary_dim(%x: tensor<1x1x2x4xf32>, %c: tensor<1x2x2xf32>, %s: tensor<1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): rotary_embedding_dim 3 must be even and at most the head size 4
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {rotary_embedding_dim = 3 : i64} : (tensor<1x1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @rotary_dim_large(%x: tensor<1x1x2x4xf32>, %c: tensor<1x2x2xf32>, %s: tensor<1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): rotary_embedding_dim 6 must be even and at most the head size 4
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {rotary_embedding_dim = 6 : i64} : (tensor<1x1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @cache_2d(%x: tensor<1x1x2x4xf32>, %c: tensor<1x2x2xf32>, %s: tensor<1x2x2xf32>, %p: tensor<1x2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): cos_cache must be 2-D ([max_position, R/2]) with position_ids
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s, %p) {} : (tensor<1x1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @cache_3d(%x: tensor<1x1x2x4xf32>, %c: tensor<1x2x2xf32>, %s: tensor<8x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): sin_cache must be 3-D ([B, S, R/2]) without position_ids
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {} : (tensor<1x1x2x4xf32>, tensor<1x2x2xf32>, tensor<8x2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @cache_features(%x: tensor<1x1x2x4xf32>, %c: tensor<8x4xf32>, %s: tensor<8x4xf32>, %p: tensor<1x2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): cos_cache has 4 features, expected rotary_embedding_dim / 2 = 2
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s, %p) {} : (tensor<1x1x2x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<1x2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @cache_dynamic(%x: tensor<1x1x2x4xf32>, %c: tensor<1x2x2xf32>, %s: tensor<1x2x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RotaryEmbedding, opset 23): sin_cache has ? features, expected rotary_embedding_dim / 2 = 2
    %0 = onnx.node "RotaryEmbedding" opset 23 (%x, %c, %s) {} : (tensor<1x1x2x4xf32>, tensor<1x2x2xf32>, tensor<1x2x?xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
