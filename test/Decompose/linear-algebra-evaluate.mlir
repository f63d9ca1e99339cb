// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// Det (lib/Decompose/LinearAlgebra.cpp) on constants, evaluated: the LU elimination with
// partial pivoting, row swaps flipping the sign, a zero pivot column, batches, 1x1, f16 and
// f64. Expected values by cofactor expansion, by hand; the matrices are chosen so that the
// elimination is exact in floating point.

// det [[1, 2], [4, 4]] = 4 - 8 = -4 (the elimination: pivot 4, 2 - (1 / 4) 4 = 1, one swap).
// CHECK: @det result 0: tensor<f32> = -4.0
// det [[0, 1, 2], [1, 0, 3], [4, -3, 8]] = 0 - 1 (8 - 12) + 2 (-3 - 0) = -2 (two row swaps).
// CHECK: @det result 1: tensor<f32> = -2.0
// A zero first column: det [[0, 1], [0, 2]] = 0 (not NaN).
// CHECK: @det result 2: tensor<f32> = 0.0
// A batch [2, 2, 2]: det diag(2, 3) = 6, det [[0, 1], [1, 0]] = -1.
// CHECK: @det result 3: tensor<2xf32> = [6.0, -1.0]
// 1x1: the element.
// CHECK: @det result 4: tensor<f32> = 5.0
module {
  func.func @det() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[1.0, 2.0], [4.0, 4.0]]> : tensor<2x2xf32>
    %b = arith.constant dense<[[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [4.0, -3.0, 8.0]]> : tensor<3x3xf32>
    %c = arith.constant dense<[[0.0, 1.0], [0.0, 2.0]]> : tensor<2x2xf32>
    %d = arith.constant dense<[[[2.0, 0.0], [0.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]]]> : tensor<2x2x2xf32>
    %e = arith.constant dense<[[5.0]]> : tensor<1x1xf32>
    %0 = onnx.node "Det" opset 11 (%a) {} : (tensor<2x2xf32>) -> !onnx.value loc("d0"("m.onnx":0:0))
    %1 = onnx.node "Det" opset 11 (%b) {} : (tensor<3x3xf32>) -> !onnx.value loc("d1"("m.onnx":0:0))
    %2 = onnx.node "Det" opset 11 (%c) {} : (tensor<2x2xf32>) -> !onnx.value loc("d2"("m.onnx":0:0))
    %3 = onnx.node "Det" opset 11 (%d) {} : (tensor<2x2x2xf32>) -> !onnx.value loc("d3"("m.onnx":0:0))
    %4 = onnx.node "Det" opset 11 (%e) {} : (tensor<1x1xf32>) -> !onnx.value loc("d4"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// f16 (factored in f32): det [[1, 2], [4, 4]] = -4.
// CHECK: @det_types result 0: tensor<f16> = -4.0
// f64, rows (0 1)(2 3) of diag(1, 2, 3, 4) swapped in pairs: an even permutation, det 24.
// CHECK: @det_types result 1: tensor<f64> = 24.0
module {
  func.func @det_types() -> (tensor<*xf16>, tensor<*xf64>) {
    %a = arith.constant dense<[[1.0, 2.0], [4.0, 4.0]]> : tensor<2x2xf16>
    %b = arith.constant dense<[[0.0, 2.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 4.0], [0.0, 0.0, 3.0, 0.0]]> : tensor<4x4xf64>
    %0 = onnx.node "Det" opset 22 (%a) {} : (tensor<2x2xf16>) -> !onnx.value loc("d0"("m.onnx":0:0))
    %1 = onnx.node "Det" opset 22 (%b) {} : (tensor<4x4xf64>) -> !onnx.value loc("d1"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
