// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the Pad rules (lib/Decompose/Padding.cpp): each names the node,
// its op type and opset, and what was expected.

module {
  func.func @pads_count(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %p = arith.constant dense<[1, 1, 1]> : tensor<3xi64>
    // CHECK: error: node 'p' (Pad, opset 13): pads has 3 entries, expected 4 (begin and end for each padded axis)
    %0 = onnx.node "Pad" opset 13 (%x, %p) {} : (tensor<2x3xf32>, tensor<3xi64>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @pads_count_axes(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %p = arith.constant dense<[1, 1, 1, 1]> : tensor<4xi64>
    %a = arith.constant dense<[0]> : tensor<1xi64>
    %none = onnx.none
    // CHECK: error: node 'p' (Pad, opset 18): pads has 4 entries, expected 2 (begin and end for each padded axis)
    %0 = onnx.node "Pad" opset 18 (%x, %p, %none, %a) {} : (tensor<2x3xf32>, tensor<4xi64>, none, tensor<1xi64>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mode(%x: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (Pad, opset 2): mode must be constant, reflect, edge or wrap, got "symmetric"
    %0 = onnx.node "Pad" opset 2 (%x) {pads = array<i64: 1, 1>, mode = "symmetric"} : (tensor<3xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @axis_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %p = arith.constant dense<[1, 1]> : tensor<2xi64>
    %a = arith.constant dense<[2]> : tensor<1xi64>
    %none = onnx.none
    // CHECK: error: node 'p' (Pad, opset 18): axis 2 is out of range for rank 2
    %0 = onnx.node "Pad" opset 18 (%x, %p, %none, %a) {} : (tensor<2x3xf32>, tensor<2xi64>, none, tensor<1xi64>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @empty_dim(%x: tensor<0x2xf32>) -> tensor<*xf32> {
    %p = arith.constant dense<[1, 0, 1, 0]> : tensor<4xi64>
    // CHECK: error: node 'p' (Pad, opset 13): cannot pad an empty dim 0 in reflect mode
    %0 = onnx.node "Pad" opset 13 (%x, %p) {mode = "reflect"} : (tensor<0x2xf32>, tensor<4xi64>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @cropped_empty(%x: tensor<2xf32>) -> tensor<*xf32> {
    %p = arith.constant dense<[-2, 1]> : tensor<2xi64>
    // CHECK: error: node 'p' (Pad, opset 19): cannot pad an empty dim 0 in wrap mode
    %0 = onnx.node "Pad" opset 19 (%x, %p) {mode = "wrap"} : (tensor<2xf32>, tensor<2xi64>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @pads_input(%x: tensor<3xf32>, %p: tensor<?xi64>) -> tensor<*xf32> {
    // Pads read at run time must still have a static count.
    // CHECK: error: node 'p' (Pad, opset 13): input 1 (pads) must be a 1-d integer tensor of static length
    %0 = onnx.node "Pad" opset 13 (%x, %p) {} : (tensor<3xf32>, tensor<?xi64>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @axes_input(%x: tensor<3xf32>, %a: tensor<?xi64>) -> tensor<*xf32> {
    %p = arith.constant dense<[1, 1]> : tensor<2xi64>
    %none = onnx.none
    // Axes read at run time must still have a static count.
    // CHECK: error: node 'p' (Pad, opset 18): input 3 ('tensor<?xi64>') must be a 0-d or 1-d integer tensor of static length
    %0 = onnx.node "Pad" opset 18 (%x, %p, %none, %a) {} : (tensor<3xf32>, tensor<2xi64>, none, tensor<?xi64>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
