// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rule of lib/Decompose/Text.cpp (TfIdfVectorizer) on constants, evaluated. One pool of
// four unigrams, four bigrams and two trigrams; expected values from onnxruntime-node 1.30.
// Covers skips, unigrams counted once, permuted and gapped output columns (the gather),
// columns shared by several pool n-grams (the contraction), weights per pool n-gram in
// TFIDF and IDF, a row too short for any n-gram, int32 and int64 inputs.

// CHECK: @tfidf_permuted result 0: tensor<2x10xf32> = {{\[\[}}1.5, 0.0, 3.0, 0.0, 1.0, 4.0, 1.25, 2.0, 0.0, 0.0], [1.5, 0.0, 0.0, 0.0, 0.5, 4.0, 1.25, 0.0, 2.5, 0.0]]
module {
  func.func @tfidf_permuted() -> tensor<*xf32> {
    %x = arith.constant dense<[[1, 2, 3, 0, 0, 0, 5, 6, 2], [0, 1, 0, 2, 0, 3, 7, 1, 1]]> : tensor<2x9xi32>
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TFIDF", min_gram_length = 1 : i64, max_gram_length = 3 : i64, max_skip_count = 2 : i64, ngram_indexes = array<i64: 4, 0, 7, 1, 2, 9, 3, 8, 6, 5>, weights = array<f32: 0.5, 1.5, 2.0, 0.25, 3.0, 1.0, 0.75, 2.5, 1.25, 4.0>, pool_int64s = array<i64: 2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 1, 1, 1, 2, 3, 0, 0, 0>, ngram_counts = array<i64: 0, 4, 12>} : (tensor<2x9xi32>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @idf_shared_columns result 0: tensor<2x5xf32> = {{\[\[}}0.5, 1.5, 0.0, 4.0, 3.0], [0.5, 1.5, 2.0, 4.0, 0.0]]
module {
  func.func @idf_shared_columns() -> tensor<*xf32> {
    %x = arith.constant dense<[[1, 2, 3, 0, 0, 0, 5, 6, 2], [0, 1, 0, 2, 0, 3, 7, 1, 1]]> : tensor<2x9xi64>
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "IDF", min_gram_length = 1 : i64, max_gram_length = 3 : i64, max_skip_count = 1 : i64, ngram_indexes = array<i64: 0, 1, 1, 2, 4, 4, 0, 2, 3, 3>, weights = array<f32: 0.5, 1.5, 1.5, 2.0, 3.0, 3.0, 0.5, 2.0, 4.0, 4.0>, pool_int64s = array<i64: 2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 1, 1, 1, 2, 3, 0, 0, 0>, ngram_counts = array<i64: 0, 4, 12>} : (tensor<2x9xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @tfidf_shared_columns result 0: tensor<2x5xf32> = {{\[\[}}1.0, 3.5, 0.0, 5.25, 3.0], [0.5, 1.5, 2.5, 5.25, 0.0]]
module {
  func.func @tfidf_shared_columns() -> tensor<*xf32> {
    %x = arith.constant dense<[[1, 2, 3, 0, 0, 0, 5, 6, 2], [0, 1, 0, 2, 0, 3, 7, 1, 1]]> : tensor<2x9xi64>
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TFIDF", min_gram_length = 1 : i64, max_gram_length = 3 : i64, max_skip_count = 1 : i64, ngram_indexes = array<i64: 0, 1, 1, 2, 4, 4, 0, 2, 3, 3>, weights = array<f32: 0.5, 1.5, 2.0, 0.25, 3.0, 1.0, 0.75, 2.5, 1.25, 4.0>, pool_int64s = array<i64: 2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 1, 1, 1, 2, 3, 0, 0, 0>, ngram_counts = array<i64: 0, 4, 12>} : (tensor<2x9xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @tf_gaps result 0: tensor<19xf32> = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
module {
  func.func @tf_gaps() -> tensor<*xf32> {
    %x = arith.constant dense<[0, 1, 0, 2, 0, 3, 7, 1, 1]> : tensor<9xi64>
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 2 : i64, max_gram_length = 3 : i64, max_skip_count = 3 : i64, ngram_indexes = array<i64: 0, 2, 4, 6, 8, 10, 12, 14, 16, 18>, pool_int64s = array<i64: 2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 1, 1, 1, 2, 3, 0, 0, 0>, ngram_counts = array<i64: 0, 4, 12>} : (tensor<9xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @idf_unweighted result 0: tensor<10xf32> = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
module {
  func.func @idf_unweighted() -> tensor<*xf32> {
    %x = arith.constant dense<[1, 2, 3, 0, 0, 0, 5, 6, 2]> : tensor<9xi32>
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "IDF", min_gram_length = 1 : i64, max_gram_length = 2 : i64, max_skip_count = 0 : i64, ngram_indexes = array<i64: 4, 0, 7, 1, 2, 9, 3, 8, 6, 5>, pool_int64s = array<i64: 2, 3, 5, 4, 5, 6, 7, 8, 6, 7, 1, 1, 1, 2, 3, 0, 0, 0>, ngram_counts = array<i64: 0, 4, 12>} : (tensor<9xi32>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// A row of one item holds no bigram: all zeros.
// CHECK: @too_short result 0: tensor<2x3xf32> = {{\[\[}}0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
module {
  func.func @too_short() -> tensor<*xf32> {
    %x = arith.constant dense<[[5], [6]]> : tensor<2x1xi64>
    %0 = onnx.node "TfIdfVectorizer" opset 9 (%x) {mode = "TF", min_gram_length = 2 : i64, max_gram_length = 2 : i64, max_skip_count = 4 : i64, ngram_counts = array<i64: 0, 0>, ngram_indexes = array<i64: 0, 1, 2>, pool_int64s = array<i64: 5, 6, 7, 8, 6, 7>} : (tensor<2x1xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
