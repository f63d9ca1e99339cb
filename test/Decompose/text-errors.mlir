// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the TfIdfVectorizer rule (lib/Decompose/Text.cpp): each names the
// node, its op type and opset, and what was expected.

module {
  func.func @pool_strings(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): pool_strings (a pool of string n-grams) is not supported: tcc has no string tensors; expected pool_int64s with an int32 or int64 input
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_strings = ["a", "b"]} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @float_input(%x: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): input X has element type 'f32', expected int32 or int64 (string tensors are not supported)
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xf32>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @rank3(%x: tensor<1x2x4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): input X has rank 3, expected [C] or [N, C]
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<1x2x4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @missing_mode(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): the attribute 'mode' is required
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bad_mode(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): attribute 'mode' is "BM25", expected TF, IDF or TFIDF
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "BM25", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gram_lengths(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): min_gram_length 2 and max_gram_length 1, expected 1 <= min_gram_length <= max_gram_length
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 2 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @negative_skip(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): max_skip_count is -1, expected >= 0
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = -1 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @empty_pool(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): ngram_counts, ngram_indexes and pool_int64s must not be empty
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @negative_index(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): ngram_indexes has -1, expected indexes >= 0
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, -1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @weights_size(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): weights has 1 entries, expected one per ngram_indexes entry (2)
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TFIDF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>, weights = array<f32: 1.0>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @max_length_beyond_counts(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): max_gram_length is 3, expected at most the 1 gram lengths that ngram_counts describes
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 3 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @counts_out_of_range(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): ngram_counts gives the 1-grams pool items [0, 5), expected a range inside the pool of 2 items
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 2 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0, 5>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @not_whole_ngrams(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): the pool has 3 items for 2-grams, expected a multiple of 2
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 2 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0, 1>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2, 3, 4>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @duplicate(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): pool_int64s has a duplicate 2-gram (pool n-gram 2), expected distinct n-grams
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 2 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0, 1>, ngram_indexes = array<i64: 0, 1, 2>, pool_int64s = array<i64: 1, 2, 3, 2, 3>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @few_indexes(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): the pool has 2 n-grams, ngram_indexes only 1 entries; expected one per pool n-gram
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0>, pool_int64s = array<i64: 1, 2>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dynamic_length(%x: tensor<2x?xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): the last dim of X (the sequence length C) must be static
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<2x?xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @idf_weights_disagree(%x: tensor<4xi64>) -> tensor<*xf32> {
    // CHECK: error: node 't' (TfIdfVectorizer, opset 9): in IDF mode, pool n-grams 0 and 1 share output column 0 with different weights; expected one weight per column
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "IDF", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 0>, pool_int64s = array<i64: 1, 2>, weights = array<f32: 2.0, 3.0>} : (tensor<4xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
