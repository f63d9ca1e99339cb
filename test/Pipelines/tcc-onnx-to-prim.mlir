// RUN: tcc-opt %s --split-input-file --tcc-onnx-to-prim | FileCheck %s
// The whole onnx -> prim stage: decomposition, then folding of the shape arithmetic.

// An exporter's shape subgraph becomes one dim of the input, and the reshape's element-count
// check folds away.
// CHECK-LABEL: func.func @shape_arithmetic
// CHECK-NEXT: %[[N:.*]] = prim.dim %arg0, 0
// CHECK-NEXT: %[[R:.*]] = prim.reshape %arg0 sizes(%[[N]]) : (tensor<?x2x3xf32>) -> tensor<?x6xf32>
// CHECK-NEXT: return %[[R]]
module {
  func.func @shape_arithmetic(%arg0: tensor<?x2x3xf32>) -> tensor<?x6xf32> {
    %s = onnx.node "Shape" opset 17 (%arg0) {} : (tensor<?x2x3xf32>) -> !onnx.value
    %i = onnx.initializer "i" dense<0> : tensor<i64> : tensor<i64>
    %g = onnx.node "Gather" opset 13 (%s, %i) {axis = 0 : i64} : (!onnx.value, tensor<i64>) -> !onnx.value
    %a = onnx.initializer "axes" dense<[0]> : tensor<1xi64> : tensor<1xi64>
    %u = onnx.node "Unsqueeze" opset 13 (%g, %a) {} : (!onnx.value, tensor<1xi64>) -> !onnx.value
    %m = onnx.initializer "minus_one" dense<[-1]> : tensor<1xi64> : tensor<1xi64>
    %c = onnx.node "Concat" opset 13 (%u, %m) {axis = 0 : i64} : (!onnx.value, tensor<1xi64>) -> !onnx.value
    %r = onnx.node "Reshape" opset 14 (%arg0, %c) {} : (tensor<?x2x3xf32>, !onnx.value) -> !onnx.value
    onnx.yield %r : !onnx.value
  }
}

// -----

// Two inputs bound to one symbol broadcast without a run-time check.
// CHECK-LABEL: func.func @same_symbol
// CHECK-NOT: prim.check
// CHECK: prim.add %arg0, %arg1 : tensor<?x8xf32>
module {
  prim.symbol @batch
  func.func @same_symbol(%arg0: tensor<?x8xf32>, %arg1: tensor<?x8xf32>) -> tensor<?x8xf32> {
    prim.bind_shape %arg0 [@batch] affine_map<()[s0] -> (s0, 8)> : tensor<?x8xf32>
    prim.bind_shape %arg1 [@batch] affine_map<()[s0] -> (s0, 8)> : tensor<?x8xf32>
    %0 = onnx.node "Add" opset 14 (%arg0, %arg1) {} : (tensor<?x8xf32>, tensor<?x8xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}
