// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of Det (lib/Decompose/LinearAlgebra.cpp) that
// training-linalg-errors.mlir does not cover (it has the dynamic matrix size and the
// non-square matrix): each names the node, its op type and opset, and what was expected.

module {
  func.func @det_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'det' (Det, opset 11): expected a tensor of rank >= 2 (..., M, M), got 'tensor<3xf32>'
    %0 = onnx.node "Det" opset 11 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("det"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @det_dynamic_rows(%x: tensor<?x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'det' (Det, opset 11): the matrix size must be static (the elimination is unrolled over it), got 'tensor<?x3xf32>'
    %0 = onnx.node "Det" opset 11 (%x) {} : (tensor<?x3xf32>) -> !onnx.value loc("det"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @det_integer(%x: tensor<2x2xi32>) -> tensor<*xf32> {
    // CHECK: error: node 'det' (Det, opset 11): input 0 has element type 'i32', expected a floating-point type
    %0 = onnx.node "Det" opset 11 (%x) {} : (tensor<2x2xi32>) -> !onnx.value loc("det"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
