// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s
// If with a condition known only at run time computes both branches and selects each
// output; a sequence graph output becomes one result per element, named NAME[k].

// CHECK-LABEL: func.func @if_runtime(
// CHECK-SAME: %[[C:.*]]: tensor<i1>, %[[X:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[T:.*]] = prim.neg %[[X]]
// CHECK-DAG: %[[E:.*]] = prim.add %[[X]], %[[X]]
// CHECK: %[[P:.*]] = prim.broadcast_in_dim %[[C]]
// CHECK: %[[R:.*]] = prim.select %[[P]], %[[T]], %[[E]]
// CHECK: return %[[R]]
module {
  func.func @if_runtime(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<*xf32> {
    %0 = onnx.node "If" opset 17 (%c) {} subgraphs ["then_branch", "else_branch"] {
      %t = onnx.node "Neg" opset 17 (%x) {} : (tensor<2xf32>) -> !onnx.value loc("neg"("m.onnx":0:0))
      onnx.yield %t : !onnx.value
    }, {
      %e = onnx.node "Add" opset 17 (%x, %x) {} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("add"("m.onnx":0:0))
      onnx.yield %e : !onnx.value
    } : (tensor<i1>) -> !onnx.value loc("if"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK-LABEL: func.func @sequence_output(
// CHECK-SAME: -> (tensor<2xf32> {onnx.name = "y[0]"}, tensor<3xf32> {onnx.name = "y[1]"}, tensor<2xf32> {onnx.name = "z"})
// CHECK-NOT: onnx.sequence
module {
  func.func @sequence_output(%a: tensor<2xf32>, %b: tensor<3xf32>) -> (!onnx.value {onnx.name = "y"}, tensor<2xf32> {onnx.name = "z"}, !onnx.value {onnx.name = "o"}) {
    %s = onnx.sequence(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.sequence loc("x")
    %0 = onnx.node "Identity" opset 17 (%s) {} : (!onnx.sequence) -> !onnx.value loc("id"("m.onnx":0:0))
    %none = onnx.none
    %1 = onnx.node "Optional" opset 17 (%none) {} : (none) -> !onnx.value loc("opt"("m.onnx":0:0))
    onnx.yield %0, %a, %1 : !onnx.value, tensor<2xf32>, !onnx.value
  }
}
