// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Pooling.cpp on constants, evaluated: AveragePool (pads with and
// without count_include_pad, ceil_mode, a window starting in the right padding dropped,
// auto_pad, dilations), MaxPool with Indices (padding below negative values, dilations with
// ceil_mode, storage_order, ties, integers), LpPool (p = 1, 2, 3; opset 18's ceil_mode and
// dilations), the global pools and MaxUnpool. Expected values from a python3 loop over the
// windows following ONNX's spec: out = floor or ceil((in + pads - ((k - 1) d + 1)) / s) + 1,
// less a last window that would start in the right padding; an average divides by the taps
// inside the input (count_include_pad 0) or inside the explicitly padded input (1).

// x = [1, 2, 3, 4, 5]. k 2, s 2: [1.5, 3.5]; with ceil_mode a third window [5] (divisor 1).
// k 3, s 2, pads [1, 1]: windows [p, 1, 2], [2, 3, 4], [4, 5, p]: count_include_pad 0 ->
// [3 / 2, 9 / 3, 9 / 2]; 1 -> [3 / 3, 3, 9 / 3]. pads [1, 0] with ceil_mode: the last window
// [4, 5, beyond the padded input] divides by 2 either way: [1.5, 3, 4.5] and [1, 3, 4.5].
// CHECK: @average result 0: tensor<1x1x2xf32> = {{\[\[\[}}1.5, 3.5]]]
// CHECK: @average result 1: tensor<1x1x3xf32> = {{\[\[\[}}1.5, 3.5, 5.0]]]
// CHECK: @average result 2: tensor<1x1x3xf32> = {{\[\[\[}}1.5, 3.0, 4.5]]]
// CHECK: @average result 3: tensor<1x1x3xf32> = {{\[\[\[}}1.0, 3.0, 3.0]]]
// CHECK: @average result 4: tensor<1x1x3xf32> = {{\[\[\[}}1.5, 3.0, 4.5]]]
// CHECK: @average result 5: tensor<1x1x3xf32> = {{\[\[\[}}1.0, 3.0, 4.5]]]
module {
  func.func @average() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0]]]> : tensor<1x1x5xf32>
    %0 = onnx.node "AveragePool" opset 19 (%x) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x1x5xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "AveragePool" opset 19 (%x) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, ceil_mode = 1 : i64} : (tensor<1x1x5xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "AveragePool" opset 19 (%x) {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x5xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "AveragePool" opset 19 (%x) {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 1, 1>, count_include_pad = 1 : i64} : (tensor<1x1x5xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "AveragePool" opset 19 (%x) {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 1, 0>, ceil_mode = 1 : i64} : (tensor<1x1x5xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "AveragePool" opset 19 (%x) {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 1, 0>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<1x1x5xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [1, 2, 3], k 2, s 2, pads [1, 1], ceil_mode: ceil((3 + 2 - 2) / 2) + 1 = 3 windows, but
// the third would start at 3, in the right padding: dropped. [p, 1], [2, 3] -> [1, 2.5]
// (count_include_pad 0), [0.5, 2.5] (1). auto_pad on [1, 2, 3, 4], k 2: SAME_UPPER pads
// [0, 1] -> [1.5, 2.5, 3.5, 4 / 1]; SAME_LOWER pads [1, 0], counting the pad -> [1 / 2, ...].
// Dilation 2 (opset 19), k 2 on [1, 2, 3, 4, 5]: (x[i] + x[i + 2]) / 2 = [2, 3, 4].
// 2-d [[1, 2], [3, 4]], k 2x2, pads 1: the 9 windows average the values they cover.
// CHECK: @average_windows result 0: tensor<1x1x2xf32> = {{\[\[\[}}1.0, 2.5]]]
// CHECK: @average_windows result 1: tensor<1x1x2xf32> = {{\[\[\[}}0.5, 2.5]]]
// CHECK: @average_windows result 2: tensor<1x1x4xf32> = {{\[\[\[}}1.5, 2.5, 3.5, 4.0]]]
// CHECK: @average_windows result 3: tensor<1x1x4xf32> = {{\[\[\[}}0.5, 1.5, 2.5, 3.5]]]
// CHECK: @average_windows result 4: tensor<1x1x3xf32> = {{\[\[\[}}2.0, 3.0, 4.0]]]
// CHECK: @average_windows result 5: tensor<1x1x3x3xf32> = {{\[\[\[\[}}1.0, 1.5, 2.0], [2.0, 2.5, 3.0], [3.0, 3.5, 4.0]]]]
module {
  func.func @average_windows() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x3 = arith.constant dense<[[[1.0, 2.0, 3.0]]]> : tensor<1x1x3xf32>
    %x4 = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0]]]> : tensor<1x1x4xf32>
    %x5 = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0]]]> : tensor<1x1x5xf32>
    %x2 = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
    %0 = onnx.node "AveragePool" opset 11 (%x3) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, pads = array<i64: 1, 1>, ceil_mode = 1 : i64} : (tensor<1x1x3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "AveragePool" opset 11 (%x3) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, pads = array<i64: 1, 1>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<1x1x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "AveragePool" opset 11 (%x4) {kernel_shape = array<i64: 2>, auto_pad = "SAME_UPPER"} : (tensor<1x1x4xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "AveragePool" opset 11 (%x4) {kernel_shape = array<i64: 2>, auto_pad = "SAME_LOWER", count_include_pad = 1 : i64} : (tensor<1x1x4xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "AveragePool" opset 19 (%x5) {kernel_shape = array<i64: 2>, dilations = array<i64: 2>} : (tensor<1x1x5xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "AveragePool" opset 7 (%x2) {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x2x2xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// MaxPool, Indices flat over N x C x H x W. x = 1..16 (4x4), k 2, s 2: [[6, 8], [14, 16]] at
// [[5, 7], [13, 15]]. x = -1..-9 (3x3), pads 1: the padding never wins: [[-1, -2], [-4, -5]]
// at [[0, 1], [3, 4]] (unpadded positions).
// CHECK: @max result 0: tensor<1x1x2x2xf32> = {{\[\[\[\[}}6.0, 8.0], [14.0, 16.0]]]]
// CHECK: @max result 1: tensor<1x1x2x2xi64> = {{\[\[\[\[}}5, 7], [13, 15]]]]
// CHECK: @max result 2: tensor<1x1x2x2xf32> = {{\[\[\[\[}}-1.0, -2.0], [-4.0, -5.0]]]]
// CHECK: @max result 3: tensor<1x1x2x2xi64> = {{\[\[\[\[}}0, 1], [3, 4]]]]
module {
  func.func @max() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]]]> : tensor<1x1x4x4xf32>
    %n = arith.constant dense<[[[[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0], [-7.0, -8.0, -9.0]]]]> : tensor<1x1x3x3xf32>
    %0:2 = onnx.node "MaxPool" opset 12 (%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (!onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    %1:2 = onnx.node "MaxPool" opset 12 (%n) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xf32>) -> (!onnx.value, !onnx.value) loc("b"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %1#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [3, 1, 4, 1, 5, 9, 2, 6], k 2, dilation 2 (taps i, i + 2), s 3: windows at 0 and 3
// -> max(3, 4), max(1, 9) at indices 2, 5; ceil_mode adds the window at 6 (taps 6 and 8,
// beyond the input) -> 2 at 6.
// Two channels [[1, 5, 2], [3, 4, 7]] and [[0, 0, 0], [0, 9, 0]], k 2x2, s 1: maxima 5, 7
// and 9, 9; row-major indices (channel 1 starts at 6) [1, 5] and [6 + 4, 6 + 4];
// storage_order 1 (column-major, offset = h + w * H): [0 + 1 * 2, 1 + 2 * 2] and [6 + 3, 6 + 3].
// Ties take the first: [2, 7, 7, 1], k 3 -> 7 at index 1 twice. Integers (i8) pad with the
// lowest value: [-5, -7], k 2, pads 1 -> [-5, -5, -7].
// CHECK: @max_more result 0: tensor<1x1x2xf32> = {{\[\[\[}}4.0, 9.0]]]
// CHECK: @max_more result 1: tensor<1x1x2xi64> = {{\[\[\[}}2, 5]]]
// CHECK: @max_more result 2: tensor<1x1x3xf32> = {{\[\[\[}}4.0, 9.0, 2.0]]]
// CHECK: @max_more result 3: tensor<1x1x3xi64> = {{\[\[\[}}2, 5, 6]]]
// CHECK: @max_more result 4: tensor<1x2x1x2xf32> = {{\[\[\[\[}}5.0, 7.0]], {{\[\[}}9.0, 9.0]]]]
// CHECK: @max_more result 5: tensor<1x2x1x2xi64> = {{\[\[\[\[}}1, 5]], {{\[\[}}10, 10]]]]
// CHECK: @max_more result 6: tensor<1x2x1x2xi64> = {{\[\[\[\[}}2, 5]], {{\[\[}}9, 9]]]]
// CHECK: @max_more result 7: tensor<1x1x2xi64> = {{\[\[\[}}1, 1]]]
// CHECK: @max_more result 8: tensor<1x1x3xi8> = {{\[\[\[}}-5, -5, -7]]]
module {
  func.func @max_more() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]]]> : tensor<1x1x8xf32>
    %c = arith.constant dense<[[[[1.0, 5.0, 2.0], [3.0, 4.0, 7.0]], [[0.0, 0.0, 0.0], [0.0, 9.0, 0.0]]]]> : tensor<1x2x2x3xf32>
    %t = arith.constant dense<[[[2.0, 7.0, 7.0, 1.0]]]> : tensor<1x1x4xf32>
    %i = arith.constant dense<[[[-5, -7]]]> : tensor<1x1x2xi8>
    %0:2 = onnx.node "MaxPool" opset 12 (%x) {kernel_shape = array<i64: 2>, strides = array<i64: 3>, dilations = array<i64: 2>} : (tensor<1x1x8xf32>) -> (!onnx.value, !onnx.value) loc("a"("m.onnx":0:0))
    %1:2 = onnx.node "MaxPool" opset 12 (%x) {kernel_shape = array<i64: 2>, strides = array<i64: 3>, dilations = array<i64: 2>, ceil_mode = 1 : i64} : (tensor<1x1x8xf32>) -> (!onnx.value, !onnx.value) loc("b"("m.onnx":0:0))
    %2:2 = onnx.node "MaxPool" opset 12 (%c) {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x2x3xf32>) -> (!onnx.value, !onnx.value) loc("c"("m.onnx":0:0))
    %3:2 = onnx.node "MaxPool" opset 12 (%c) {kernel_shape = array<i64: 2, 2>, storage_order = 1 : i64} : (tensor<1x2x2x3xf32>) -> (!onnx.value, !onnx.value) loc("d"("m.onnx":0:0))
    %4:2 = onnx.node "MaxPool" opset 12 (%t) {kernel_shape = array<i64: 3>} : (tensor<1x1x4xf32>) -> (!onnx.value, !onnx.value) loc("e"("m.onnx":0:0))
    %5 = onnx.node "MaxPool" opset 12 (%i) {kernel_shape = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x2xi8>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#1, %4#1, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// LpPool of [3, -4, 0, 12], k 2, s 2: p 2 -> [sqrt(9 + 16), 12]; p 1 -> [3 + 4, 12];
// p 3 -> [(27 + 64)^(1/3) = 4.497941, 12 (to f32 rounding of 1/3)]. Opset 18: ceil_mode
// on [3, 4, 12] keeps a window [12]; dilation 2 on [3, 1, 4, 2]: [sqrt(9 + 16),
// sqrt(1 + 4) = 2.236068].
// CHECK: @lp result 0: tensor<1x1x2xf32> = {{\[\[\[}}5.0, 12.0]]]
// CHECK: @lp result 1: tensor<1x1x2xf32> = {{\[\[\[}}7.0, 12.0]]]
// CHECK: @lp result 2: tensor<1x1x2xf32> = {{\[\[\[}}4.49794{{[0-9]*}}, {{12\.0|12\.00000[0-9]*|11\.99999[0-9]*}}]]]
// CHECK: @lp result 3: tensor<1x1x2xf32> = {{\[\[\[}}5.0, 12.0]]]
// CHECK: @lp result 4: tensor<1x1x2xf32> = {{\[\[\[}}5.0, 2.23606{{[0-9]*}}]]]
module {
  func.func @lp() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[3.0, -4.0, 0.0, 12.0]]]> : tensor<1x1x4xf32>
    %y = arith.constant dense<[[[3.0, 4.0, 12.0]]]> : tensor<1x1x3xf32>
    %z = arith.constant dense<[[[3.0, 1.0, 4.0, 2.0]]]> : tensor<1x1x4xf32>
    %0 = onnx.node "LpPool" opset 11 (%x) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x1x4xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "LpPool" opset 11 (%x) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, p = 1 : i64} : (tensor<1x1x4xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "LpPool" opset 11 (%x) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, p = 3 : i64} : (tensor<1x1x4xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "LpPool" opset 18 (%y) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, ceil_mode = 1 : i64} : (tensor<1x1x3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "LpPool" opset 18 (%z) {kernel_shape = array<i64: 2>, dilations = array<i64: 2>} : (tensor<1x1x4xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Channels [[1, 2], [3, 4]] and [[-1, -2], [5, -6]] over all spatial dims (kept as 1):
// average [2.5, -1]; max [4, 5]; Lp p 2 [sqrt 30 = 5.477226, sqrt 66 = 8.124038];
// p 1 [10, 14]; p 3 [100^(1/3) = 4.641589, 350^(1/3) = 7.047299].
// CHECK: @global result 0: tensor<1x2x1x1xf32> = {{\[\[\[\[}}2.5]], {{\[\[}}-1.0]]]]
// CHECK: @global result 1: tensor<1x2x1x1xf32> = {{\[\[\[\[}}4.0]], {{\[\[}}5.0]]]]
// CHECK: @global result 2: tensor<1x2x1x1xf32> = {{\[\[\[\[}}5.47722{{[0-9]*}}]], {{\[\[}}8.12403{{[0-9]*}}]]]]
// CHECK: @global result 3: tensor<1x2x1x1xf32> = {{\[\[\[\[}}10.0]], {{\[\[}}14.0]]]]
// CHECK: @global result 4: tensor<1x2x1x1xf32> = {{\[\[\[\[}}4.64158{{[0-9]*}}]], {{\[\[}}7.04729{{[0-9]*}}]]]]
module {
  func.func @global() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[-1.0, -2.0], [5.0, -6.0]]]]> : tensor<1x2x2x2xf32>
    %0 = onnx.node "GlobalAveragePool" opset 1 (%x) {} : (tensor<1x2x2x2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "GlobalMaxPool" opset 1 (%x) {} : (tensor<1x2x2x2xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "GlobalLpPool" opset 2 (%x) {} : (tensor<1x2x2x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "GlobalLpPool" opset 2 (%x) {p = 1 : i64} : (tensor<1x2x2x2xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "GlobalLpPool" opset 2 (%x) {p = 3 : i64} : (tensor<1x2x2x2xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// MaxUnpool (ONNX's tests maxunpool_export_without/with_output_shape): [[5, 6], [7, 8]] at
// flat indices [[5, 7], [13, 15]] of the inferred (2 - 1) * 2 + 2 = 4x4 result; output_shape
// [1, 1, 5, 5] zero-pads that at the end of each dim. 1-d with pads: [5, 6] at [0, 2],
// k 3, s 2, pads [1, 1]: inferred (2 - 1) * 2 - 2 + 3 = 3 -> [5, 0, 6].
// CHECK: @unpool result 0: tensor<1x1x4x4xf32> = {{\[\[\[\[}}0.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 6.0], [0.0, 0.0, 0.0, 0.0], [0.0, 7.0, 0.0, 8.0]]]]
// CHECK: @unpool result 1: tensor<1x1x5x5xf32> = {{\[\[\[\[}}0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 5.0, 0.0, 6.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 7.0, 0.0, 8.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]]]]
// CHECK: @unpool result 2: tensor<1x1x3xf32> = {{\[\[\[}}5.0, 0.0, 6.0]]]
module {
  func.func @unpool() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x1x2x2xf32>
    %i = arith.constant dense<[[[[5, 7], [13, 15]]]]> : tensor<1x1x2x2xi64>
    %shape = arith.constant dense<[1, 1, 5, 5]> : tensor<4xi64>
    %y = arith.constant dense<[[[5.0, 6.0]]]> : tensor<1x1x2xf32>
    %j = arith.constant dense<[[[0, 2]]]> : tensor<1x1x2xi64>
    %0 = onnx.node "MaxUnpool" opset 11 (%x, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "MaxUnpool" opset 11 (%x, %i, %shape) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "MaxUnpool" opset 11 (%y, %j) {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x1x2xf32>, tensor<1x1x2xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}
