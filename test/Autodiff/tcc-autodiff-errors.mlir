// RUN: not tcc-opt %s --split-input-file --tcc-autodiff="wrt=params loss=loss" 2>&1 | FileCheck %s
// Each user-facing autodiff error: it names the ONNX node (or the option) and what is wrong.

// A gradient through an op without a derivative names the node.
// CHECK: error: node 'bits': a gradient is requested through prim.bitcast_convert, which is not differentiable: it reinterprets bits
func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<4xf32> {onnx.name = "y"}, tensor<f32> {onnx.name = "loss"}) {
  %w = arith.constant {onnx.initializer = "w"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %xw = prim.mul %x, %w : tensor<4xf32>
  %i = prim.bitcast_convert %xw : tensor<4xf32> to tensor<4xi32>
  %y = prim.bitcast_convert %i : tensor<4xi32> to tensor<4xf32> loc("bits"("m.onnx":0:0))
  %l = prim.reduce sum %y dims = [0] : tensor<4xf32> -> tensor<f32>
  return %y, %l : tensor<4xf32>, tensor<f32>
}

// -----

// CHECK: error: --loss output 'loss' must be one floating-point element, got 'tensor<4xf32>'
func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<4xf32> {onnx.name = "loss"}) {
  %w = arith.constant {onnx.initializer = "w"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = prim.mul %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK: error: --loss names 'loss', which is not an output of the model
func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<4xf32> {onnx.name = "y"}) {
  %w = arith.constant {onnx.initializer = "w"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = prim.mul %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// CHECK: error: nothing to differentiate: --wrt=params selects no floating-point input or initializer
func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "loss"}) {
  %l = prim.reduce sum %x dims = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}
