// RUN: tcc-opt %s --tcc-autodiff=wrt=inputs | FileCheck %s
// RUN: tcc-opt %s --tcc-autodiff="wrt=params loss=loss" | FileCheck %s --check-prefix=LOSS
// @main becomes a joint forward + backward function: the forward results, then one
// gradient per differentiated value, named grad.<name>; without a loss the cotangent of each
// float output is a new input. Differentiated initializers become arguments marked
// kernel.parameter (with their initial value), so no folding can copy them.

// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4xf32> {onnx.name = "x"}, %[[CT:[a-z0-9]+]]: tensor<4xf32> {onnx.name = "cotangent.y"}, %[[CTL:[a-z0-9]+]]: tensor<f32> {onnx.name = "cotangent.loss"}
// CHECK-SAME: -> (tensor<4xf32> {onnx.name = "y"}, tensor<f32> {onnx.name = "loss"}, tensor<4xf32> {onnx.name = "grad.x"})
// CHECK: %[[Y:.*]] = prim.mul %[[X]], %[[W:.*]] : tensor<4xf32>
// CHECK: %[[L:.*]] = prim.reduce sum %[[Y]]
// CHECK: %[[B:.*]] = prim.broadcast_in_dim %[[CTL]], dims = []
// CHECK: %[[S:.*]] = prim.add %[[CT]], %[[B]] : tensor<4xf32>
// CHECK: %[[G:.*]] = prim.mul %[[S]], %[[W]] : tensor<4xf32>
// CHECK: return %[[Y]], %[[L]], %[[G]]
// LOSS-LABEL: func.func @main
// LOSS-SAME: (%[[LX:.*]]: tensor<4xf32> {onnx.name = "x"}, %[[LW:.*]]: tensor<4xf32> {kernel.parameter = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>, onnx.name = "w"})
// LOSS-SAME: -> (tensor<4xf32> {onnx.name = "y"}, tensor<f32> {onnx.name = "loss"}, tensor<4xf32> {onnx.name = "grad.w"})
// LOSS: %[[B:.*]] = prim.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<4xf32>
// LOSS: %[[G:.*]] = prim.mul %[[B]], %[[LX]]
// LOSS: return %{{.*}}, %{{.*}}, %[[G]]
func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<4xf32> {onnx.name = "y"}, tensor<f32> {onnx.name = "loss"}) {
  %w = arith.constant {onnx.initializer = "w"} dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = prim.mul %x, %w : tensor<4xf32>
  %l = prim.reduce sum %y dims = [0] : tensor<4xf32> -> tensor<f32>
  return %y, %l : tensor<4xf32>, tensor<f32>
}
