// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of lib/Decompose/Recurrent.cpp (RNN, GRU, LSTM): each names the
// node, its op type and opset, and what was expected.

module {
  func.func @activation(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'rnn' (RNN, opset 14): activation 'Swoosh' is not an ONNX recurrent activation
    %0:2 = onnx.node "RNN" opset 14 (%x, %w, %r) {hidden_size = 4 : i64, activations = ["Swoosh"]} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (!onnx.value, !onnx.value) loc("rnn"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @gates(%x: tensor<5x2x3xf32>, %w: tensor<1x8x3xf32>, %r: tensor<1x8x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gru' (GRU, opset 14): W has type 'tensor<1x8x3xf32>', expected 1 x 12 x ...
    %0:2 = onnx.node "GRU" opset 14 (%x, %w, %r) {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x8x3xf32>, tensor<1x8x4xf32>) -> (!onnx.value, !onnx.value) loc("gru"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}
