// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>/dev/null | FileCheck %s --check-prefix=RUNTIME
// The user-facing errors of the reduction rules (lib/Decompose/Reduction.cpp): each names the
// node, its op type and opset, and what was expected. Axes known only at run time are
// checked by prim.check (the RUNTIME line).

module {
  func.func @axes_dynamic_length(%x: tensor<2x3xf32>, %axes: tensor<?xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (ReduceSum, opset 13): input 1 (axes) must be a 1-d integer tensor of static length, got 'tensor<?xi64>'
    %0 = onnx.node "ReduceSum" opset 13 (%x, %axes) {} : (tensor<2x3xf32>, tensor<?xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @axes_too_many(%x: tensor<2x3xf32>, %axes: tensor<3xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (ReduceMax, opset 18): input 1 (axes) has 3 entries, expected at most the rank 2
    %0 = onnx.node "ReduceMax" opset 18 (%x, %axes) {} : (tensor<2x3xf32>, tensor<3xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @axis_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %axes = arith.constant dense<[2]> : tensor<1xi64>
    // CHECK: error: node 'r' (ReduceMean, opset 18): axis 2 is out of range for rank 2
    %0 = onnx.node "ReduceMean" opset 18 (%x, %axes) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @axis_twice(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (ReduceL2, opset 13): axis -1 is listed twice
    %0 = onnx.node "ReduceL2" opset 13 (%x) {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @arg_scalar(%x: tensor<f32>) -> tensor<*xi64> {
    // CHECK: error: node 'a' (ArgMax, opset 13): expected an input of rank >= 1, got 'tensor<f32>'
    %0 = onnx.node "ArgMax" opset 13 (%x) {} : (tensor<f32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @arg_axis(%x: tensor<2x3xf32>) -> tensor<*xi64> {
    // CHECK: error: node 'a' (ArgMin, opset 13): axis -3 is out of range for rank 2
    %0 = onnx.node "ArgMin" opset 13 (%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @runtime_axes(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<*xf32> {
    // RUNTIME: prim.check %{{.*}}, "node 'r' (ReduceSum): the axes must be distinct and in [-rank, rank)"
    %0 = onnx.node "ReduceSum" opset 13 (%x, %axes) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
