// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the optimizer rules (lib/Decompose/Training.cpp), Det
// (lib/Decompose/LinearAlgebra.cpp) and training-mode Dropout.

module {
  func.func @adam_counts(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'adam' (Adam, domain ai.onnx.preview.training, opset 1): expected inputs R, T, X1..Xn, G1..Gn, V1..Vn, H1..Hn (4 groups of n tensors) and as many outputs less the n gradients, got 5 inputs and 2 outputs
    %0:2 = onnx.node "Adam" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v) {} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("adam"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @momentum_mode(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'momentum' (Momentum, domain ai.onnx.preview.training, opset 1): attribute 'mode' is "heavy", expected standard or nesterov
    %0:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v) {alpha = 0.9 : f32, beta = 1.0 : f32, norm_coefficient = 0.0 : f32, mode = "heavy"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("momentum"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @momentum_alpha(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'momentum' (Momentum, domain ai.onnx.preview.training, opset 1): attribute 'alpha' is required
    %0:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v) {beta = 1.0 : f32, norm_coefficient = 0.0 : f32, mode = "standard"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("momentum"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @det_dynamic(%arg0: tensor<2x?x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'det' (Det, opset 11): the matrix size must be static (the elimination is unrolled over it), got 'tensor<2x?x?xf32>'
    %0 = onnx.node "Det" opset 11 (%arg0) {} : (tensor<2x?x?xf32>) -> !onnx.value loc("det"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @det_square(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'det' (Det, opset 11): expected square matrices (..., M, M), got 'tensor<2x3xf32>'
    %0 = onnx.node "Det" opset 11 (%arg0) {} : (tensor<2x3xf32>) -> !onnx.value loc("det"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}


// -----

module {
  func.func @dropout_training(%x: tensor<3xf32>) -> tensor<*xf32> {
    %ratio = arith.constant dense<0.5> : tensor<f32>
    %t = arith.constant dense<true> : tensor<i1>
    // CHECK: error: node 'drop' (Dropout, opset 13): training_mode must be false, or the ratio 0: dropout in training draws random numbers, which tcc does not generate
    %0 = onnx.node "Dropout" opset 13 (%x, %ratio, %t) {} : (tensor<3xf32>, tensor<f32>, tensor<i1>) -> !onnx.value loc("drop"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
