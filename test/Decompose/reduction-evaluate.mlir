// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Reduction.cpp on constants, evaluated: axes as an attribute
// (older opsets) and as an input (ReduceSum 13, the others 18), negative axes, keepdims,
// absent and empty axes (reduce all) and noop_with_empty_axes (reduce none, the elementwise
// part still applies), integer mean and L2 (truncated), booleans, LogSumExp's shift with
// -inf and large values, ArgMax/ArgMin with keepdims and select_last_index. Expected values
// by hand (logs and roots with python3's math module, to 5-6 digits).

// x = [[1, 2, 3], [4, 5, 6]]. ReduceSum 13: axes [1] -> [[6], [15]] (keepdims 1) or
// [6, 15]; axes [-2] -> [[5, 7, 9]]; no axes -> [[21]]; empty axes, keepdims 0 -> 21 (0-d);
// no axes with noop_with_empty_axes -> x. ReduceSum 11 (attribute) axes [0], keepdims 0 ->
// [5, 7, 9]; ReduceSum 1 without axes -> [[21]].
// CHECK: @sum result 0: tensor<2x1xf32> = {{\[\[}}6.0], [15.0]]
// CHECK: @sum result 1: tensor<2xf32> = [6.0, 15.0]
// CHECK: @sum result 2: tensor<1x3xf32> = {{\[\[}}5.0, 7.0, 9.0]]
// CHECK: @sum result 3: tensor<1x1xf32> = {{\[\[}}21.0]]
// CHECK: @sum result 4: tensor<f32> = 21.0
// CHECK: @sum result 5: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
// CHECK: @sum result 6: tensor<3xf32> = [5.0, 7.0, 9.0]
// CHECK: @sum result 7: tensor<1x1xf32> = {{\[\[}}21.0]]
module {
  func.func @sum() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %a1 = arith.constant dense<[1]> : tensor<1xi64>
    %am2 = arith.constant dense<[-2]> : tensor<1xi64>
    %empty = arith.constant dense<> : tensor<0xi64>
    %0 = onnx.node "ReduceSum" opset 13 (%x, %a1) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ReduceSum" opset 13 (%x, %a1) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ReduceSum" opset 13 (%x, %am2) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "ReduceSum" opset 13 (%x) {} : (tensor<2x3xf32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "ReduceSum" opset 13 (%x, %empty) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<0xi64>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "ReduceSum" opset 13 (%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    %6 = onnx.node "ReduceSum" opset 11 (%x) {axes = array<i64: 0>, keepdims = 0 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    %7 = onnx.node "ReduceSum" opset 1 (%x) {} : (tensor<2x3xf32>) -> !onnx.value loc("h"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5, %6, %7 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [[1, 2, 3], [4, 5, 6]]: ReduceMean 18 axes [1] -> [[2], [5]]; ReduceMean 13 axes
// [0, 1], keepdims 0 -> 3.5; i32 [[1, 2], [-3, -4]] along axis 1 -> 3 / 2 and -7 / 2
// truncated toward zero: [1, -3]. ReduceMax 18 axes [0] -> [[4, 5, 6]]; ReduceMin 18 axes
// [1], keepdims 0 -> [1, 4]; ReduceProd 18 over everything -> 720, along axis 1 -> [6, 120].
// Booleans (opset 20) [[T, F], [F, F]] along axis 1: max = or -> [T, F], min = and -> [F, F].
// CHECK: @mean_max_min_prod result 0: tensor<2x1xf32> = {{\[\[}}2.0], [5.0]]
// CHECK: @mean_max_min_prod result 1: tensor<f32> = 3.5
// CHECK: @mean_max_min_prod result 2: tensor<2xi32> = [1, -3]
// CHECK: @mean_max_min_prod result 3: tensor<1x3xf32> = {{\[\[}}4.0, 5.0, 6.0]]
// CHECK: @mean_max_min_prod result 4: tensor<2xf32> = [1.0, 4.0]
// CHECK: @mean_max_min_prod result 5: tensor<f32> = 720.0
// CHECK: @mean_max_min_prod result 6: tensor<2x1xf32> = {{\[\[}}6.0], [120.0]]
// CHECK: @mean_max_min_prod result 7: tensor<2xi1> = [true, false]
// CHECK: @mean_max_min_prod result 8: tensor<2xi1> = [false, false]
module {
  func.func @mean_max_min_prod() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %i = arith.constant dense<[[1, 2], [-3, -4]]> : tensor<2x2xi32>
    %b = arith.constant dense<[[true, false], [false, false]]> : tensor<2x2xi1>
    %a0 = arith.constant dense<[0]> : tensor<1xi64>
    %a1 = arith.constant dense<[1]> : tensor<1xi64>
    %0 = onnx.node "ReduceMean" opset 18 (%x, %a1) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ReduceMean" opset 13 (%x) {axes = array<i64: 0, 1>, keepdims = 0 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ReduceMean" opset 18 (%i, %a1) {keepdims = 0 : i64} : (tensor<2x2xi32>, tensor<1xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "ReduceMax" opset 18 (%x, %a0) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "ReduceMin" opset 18 (%x, %a1) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "ReduceProd" opset 18 (%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    %6 = onnx.node "ReduceProd" opset 18 (%x, %a1) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("g"("m.onnx":0:0))
    %7 = onnx.node "ReduceMax" opset 20 (%b, %a1) {keepdims = 0 : i64} : (tensor<2x2xi1>, tensor<1xi64>) -> !onnx.value loc("h"("m.onnx":0:0))
    %8 = onnx.node "ReduceMin" opset 20 (%b, %a1) {keepdims = 0 : i64} : (tensor<2x2xi1>, tensor<1xi64>) -> !onnx.value loc("i"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5, %6, %7, %8 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// y = [[1, -2], [-3, 4]] along axis 1 (keepdims 0): L1 = sum |y| -> [3, 7]; L2 =
// sqrt(sum y^2) -> [sqrt 5 = 2.236068, 5]; SumSquare -> [5, 25]. Empty axes with
// noop_with_empty_axes reduce nothing: L1 -> |y|, SumSquare -> y^2. Integers: L2 of i32
// [[3, 4], [1, 1]] -> [5, sqrt 2 truncated = 1].
// CHECK: @norms result 0: tensor<2xf32> = [3.0, 7.0]
// CHECK: @norms result 1: tensor<2xf32> = [2.23606{{[0-9]*}}, 5.0]
// CHECK: @norms result 2: tensor<2xf32> = [5.0, 25.0]
// CHECK: @norms result 3: tensor<2x2xf32> = {{\[\[}}1.0, 2.0], [3.0, 4.0]]
// CHECK: @norms result 4: tensor<2x2xf32> = {{\[\[}}1.0, 4.0], [9.0, 16.0]]
// CHECK: @norms result 5: tensor<2xi32> = [5, 1]
module {
  func.func @norms() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %y = arith.constant dense<[[1.0, -2.0], [-3.0, 4.0]]> : tensor<2x2xf32>
    %i = arith.constant dense<[[3, 4], [1, 1]]> : tensor<2x2xi32>
    %a1 = arith.constant dense<[1]> : tensor<1xi64>
    %empty = arith.constant dense<> : tensor<0xi64>
    %0 = onnx.node "ReduceL1" opset 18 (%y, %a1) {keepdims = 0 : i64} : (tensor<2x2xf32>, tensor<1xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ReduceL2" opset 18 (%y, %a1) {keepdims = 0 : i64} : (tensor<2x2xf32>, tensor<1xi64>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ReduceSumSquare" opset 18 (%y, %a1) {keepdims = 0 : i64} : (tensor<2x2xf32>, tensor<1xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "ReduceL1" opset 18 (%y, %empty) {noop_with_empty_axes = 1 : i64} : (tensor<2x2xf32>, tensor<0xi64>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "ReduceSumSquare" opset 18 (%y, %empty) {noop_with_empty_axes = 1 : i64} : (tensor<2x2xf32>, tensor<0xi64>) -> !onnx.value loc("e"("m.onnx":0:0))
    %5 = onnx.node "ReduceL2" opset 13 (%i) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<2x2xi32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [[1, 2, 3], [4, 5, 6]] along axis 1: LogSum = ln [6, 15] = [1.791759, 2.708050];
// LogSumExp = ln(e + e^2 + e^3) + [0, 3] = [3.407606, 6.407606]. Rows [0, -inf] -> 0,
// [-inf, -inf] -> -inf (no NaN from -inf - -inf), [1000, 1000] -> 1000 + ln 2 (no overflow).
// CHECK: @logs result 0: tensor<2xf32> = [1.79175{{[0-9]*}}, 2.70805{{[0-9]*}}]
// CHECK: @logs result 1: tensor<2x1xf32> = {{\[\[}}3.40760{{[0-9]*}}], [6.40760{{[0-9]*}}]]
// CHECK: @logs result 2: tensor<3xf32> = [0.0, -inf, 1000.69{{[0-9]*}}]
module {
  func.func @logs() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %z = arith.constant dense<[[0.0, 0xFF800000], [0xFF800000, 0xFF800000], [1000.0, 1000.0]]> : tensor<3x2xf32>
    %a1 = arith.constant dense<[1]> : tensor<1xi64>
    %0 = onnx.node "ReduceLogSum" opset 18 (%x, %a1) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ReduceLogSumExp" opset 18 (%x, %a1) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ReduceLogSumExp" opset 13 (%z) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<3x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// x = [[1, 3, 3], [2, 0, 2]]: ArgMax along axis 1 (keepdims) takes the first maximum
// [[1], [0]], with select_last_index the last [[2], [2]]; ArgMin along axis 0 without
// keepdims (columns [1, 2], [3, 0], [3, 2]) [0, 1, 1]; ArgMin along axis 1 of
// [[1, 1, 0], [0, 0, 5]] with select_last_index [2, 1]; ArgMax opset 11 (default axis 0)
// of x -> [[1, 0, 0]].
// CHECK: @arg result 0: tensor<2x1xi64> = {{\[\[}}1], [0]]
// CHECK: @arg result 1: tensor<2x1xi64> = {{\[\[}}2], [2]]
// CHECK: @arg result 2: tensor<3xi64> = [0, 1, 1]
// CHECK: @arg result 3: tensor<2xi64> = [2, 1]
// CHECK: @arg result 4: tensor<1x3xi64> = {{\[\[}}1, 0, 0]]
module {
  func.func @arg() -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
    %x = arith.constant dense<[[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]]> : tensor<2x3xf32>
    %y = arith.constant dense<[[1, 1, 0], [0, 0, 5]]> : tensor<2x3xi32>
    %0 = onnx.node "ArgMax" opset 13 (%x) {axis = 1 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "ArgMax" opset 13 (%x) {axis = 1 : i64, select_last_index = 1 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    %2 = onnx.node "ArgMin" opset 13 (%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    %3 = onnx.node "ArgMin" opset 13 (%y) {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3xi32>) -> !onnx.value loc("d"("m.onnx":0:0))
    %4 = onnx.node "ArgMax" opset 11 (%x) {} : (tensor<2x3xf32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}
