// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s

// Relu on a dynamic batch: a max against a broadcast zero.
// CHECK-LABEL: func.func @relu
// CHECK-SAME: -> tensor<?x4xf32>
// CHECK: %[[N:.*]] = prim.dim %arg0, 0
// CHECK: %[[Z:.*]] = prim.broadcast_in_dim %{{.*}}, dims = [] sizes(%[[N]]) : (tensor<f32>) -> tensor<?x4xf32>
// CHECK: %[[R:.*]] = prim.max %arg0, %[[Z]] : tensor<?x4xf32>
// CHECK: return %[[R]]
module attributes {onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @relu(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %0 = onnx.node "Relu" opset 17 (%arg0) {} : (tensor<?x4xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Add broadcasts the bias along the leading dims; the declared output type is a hint and
// the computed type replaces it.
// CHECK-LABEL: func.func @add_bias
// CHECK-SAME: -> tensor<2x3x4xf32>
// CHECK: %[[B:.*]] = prim.broadcast_in_dim %arg1, dims = [2] : (tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK: prim.add %arg0, %[[B]] : tensor<2x3x4xf32>
module {
  func.func @add_bias(%arg0: tensor<2x3x4xf32>, %arg1: tensor<4xf32>) -> tensor<?x?x?xf32> {
    %0 = onnx.node "Add" opset 14 (%arg0, %arg1) {} : (tensor<2x3x4xf32>, tensor<4xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Two dynamic dims broadcast only when equal: a run-time check says so.
// CHECK-LABEL: func.func @dynamic_broadcast
// CHECK: %[[EQ:.*]] = arith.cmpi eq
// CHECK: prim.check %[[EQ]], "node 'mul_1' (Mul): dim 0 of input 1 must equal the other inputs' extent (a dynamic dim broadcasts only when equal)"
// CHECK: prim.mul
module {
  func.func @dynamic_broadcast(%arg0: tensor<?xf32>, %arg1: tensor<?xf32>) -> tensor<?xf32> {
    %0 = onnx.node "Mul" opset 14 (%arg0, %arg1) {} : (tensor<?xf32>, tensor<?xf32>) -> !onnx.value loc(#loc)
    onnx.yield %0 : !onnx.value
  }
}
#loc = loc("mul_1"("model.onnx":0:0))

// -----

// Initializers become constants; Gemm with transB contracts dim 1 with dim 1.
// CHECK-LABEL: func.func @gemm
// CHECK: %[[W:.*]] = arith.constant {onnx.initializer = "w"} dense<{{.*}}> : tensor<3x2xf32>
// CHECK: %[[D:.*]] = prim.dot_general %arg0, %[[W]] contracting = [1] x [1] batching = [] x [] : (tensor<5x2xf32>, tensor<3x2xf32>) -> tensor<5x3xf32>
// CHECK: %[[C:.*]] = prim.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<3xf32>) -> tensor<5x3xf32>
// CHECK: prim.add %[[D]], %[[C]]
module {
  func.func @gemm(%arg0: tensor<5x2xf32>) -> tensor<5x3xf32> {
    %w = onnx.initializer "w" dense<1.0> : tensor<3x2xf32> : tensor<3x2xf32>
    %b = onnx.initializer "b" dense<[1.0, 2.0, 3.0]> : tensor<3xf32> : tensor<3xf32>
    %0 = onnx.node "Gemm" opset 13 (%arg0, %w, %b) {transB = 1 : i64} : (tensor<5x2xf32>, tensor<3x2xf32>, tensor<3xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Shape -> Gather -> Unsqueeze -> Concat -> Reshape stays index arithmetic: the reshape
// target is built from the input's dims, not from a run-time tensor, so the result type
// keeps its static extent (test/Pipelines shows the arithmetic folded away).
// CHECK-LABEL: func.func @shape_arithmetic
// CHECK-NOT: prim.gather
// CHECK-NOT: prim.concatenate
// CHECK: prim.reshape %arg0 sizes(%{{.*}}) : (tensor<?x2x3xf32>) -> tensor<?x6xf32>
module {
  func.func @shape_arithmetic(%arg0: tensor<?x2x3xf32>) -> tensor<?x6xf32> {
    %s = onnx.node "Shape" opset 17 (%arg0) {} : (tensor<?x2x3xf32>) -> !onnx.value
    %i = onnx.initializer "i" dense<0> : tensor<i64> : tensor<i64>
    %g = onnx.node "Gather" opset 13 (%s, %i) {axis = 0 : i64} : (!onnx.value, tensor<i64>) -> !onnx.value
    %a = onnx.initializer "axes" dense<[0]> : tensor<1xi64> : tensor<1xi64>
    %u = onnx.node "Unsqueeze" opset 13 (%g, %a) {} : (!onnx.value, tensor<1xi64>) -> !onnx.value
    %six = onnx.initializer "six" dense<[6]> : tensor<1xi64> : tensor<1xi64>
    %c = onnx.node "Concat" opset 13 (%u, %six) {axis = 0 : i64} : (!onnx.value, tensor<1xi64>) -> !onnx.value
    %r = onnx.node "Reshape" opset 14 (%arg0, %c) {} : (tensor<?x2x3xf32>, !onnx.value) -> !onnx.value
    onnx.yield %r : !onnx.value
  }
}

// -----

// Softmax at opset 13: max-subtracted exp over the axis, normalized by its sum.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[M:.*]] = prim.reduce max %arg0 dims = [1]
// CHECK: %[[MB:.*]] = prim.broadcast_in_dim %[[M]], dims = [0]
// CHECK: %[[S:.*]] = prim.sub %arg0, %[[MB]]
// CHECK: %[[E:.*]] = prim.exp %[[S]]
// CHECK: %[[T:.*]] = prim.reduce sum %[[E]] dims = [1]
// CHECK: %[[TB:.*]] = prim.broadcast_in_dim %[[T]], dims = [0]
// CHECK: prim.div %[[E]], %[[TB]]
module {
  func.func @softmax(%arg0: tensor<2x5xf32>) -> tensor<2x5xf32> {
    %0 = onnx.node "Softmax" opset 13 (%arg0) {axis = -1 : i64} : (tensor<2x5xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Dead nodes (nothing reads their outputs, transitively) are erased before decomposition,
// so one tcc cannot decompose does not fail the compile.
// CHECK-LABEL: func.func @dead_nodes
// CHECK-NEXT: %[[N:.*]] = prim.neg %arg0 : tensor<4xf32>
// CHECK-NEXT: return %[[N]]
func.func @dead_nodes(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.node "FancyOp" opset 17 (%arg0) {} : (tensor<4xf32>) -> !onnx.value
  %1 = onnx.node "Relu" opset 17 (%0) {} : (!onnx.value) -> !onnx.value
  %2 = onnx.node "Neg" opset 17 (%arg0) {} : (tensor<4xf32>) -> !onnx.value
  onnx.yield %2 : !onnx.value
}
