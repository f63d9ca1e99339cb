// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// Einsum forms, OneHot (opset 9 and 11 negative indices), EyeLike, Shrink and DepthToSpace
// on constants, evaluated. Expected values by hand.

// CHECK: @matmul result 0: tensor<2x2xf32> = {{\[\[}}19.0, 22.0], [43.0, 50.0]]
module {
  func.func @matmul() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %c1 = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0, %c1) {equation = "ij,jk->ik"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @implicit result 0: tensor<2x2xf32> = {{\[\[}}19.0, 22.0], [43.0, 50.0]]
module {
  func.func @implicit() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %c1 = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0, %c1) {equation = "ij,jk"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @abt result 0: tensor<2x2xf32> = {{\[\[}}17.0, 23.0], [39.0, 53.0]]
module {
  func.func @abt() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %c1 = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0, %c1) {equation = "ij,kj->ik"} : (tensor<2x2xf32>, tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @trace result 0: tensor<f32> = 5.0
module {
  func.func @trace() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0) {equation = "ii"} : (tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @diag result 0: tensor<2xf32> = [1.0, 4.0]
module {
  func.func @diag() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0) {equation = "ii->i"} : (tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @outer result 0: tensor<2x3xf32> = {{\[\[}}3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]
module {
  func.func @outer() -> tensor<*xf32> {
    %c0 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %c1 = arith.constant dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0, %c1) {equation = "i,j->ij"} : (tensor<2xf32>, tensor<3xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @total result 0: tensor<f32> = 10.0
module {
  func.func @total() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0) {equation = "ij->"} : (tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @chain result 0: tensor<2x2xf32> = {{\[\[}}85.0, 126.0], [193.0, 286.0]]
module {
  func.func @chain() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %c1 = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
    %c2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0, %c1, %c2) {equation = "ij,jk,kl->il"} : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @bcast result 0: tensor<2x2x2xf32> = {{\[\[}}[7.0, 10.0], [15.0, 22.0]], {{\[\[}}19.0, 22.0], [43.0, 50.0]]]
module {
  func.func @bcast() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
    %c1 = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0, %c1) {equation = "...ij,...jk->...ik"} : (tensor<1x2x2xf32>, tensor<2x2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @sumboth result 0: tensor<2xf32> = [9.0, 21.0]
module {
  func.func @sumboth() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %c1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0, %c1) {equation = "ij,k->i"} : (tensor<2x2xf32>, tensor<2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @implicit_t result 0: tensor<2x2xf32> = {{\[\[}}1.0, 3.0], [2.0, 4.0]]
module {
  func.func @implicit_t() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Einsum" opset 12 (%c0) {equation = "ji"} : (tensor<2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @onehot11 result 0: tensor<4x6xf32> = {{\[\[}}9.0, 2.0, 2.0, 2.0, 9.0, 2.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0], [2.0, 9.0, 9.0, 2.0, 2.0, 2.0]]
module {
  func.func @onehot11() -> tensor<*xf32> {
    %i = arith.constant dense<[0, -1, 3, 7, -4, -9]> : tensor<6xi64>
    %d = arith.constant dense<4.0> : tensor<f32>
    %v = arith.constant dense<[2.0, 9.0]> : tensor<2xf32>
    %0 = onnx.node "OneHot" opset 11 (%i, %d, %v) {axis = 0 : i64} : (tensor<6xi64>, tensor<f32>, tensor<2xf32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @onehot9 result 0: tensor<6x4xf32> = {{\[\[}}9.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 9.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0], [2.0, 2.0, 2.0, 2.0]]
module {
  func.func @onehot9() -> tensor<*xf32> {
    %i = arith.constant dense<[0, -1, 3, 7, -4, -9]> : tensor<6xi64>
    %d = arith.constant dense<4> : tensor<1xi32>
    %v = arith.constant dense<[2.0, 9.0]> : tensor<2xf32>
    %0 = onnx.node "OneHot" opset 9 (%i, %d, %v) {} : (tensor<6xi64>, tensor<1xi32>, tensor<2xf32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @eye result 0: tensor<3x4xi32> = {{\[\[}}0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]]
module {
  func.func @eye() -> tensor<*xf32> {
    %x = arith.constant dense<0> : tensor<3x4xi32>
    %0 = onnx.node "EyeLike" opset 9 (%x) {k = -1 : i64} : (tensor<3x4xi32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @shrink_int result 0: tensor<7xi32> = [-2, -1, 0, 0, 0, 1, 2]
module {
  func.func @shrink_int() -> tensor<*xf32> {
    %x = arith.constant dense<[-3, -2, -1, 0, 1, 2, 3]> : tensor<7xi32>
    %0 = onnx.node "Shrink" opset 9 (%x) {lambd = 1.5 : f32, bias = 1.0 : f32} : (tensor<7xi32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @d2s_v1 result 0: tensor<1x1x2x2xf32> = {{\[\[}}{{\[\[}}0.0, 1.0], [2.0, 3.0]]]]
module {
  func.func @d2s_v1() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[0.0]], [[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x4x1x1xf32>
    %0 = onnx.node "DepthToSpace" opset 1 (%x) {blocksize = 2 : i64} : (tensor<1x4x1x1xf32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
