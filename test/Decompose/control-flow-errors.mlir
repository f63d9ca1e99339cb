// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The control-flow and sequence rules' errors: what tcc needs to know while compiling.

module {
  func.func @while_loop_scan(%c: tensor<i1>, %y: tensor<1xf32>) -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'loop' (Loop, opset 13): scan outputs (here 1) of a loop without a trip count M are not supported: M bounds their extent
    %0:2 = onnx.node "Loop" opset 13 (%none, %c, %y) {} subgraphs ["body"] {
    ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %yin: !onnx.value):
      onnx.yield %cin, %yin, %yin : tensor<i1>, !onnx.value, !onnx.value
    } : (none, tensor<i1>, tensor<1xf32>) -> (!onnx.value, !onnx.value) loc("loop"("m.onnx":0:0))
    onnx.yield %0#1 : !onnx.value
  }
}

// -----

module {
  func.func @if_branches_differ(%c: tensor<i1>) -> tensor<*xf32> {
    %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %b = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    // CHECK: error: node 'if' (If, opset 17): output 0 is tensor<2xf32> in then_branch but tensor<3xf32> in else_branch; with a condition known only at run time tcc computes both branches, which must then agree in type and shape
    %0 = onnx.node "If" opset 17 (%c) {} subgraphs ["then_branch", "else_branch"] {
      onnx.yield %a : tensor<2xf32>
    }, {
      onnx.yield %b : tensor<3xf32>
    } : (tensor<i1>) -> !onnx.value loc("if"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @not_a_sequence(%x: tensor<2xf32>) -> tensor<*xi64> {
    // CHECK: error: node 'len' (SequenceLength, opset 17): input 0 has type 'tensor<2xf32>', expected a sequence
    %0 = onnx.node "SequenceLength" opset 17 (%x) {} : (tensor<2xf32>) -> !onnx.value loc("len"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @empty_optional() -> tensor<*xf32> {
    %none = onnx.none
    // CHECK: error: node 'get' (OptionalGetElement, opset 18): the optional input is empty (known while compiling)
    %0 = onnx.node "OptionalGetElement" opset 18 (%none) {} : (none) -> !onnx.value loc("get"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// A run-time optional that reaches an op expecting a tensor: the node says so.
module {
  func.func @not_a_tensor(%x: tensor<3xf32>, %p: tensor<i1>) -> (!onnx.value {onnx.name = "y"}) {
    %o = onnx.runtime_optional(%p, %x) : (tensor<i1>, tensor<3xf32>) -> !onnx.optional
    // CHECK: error: node 'neg' (Neg, opset 18): input 0 is an optional that is present or empty at run time; expected a tensor (read it with OptionalGetElement, or compile the optional graph input present or absent: tcc --present NAME, --absent NAME)
    %0 = onnx.node "Neg" opset 18 (%o) {} : (!onnx.optional) -> !onnx.value loc("neg"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
