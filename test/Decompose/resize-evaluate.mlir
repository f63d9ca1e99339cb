// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// Resize and Upsample on constants, evaluated. Where a case is one of ONNX's documented
// examples, its expected values ("ONNX:") are matched to six significant digits.

// ONNX: [[2.3636363, 3.590909, 4.818182], [7.2727275, 8.5, 9.727273], [12.181818, 13.409091, 14.636364]]
// CHECK: @linear_antialias_sizes result 0: tensor<1x1x3x3xf32> = {{\[\[\[\[}}2.36363{{[0-9]*}}, 3.59090{{[0-9]*}}, 4.81818{{[0-9]*}}], [7.27272{{[0-9]*}}, 8.5, 9.72727{{[0-9]*}}], [12.1818{{[0-9]*}}, 13.4090{{[0-9]*}}, 14.6363{{[0-9]*}}]]]]
module {
  func.func @linear_antialias_sizes() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
    %sizes = arith.constant dense<[1, 1, 3, 3]> : tensor<4xi64>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 18 (%x, %none, %none, %sizes) {mode = "linear", antialias = 1} : (tensor<1x1x4x4xf32>, none, none, tensor<4xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// ONNX: [[2.5180721, 4.2858863], [9.589329, 11.357142]]
// CHECK: @cubic_antialias_scales result 0: tensor<1x1x2x2xf32> = {{\[\[\[\[}}2.51807{{[0-9]*}}, 4.28588{{[0-9]*}}], [9.58932{{[0-9]*}}, 11.3571{{[0-9]*}}]]]]
module {
  func.func @cubic_antialias_scales() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
    %scales = arith.constant dense<[1.0, 1.0, 0.6, 0.6]> : tensor<4xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 18 (%x, %none, %scales) {mode = "cubic", antialias = 1} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// x_original = 0.75 + 1.5 o (rows; 3.75 > 3 takes extrapolation_value) and 1.5 + 0.75 o.
// CHECK: @crop result 0: tensor<1x1x3x3xf32> = {{\[\[\[\[}}5.5, 6.25, 7.0], [11.5, 12.25, 13.0], [-1.0, -1.0, -1.0]]]]
module {
  func.func @crop() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
    %roi = arith.constant dense<[0.25, 0.5, 1.25, 1.0]> : tensor<4xf32>
    %sizes = arith.constant dense<[3, 3]> : tensor<2xi64>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 18 (%x, %roi, %none, %sizes) {mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = -1.0 : f32, axes = array<i64: 2, 3>} : (tensor<1x1x4x4xf32>, tensor<4xf32>, none, tensor<2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// ONNX: [[1.6666666, 3.3333333]]
// CHECK: @half_pixel_symmetric result 0: tensor<1x1x1x2xf32> = {{\[\[\[\[}}1.66666{{[0-9]*}}, 3.33333{{[0-9]*}}]]]]
module {
  func.func @half_pixel_symmetric() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0]]]]> : tensor<1x1x1x4xf32>
    %scales = arith.constant dense<[1.0, 1.0, 1.0, 0.6]> : tensor<4xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 19 (%x, %none, %scales) {mode = "linear", coordinate_transformation_mode = "half_pixel_symmetric"} : (tensor<1x1x1x4xf32>, none, tensor<4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Resize-10: x_original = x / scale, rounded up when downsampling.
// CHECK: @resize10_nearest result 0: tensor<1x1x1x2xf32> = {{\[\[\[\[}}1.0, 3.0]]]]
module {
  func.func @resize10_nearest() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]]> : tensor<1x1x2x4xf32>
    %scales = arith.constant dense<[1.0, 1.0, 0.6, 0.6]> : tensor<4xf32>
    %0 = onnx.node "Resize" opset 10 (%x, %scales) {mode = "nearest"} : (tensor<1x1x2x4xf32>, tensor<4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: @upsample7 result 0: tensor<1x1x4x6xf32> = {{\[\[\[\[}}1.0, 1.0, 1.0, 2.0, 2.0, 2.0], [1.0, 1.0, 1.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 4.0, 4.0, 4.0], [3.0, 3.0, 3.0, 4.0, 4.0, 4.0]]]]
module {
  func.func @upsample7() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
    %0 = onnx.node "Upsample" opset 7 (%x) {mode = "nearest", scales = array<f32: 1.0, 1.0, 2.0, 3.0>} : (tensor<1x1x2x2xf32>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Integers are interpolated in f64 and truncated: 63.75 -> 63, 191.25 -> 191.
// CHECK: @uint8_linear result 0: tensor<1x4xui8> = {{\[\[}}0, 63, 191, 255]]
module {
  func.func @uint8_linear() -> tensor<*xui8> {
    %x = arith.constant dense<[[0, 255]]> : tensor<1x2xui8>
    %scales = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%x, %none, %scales) {mode = "linear"} : (tensor<1x2xui8>, none, tensor<2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
