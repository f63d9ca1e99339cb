// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of lib/Decompose/Quantization.cpp: each names the node, its op type
// and opset, and what was expected.

module {
  func.func @float8(%x: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'q' (QuantizeLinear, opset 19): the quantized type is 'f8E4M3FN'; tcc supports int8, uint8, int16 and uint16 (float8 and 4-bit types are not supported yet)
    %s = arith.constant dense<1.0> : tensor<f32>
    %z = arith.constant dense<0.0> : tensor<f8E4M3FN>
    %0 = onnx.node "QuantizeLinear" opset 19 (%x, %s, %z) {} : (tensor<4xf32>, tensor<f32>, tensor<f8E4M3FN>) -> !onnx.value loc("q"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @axis_extent(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'q' (QuantizeLinear, opset 13): y_scale has 2 elements along the axis, expected 3
    %s = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %0 = onnx.node "QuantizeLinear" opset 13 (%x, %s) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xf32>) -> !onnx.value loc("q"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bad_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'q' (QuantizeLinear, opset 13): axis 5 is out of range for rank 2
    %s = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %0 = onnx.node "QuantizeLinear" opset 13 (%x, %s) {axis = 5 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("q"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @float_matmul(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mmi' (MatMulInteger, opset 10): A has element type 'f32', expected int8, uint8, int16 or uint16
    %0 = onnx.node "MatMulInteger" opset 10 (%a, %b) {} : (tensor<2x2xf32>, tensor<2x2xf32>) -> !onnx.value loc("mmi"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
