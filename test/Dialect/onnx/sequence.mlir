// RUN: tcc-opt %s | tcc-opt | FileCheck %s
// The transient sequence op and type round-trip.

// CHECK-LABEL: func.func @sequence
// CHECK: %[[S:.*]] = onnx.sequence(%arg0, %arg1) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.sequence
// CHECK: %[[E:.*]] = onnx.sequence() : () -> !onnx.sequence
// CHECK: onnx.yield %[[S]], %[[E]] : !onnx.sequence, !onnx.sequence
func.func @sequence(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) {
  %0 = onnx.sequence(%arg0, %arg1) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.sequence
  %1 = onnx.sequence() : () -> !onnx.sequence
  onnx.yield %0, %1 : !onnx.sequence, !onnx.sequence
}
