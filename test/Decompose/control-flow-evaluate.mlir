// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/ControlFlow.cpp and Sequence.cpp on constants, evaluated: If
// with a known condition inlines one branch; Loop and Scan unroll (carried state, scan
// outputs stacked); SequenceMap maps its body over a sequence; the sequence ops.

// CHECK: @if_known result 0: tensor<2xf32> = [2.0, 4.0]
module {
  func.func @if_known() -> tensor<*xf32> {
    %cond = arith.constant dense<false> : tensor<i1>
    %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %0 = onnx.node "If" opset 17 (%cond) {} subgraphs ["then_branch", "else_branch"] {
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

// Loop(M = 3, cond = true, y = 0): y += x[i]; the scan output is y after each iteration.
// CHECK: @loop_unrolled result 0: tensor<1xf32> = [6.0]
// CHECK: @loop_unrolled result 1: tensor<3x1xf32> = {{\[}}[1.0], [3.0], [6.0]]
module {
  func.func @loop_unrolled() -> (tensor<*xf32>, tensor<*xf32>) {
    %m = arith.constant dense<3> : tensor<i64>
    %c = arith.constant dense<true> : tensor<i1>
    %y = arith.constant dense<[0.0]> : tensor<1xf32>
    %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %one = arith.constant dense<1> : tensor<i64>
    %0:2 = onnx.node "Loop" opset 13 (%m, %c, %y) {} subgraphs ["body"] {
    ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %yin: !onnx.value):
      %end = onnx.node "Add" opset 13 (%i, %one) {} : (tensor<i64>, tensor<i64>) -> !onnx.value loc("end"("m.onnx":0:0))
      %axes = onnx.initializer "axes" dense<[0]> : tensor<1xi64> : tensor<1xi64>
      %s = onnx.node "Unsqueeze" opset 13 (%i, %axes) {} : (tensor<i64>, tensor<1xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
      %e = onnx.node "Unsqueeze" opset 13 (%end, %axes) {} : (!onnx.value, tensor<1xi64>) -> !onnx.value loc("e"("m.onnx":0:0))
      %piece = onnx.node "Slice" opset 13 (%x, %s, %e) {} : (tensor<3xf32>, !onnx.value, !onnx.value) -> !onnx.value loc("slice"("m.onnx":0:0))
      %next = onnx.node "Add" opset 13 (%yin, %piece) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("acc"("m.onnx":0:0))
      %cout = onnx.node "Identity" opset 13 (%cin) {} : (tensor<i1>) -> !onnx.value loc("c"("m.onnx":0:0))
      onnx.yield %cout, %next, %next : !onnx.value, !onnx.value, !onnx.value
    } : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (!onnx.value, !onnx.value) loc("loop"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

// Scan over axis 1, the input reversed; the scan output stacked along axis 0.
// CHECK: @scan_reverse result 0: tensor<2xf32> = [6.0, 60.0]
// CHECK: @scan_reverse result 1: tensor<3x2xf32> = {{\[}}[3.0, 30.0], [5.0, 50.0], [6.0, 60.0]]
module {
  func.func @scan_reverse() -> (tensor<*xf32>, tensor<*xf32>) {
    %init = arith.constant dense<[0.0, 0.0]> : tensor<2xf32>
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>
    %0:2 = onnx.node "Scan" opset 16 (%init, %x) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>, scan_input_directions = array<i64: 1>} subgraphs ["body"] {
    ^bb0(%sum: !onnx.value, %next: !onnx.value):
      %s = onnx.node "Add" opset 16 (%sum, %next) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("add"("m.onnx":0:0))
      onnx.yield %s, %s : !onnx.value, !onnx.value
    } : (tensor<2xf32>, tensor<2x3xf32>) -> (!onnx.value, !onnx.value) loc("scan"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

// SequenceMap over a sequence and a tensor; then the sequence ops.
// CHECK: @sequences result 0: tensor<4xf32> = [11.0, 12.0, 21.0, 22.0]
// CHECK: @sequences result 1: tensor<i64> = 2
// CHECK: @sequences result 2: tensor<2xf32> = [1.0, 2.0]
module {
  func.func @sequences() -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
    %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %b = arith.constant dense<[11.0, 12.0]> : tensor<2xf32>
    %ten = arith.constant dense<10.0> : tensor<f32>
    %pos = arith.constant dense<-1> : tensor<i64>
    %seq = onnx.node "SequenceConstruct" opset 17 (%a, %b) {} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("construct"("m.onnx":0:0))
    %mapped = onnx.node "SequenceMap" opset 17 (%seq, %ten) {} subgraphs ["body"] {
    ^bb0(%e: !onnx.value, %t: !onnx.value):
      %r = onnx.node "Add" opset 17 (%e, %t) {} : (!onnx.value, !onnx.value) -> !onnx.value loc("add"("m.onnx":0:0))
      onnx.yield %r : !onnx.value
    } : (!onnx.value, tensor<f32>) -> !onnx.value loc("map"("m.onnx":0:0))
    %cat = onnx.node "ConcatFromSequence" opset 17 (%mapped) {axis = 0 : i64} : (!onnx.value) -> !onnx.value loc("cat"("m.onnx":0:0))
    %len = onnx.node "SequenceLength" opset 17 (%mapped) {} : (!onnx.value) -> !onnx.value loc("len"("m.onnx":0:0))
    %erased = onnx.node "SequenceErase" opset 17 (%seq, %pos) {} : (!onnx.value, tensor<i64>) -> !onnx.value loc("erase"("m.onnx":0:0))
    %first = onnx.node "SequenceAt" opset 17 (%erased, %pos) {} : (!onnx.value, tensor<i64>) -> !onnx.value loc("at"("m.onnx":0:0))
    onnx.yield %cat, %len, %first : !onnx.value, !onnx.value, !onnx.value
  }
}
