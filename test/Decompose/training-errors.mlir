// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the rules of lib/Decompose/Training.cpp (the optimizers and
// Gradient) that training-linalg-errors.mlir does not cover: each names the node, its op
// type, domain and opset, and what was expected.

module {
  func.func @adagrad_counts(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'adagrad' (Adagrad, domain ai.onnx.preview.training, opset 1): expected inputs R, T, X1..Xn, G1..Gn, H1..Hn (3 groups of n tensors) and as many outputs less the n gradients, got 4 inputs and 2 outputs
    %0:2 = onnx.node "Adagrad" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g) {} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("adagrad"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @momentum_outputs(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'momentum' (Momentum, domain ai.onnx.preview.training, opset 1): expected inputs R, T, X1..Xn, G1..Gn, V1..Vn (3 groups of n tensors) and as many outputs less the n gradients, got 5 inputs and 1 outputs
    %0 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v) {alpha = 0.9 : f32, beta = 1.0 : f32, norm_coefficient = 0.0 : f32, mode = "standard"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("momentum"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @adagrad_rate_rank(%r: tensor<1xf32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %h: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'adagrad' (Adagrad, domain ai.onnx.preview.training, opset 1): R and T must be 0-d tensors, got 'tensor<1xf32>' and 'tensor<i64>'
    %0:2 = onnx.node "Adagrad" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %h) {} : (tensor<1xf32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("adagrad"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @adam_count_type(%r: tensor<f32>, %t: tensor<f32>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>, %h: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'adam' (Adam, domain ai.onnx.preview.training, opset 1): T must be an integer tensor, got 'tensor<f32>'
    %0:3 = onnx.node "Adam" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v, %h) {} : (tensor<f32>, tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("adam"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @momentum_beta(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'momentum' (Momentum, domain ai.onnx.preview.training, opset 1): attribute 'beta' is required
    %0:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v) {alpha = 0.9 : f32, norm_coefficient = 0.0 : f32, mode = "standard"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("momentum"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @momentum_norm(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'momentum' (Momentum, domain ai.onnx.preview.training, opset 1): attribute 'norm_coefficient' is required
    %0:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v) {alpha = 0.9 : f32, beta = 1.0 : f32, mode = "nesterov"} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("momentum"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @momentum_mode(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'momentum' (Momentum, domain ai.onnx.preview.training, opset 1): attribute 'mode' is required ("standard" or "nesterov")
    %0:2 = onnx.node "Momentum" domain "ai.onnx.preview.training" opset 1 (%r, %t, %x, %g, %v) {alpha = 0.9 : f32, beta = 1.0 : f32, norm_coefficient = 0.0 : f32} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value) loc("momentum"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @gradient_xs(%a: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'grad' (Gradient, domain ai.onnx.preview.training, opset 1): attribute 'xs' must name the tensors to differentiate with respect to
    %0 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%a, %a) {y = "a"} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("grad"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gradient_y(%a: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'grad' (Gradient, domain ai.onnx.preview.training, opset 1): attribute 'y' must name the tensor to differentiate
    %0 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%a, %a) {xs = ["a"]} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("grad"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gradient_inputs(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %y = onnx.node "Mul" opset 17 (%a, %b) {} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("mul"("m.onnx":0:0))
    // CHECK: error: node 'grad' (Gradient, domain ai.onnx.preview.training, opset 1): expected the 2 tensors named by 'xs' as inputs
    %0:2 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%a, %y) {xs = ["a", "b"], y = "y"} : (tensor<2xf32>, !onnx.value) -> (!onnx.value, !onnx.value) loc("grad"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @gradient_not_formed(%a: tensor<3xf32>, %u: tensor<2xf32>) -> tensor<*xf32> {
    %i = arith.constant dense<[0, 0]> : tensor<2xi64>
    %y = onnx.node "ScatterElements" opset 18 (%a, %i, %u) {reduction = "mul"} : (tensor<3xf32>, tensor<2xi64>, tensor<2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    // CHECK: error: node 's': the VJP of prim.scatter with combine = prod is not implemented (only none and sum)
    // CHECK: error: node 'grad' (Gradient, domain ai.onnx.preview.training, opset 1): the gradient of 'y' cannot be formed (see the error above)
    %0 = onnx.node "Gradient" domain "ai.onnx.preview.training" opset 1 (%a, %y) {xs = ["a"], y = "y"} : (tensor<3xf32>, !onnx.value) -> !onnx.value loc("grad"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
