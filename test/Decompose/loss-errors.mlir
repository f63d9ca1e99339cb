// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the loss rules (lib/Decompose/Loss.cpp): each names the node,
// its op type and opset, and what was expected.

module {
  func.func @nll_target_rank(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'nll' (NegativeLogLikelihoodLoss, opset 13): the target has rank 1, expected 2 (the input's rank without the class dim)
    %0 = onnx.node "NegativeLogLikelihoodLoss" opset 13 (%arg0, %arg1) {} : (tensor<2x3x4xf32>, tensor<2xi64>) -> !onnx.value loc("nll"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nll_reduction(%arg0: tensor<2x3xf32>, %arg1: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'nll' (NegativeLogLikelihoodLoss, opset 13): attribute 'reduction' must be "none", "sum" or "mean", got "max"
    %0 = onnx.node "NegativeLogLikelihoodLoss" opset 13 (%arg0, %arg1) {reduction = "max"} : (tensor<2x3xf32>, tensor<2xi64>) -> !onnx.value loc("nll"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nll_float_target(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'nll' (NegativeLogLikelihoodLoss, opset 13): the target has type 'tensor<2xf32>', expected an integer tensor
    %0 = onnx.node "NegativeLogLikelihoodLoss" opset 13 (%arg0, %arg1) {} : (tensor<2x3xf32>, tensor<2xf32>) -> !onnx.value loc("nll"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nll_weight(%arg0: tensor<2x3xf32>, %arg1: tensor<2xi64>, %arg2: tensor<3xf64>) -> tensor<*xf32> {
    // CHECK: error: node 'nll' (NegativeLogLikelihoodLoss, opset 13): the weight has type 'tensor<3xf64>', expected a 1-d tensor of 'f32'
    %0 = onnx.node "NegativeLogLikelihoodLoss" opset 13 (%arg0, %arg1, %arg2) {} : (tensor<2x3xf32>, tensor<2xi64>, tensor<3xf64>) -> !onnx.value loc("nll"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @sce_rank(%arg0: tensor<3xf32>, %arg1: tensor<i64>) -> tensor<*xf32> {
    // CHECK: error: node 'sce' (SoftmaxCrossEntropyLoss, opset 13): the scores must have rank >= 2 (N, C, d...), got 'tensor<3xf32>'
    %0 = onnx.node "SoftmaxCrossEntropyLoss" opset 13 (%arg0, %arg1) {} : (tensor<3xf32>, tensor<i64>) -> !onnx.value loc("sce"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
