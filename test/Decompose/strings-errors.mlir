// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of StringNormalizer's rule (lib/Decompose/Strings.cpp).

module {
  func.func @not_strings(%x: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (StringNormalizer, opset 10): X must be a string tensor, got 'tensor<4xf32>'
    %0 = onnx.node "StringNormalizer" opset 10 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @two_rows(%x: tensor<2x3x!prim.string>) -> tensor<*x!prim.string> {
    // CHECK: error: node 's' (StringNormalizer, opset 10): X must have shape [C] or [1, C], got [2, ...]
    %0 = onnx.node "StringNormalizer" opset 10 (%x) {} : (tensor<2x3x!prim.string>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bad_action(%x: tensor<3x!prim.string>) -> tensor<*x!prim.string> {
    // CHECK: error: node 's' (StringNormalizer, opset 10): case_change_action must be NONE, LOWER or UPPER, got 'TITLE'
    %0 = onnx.node "StringNormalizer" opset 10 (%x) {case_change_action = "TITLE"} : (tensor<3x!prim.string>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bad_stopwords(%x: tensor<3x!prim.string>) -> tensor<*x!prim.string> {
    // CHECK: error: node 's' (StringNormalizer, opset 10): attribute 'stopwords' must be a list of strings
    %0 = onnx.node "StringNormalizer" opset 10 (%x) {stopwords = [1, 2]} : (tensor<3x!prim.string>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
