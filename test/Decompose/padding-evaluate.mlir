// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The Pad rules of lib/Decompose/Padding.cpp on constants, evaluated: constant, reflect, edge
// and wrap modes, negative pads (crops), the axes input (opset 18) and Pad-2's attributes.
// Expected values by hand, with numpy.pad's semantics (which ONNX's reference uses).

// [[1, 2], [3, 4]], pads [1, 0, 0, 1] (begin of axes 0, 1, then end), constant 9: a row of 9s
// in front, a column of 9s behind.
// CHECK: @pad result 0: tensor<3x3xf32> = {{\[\[}}9.0, 9.0, 9.0], [1.0, 2.0, 9.0], [3.0, 4.0, 9.0]]
// reflect [1, 2, 3] by 2 and 2: mirrored without repeating the edge.
// CHECK: @pad result 1: tensor<7xf32> = [3.0, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0]
// reflect by 4 in front (more than D - 1 = 2): the reflection repeats with period 2 (D - 1) = 4.
// CHECK: @pad result 2: tensor<7xf32> = [1.0, 2.0, 3.0, 2.0, 1.0, 2.0, 3.0]
// edge, pads [0, 1, 1, 1]: columns 0 and 1 repeated outwards, then row 1 repeated below.
// CHECK: @pad result 3: tensor<3x4xf32> = {{\[\[}}1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 4.0, 4.0], [3.0, 3.0, 4.0, 4.0]]
// wrap [1, 2, 3] by 2 and 1: the last two elements in front, the first one behind.
// CHECK: @pad result 4: tensor<6xf32> = [2.0, 3.0, 1.0, 2.0, 3.0, 1.0]
module {
  func.func @pad() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %m = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %v = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %p0 = arith.constant dense<[1, 0, 0, 1]> : tensor<4xi64>
    %nine = arith.constant dense<9.0> : tensor<f32>
    %p1 = arith.constant dense<[2, 2]> : tensor<2xi64>
    %p2 = arith.constant dense<[4, 0]> : tensor<2xi64>
    %p3 = arith.constant dense<[0, 1, 1, 1]> : tensor<4xi64>
    %p4 = arith.constant dense<[2, 1]> : tensor<2xi64>
    %0 = onnx.node "Pad" opset 13 (%m, %p0, %nine) {} : (tensor<2x2xf32>, tensor<4xi64>, tensor<f32>) -> !onnx.value loc("p0"("m.onnx":0:0))
    %1 = onnx.node "Pad" opset 13 (%v, %p1) {mode = "reflect"} : (tensor<3xf32>, tensor<2xi64>) -> !onnx.value loc("p1"("m.onnx":0:0))
    %2 = onnx.node "Pad" opset 13 (%v, %p2) {mode = "reflect"} : (tensor<3xf32>, tensor<2xi64>) -> !onnx.value loc("p2"("m.onnx":0:0))
    %3 = onnx.node "Pad" opset 13 (%m, %p3) {mode = "edge"} : (tensor<2x2xf32>, tensor<4xi64>) -> !onnx.value loc("p3"("m.onnx":0:0))
    %4 = onnx.node "Pad" opset 19 (%v, %p4) {mode = "wrap"} : (tensor<3xf32>, tensor<2xi64>) -> !onnx.value loc("p4"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Negative pads crop: [1, 2, 3, 4] with [-1, 1] drops the first element, then adds a 0.
// CHECK: @pad_more result 0: tensor<4xf32> = [2.0, 3.0, 4.0, 0.0]
// A crop in edge mode: [-2, 2] keeps [3, 4], then repeats the 4.
// CHECK: @pad_more result 1: tensor<4xf32> = [3.0, 4.0, 4.0, 4.0]
// Opset 18's axes input [-1]: pads [1, 1] reflect only the columns of [[1, 2, 3], [4, 5, 6]].
// CHECK: @pad_more result 2: tensor<2x5xf32> = {{\[\[}}2.0, 1.0, 2.0, 3.0, 2.0], [5.0, 4.0, 5.0, 6.0, 5.0]]
// reflect of a single element repeats it (numpy.pad does the same).
// CHECK: @pad_more result 3: tensor<3xf32> = [7.0, 7.0, 7.0]
// An i32 tensor padded with the constant 5.
// CHECK: @pad_more result 4: tensor<3xi32> = [5, 1, 2]
// Pad-2: pads and value are attributes: pads [1, 0], value 5.5.
// CHECK: @pad_more result 5: tensor<3xf32> = [5.5, 1.0, 2.0]
// Pad-2 edge mode: pads [0, 2].
// CHECK: @pad_more result 6: tensor<4xf32> = [1.0, 2.0, 2.0, 2.0]
module {
  func.func @pad_more() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>) {
    %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %s = arith.constant dense<[7.0]> : tensor<1xf32>
    %i = arith.constant dense<[1, 2]> : tensor<2xi32>
    %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %p0 = arith.constant dense<[-1, 1]> : tensor<2xi64>
    %p1 = arith.constant dense<[-2, 2]> : tensor<2xi64>
    %p2 = arith.constant dense<[1, 1]> : tensor<2xi64>
    %p4 = arith.constant dense<[1, 0]> : tensor<2xi64>
    %five = arith.constant dense<5> : tensor<i32>
    %axes = arith.constant dense<[-1]> : tensor<1xi64>
    %none = onnx.none
    %0 = onnx.node "Pad" opset 13 (%v, %p0) {} : (tensor<4xf32>, tensor<2xi64>) -> !onnx.value loc("p0"("m.onnx":0:0))
    %1 = onnx.node "Pad" opset 13 (%v, %p1) {mode = "edge"} : (tensor<4xf32>, tensor<2xi64>) -> !onnx.value loc("p1"("m.onnx":0:0))
    %2 = onnx.node "Pad" opset 18 (%m, %p2, %none, %axes) {mode = "reflect"} : (tensor<2x3xf32>, tensor<2xi64>, none, tensor<1xi64>) -> !onnx.value loc("p2"("m.onnx":0:0))
    %3 = onnx.node "Pad" opset 13 (%s, %p2) {mode = "reflect"} : (tensor<1xf32>, tensor<2xi64>) -> !onnx.value loc("p3"("m.onnx":0:0))
    %4 = onnx.node "Pad" opset 13 (%i, %p4, %five) {} : (tensor<2xi32>, tensor<2xi64>, tensor<i32>) -> !onnx.value loc("p4"("m.onnx":0:0))
    %5 = onnx.node "Pad" opset 2 (%w) {pads = array<i64: 1, 0>, value = 5.5 : f32} : (tensor<2xf32>) -> !onnx.value loc("p5"("m.onnx":0:0))
    %6 = onnx.node "Pad" opset 2 (%w) {pads = array<i64: 0, 2>, mode = "edge"} : (tensor<2xf32>) -> !onnx.value loc("p6"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5, %6 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}
