// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// QuantizeLinear (per tensor with ties to even and saturation, per axis, blocked),
// DequantizeLinear (blocked), MatMulInteger with per-row/per-column zero points, evaluated.
// Expected values by hand.

// x / 2 = [-300, -1.5, -0.5, 0.5, 1.5, 2.5, 300] -> round half to even -> + 1 -> saturate to int8
// CHECK: @per_tensor result 0: tensor<7xi8> = [-128, -1, 1, 1, 3, 3, 127]
module {
  func.func @per_tensor() -> tensor<*xi8> {
    %x = arith.constant dense<[-600.0, -3.0, -1.0, 1.0, 3.0, 5.0, 600.0]> : tensor<7xf32>
    %s = arith.constant dense<2.0> : tensor<f32>
    %z = arith.constant dense<1> : tensor<i8>
    %0 = onnx.node "QuantizeLinear" opset 13 (%x, %s, %z) {} : (tensor<7xf32>, tensor<f32>, tensor<i8>) -> !onnx.value loc("q"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Column c uses scale s[c] and zero point z[c] (axis 1): 1000 / 10 + 100 = 200.
// CHECK: @per_axis result 0: tensor<2x2xui8> = {{\[\[}}10, 101], [12, 200]]
module {
  func.func @per_axis() -> tensor<*xui8> {
    %x = arith.constant dense<[[10.0, 10.0], [12.0, 1000.0]]> : tensor<2x2xf32>
    %s = arith.constant dense<[1.0, 10.0]> : tensor<2xf32>
    %z = arith.constant dense<[0, 100]> : tensor<2xui8>
    %0 = onnx.node "QuantizeLinear" opset 13 (%x, %s, %z) {axis = 1 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xui8>) -> !onnx.value loc("q"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Blocks of 2 along axis 1 (the last block is partial): scales [1, 4] per row.
// CHECK: @blocked result 0: tensor<1x3xi8> = {{\[\[}}8, 9, 2]]
module {
  func.func @blocked() -> tensor<*xi8> {
    %x = arith.constant dense<[[8.0, 9.0, 8.0]]> : tensor<1x3xf32>
    %s = arith.constant dense<[[1.0, 4.0]]> : tensor<1x2xf32>
    %z = arith.constant dense<[[0, 0]]> : tensor<1x2xi8>
    %0 = onnx.node "QuantizeLinear" opset 21 (%x, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<1x3xf32>, tensor<1x2xf32>, tensor<1x2xi8>) -> !onnx.value loc("q"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @dequantize_blocked result 0: tensor<1x3xf32> = {{\[\[}}2.0, 4.0, 12.0]]
module {
  func.func @dequantize_blocked() -> tensor<*xf32> {
    %x = arith.constant dense<[[2, 3, 4]]> : tensor<1x3xi8>
    %s = arith.constant dense<[[2.0, 4.0]]> : tensor<1x2xf32>
    %z = arith.constant dense<[[1, 1]]> : tensor<1x2xi8>
    %0 = onnx.node "DequantizeLinear" opset 21 (%x, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<1x3xi8>, tensor<1x2xf32>, tensor<1x2xi8>) -> !onnx.value loc("dq"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// (A - [1, 2] per row) @ (B - [3, 4] per column), accumulated in int32:
// A - za = [[1, 1], [1, 2]], B - zb = [[250, 1], [2, 1]] -> [[252, 2], [254, 3]]
// CHECK: @matmul_integer result 0: tensor<2x2xi32> = {{\[\[}}252, 2], [254, 3]]
module {
  func.func @matmul_integer() -> tensor<*xi32> {
    %a = arith.constant dense<[[2, 2], [3, 4]]> : tensor<2x2xui8>
    %b = arith.constant dense<[[253, 5], [5, 5]]> : tensor<2x2xui8>
    %za = arith.constant dense<[1, 2]> : tensor<2xui8>
    %zb = arith.constant dense<[3, 4]> : tensor<2xui8>
    %0 = onnx.node "MatMulInteger" opset 10 (%a, %b, %za, %zb) {} : (tensor<2x2xui8>, tensor<2x2xui8>, tensor<2xui8>, tensor<2xui8>) -> !onnx.value loc("mmi"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
