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

// -----

// A scatter that keeps the max of colliding updates has no VJP rule yet.
// CHECK: error: node 'scatter_max': the VJP of prim.scatter with combine = max is not implemented (only none and sum)
func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "loss"}) {
  %w = arith.constant {onnx.initializer = "w"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = arith.constant dense<[[1], [1]]> : tensor<2x1xi64>
  %u = prim.slice %w [0] [2] strides [2] : tensor<4xf32> -> tensor<2xf32>
  %s = prim.scatter %x[%i], %u combine = max : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32> loc("scatter_max"("m.onnx":0:0))
  %l = prim.reduce sum %s dims = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Product pooling has no VJP rule.
// CHECK: error: node 'pool': the VJP of reduce_window prod is not implemented (only sum, max and min)
func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<f32> {onnx.name = "loss"}) {
  %w = arith.constant {onnx.initializer = "w"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %m = prim.mul %x, %w : tensor<4xf32>
  %p = prim.reduce_window prod %m {padding_high = array<i64: 0>, padding_low = array<i64: 0>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : tensor<4xf32> -> tensor<2xf32> loc("pool"("m.onnx":0:0))
  %l = prim.reduce sum %p dims = [0] : tensor<2xf32> -> tensor<f32>
  return %l : tensor<f32>
}
