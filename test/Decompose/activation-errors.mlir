// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the activation rules (lib/Decompose/Activation.cpp): each names
// the node, its op type and opset, and what was expected.

module {
  func.func @gelu_approximate(%arg0: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Gelu, opset 20): attribute 'approximate' must be "none" or "tanh", got "fast"
    %0 = onnx.node "Gelu" opset 20 (%arg0) {approximate = "fast"} : (tensor<4xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @softmax_scalar(%arg0: tensor<f32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (Softmax, opset 13): expected an input of rank >= 1
    %0 = onnx.node "Softmax" opset 13 (%arg0) {} : (tensor<f32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @logsoftmax_axis(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ls' (LogSoftmax, opset 11): axis -3 is out of range for rank 2
    %0 = onnx.node "LogSoftmax" opset 11 (%arg0) {axis = -3 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("ls"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Activations other than Relu take floats only.
module {
  func.func @leaky_int(%arg0: tensor<4xi32>) -> tensor<*xi32> {
    // CHECK: error: node 'l' (LeakyRelu, opset 16): input 0 has element type 'i32', expected a floating-point type
    %0 = onnx.node "LeakyRelu" opset 16 (%arg0) {} : (tensor<4xi32>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// The slope broadcasts onto X only (unidirectionally).
module {
  func.func @prelu_slope(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (PRelu, opset 16): cannot broadcast dim 0 of extent 2 to 3
    %0 = onnx.node "PRelu" opset 16 (%arg0, %arg1) {} : (tensor<2x3xf32>, tensor<2xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @prelu_slope_rank(%arg0: tensor<3xf32>, %arg1: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (PRelu, opset 16): cannot broadcast a rank-2 tensor to rank 1
    %0 = onnx.node "PRelu" opset 16 (%arg0, %arg1) {} : (tensor<3xf32>, tensor<2x3xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
