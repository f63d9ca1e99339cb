// RUN: tcc-opt %s --split-input-file --tcc-onnx-to-prim | FileCheck %s
// tcc-data-extents (lib/Decompose/DataExtents.cpp): extents computed from graph inputs'
// elements by scalar arithmetic become computed symbols (prim.data_symbol), one per result
// dim, named after the node; the runtime computes them before the run.

// A Reshape whose shape is an input: both extents (after the 0 and -1 rules) are symbols,
// and the element-count check stays a run-time check.
// CHECK: prim.symbol @r_dim0 {computed, min = 0 : i64}
// CHECK: prim.symbol @r_dim1 {computed, min = 0 : i64}
// CHECK-LABEL: func.func @main
// CHECK: %[[E0:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<2xi64>
// CHECK: %[[D0:.*]] = prim.data_symbol @r_dim0(%{{.*}}) : index
// CHECK: %[[D1:.*]] = prim.data_symbol @r_dim1(%{{.*}}) : index
// CHECK: prim.check %{{.*}}, "node 'r' (Reshape): the reshape target must have as many elements as the input"
// CHECK: prim.reshape %arg0 sizes(%[[D0]], %[[D1]]) : (tensor<2x3x4xf32>) -> tensor<?x?xf32>
module {
  func.func @main(%x: tensor<2x3x4xf32>, %shape: tensor<2xi64>) -> tensor<*xf32> {
    %0 = onnx.node "Reshape" opset 14 (%x, %shape) {} : (tensor<2x3x4xf32>, tensor<2xi64>) -> !onnx.value loc("r")
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Rounds: the Flatten after an Expand by an input shape reads the Expand's dims, which are
// symbols after the first round: its extent (their product) becomes a symbol in the second.
// CHECK: prim.symbol @e_dim0 {computed, min = 0 : i64}
// CHECK: prim.symbol @e_dim1 {computed, min = 0 : i64}
// CHECK: prim.symbol @f_dim1 {computed, min = 0 : i64}
// CHECK-LABEL: func.func @main
// CHECK: %[[A:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[S0:.*]] = prim.data_symbol @e_dim0(%[[A]]) : index
// CHECK: %[[B:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[S1:.*]] = prim.data_symbol @e_dim1(%[[B]]) : index
// CHECK: %[[E:.*]] = prim.broadcast_in_dim %arg0, dims = [] sizes(%[[S0]], %[[S1]])
// CHECK: %[[P:.*]] = arith.muli %[[A]], %[[B]] : index
// CHECK: %[[S2:.*]] = prim.data_symbol @f_dim1(%[[P]]) : index
// CHECK: prim.reshape %[[E]] sizes(%[[S2]]) : (tensor<?x?xf32>) -> tensor<1x?xf32>
module {
  func.func @main(%v: tensor<f32>, %shape: tensor<2xi64>) -> tensor<*xf32> {
    %0 = onnx.node "Expand" opset 13 (%v, %shape) {} : (tensor<f32>, tensor<2xi64>) -> !onnx.value loc("e")
    %1 = onnx.node "Flatten" opset 13 (%0) {axis = 0 : si64} : (!onnx.value) -> !onnx.value loc("f")
    onnx.yield %1 : !onnx.value
  }
}

// -----

// A shape computed by the model (here Abs of the input) is known only while the model runs:
// no symbol (the compiler later refuses an output extent with no upper bound).
// CHECK-LABEL: func.func @main
// CHECK-NOT: prim.data_symbol
// CHECK: prim.reshape %arg0 sizes(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>) -> tensor<?x?xf32>
module {
  func.func @main(%x: tensor<2x3x4xf32>, %shape: tensor<2xi64>) -> tensor<*xf32> {
    %a = onnx.node "Abs" opset 13 (%shape) {} : (tensor<2xi64>) -> !onnx.value loc("abs")
    %0 = onnx.node "Reshape" opset 14 (%x, %a) {} : (tensor<2x3x4xf32>, !onnx.value) -> !onnx.value loc("r")
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Functions other than @main (a subgraph's body, a test's helper) are left alone.
// CHECK-LABEL: func.func @helper
// CHECK-NOT: prim.data_symbol
module {
  func.func @helper(%x: tensor<2x3x4xf32>, %shape: tensor<2xi64>) -> tensor<*xf32> {
    %0 = onnx.node "Reshape" opset 14 (%x, %shape) {} : (tensor<2x3x4xf32>, tensor<2xi64>) -> !onnx.value loc("r")
    onnx.yield %0 : !onnx.value
  }
}
