// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// ONNX Runtime's quantized com.microsoft ops (ContribQuantization.cpp), evaluated on values
// worked by hand; test/data/contrib has them against ONNX Runtime's outputs.

// Zero points left out are 0: (10 * 0.5 + 4 * 0.25) / 1 = 6; (20 * 0.5 + 250 * 0.25) = 72.5,
// a tie that rounds to the even 72.
// CHECK: @add_no_zero_points result 0: tensor<2xui8> = [6, 72]
module {
  func.func @add_no_zero_points() -> tensor<*xui8> {
    %a = arith.constant dense<[10, 20]> : tensor<2xui8>
    %b = arith.constant dense<[4, 250]> : tensor<2xui8>
    %sa = arith.constant dense<0.5> : tensor<f32>
    %sb = arith.constant dense<0.25> : tensor<f32>
    %sc = arith.constant dense<1.0> : tensor<f32>
    %none = onnx.none
    %0 = onnx.node "QLinearAdd" domain "com.microsoft" opset 1 (%a, %sa, %none, %b, %sb, %none, %sc) {} : (tensor<2xui8>, tensor<f32>, none, tensor<2xui8>, tensor<f32>, none, tensor<f32>) -> !onnx.value loc("add"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Input 0 has Y's parameters (copied); input 1 is requantized: 4 * 1 / 0.5 + 10 = 18.
// CHECK: @concat result 0: tensor<3xui8> = [1, 255, 18]
module {
  func.func @concat() -> tensor<*xui8> {
    %x0 = arith.constant dense<[1, 255]> : tensor<2xui8>
    %x1 = arith.constant dense<[4]> : tensor<1xui8>
    %sy = arith.constant dense<0.5> : tensor<f32>
    %zy = arith.constant dense<10> : tensor<ui8>
    %s1 = arith.constant dense<1.0> : tensor<f32>
    %z1 = arith.constant dense<0> : tensor<ui8>
    %0 = onnx.node "QLinearConcat" domain "com.microsoft" opset 1 (%sy, %zy, %x0, %sy, %zy, %x1, %s1, %z1) {axis = 0 : i64} : (tensor<f32>, tensor<ui8>, tensor<2xui8>, tensor<f32>, tensor<ui8>, tensor<1xui8>, tensor<f32>, tensor<ui8>) -> !onnx.value loc("concat"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// sum(x - 1) = 7 over 4 elements: 7 * (1 / (0.5 * 4)) = 3.5 -> 4 (even), + 1 = 5.
// CHECK: @global_average_pool result 0: tensor<1x1x1x1xui8> = {{\[\[\[\[}}5]]]]
module {
  func.func @global_average_pool() -> tensor<*xui8> {
    %x = arith.constant dense<[[[[1, 2], [3, 5]]]]> : tensor<1x1x2x2xui8>
    %sx = arith.constant dense<1.0> : tensor<f32>
    %zx = arith.constant dense<1> : tensor<ui8>
    %sy = arith.constant dense<0.5> : tensor<f32>
    %zy = arith.constant dense<1> : tensor<ui8>
    %0 = onnx.node "QLinearGlobalAveragePool" domain "com.microsoft" opset 1 (%x, %sx, %zx, %sy, %zy) {} : (tensor<1x1x2x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.value loc("gap"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// acc = [[1, 2]] @ [[3], [4]] = 11, + C 5 = 16; * (alpha 2 * 0.5 * 0.25) = 4.
// CHECK: @qgemm_float result 0: tensor<1x1xf32> = {{\[\[}}4.0]]
module {
  func.func @qgemm_float() -> tensor<*xf32> {
    %a = arith.constant dense<[[1, 2]]> : tensor<1x2xui8>
    %b = arith.constant dense<[[3], [4]]> : tensor<2x1xi8>
    %sa = arith.constant dense<0.5> : tensor<f32>
    %za = arith.constant dense<0> : tensor<ui8>
    %sb = arith.constant dense<0.25> : tensor<f32>
    %zb = arith.constant dense<0> : tensor<i8>
    %c = arith.constant dense<5> : tensor<1xi32>
    %0 = onnx.node "QGemm" domain "com.microsoft" opset 1 (%a, %sa, %za, %b, %sb, %zb, %c) {alpha = 2.0 : f32} : (tensor<1x2xui8>, tensor<f32>, tensor<ui8>, tensor<2x1xi8>, tensor<f32>, tensor<i8>, tensor<1xi32>) -> !onnx.value loc("qgemm"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
