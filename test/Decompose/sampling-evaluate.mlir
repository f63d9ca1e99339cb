// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// GridSample, AffineGrid, RoiAlign, Col2Im and CenterCropPad (lib/Decompose/Sampling.cpp)
// on constants, evaluated. Expected values ("numpy:") from numpy (/usr/bin/python3) following
// ONNX's reference implementations, matched to five or more significant digits.

// GridSample-16 bilinear, zeros padding (taps outside read 0)
// numpy: [[[[-0.8125, 2.0425005, -0.0949999], [-0.65000015, -0.375, 0.0]], [[-0.125, 2.0749998, -0.15999985], [0.42250013, 1.375, 0.0]]]]
// CHECK: @bilinear_zeros result 0: tensor<1x2x2x3xf32> = {{\[\[\[\[}}-0.8125, 2.0425{{[0-9]*}}, -0.0949999], [-0.65000{{[0-9]*}}, -0.375, 0.0]], {{\[\[}}-0.125, 2.0749{{[0-9]*}}, -0.15999{{[0-9]*}}], [0.42250{{[0-9]*}}, 1.375, 0.0]]]]
module {
  func.func @bilinear_zeros() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[[-3.25, -2.0, 2.5, 0.75], [-3.25, -0.5, -0.25, -2.75], [2.0, -3.0, -0.75, 0.25]], [[-0.5, 0.75, 2.0, 3.75], [-1.75, 1.25, 1.5, -1.75], [-4.0, 3.75, -1.5, -1.5]]]]> : tensor<1x2x3x4xf32>
    %c1 = arith.constant dense<[[[[-1.0, -1.0], [0.3, -0.6], [1.2, 0.4]], [[-0.45, 0.9], [0.0, 0.0], [-1.7, 1.3]]]]> : tensor<1x2x3x2xf32>
    %0 = onnx.node "GridSample" opset 16 (%c0, %c1) {mode = "bilinear"} : (tensor<1x2x3x4xf32>, tensor<1x2x3x2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// GridSample-20 nearest, reflection, align_corners (ties round to even)
// numpy: [[[[-3.25, 2.5, -2.75], [-3.0, -0.25, -3.0]], [[-0.5, 2.0, -1.75], [3.75, 1.5, 3.75]]]]
// CHECK: @nearest_reflection result 0: tensor<1x2x2x3xf32> = {{\[\[\[\[}}-3.25, 2.5, -2.75], [-3.0, -0.25, -3.0]], {{\[\[}}-0.5, 2.0, -1.75], [3.75, 1.5, 3.75]]]]
module {
  func.func @nearest_reflection() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[[-3.25, -2.0, 2.5, 0.75], [-3.25, -0.5, -0.25, -2.75], [2.0, -3.0, -0.75, 0.25]], [[-0.5, 0.75, 2.0, 3.75], [-1.75, 1.25, 1.5, -1.75], [-4.0, 3.75, -1.5, -1.5]]]]> : tensor<1x2x3x4xf32>
    %c1 = arith.constant dense<[[[[-1.0, -1.0], [0.3, -0.6], [1.2, 0.4]], [[-0.45, 0.9], [0.0, 0.0], [-1.7, 1.3]]]]> : tensor<1x2x3x2xf32>
    %0 = onnx.node "GridSample" opset 20 (%c0, %c1) {mode = "nearest", padding_mode = "reflection", align_corners = 1 : i64} : (tensor<1x2x3x4xf32>, tensor<1x2x3x2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// GridSample-22 cubic, border padding
// numpy: [[[[-3.354004, 2.3787782, -1.1659999], [-1.2707264, 0.1171875, 2.0]], [[-0.48461914, 2.1605425, -1.993], [1.4487438, 1.9609375, -4.0]]]]
// CHECK: @cubic_border result 0: tensor<1x2x2x3xf32> = {{\[\[\[\[}}-3.3540{{[0-9]*}}, 2.3787{{[0-9]*}}, -1.1659{{[0-9]*}}], [-1.2707{{[0-9]*}}, 0.11718{{[0-9]*}}, 2.0]], {{\[\[}}-0.48461{{[0-9]*}}, 2.1605{{[0-9]*}}, -1.993], [1.4487{{[0-9]*}}, 1.9609{{[0-9]*}}, -4.0]]]]
module {
  func.func @cubic_border() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[[-3.25, -2.0, 2.5, 0.75], [-3.25, -0.5, -0.25, -2.75], [2.0, -3.0, -0.75, 0.25]], [[-0.5, 0.75, 2.0, 3.75], [-1.75, 1.25, 1.5, -1.75], [-4.0, 3.75, -1.5, -1.5]]]]> : tensor<1x2x3x4xf32>
    %c1 = arith.constant dense<[[[[-1.0, -1.0], [0.3, -0.6], [1.2, 0.4]], [[-0.45, 0.9], [0.0, 0.0], [-1.7, 1.3]]]]> : tensor<1x2x3x2xf32>
    %0 = onnx.node "GridSample" opset 22 (%c0, %c1) {mode = "cubic", padding_mode = "border"} : (tensor<1x2x3x4xf32>, tensor<1x2x3x2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// GridSample-20 on a 1-d signal, reflection
// numpy: [[[2.6250005, 0.25, -2.25]], [[-2.125, 1.8125, 1.75]]]
// CHECK: @linear_1d_reflection result 0: tensor<2x1x3xf32> = {{\[\[\[}}2.6250{{[0-9]*}}, 0.25, -2.25]], {{\[\[}}-2.125, 1.8125, 1.75]]]
module {
  func.func @linear_1d_reflection() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[3.25, 0.75, -0.25, 2.25, -3.75]], [[1.75, -1.0, -3.25, 1.25, 3.5]]]> : tensor<2x1x5xf32>
    %c1 = arith.constant dense<[[[-1.3], [-0.2], [0.7]], [[1.9], [0.5], [-0.9]]]> : tensor<2x3x1xf32>
    %0 = onnx.node "GridSample" opset 20 (%c0, %c1) {padding_mode = "reflection"} : (tensor<2x1x5xf32>, tensor<2x3x1xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// GridSample-20 volumetric, linear
// numpy: [[[[[0.6125, 0.918]]]]]
// CHECK: @volumetric_linear result 0: tensor<1x1x1x1x2xf32> = {{\[\[\[\[\[}}0.6125, 0.918]]]]]
module {
  func.func @volumetric_linear() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[[[-2.25, 1.0], [-1.5, 2.0], [1.75, -2.25]], [[2.75, 1.25], [1.5, 2.5], [-0.5, 2.0]]]]]> : tensor<1x1x2x3x2xf32>
    %c1 = arith.constant dense<[[[[[-0.5, 0.25, 0.1], [0.8, -0.9, -0.6]]]]]> : tensor<1x1x1x2x3xf32>
    %0 = onnx.node "GridSample" opset 20 (%c0, %c1) {align_corners = 1 : i64} : (tensor<1x1x2x3x2xf32>, tensor<1x1x1x2x3xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// AffineGrid 2-d, align_corners = 0
// numpy: [[[[-0.6666667, -0.6666667], [-0.0000000000000001110223, -1.0], [0.6666667, -1.3333334]], [[-0.16666667, 1.3333334], [0.5, 1.0], [1.1666666, 0.6666667]]]]
// CHECK: @affine_2d result 0: tensor<1x2x3x2xf32> = {{\[\[\[\[}}-0.66666{{[0-9]*}}, -0.66666{{[0-9]*}}], [-1.110223e-16, -1.0], [0.66666{{[0-9]*}}, -1.3333{{[0-9]*}}]], {{\[\[}}-0.16666{{[0-9]*}}, 1.3333{{[0-9]*}}], [0.5, 1.0], [1.1666{{[0-9]*}}, 0.66666{{[0-9]*}}]]]]
module {
  func.func @affine_2d() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[1.0, 0.5, 0.25], [-0.5, 2.0, 0.0]]]> : tensor<1x2x3xf32>
    %c1 = arith.constant dense<[1, 1, 2, 3]> : tensor<4xi64>
    %0 = onnx.node "AffineGrid" opset 20 (%c0, %c1) {} : (tensor<1x2x3xf32>, tensor<4xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// AffineGrid 3-d, align_corners = 1 (an extent of 1 sits at -1)
// numpy: [[[[[-1.25, -3.0, -1.5], [-0.25, -3.0, -1.0], [0.75, -3.0, -0.5]]], [[[-0.25, -3.0, 0.5], [0.75, -3.0, 1.0], [1.75, -3.0, 1.5]]]]]
// CHECK: @affine_3d result 0: tensor<1x2x1x3x3xf32> = {{\[\[\[\[\[}}-1.25, -3.0, -1.5], [-0.25, -3.0, -1.0], [0.75, -3.0, -0.5]]], {{\[\[\[}}-0.25, -3.0, 0.5], [0.75, -3.0, 1.0], [1.75, -3.0, 1.5]]]]]
module {
  func.func @affine_3d() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[1.0, 0.0, 0.5, 0.25], [0.0, 2.0, 0.0, -1.0], [0.5, 0.0, 1.0, 0.0]]]> : tensor<1x3x4xf32>
    %c1 = arith.constant dense<[1, 1, 2, 1, 3]> : tensor<5xi64>
    %0 = onnx.node "AffineGrid" opset 20 (%c0, %c1) {align_corners = 1 : i64} : (tensor<1x3x4xf32>, tensor<5xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// RoiAlign-16 avg, adaptive sampling_ratio with constant rois, half_pixel
// numpy: [[[[0.62890625, 1.7226562], [-0.6796875, -0.26953125]]], [[[0.015625, 0.20507812], [1.6191406, 1.3222656]]], [[[0.0, 0.0], [0.0, 0.0]]]]
// CHECK: @roi_adaptive_avg result 0: tensor<3x1x2x2xf32> = {{\[\[\[\[}}0.62890{{[0-9]*}}, 1.7226{{[0-9]*}}], [-0.67968{{[0-9]*}}, -0.26953{{[0-9]*}}]]], {{\[\[\[}}0.015625, 0.20507{{[0-9]*}}], [1.6191{{[0-9]*}}, 1.3222{{[0-9]*}}]]], {{\[\[\[}}0.0, 0.0], [0.0, 0.0]]]]
module {
  func.func @roi_adaptive_avg() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[[3.0, -3.25, 2.75, -0.75, -0.25], [-2.75, 1.5, -1.75, 3.0, -1.75], [0.5, -0.75, 1.0, -2.5, -2.5], [2.0, 2.0, 0.5, 3.25, -2.25]]], [[[2.75, -2.75, 3.75, 1.0, 0.75], [3.75, 2.25, 2.25, -3.5, -1.0], [-3.25, -2.5, -2.25, 2.75, -3.0], [-1.75, -0.0, 2.75, 3.75, 1.75]]]]> : tensor<2x1x4x5xf32>
    %c1 = arith.constant dense<[[0.5, 0.25, 3.5, 2.75], [1.0, 1.0, 2.0, 4.5], [-1.0, 6.0, 0.5, 9.0]]> : tensor<3x4xf32>
    %c2 = arith.constant dense<[1, 0, 1]> : tensor<3xi64>
    %0 = onnx.node "RoiAlign" opset 16 (%c0, %c1, %c2) {output_height = 2 : i64, output_width = 2 : i64} : (tensor<2x1x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// RoiAlign-22 max, sampling_ratio 2, output_half_pixel, spatial_scale 0.5
// numpy: [[[[1.3710938], [1.6757812]]], [[[0.6328125], [1.5]]], [[[0.0], [0.0]]]]
// CHECK: @roi_max result 0: tensor<3x1x2x1xf32> = {{\[\[\[\[}}1.3710{{[0-9]*}}], [1.6757{{[0-9]*}}]]], {{\[\[\[}}0.63281{{[0-9]*}}], [1.5]]], {{\[\[\[}}0.0], [0.0]]]]
module {
  func.func @roi_max() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[[3.0, -3.25, 2.75, -0.75, -0.25], [-2.75, 1.5, -1.75, 3.0, -1.75], [0.5, -0.75, 1.0, -2.5, -2.5], [2.0, 2.0, 0.5, 3.25, -2.25]]], [[[2.75, -2.75, 3.75, 1.0, 0.75], [3.75, 2.25, 2.25, -3.5, -1.0], [-3.25, -2.5, -2.25, 2.75, -3.0], [-1.75, -0.0, 2.75, 3.75, 1.75]]]]> : tensor<2x1x4x5xf32>
    %c1 = arith.constant dense<[[1.0, 0.5, 7.0, 5.5], [2.0, 2.0, 4.0, 9.0], [-2.0, 12.0, 1.0, 18.0]]> : tensor<3x4xf32>
    %c2 = arith.constant dense<[1, 0, 1]> : tensor<3xi64>
    %0 = onnx.node "RoiAlign" opset 22 (%c0, %c1, %c2) {mode = "max", coordinate_transformation_mode = "output_half_pixel", output_height = 2 : i64, output_width = 1 : i64, sampling_ratio = 2 : i64, spatial_scale = 5.000000e-01 : f32} : (tensor<2x1x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// RoiAlign-10 (no pixel shift), avg, sampling_ratio 1
// numpy: [[[[-0.09375, -0.28125]]], [[[1.140625, 0.796875]]], [[[0.0, 0.0]]]]
// CHECK: @roi_opset10 result 0: tensor<3x1x1x2xf32> = {{\[\[\[\[}}-0.09375, -0.28125]]], {{\[\[\[}}1.1406{{[0-9]*}}, 0.796875]]], {{\[\[\[}}0.0, 0.0]]]]
module {
  func.func @roi_opset10() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[[3.0, -3.25, 2.75, -0.75, -0.25], [-2.75, 1.5, -1.75, 3.0, -1.75], [0.5, -0.75, 1.0, -2.5, -2.5], [2.0, 2.0, 0.5, 3.25, -2.25]]], [[[2.75, -2.75, 3.75, 1.0, 0.75], [3.75, 2.25, 2.25, -3.5, -1.0], [-3.25, -2.5, -2.25, 2.75, -3.0], [-1.75, -0.0, 2.75, 3.75, 1.75]]]]> : tensor<2x1x4x5xf32>
    %c1 = arith.constant dense<[[0.5, 0.25, 3.5, 2.75], [1.0, 1.0, 2.0, 4.5], [-1.0, 6.0, 0.5, 9.0]]> : tensor<3x4xf32>
    %c2 = arith.constant dense<[1, 0, 1]> : tensor<3xi64>
    %0 = onnx.node "RoiAlign" opset 10 (%c0, %c1, %c2) {output_height = 1 : i64, output_width = 2 : i64, sampling_ratio = 1 : i64} : (tensor<2x1x4x5xf32>, tensor<3x4xf32>, tensor<3xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Col2Im: 2 channels, 1 x 2 blocks, strides [2, 1], pads [1, 0, 0, 1]
// numpy: [[[[0.0, 0.0, 0.0], [4.0, 15.0, 17.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [16.0, 39.0, 41.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.0, 0.0], [28.0, 63.0, 65.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [40.0, 87.0, 89.0], [0.0, 0.0, 0.0]]]]
// CHECK: @col2im result 0: tensor<2x2x3x3xf32> = {{\[\[\[\[}}0.0, 0.0, 0.0], [4.0, 15.0, 17.0], [0.0, 0.0, 0.0]], {{\[\[}}0.0, 0.0, 0.0], [16.0, 39.0, 41.0], [0.0, 0.0, 0.0]]], {{\[\[\[}}0.0, 0.0, 0.0], [28.0, 63.0, 65.0], [0.0, 0.0, 0.0]], {{\[\[}}0.0, 0.0, 0.0], [40.0, 87.0, 89.0], [0.0, 0.0, 0.0]]]]
module {
  func.func @col2im() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0, 17.0, 18.0], [19.0, 20.0, 21.0, 22.0, 23.0, 24.0]], [[25.0, 26.0, 27.0, 28.0, 29.0, 30.0], [31.0, 32.0, 33.0, 34.0, 35.0, 36.0], [37.0, 38.0, 39.0, 40.0, 41.0, 42.0], [43.0, 44.0, 45.0, 46.0, 47.0, 48.0]]]> : tensor<2x4x6xf32>
    %c1 = arith.constant dense<[3, 3]> : tensor<2xi64>
    %c2 = arith.constant dense<[1, 2]> : tensor<2xi64>
    %0 = onnx.node "Col2Im" opset 18 (%c0, %c1, %c2) {strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 0, 1>} : (tensor<2x4x6xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Col2Im on integers, 1-d, dilation 2
// numpy: [[[1.0, 2.0, 7.0, 5.0, 6.0], [7.0, 8.0, 19.0, 11.0, 12.0]]]
// CHECK: @col2im_int_dilated result 0: tensor<1x2x5xi32> = {{\[\[\[}}1, 2, 7, 5, 6], [7, 8, 19, 11, 12]]]
module {
  func.func @col2im_int_dilated() -> tensor<*xi32> {
    %c0 = arith.constant dense<[[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]]> : tensor<1x4x3xi32>
    %c1 = arith.constant dense<[5]> : tensor<1xi64>
    %c2 = arith.constant dense<[2]> : tensor<1xi64>
    %0 = onnx.node "Col2Im" opset 18 (%c0, %c1, %c2) {dilations = array<i64: 2>} : (tensor<1x4x3xi32>, tensor<1xi64>, tensor<1xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CenterCropPad: crop 5 -> 2 (window rounds down), pad 4 -> 7 (extra zero after)
// numpy: [[0.0, 5.0, 6.0, 7.0, 8.0, 0.0, 0.0], [0.0, 9.0, 10.0, 11.0, 12.0, 0.0, 0.0]]
// CHECK: @crop_and_pad result 0: tensor<2x7xf32> = {{\[\[}}0.0, 5.0, 6.0, 7.0, 8.0, 0.0, 0.0], [0.0, 9.0, 10.0, 11.0, 12.0, 0.0, 0.0]]
module {
  func.func @crop_and_pad() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0]]> : tensor<5x4xf32>
    %c1 = arith.constant dense<[2, 7]> : tensor<2xi64>
    %0 = onnx.node "CenterCropPad" opset 18 (%c0, %c1) {} : (tensor<5x4xf32>, tensor<2xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CenterCropPad with negative axes
// numpy: [[1.0, 2.0, 3.0], [5.0, 6.0, 7.0], [9.0, 10.0, 11.0], [13.0, 14.0, 15.0], [17.0, 18.0, 19.0]]
// CHECK: @crop_axes result 0: tensor<5x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [5.0, 6.0, 7.0], [9.0, 10.0, 11.0], [13.0, 14.0, 15.0], [17.0, 18.0, 19.0]]
module {
  func.func @crop_axes() -> tensor<*xf32> {
    %c0 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0], [17.0, 18.0, 19.0, 20.0]]> : tensor<5x4xf32>
    %c1 = arith.constant dense<[3]> : tensor<1xi64>
    %0 = onnx.node "CenterCropPad" opset 18 (%c0, %c1) {axes = array<i64: -1>} : (tensor<5x4xf32>, tensor<1xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
