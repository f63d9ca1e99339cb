// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Contraction.cpp on constants, evaluated: MatMul as numpy.matmul
// (1-d operands promoted and the added dim dropped, batch dims broadcast, integers) and Gemm
// with transA/transB, alpha/beta, a broadcast C, a 0-d C and no C. Expected values by hand.

// A = [[1, 2, 3], [4, 5, 6]], B = [[1, -1], [0, 2], [3, 1]]: A B = [[1 + 9, -1 + 4 + 3],
// [4 + 18, -4 + 10 + 6]] = [[10, 6], [22, 12]]. [1, 2] [[1, 2], [3, 4]] = [7, 10] (a vector);
// [[1, 2], [3, 4]] [1, 1] = [3, 7]; [1, 2, 3] . [4, 5, 6] = 32 (a 0-d result).
// CHECK: @matmul result 0: tensor<2x2xf32> = {{\[\[}}10.0, 6.0], [22.0, 12.0]]
// CHECK: @matmul result 1: tensor<2xf32> = [7.0, 10.0]
// CHECK: @matmul result 2: tensor<2xf32> = [3.0, 7.0]
// CHECK: @matmul result 3: tensor<f32> = 32.0
module {
  func.func @matmul() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %b = arith.constant dense<[[1.0, -1.0], [0.0, 2.0], [3.0, 1.0]]> : tensor<3x2xf32>
    %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %ones = arith.constant dense<1.0> : tensor<2xf32>
    %p = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %q = arith.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
    %0 = onnx.node "MatMul" opset 13 (%a, %b) {} : (tensor<2x3xf32>, tensor<3x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "MatMul" opset 13 (%v, %m) {} : (tensor<2xf32>, tensor<2x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "MatMul" opset 13 (%m, %ones) {} : (tensor<2x2xf32>, tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "MatMul" opset 13 (%p, %q) {} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Batched, B = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] (2 x 2 x 2): A [1, 2, 2] =
// [[[1, 1], [0, 1]]] broadcasts over B's batch: [[[4, 6], [3, 4]], [[12, 14], [7, 8]]];
// the vector [1, 2] on the left gives [[7, 10], [19, 22]] and on the right [[5, 11], [17, 23]];
// B times a plain 2 x 2 matrix [[1, 0], [0, -1]] negates the second column of each batch.
// Batch dims [2, 1] and [3] broadcast to [2, 3]: row i of A = [[[1, 0]]], [[[0, 1]]] picks
// element i of each column of C = [[1], [2]], [[3], [4]], [[5], [6]].
// CHECK: @batched result 0: tensor<2x2x2xf32> = {{\[\[\[}}4.0, 6.0], [3.0, 4.0]], {{\[\[}}12.0, 14.0], [7.0, 8.0]]]
// CHECK: @batched result 1: tensor<2x2xf32> = {{\[\[}}7.0, 10.0], [19.0, 22.0]]
// CHECK: @batched result 2: tensor<2x2xf32> = {{\[\[}}5.0, 11.0], [17.0, 23.0]]
// CHECK: @batched result 3: tensor<2x2x2xf32> = {{\[\[\[}}1.0, -2.0], [3.0, -4.0]], {{\[\[}}5.0, -6.0], [7.0, -8.0]]]
// CHECK: @batched result 4: tensor<2x3x1x1xf32> = {{\[\[\[\[}}1.0]], {{\[\[}}3.0]], {{\[\[}}5.0]]], {{\[\[\[}}2.0]], {{\[\[}}4.0]], {{\[\[}}6.0]]]]
module {
  func.func @batched() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[[1.0, 1.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
    %b = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
    %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %w = arith.constant dense<[[1.0, 0.0], [0.0, -1.0]]> : tensor<2x2xf32>
    %0 = onnx.node "MatMul" opset 13 (%a, %b) {} : (tensor<1x2x2xf32>, tensor<2x2x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "MatMul" opset 13 (%v, %b) {} : (tensor<2xf32>, tensor<2x2x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "MatMul" opset 13 (%b, %v) {} : (tensor<2x2x2xf32>, tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "MatMul" opset 13 (%b, %w) {} : (tensor<2x2x2xf32>, tensor<2x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %p = arith.constant dense<[[[[1.0, 0.0]]], [[[0.0, 1.0]]]]> : tensor<2x1x1x2xf32>
    %c = arith.constant dense<[[[1.0], [2.0]], [[3.0], [4.0]], [[5.0], [6.0]]]> : tensor<3x2x1xf32>
    %4 = onnx.node "MatMul" opset 13 (%p, %c) {} : (tensor<2x1x1x2xf32>, tensor<3x2x1xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Integers: [[1, -2], [3, 4]] [[5], [6]] = [[5 - 12], [15 + 24]] = [[-7], [39]].
// CHECK: @matmul_int result 0: tensor<2x1xi32> = {{\[\[}}-7], [39]]
module {
  func.func @matmul_int() -> tensor<*xi32> {
    %a = arith.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>
    %b = arith.constant dense<[[5], [6]]> : tensor<2x1xi32>
    %0 = onnx.node "MatMul" opset 13 (%a, %b) {} : (tensor<2x2xi32>, tensor<2x1xi32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Gemm with A B = [[10, 6], [22, 12]] (A, B as in @matmul): + C = [10, 20] broadcast over
// the rows -> [[20, 26], [32, 32]]; transA with A^T given, and transB with B^T given,
// give A B; both transposed, alpha 0.5 and no C -> 0.5 A B = [[5, 3], [11, 6]];
// alpha 2, beta 0.5, C [[1], [2]] (broadcast along columns) -> [[20.5, 12.5], [45, 25]];
// a 0-d C = 1 with beta 2 -> A B + 2.
// CHECK: @gemm result 0: tensor<2x2xf32> = {{\[\[}}20.0, 26.0], [32.0, 32.0]]
// CHECK: @gemm result 1: tensor<2x2xf32> = {{\[\[}}10.0, 6.0], [22.0, 12.0]]
// CHECK: @gemm result 2: tensor<2x2xf32> = {{\[\[}}10.0, 6.0], [22.0, 12.0]]
// CHECK: @gemm result 3: tensor<2x2xf32> = {{\[\[}}5.0, 3.0], [11.0, 6.0]]
// CHECK: @gemm result 4: tensor<2x2xf32> = {{\[\[}}20.5, 12.5], [45.0, 25.0]]
// CHECK: @gemm result 5: tensor<2x2xf32> = {{\[\[}}12.0, 8.0], [24.0, 14.0]]
module {
  func.func @gemm() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %at = arith.constant dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>
    %b = arith.constant dense<[[1.0, -1.0], [0.0, 2.0], [3.0, 1.0]]> : tensor<3x2xf32>
    %bt = arith.constant dense<[[1.0, 0.0, 3.0], [-1.0, 2.0, 1.0]]> : tensor<2x3xf32>
    %c = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
    %col = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %s = arith.constant dense<1.0> : tensor<f32>
    %none = onnx.none
    %0 = onnx.node "Gemm" opset 13 (%a, %b, %c) {} : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Gemm" opset 13 (%at, %b) {transA = 1 : i64} : (tensor<3x2xf32>, tensor<3x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Gemm" opset 13 (%a, %bt) {transB = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Gemm" opset 13 (%at, %bt, %none) {transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32} : (tensor<3x2xf32>, tensor<2x3xf32>, none) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Gemm" opset 13 (%a, %b, %col) {alpha = 2.0 : f32, beta = 0.5 : f32} : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x1xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "Gemm" opset 13 (%a, %b, %s) {beta = 2.0 : f32} : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<f32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}
