// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/ConvTranspose.cpp on constants, evaluated: strides, pads that
// crop, output_padding, dilations, groups, several input/output channels with a bias,
// output_shape (smaller and larger than the natural extent, the split of an odd total
// padding) and auto_pad SAME_UPPER/SAME_LOWER. Expected values from a python3 scatter loop,
// y[i * stride + k * dilation - pad_begin] += x[i] w[k], with the pads of ONNX's formulas:
// total = stride (in - 1) + output_padding + (k - 1) dilation + 1 - output_shape, begin =
// total // 2 for SAME_UPPER, else total - total // 2 (python's floor division). The loop
// reproduces ONNX's own test convtranspose_pads (@two_d result 1).

// x = [1, 2, 3]. w = [1, 1]: [1, 1 + 2, 2 + 3, 3]. w = [1, 10], stride 2: x[i] at 2i and
// 10 x[i] at 2i + 1; pads [1, 1] crop one at each end; output_padding 1 adds a trailing 0.
// Dilation 2: x[i] at i and 10 x[i] at i + 2: [1, 2, 3 + 10, 20, 30].
// CHECK: @one_d result 0: tensor<1x1x4xf32> = {{\[\[\[}}1.0, 3.0, 5.0, 3.0]]]
// CHECK: @one_d result 1: tensor<1x1x6xf32> = {{\[\[\[}}1.0, 10.0, 2.0, 20.0, 3.0, 30.0]]]
// CHECK: @one_d result 2: tensor<1x1x4xf32> = {{\[\[\[}}10.0, 2.0, 20.0, 3.0]]]
// CHECK: @one_d result 3: tensor<1x1x7xf32> = {{\[\[\[}}1.0, 10.0, 2.0, 20.0, 3.0, 30.0, 0.0]]]
// CHECK: @one_d result 4: tensor<1x1x5xf32> = {{\[\[\[}}1.0, 2.0, 13.0, 20.0, 30.0]]]
module {
  func.func @one_d() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf32>
    %w = arith.constant dense<[[[1.0, 1.0]]]> : tensor<1x1x2xf32>
    %v = arith.constant dense<[[[1.0, 10.0]]]> : tensor<1x1x2xf32>
    %0 = onnx.node "ConvTranspose" opset 11 (%x, %w) {} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ConvTranspose" opset 11 (%x, %v) {strides = array<i64: 2>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ConvTranspose" opset 11 (%x, %v) {strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "ConvTranspose" opset 11 (%x, %v) {strides = array<i64: 2>, output_padding = array<i64: 1>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "ConvTranspose" opset 11 (%x, %v) {dilations = array<i64: 2>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// W is C x M/group x k. group 2, x = [[1, 2], [3, 4]], w = [[1, 1]], [[1, -1]]: channel 0
// -> [1, 1 + 2, 2], channel 1 -> [3, -3 + 4, -4]. group 2 with two outputs per group,
// w = [[[1], [2]], [[3], [4]]]: x0 * 1, x0 * 2, x1 * 3, x1 * 4.
// One input channel, two outputs w = [[1, 0], [0, 1]] on x = [1, 2], B = [0.5, -1]:
// [1, 2, 0] + 0.5 and [0, 1, 2] - 1. Two input channels summed, w = [[[1]], [[10]]]:
// [1 + 30, 2 + 40].
// CHECK: @channels result 0: tensor<1x2x3xf32> = {{\[\[\[}}1.0, 3.0, 2.0], [3.0, 1.0, -4.0]]]
// CHECK: @channels result 1: tensor<1x2x3xf32> = {{\[\[\[}}1.5, 2.5, 0.5], [-1.0, 0.0, 1.0]]]
// CHECK: @channels result 2: tensor<1x1x2xf32> = {{\[\[\[}}31.0, 42.0]]]
// CHECK: @channels result 3: tensor<1x4x2xf32> = {{\[\[\[}}1.0, 2.0], [2.0, 4.0], [9.0, 12.0], [12.0, 16.0]]]
module {
  func.func @channels() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : tensor<1x2x2xf32>
    %wg = arith.constant dense<[[[1.0, 1.0]], [[1.0, -1.0]]]> : tensor<2x1x2xf32>
    %x1 = arith.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
    %w2 = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0]]]> : tensor<1x2x2xf32>
    %b = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
    %ws = arith.constant dense<[[[1.0]], [[10.0]]]> : tensor<2x1x1xf32>
    %0 = onnx.node "ConvTranspose" opset 11 (%x, %wg) {group = 2 : i64} : (tensor<1x2x2xf32>, tensor<2x1x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ConvTranspose" opset 11 (%x1, %w2, %b) {} : (tensor<1x1x2xf32>, tensor<1x2x2xf32>, tensor<2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ConvTranspose" opset 1 (%x, %ws) {} : (tensor<1x2x2xf32>, tensor<2x1x1xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %wm = arith.constant dense<[[[1.0], [2.0]], [[3.0], [4.0]]]> : tensor<2x2x1xf32>
    %3 = onnx.node "ConvTranspose" opset 11 (%x, %wm) {group = 2 : i64} : (tensor<1x2x2xf32>, tensor<2x2x1xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [1, 2, 3], w = [1, 1, 1], stride 2: the natural output (7) is [1, 1, 1 + 2, 2, 2 + 3,
// 3, 3]. output_shape [6]: total 1, NOTSET puts the odd one at the begin (crop [0]), and
// SAME_UPPER at the end (crop [6]). output_shape [1, 1, 8] (N and C given too): total -1,
// begin -1 - (-1 // 2) = 0, end -1: one zero appended. auto_pad without output_shape aims at
// in * stride = 6: SAME_UPPER crops the end, SAME_LOWER the begin.
// CHECK: @output_shape result 0: tensor<1x1x6xf32> = {{\[\[\[}}1.0, 3.0, 2.0, 5.0, 3.0, 3.0]]]
// CHECK: @output_shape result 1: tensor<1x1x6xf32> = {{\[\[\[}}1.0, 1.0, 3.0, 2.0, 5.0, 3.0]]]
// CHECK: @output_shape result 2: tensor<1x1x8xf32> = {{\[\[\[}}1.0, 1.0, 3.0, 2.0, 5.0, 3.0, 3.0, 0.0]]]
// CHECK: @output_shape result 3: tensor<1x1x6xf32> = {{\[\[\[}}1.0, 1.0, 3.0, 2.0, 5.0, 3.0]]]
// CHECK: @output_shape result 4: tensor<1x1x6xf32> = {{\[\[\[}}1.0, 3.0, 2.0, 5.0, 3.0, 3.0]]]
module {
  func.func @output_shape() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf32>
    %w = arith.constant dense<[[[1.0, 1.0, 1.0]]]> : tensor<1x1x3xf32>
    %0 = onnx.node "ConvTranspose" opset 11 (%x, %w) {strides = array<i64: 2>, output_shape = array<i64: 6>} : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ConvTranspose" opset 11 (%x, %w) {strides = array<i64: 2>, output_shape = array<i64: 6>, auto_pad = "SAME_UPPER"} : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ConvTranspose" opset 11 (%x, %w) {strides = array<i64: 2>, output_shape = array<i64: 1, 1, 8>} : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "ConvTranspose" opset 11 (%x, %w) {strides = array<i64: 2>, auto_pad = "SAME_UPPER"} : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "ConvTranspose" opset 11 (%x, %w) {strides = array<i64: 2>, auto_pad = "SAME_LOWER"} : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// 2-d: x = [[1, 2], [3, 4]], w = [[1, 2], [3, 4]] (the outer products summed at offsets):
// [[1, 2 + 2, 4], [3 + 3, 4 + 6 + 6 + 4, 8 + 8], [9, 12 + 12, 16]]. ONNX's test
// convtranspose_pads: x = 0..8 (3x3), w = ones (1 x 2 x 3 x 3), strides [3, 2],
// pads [1, 2, 1, 2]: two identical 7x3 channels.
// CHECK: @two_d result 0: tensor<1x1x3x3xf32> = {{\[\[\[\[}}1.0, 4.0, 4.0], [6.0, 20.0, 16.0], [9.0, 24.0, 16.0]]]]
// CHECK: @two_d result 1: tensor<1x2x7x3xf32> = {{\[\[\[\[}}1.0, 1.0, 3.0], [1.0, 1.0, 3.0], [7.0, 4.0, 9.0], [7.0, 4.0, 9.0], [7.0, 4.0, 9.0], [13.0, 7.0, 15.0], [13.0, 7.0, 15.0]], {{\[\[}}1.0, 1.0, 3.0], [1.0, 1.0, 3.0], [7.0, 4.0, 9.0], [7.0, 4.0, 9.0], [7.0, 4.0, 9.0], [13.0, 7.0, 15.0], [13.0, 7.0, 15.0]]]]
module {
  func.func @two_d() -> (tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
    %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
    %x3 = arith.constant dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]]> : tensor<1x1x3x3xf32>
    %ones = arith.constant dense<1.0> : tensor<1x2x3x3xf32>
    %0 = onnx.node "ConvTranspose" opset 11 (%x, %w) {} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ConvTranspose" opset 11 (%x3, %ones) {strides = array<i64: 3, 2>, pads = array<i64: 1, 2, 1, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
