// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s
// Optionals present or empty at run time (onnx.runtime_optional): OptionalHasElement is the
// flag, OptionalGetElement the value after a check of the flag naming the node; an optional
// output is its value then its flag; an If on a run-time condition weakens the checks of its
// branches to `ok or not taken`, and an empty optional on one side makes its output one
// present at run time.

// CHECK-LABEL: func.func @has_and_get(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<i1>)
// CHECK: %[[OK:.*]] = tensor.extract %[[P]][]
// CHECK: prim.check %[[OK]], "node 'get' (OptionalGetElement): the optional input is empty"
// CHECK: %[[Y:.*]] = prim.neg %[[X]]
// CHECK: return %[[P]], %[[Y]]
module {
  func.func @has_and_get(%x: tensor<3xf32>, %p: tensor<i1>) -> (!onnx.value {onnx.name = "has"}, !onnx.value {onnx.name = "y"}) {
    %o = onnx.runtime_optional(%p, %x) : (tensor<i1>, tensor<3xf32>) -> !onnx.optional
    %0 = onnx.node "OptionalHasElement" opset 18 (%o) {} : (!onnx.optional) -> !onnx.value loc("has"("m.onnx":0:0))
    %1 = onnx.node "OptionalGetElement" opset 18 (%o) {} : (!onnx.optional) -> !onnx.value loc("get"("m.onnx":0:0))
    %2 = onnx.node "Neg" opset 18 (%1) {} : (!onnx.value) -> !onnx.value loc("neg"("m.onnx":0:0))
    onnx.yield %0, %2 : !onnx.value, !onnx.value
  }
}

// -----

// The check of a branch holds only where it is taken; an If of an empty optional and a
// value is an optional output: its value, then its flag.
// CHECK-LABEL: func.func @if_guarded(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[P:.*]]: tensor<i1>)
// CHECK-SAME: -> (tensor<3xf32> {onnx.name = "y", onnx.optional = "y"}, tensor<i1> {onnx.name = "y.present", onnx.optional_present = "y"})
// CHECK: %[[TAKEN:.*]] = tensor.extract
// CHECK: %[[SKIP:.*]] = arith.xori %[[TAKEN]], %true
// CHECK: %[[OK:.*]] = tensor.extract %[[P]][]
// CHECK: %[[WEAK:.*]] = arith.ori %[[OK]], %[[SKIP]]
// CHECK: prim.check %[[WEAK]], "node 'get' (OptionalGetElement): the optional input is empty"
// CHECK: %[[FLAG:.*]] = prim.select
// CHECK: return {{.*}}, %[[FLAG]]
module {
  func.func @if_guarded(%x: tensor<3xf32>, %p: tensor<i1>) -> (!onnx.value {onnx.name = "y", onnx.optional = "y"}) {
    %o = onnx.runtime_optional(%p, %x) : (tensor<i1>, tensor<3xf32>) -> !onnx.optional
    %has = onnx.node "OptionalHasElement" opset 18 (%o) {} : (!onnx.optional) -> !onnx.value loc("has"("m.onnx":0:0))
    %0 = onnx.node "If" opset 18 (%has) {} subgraphs ["then_branch", "else_branch"] {
      %v = onnx.node "OptionalGetElement" opset 18 (%o) {} : (!onnx.optional) -> !onnx.value loc("get"("m.onnx":0:0))
      onnx.yield %v : !onnx.value
    }, {
      %none = onnx.none
      %e = onnx.node "Optional" opset 18 (%none) {} : (none) -> !onnx.value loc("empty"("m.onnx":0:0))
      onnx.yield %e : !onnx.value
    } : (!onnx.value) -> !onnx.value loc("if"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// An optional output known while compiling: a constant flag (and zeros of the declared type
// in place of a value that is always empty).
// CHECK-LABEL: func.func @known_outputs(
// CHECK-SAME: -> (tensor<3xf32> {onnx.name = "a", onnx.optional = "a"}, tensor<i1> {onnx.name = "a.present", onnx.optional_present = "a"}, tensor<0x2xi64> {onnx.name = "b", onnx.optional = "b"}, tensor<i1> {onnx.name = "b.present", onnx.optional_present = "b"})
// CHECK-DAG: %[[TRUE:.*]] = arith.constant dense<true> : tensor<i1>
// CHECK-DAG: %[[FALSE:.*]] = arith.constant dense<false> : tensor<i1>
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0> : tensor<0x2xi64>
// CHECK: return %arg0, %[[TRUE]], %[[ZEROS]], %[[FALSE]]
module {
  func.func @known_outputs(%x: tensor<3xf32>) -> (!onnx.value {onnx.name = "a", onnx.optional = "a"}, tensor<?x2xi64> {onnx.name = "b", onnx.optional = "b"}) {
    %none = onnx.none
    onnx.yield %x, %none : tensor<3xf32>, none
  }
}

