// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// NegativeLogLikelihoodLoss on constants, evaluated: ignored targets (out of range)
// contribute 0; mean divides by the number of elements. Expected values by hand.

// CHECK: @nll_none_ii result 0: tensor<2xf32> = [-3.0, 0.0]
module {
  func.func @nll_none_ii() -> tensor<*xf32> {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %t = arith.constant dense<[2, 99]> : tensor<2xi32>
    %0 = onnx.node "NegativeLogLikelihoodLoss" opset 13 (%x, %t) {reduction = "none", ignore_index = 99 : i64} : (tensor<2x3xf32>, tensor<2xi32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @nll_mean_noweight result 0: tensor<f32> = -3.5
module {
  func.func @nll_mean_noweight() -> tensor<*xf32> {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %t = arith.constant dense<[2, 0]> : tensor<2xi32>
    %0 = onnx.node "NegativeLogLikelihoodLoss" opset 13 (%x, %t) {} : (tensor<2x3xf32>, tensor<2xi32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Weighted mean with an ignored class: (-3 * 4 + 0) / (4 + 0).
// CHECK: @nll_mean_weight_ii result 0: tensor<f32> = -3.0
module {
  func.func @nll_mean_weight_ii() -> tensor<*xf32> {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %t = arith.constant dense<[2, 1]> : tensor<2xi64>
    %w = arith.constant dense<[0.5, 2.0, 4.0]> : tensor<3xf32>
    %0 = onnx.node "NegativeLogLikelihoodLoss" opset 13 (%x, %t, %w) {ignore_index = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>, tensor<3xf32>) -> !onnx.value loc("o"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
