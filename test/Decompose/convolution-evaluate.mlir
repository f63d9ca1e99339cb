// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Convolution.cpp on constants, evaluated: Conv (cross-correlation)
// with a bias, symmetric and asymmetric pads, strides, dilations, groups (also with several
// filters per group), several input/output channels, and auto_pad SAME_UPPER/SAME_LOWER
// (odd total padding) and VALID. Expected values from a direct python3 loop over the
// window, out[o] = sum_k x[o * stride - pad_begin + k * dilation] w[k] (+ b).

// X = [[1, 2, 3], [4, 5, 6], [7, 8, 9]], W = [[1, 2], [3, 4]]: out[0][0] = 1 + 4 + 12 + 20
// = 37, then 47, 67, 77 across the 2x2 windows; + B = 10.
// pads [1, 1, 1, 1], strides 2: windows at -1 and 1 per dim: [[4 * 1, 3 * 2 + 4 * 3],
// [2 * 4 + 4 * 7, 5 + 12 + 24 + 36]] = [[4, 18], [36, 77]].
// pads [0, 1, 1, 0] (begin of H, W, then end of H, W): one zero column on the left and
// one zero row below: 3x3 out.
// CHECK: @conv2d result 0: tensor<1x1x2x2xf32> = {{\[\[\[\[}}47.0, 57.0], [77.0, 87.0]]]]
// CHECK: @conv2d result 1: tensor<1x1x2x2xf32> = {{\[\[\[\[}}4.0, 18.0], [36.0, 77.0]]]]
// CHECK: @conv2d result 2: tensor<1x1x3x3xf32> = {{\[\[\[\[}}18.0, 37.0, 47.0], [36.0, 67.0, 77.0], [14.0, 23.0, 26.0]]]]
module {
  func.func @conv2d() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
    %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
    %b = arith.constant dense<[10.0]> : tensor<1xf32>
    %0 = onnx.node "Conv" opset 11 (%x, %w, %b) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Conv" opset 11 (%x, %w) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Conv" opset 11 (%x, %w) {pads = array<i64: 0, 1, 1, 0>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// 1-d, x = [1, 2, 3, 4, 5]. Dilation 2 with w = [1, -1]: x[i] - x[i + 2] = [-2, -2, -2].
// Dilation 2, stride 2, pads [1, 1], w = [1, 1, 1] over [0, 1, 2, 3, 4, 5, 0]: taps at
// 0, 2, 4 and 2, 4, 6: [0 + 2 + 4, 2 + 4 + 0] = [6, 6].
// CHECK: @dilated result 0: tensor<1x1x3xf32> = {{\[\[\[}}-2.0, -2.0, -2.0]]]
// CHECK: @dilated result 1: tensor<1x1x2xf32> = {{\[\[\[}}6.0, 6.0]]]
module {
  func.func @dilated() -> (tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0]]]> : tensor<1x1x5xf32>
    %w = arith.constant dense<[[[1.0, -1.0]]]> : tensor<1x1x2xf32>
    %v = arith.constant dense<[[[1.0, 1.0, 1.0]]]> : tensor<1x1x3xf32>
    %0 = onnx.node "Conv" opset 11 (%x, %w) {dilations = array<i64: 2>} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Conv" opset 11 (%x, %v) {dilations = array<i64: 2>, strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x5xf32>, tensor<1x1x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// Two channels x = [[1, 2, 3], [10, 20, 30]]. group 2 with w [[1, 1]], [[1, -1]]: each
// channel alone: [3, 5] and [-10, -10]. group 2 with 4 filters (2 per group): channel 0 with
// [1, 0], [0, 1] -> [1, 2], [2, 3]; channel 1 with [1, 1], [2, 0] -> [30, 50], [20, 40].
// group 1 with 2 filters over both channels, w0 = [[1, 0], [1, 0]], w1 = [[0, 1], [0, -1]],
// B = [0.5, -0.5]: [1 + 10, 2 + 20] + 0.5 and [2 - 20, 3 - 30] - 0.5.
// CHECK: @grouped result 0: tensor<1x2x2xf32> = {{\[\[\[}}3.0, 5.0], [-10.0, -10.0]]]
// CHECK: @grouped result 1: tensor<1x4x2xf32> = {{\[\[\[}}1.0, 2.0], [2.0, 3.0], [30.0, 50.0], [20.0, 40.0]]]
// CHECK: @grouped result 2: tensor<1x2x2xf32> = {{\[\[\[}}11.5, 22.5], [-18.5, -27.5]]]
module {
  func.func @grouped() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]]> : tensor<1x2x3xf32>
    %w = arith.constant dense<[[[1.0, 1.0]], [[1.0, -1.0]]]> : tensor<2x1x2xf32>
    %w4 = arith.constant dense<[[[1.0, 0.0]], [[0.0, 1.0]], [[1.0, 1.0]], [[2.0, 0.0]]]> : tensor<4x1x2xf32>
    %wd = arith.constant dense<[[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, -1.0]]]> : tensor<2x2x2xf32>
    %b = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
    %0 = onnx.node "Conv" opset 11 (%x, %w) {group = 2 : i64} : (tensor<1x2x3xf32>, tensor<2x1x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Conv" opset 11 (%x, %w4) {group = 2 : i64} : (tensor<1x2x3xf32>, tensor<4x1x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Conv" opset 1 (%x, %wd, %b) {} : (tensor<1x2x3xf32>, tensor<2x2x2xf32>, tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// auto_pad pads to out = ceil(in / stride), total = (out - 1) stride + k - in, the odd one
// at the end (SAME_UPPER) or the start (SAME_LOWER); w = [1, 1] sums pairs.
// x = [1, 2, 3, 4], stride 1: total 1: UPPER pads [0, 1] -> [3, 5, 7, 4 + 0]; LOWER pads
// [1, 0] -> [0 + 1, 3, 5, 7].
// x = [1, 2, 3, 4, 5], stride 2: out 3, total (3 - 1) 2 + 2 - 5 = 1: UPPER -> [1 + 2, 3 + 4,
// 5 + 0]; LOWER -> [0 + 1, 2 + 3, 4 + 5]; VALID (no padding) -> [3, 7].
// CHECK: @auto_pad result 0: tensor<1x1x4xf32> = {{\[\[\[}}3.0, 5.0, 7.0, 4.0]]]
// CHECK: @auto_pad result 1: tensor<1x1x4xf32> = {{\[\[\[}}1.0, 3.0, 5.0, 7.0]]]
// CHECK: @auto_pad result 2: tensor<1x1x3xf32> = {{\[\[\[}}3.0, 7.0, 5.0]]]
// CHECK: @auto_pad result 3: tensor<1x1x3xf32> = {{\[\[\[}}1.0, 5.0, 9.0]]]
// CHECK: @auto_pad result 4: tensor<1x1x2xf32> = {{\[\[\[}}3.0, 7.0]]]
module {
  func.func @auto_pad() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x4 = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0]]]> : tensor<1x1x4xf32>
    %x5 = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0]]]> : tensor<1x1x5xf32>
    %w = arith.constant dense<[[[1.0, 1.0]]]> : tensor<1x1x2xf32>
    %0 = onnx.node "Conv" opset 11 (%x4, %w) {auto_pad = "SAME_UPPER"} : (tensor<1x1x4xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Conv" opset 11 (%x4, %w) {auto_pad = "SAME_LOWER"} : (tensor<1x1x4xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "Conv" opset 11 (%x5, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2>} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "Conv" opset 11 (%x5, %w) {auto_pad = "SAME_LOWER", strides = array<i64: 2>} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "Conv" opset 11 (%x5, %w) {auto_pad = "VALID", strides = array<i64: 2>} : (tensor<1x1x5xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}
