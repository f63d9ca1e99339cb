// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s
// If with a condition known only at run time computes both branches and selects each
// output; a sequence graph output is packed: NAME.shapes (one row of extents per element) and
// NAME.data (the elements concatenated); a compile-time list meeting a position known only
// at run time is packed, and the position read at run time.

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
// CHECK-SAME: -> (tensor<2x1xi64> {onnx.name = "y.shapes", onnx.sequence = "y"}, tensor<5xf32> {onnx.name = "y.data", onnx.sequence = "y"}, tensor<2xf32> {onnx.name = "z"})
// CHECK: %[[ROWS:.*]] = prim.concatenate {{.*}} dim = 0 : (tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<2x1xi64>
// CHECK: %[[DATA:.*]] = prim.concatenate %arg0, %arg1 dim = 0
// CHECK: return %[[ROWS]], %[[DATA]], %arg0
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

// -----

// A while loop (no trip count, a condition known only at run time): a prim.loop bounded by
// INT64_MAX that its carried condition ends (exit_unless names it); the carried values
// freeze once it is false.
// CHECK-LABEL: func.func @while_loop(
// CHECK: %[[MAX:.*]] = arith.constant 9223372036854775807 : index
// CHECK: %[[L:.*]]:2 = prim.loop %[[MAX]] carrying(%{{.*}}, %{{.*}} : tensor<1xf32>, tensor<i1>)
// CHECK: prim.select
// CHECK: prim.and
// CHECK: } {exit_unless = 1 : i64} -> tensor<1xf32>, tensor<i1>
// CHECK: return %[[L]]#0
module {
  func.func @while_loop(%c: tensor<i1>, %y: tensor<1xf32>) -> tensor<*xf32> {
    %none = onnx.none
    %0 = onnx.node "Loop" opset 13 (%none, %c, %y) {} subgraphs ["body"] {
    ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %yin: !onnx.value):
      %one = arith.constant dense<1.0> : tensor<1xf32>
      %ten = arith.constant dense<10.0> : tensor<1xf32>
      %next = onnx.node "Add" opset 13 (%yin, %one) {} : (!onnx.value, tensor<1xf32>) -> !onnx.value
      %lt = onnx.node "Less" opset 13 (%next, %ten) {} : (!onnx.value, tensor<1xf32>) -> !onnx.value
      %cout = onnx.node "Squeeze" opset 13 (%lt) {} : (!onnx.value) -> !onnx.value
      onnx.yield %cout, %next : !onnx.value, !onnx.value
    } : (none, tensor<i1>, tensor<1xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK-LABEL: func.func @insert_runtime_position(
// CHECK-SAME: %[[X:.*]]: tensor<2xf32>, %[[P:.*]]: tensor<i64>
// CHECK: tensor.extract %[[P]]
// CHECK: prim.check
// CHECK-SAME: "node 'insert' (SequenceInsert): the position is outside the sequence"
// CHECK: prim.gather
// CHECK: prim.gather
// CHECK-NOT: onnx.packed_sequence
module {
  func.func @insert_runtime_position(%x: tensor<2xf32>, %p: tensor<i64>) -> tensor<*xf32> {
    %s = onnx.node "SequenceConstruct" opset 17 (%x) {} : (tensor<2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    %0 = onnx.node "SequenceInsert" opset 17 (%s, %x, %p) {} : (!onnx.value, tensor<2xf32>, tensor<i64>) -> !onnx.value loc("insert"("m.onnx":0:0))
    %1 = onnx.node "ConcatFromSequence" opset 17 (%0) {axis = 0 : i64} : (!onnx.value) -> !onnx.value loc("cat"("m.onnx":0:0))
    onnx.yield %1 : !onnx.value
  }
}
