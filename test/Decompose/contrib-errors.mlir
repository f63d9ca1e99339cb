// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the rules of lib/Decompose/Contrib.cpp (the com.microsoft contrib
// ops, and SimplifiedLayerNormalization of the default domain): each names the node, its op
// type, domain and opset, and what was expected or which feature is not supported.

module {
  func.func @fmm_transbatch_rank(%a0: tensor<2x3x4xf32>, %a1: tensor<4x5xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'fmm_transbatch_rank' (FusedMatMul, domain com.microsoft, opset 1): A and B have types 'tensor<2x3x4xf32>' and 'tensor<4x5xf32>', expected one rank (>= 3) with transBatchA or transBatchB
    %0 = onnx.node "FusedMatMul" domain "com.microsoft" opset 1 (%a0, %a1) {transBatchA = 1 : i64} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> !onnx.value loc("fmm_transbatch_rank"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @fmm_trans_rank1(%a0: tensor<4xf32>, %a1: tensor<4x5xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'fmm_trans_rank1' (FusedMatMul, domain com.microsoft, opset 1): A has type 'tensor<4xf32>', expected rank >= 2 with transA
    %0 = onnx.node "FusedMatMul" domain "com.microsoft" opset 1 (%a0, %a1) {transA = 1 : i64} : (tensor<4xf32>, tensor<4x5xf32>) -> !onnx.value loc("fmm_trans_rank1"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @skip_gamma(%a0: tensor<2x3x8xf32>, %a1: tensor<2x3x8xf32>, %a2: tensor<6xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'skip_gamma' (SkipLayerNormalization, domain com.microsoft, opset 1): gamma has 6 elements, expected 8 (the last dim of the input)
    %0 = onnx.node "SkipLayerNormalization" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {} : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<6xf32>) -> !onnx.value loc("skip_gamma"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @sln_stash(%a0: tensor<2x8xf32>, %a1: tensor<8xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'sln_stash' (SimplifiedLayerNormalization, opset 17): stash_type 10 is not supported (expected 1, f32, or the input's type)
    %0 = onnx.node "SimplifiedLayerNormalization" opset 17 (%a0, %a1) {stash_type = 10 : i64} : (tensor<2x8xf32>, tensor<8xf32>) -> !onnx.value loc("sln_stash"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @rotary_packed(%a0: tensor<2x3x16xf32>, %a1: tensor<2x3xi64>, %a2: tensor<16x4xf32>, %a3: tensor<16x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'rotary_packed' (RotaryEmbedding, domain com.microsoft, opset 1): is_packed_batching=1 (ragged batches) is not supported
    %0 = onnx.node "RotaryEmbedding" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %a3) {is_packed_batching = 1 : i64} : (tensor<2x3x16xf32>, tensor<2x3xi64>, tensor<16x4xf32>, tensor<16x4xf32>) -> !onnx.value loc("rotary_packed"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @rotary_dim_heads(%a0: tensor<2x3x16xf32>, %a1: tensor<2x3xi64>, %a2: tensor<16x4xf32>, %a3: tensor<16x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'rotary_dim_heads' (RotaryEmbedding, domain com.microsoft, opset 1): rotary_embedding_dim needs the attribute num_heads (> 0)
    %0 = onnx.node "RotaryEmbedding" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %a3) {rotary_embedding_dim = 8 : i64} : (tensor<2x3x16xf32>, tensor<2x3xi64>, tensor<16x4xf32>, tensor<16x4xf32>) -> !onnx.value loc("rotary_dim_heads"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @rotary_width(%a0: tensor<2x2x3x8xf32>, %a1: tensor<2x3xi64>, %a2: tensor<16x3xf32>, %a3: tensor<16x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'rotary_width' (RotaryEmbedding, domain com.microsoft, opset 1): cos_cache and sin_cache are 3 wide, expected half the rotary dim (4)
    %0 = onnx.node "RotaryEmbedding" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %a3) {} : (tensor<2x2x3x8xf32>, tensor<2x3xi64>, tensor<16x3xf32>, tensor<16x3xf32>) -> !onnx.value loc("rotary_width"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mha_heads(%a0: tensor<2x3x8xf32>, %a1: tensor<2x3x8xf32>, %a2: tensor<2x3x8xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mha_heads' (MultiHeadAttention, domain com.microsoft, opset 1): expected the attribute 'num_heads' >= 1
    %0 = onnx.node "MultiHeadAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {} : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> !onnx.value loc("mha_heads"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mha_packed(%a0: tensor<2x3x2x3x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mha_packed' (MultiHeadAttention, domain com.microsoft, opset 1): key and value are required (packed QKV in query, and packed KV in key, are not supported)
    %0 = onnx.node "MultiHeadAttention" domain "com.microsoft" opset 1 (%a0) {num_heads = 2 : i64} : (tensor<2x3x2x3x4xf32>) -> !onnx.value loc("mha_packed"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mha_mask4d(%a0: tensor<2x3x8xf32>, %a1: tensor<2x3x8xf32>, %a2: tensor<2x3x8xf32>, %a3: tensor<2x1x3x3xi32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'mha_mask4d' (MultiHeadAttention, domain com.microsoft, opset 1): key_padding_mask has type 'tensor<2x1x3x3xi32>', expected [batch], [batch, total_sequence] or [batch, sequence, total_sequence] (4-D masks are not supported, as by ORT's CPU kernels)
    %0 = onnx.node "MultiHeadAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %a3) {num_heads = 2 : i64} : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, none, tensor<2x1x3x3xi32>) -> !onnx.value loc("mha_mask4d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mha_past_seq(%a0: tensor<2x3x8xf32>, %a1: tensor<2x3x8xf32>, %a2: tensor<2x3x8xf32>, %a3: tensor<2x2x4x4xf32>, %a4: tensor<2x2x4x4xf32>, %a5: tensor<1xi32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'mha_past_seq' (MultiHeadAttention, domain com.microsoft, opset 1): input 8 (past_sequence_length, a shared KV buffer) is not supported
    %0:3 = onnx.node "MultiHeadAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %none, %none, %a3, %a4, %a5) {num_heads = 2 : i64} : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, none, none, none, tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>, tensor<1xi32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("mha_past_seq"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @mha_past_heads(%a0: tensor<2x3x8xf32>, %a1: tensor<2x3x8xf32>, %a2: tensor<2x3x8xf32>, %a3: tensor<2x3x4x4xf32>, %a4: tensor<2x3x4x4xf32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'mha_past_heads' (MultiHeadAttention, domain com.microsoft, opset 1): dim 1 of past_key is 3, expected 2 (that of the new keys and values)
    %0:3 = onnx.node "MultiHeadAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %none, %none, %a3, %a4) {num_heads = 2 : i64} : (tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, none, none, none, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("mha_past_heads"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @gqa_smooth(%a0: tensor<1x3x16xf32>, %a1: tensor<1x3x8xf32>, %a2: tensor<1x3x8xf32>, %a3: tensor<1xi32>, %a4: tensor<i32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'gqa_smooth' (GroupQueryAttention, domain com.microsoft, opset 1): smooth_softmax, qk_output, sliding_window_cache and quantized KV caches are not supported
    %0:3 = onnx.node "GroupQueryAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %none, %a3, %a4) {num_heads = 2 : i64, kv_num_heads = 1 : i64, smooth_softmax = 1 : i64} : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, tensor<1xi32>, tensor<i32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("gqa_smooth"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @gqa_position_ids(%a0: tensor<1x3x16xf32>, %a1: tensor<1x3x8xf32>, %a2: tensor<1x3x8xf32>, %a3: tensor<1xi32>, %a4: tensor<i32>, %a5: tensor<1x3xi64>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'gqa_position_ids' (GroupQueryAttention, domain com.microsoft, opset 1): input 9 (position_ids) is not supported
    %0:3 = onnx.node "GroupQueryAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %none, %a3, %a4, %none, %none, %a5) {num_heads = 2 : i64, kv_num_heads = 1 : i64} : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, tensor<1xi32>, tensor<i32>, none, none, tensor<1x3xi64>) -> (!onnx.value, !onnx.value, !onnx.value) loc("gqa_position_ids"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @gqa_rotary_caches(%a0: tensor<1x3x16xf32>, %a1: tensor<1x3x8xf32>, %a2: tensor<1x3x8xf32>, %a3: tensor<1xi32>, %a4: tensor<i32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'gqa_rotary_caches' (GroupQueryAttention, domain com.microsoft, opset 1): do_rotary=1 needs cos_cache and sin_cache
    %0:3 = onnx.node "GroupQueryAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %none, %a3, %a4) {num_heads = 2 : i64, kv_num_heads = 1 : i64, do_rotary = 1 : i64} : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, tensor<1xi32>, tensor<i32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("gqa_rotary_caches"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @gqa_heads(%a0: tensor<1x3x24xf32>, %a1: tensor<1x3x16xf32>, %a2: tensor<1x3x16xf32>, %a3: tensor<1xi32>, %a4: tensor<i32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'gqa_heads' (GroupQueryAttention, domain com.microsoft, opset 1): expected the attributes 'num_heads' and 'kv_num_heads' >= 1, num_heads a multiple of kv_num_heads
    %0:3 = onnx.node "GroupQueryAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %none, %a3, %a4) {num_heads = 3 : i64, kv_num_heads = 2 : i64} : (tensor<1x3x24xf32>, tensor<1x3x16xf32>, tensor<1x3x16xf32>, none, none, tensor<1xi32>, tensor<i32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("gqa_heads"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @attention_mask4d(%a0: tensor<2x3x6xf32>, %a1: tensor<6x24xf32>, %a2: tensor<24xf32>, %a3: tensor<2x1x3x3xi32>) -> tensor<*xf32> {
    // CHECK: error: node 'attention_mask4d' (Attention, domain com.microsoft, opset 1): mask_index has type 'tensor<2x1x3x3xi32>', expected [batch], [batch, total_sequence] or [batch, sequence, total_sequence] (4-D masks are not supported, as by ORT's CPU kernels)
    %0 = onnx.node "Attention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %a3) {num_heads = 2 : i64} : (tensor<2x3x6xf32>, tensor<6x24xf32>, tensor<24xf32>, tensor<2x1x3x3xi32>) -> !onnx.value loc("attention_mask4d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @attention_sizes(%a0: tensor<2x3x6xf32>, %a1: tensor<6x24xf32>, %a2: tensor<24xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'attention_sizes' (Attention, domain com.microsoft, opset 1): the hidden sizes of Q, K and V are [8, 4, 12], expected [D, D, D_v] with each a multiple of num_heads 2
    %0 = onnx.node "Attention" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {num_heads = 2 : i64, qkv_hidden_sizes = array<i64: 8, 4, 12>} : (tensor<2x3x6xf32>, tensor<6x24xf32>, tensor<24xf32>) -> !onnx.value loc("attention_sizes"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @attention_rotary(%a0: tensor<2x3x6xf32>, %a1: tensor<6x24xf32>, %a2: tensor<24xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'attention_rotary' (Attention, domain com.microsoft, opset 1): do_rotary and past_present_share_buffer are not supported
    %0 = onnx.node "Attention" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {num_heads = 2 : i64, do_rotary = 1 : i64} : (tensor<2x3x6xf32>, tensor<6x24xf32>, tensor<24xf32>) -> !onnx.value loc("attention_rotary"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nbits_bits(%a0: tensor<2x32xf32>, %a1: tensor<8x2x6xui8>, %a2: tensor<8x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'nbits_bits' (MatMulNBits, domain com.microsoft, opset 1): bits is 3, expected 2, 4 or 8 (fields that do not divide a byte are not supported)
    %0 = onnx.node "MatMulNBits" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {K = 32 : i64, N = 8 : i64, bits = 3 : i64, block_size = 16 : i64} : (tensor<2x32xf32>, tensor<8x2x6xui8>, tensor<8x2xf32>) -> !onnx.value loc("nbits_bits"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nbits_b_shape(%a0: tensor<2x32xf32>, %a1: tensor<8x2x16xui8>, %a2: tensor<8x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'nbits_b_shape' (MatMulNBits, domain com.microsoft, opset 1): B has type 'tensor<8x2x16xui8>', expected uint8 [8, 2, 8] (N, k_blocks, blob_size)
    %0 = onnx.node "MatMulNBits" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {K = 32 : i64, N = 8 : i64, bits = 4 : i64, block_size = 16 : i64} : (tensor<2x32xf32>, tensor<8x2x16xui8>, tensor<8x2xf32>) -> !onnx.value loc("nbits_b_shape"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nbits_g_idx(%a0: tensor<2x32xf32>, %a1: tensor<8x2x8xui8>, %a2: tensor<8x2xf32>, %a3: tensor<32xi32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'nbits_g_idx' (MatMulNBits, domain com.microsoft, opset 1): input 4 (g_idx) is not supported
    %0 = onnx.node "MatMulNBits" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %a3) {K = 32 : i64, N = 8 : i64, bits = 4 : i64, block_size = 16 : i64} : (tensor<2x32xf32>, tensor<8x2x8xui8>, tensor<8x2xf32>, none, tensor<32xi32>) -> !onnx.value loc("nbits_g_idx"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nbits_k(%a0: tensor<2x30xf32>, %a1: tensor<8x2x8xui8>, %a2: tensor<8x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'nbits_k' (MatMulNBits, domain com.microsoft, opset 1): A has type 'tensor<2x30xf32>', expected a last dim of 32 (K)
    %0 = onnx.node "MatMulNBits" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {K = 32 : i64, N = 8 : i64, bits = 4 : i64, block_size = 16 : i64} : (tensor<2x30xf32>, tensor<8x2x8xui8>, tensor<8x2xf32>) -> !onnx.value loc("nbits_k"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gqa_output_qk(%a0: tensor<1x3x16xf32>, %a1: tensor<1x3x8xf32>, %a2: tensor<1x3x8xf32>, %a3: tensor<1xi32>, %a4: tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %none = onnx.none
    // CHECK: error: node 'gqa_output_qk' (GroupQueryAttention, domain com.microsoft, opset 1): output 3 (output_qk) is not supported
    %0:4 = onnx.node "GroupQueryAttention" domain "com.microsoft" opset 1 (%a0, %a1, %a2, %none, %none, %a3, %a4) {num_heads = 2 : i64, kv_num_heads = 1 : i64} : (tensor<1x3x16xf32>, tensor<1x3x8xf32>, tensor<1x3x8xf32>, none, none, tensor<1xi32>, tensor<i32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("gqa_output_qk"("m.onnx":0:0))
    onnx.yield %0#0, %0#3 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @attention_present_sizes(%a0: tensor<2x3x6xf32>, %a1: tensor<6x28xf32>, %a2: tensor<28xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'attention_present_sizes' (Attention, domain com.microsoft, opset 1): output 1 (present) needs K and V of one hidden size
    %0:2 = onnx.node "Attention" domain "com.microsoft" opset 1 (%a0, %a1, %a2) {num_heads = 2 : i64, qkv_hidden_sizes = array<i64: 8, 8, 12>} : (tensor<2x3x6xf32>, tensor<6x28xf32>, tensor<28xf32>) -> (!onnx.value, !onnx.value) loc("attention_present_sizes"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}
