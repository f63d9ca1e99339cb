// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Shape.cpp on constants, evaluated: Reshape's 0 and -1, Flatten,
// Transpose, (Un)Squeeze, Concat, Slice (negative steps, clamped and sentinel bounds), Split,
// Shape, Size, Expand, Tile, ConstantOfShape, Range and Constant; then the run-time checks.
// Expected values by hand (numpy semantics), the derivation above each CHECK.

// x = [1..8] as 2x2x2. [0, -1]: dim 0 copied (2), -1 = 8 / 2 = 4.
// CHECK: @reshape result 0: tensor<2x4xf32> = {{\[\[}}1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]
// [-1, 0]: dim 1 copied (2), -1 = 8 / 2 = 4.
// CHECK: @reshape result 1: tensor<4x2xf32> = {{\[\[}}1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]
// allowzero = 1: a 0 is an extent; 0x3 reshaped to [3, 0].
// CHECK: @reshape result 2: tensor<3x0xf32> = {{\[\[}}], [], []]
module {
  func.func @reshape() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
    %s0 = arith.constant dense<[0, -1]> : tensor<2xi64>
    %s1 = arith.constant dense<[-1, 0]> : tensor<2xi64>
    %e = arith.constant dense<> : tensor<0x3xf32>
    %s2 = arith.constant dense<[3, 0]> : tensor<2xi64>
    %0 = onnx.node "Reshape" opset 14 (%x, %s0) {} : (tensor<2x2x2xf32>, tensor<2xi64>) -> !onnx.value loc("r0"("m.onnx":0:0))
    %1 = onnx.node "Reshape" opset 14 (%x, %s1) {} : (tensor<2x2x2xf32>, tensor<2xi64>) -> !onnx.value loc("r1"("m.onnx":0:0))
    %2 = onnx.node "Reshape" opset 14 (%e, %s2) {allowzero = 1 : i64} : (tensor<0x3xf32>, tensor<2xi64>) -> !onnx.value loc("r2"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Flatten axis -1 of 2x2x2: [2 * 2, 2]; axis 0: [1, 8].
// CHECK: @flatten result 0: tensor<4x2xf32> = {{\[\[}}1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]
// CHECK: @flatten result 1: tensor<1x8xf32> = {{\[\[}}1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]
// Transpose without perm reverses the dims: y[j, i] = x[i, j] of [[1, 2, 3], [4, 5, 6]].
// CHECK: @flatten result 2: tensor<3x2xf32> = {{\[\[}}1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
// perm [2, 0, 1]: y[a, b, c] = x[b, c, a] of the 2x2x2 x = [1..8].
// CHECK: @flatten result 3: tensor<2x2x2xf32> = {{\[\[\[}}1.0, 3.0], [5.0, 7.0]], {{\[\[}}2.0, 4.0], [6.0, 8.0]]]
module {
  func.func @flatten() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
    %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %0 = onnx.node "Flatten" opset 13 (%x) {axis = -1 : i64} : (tensor<2x2x2xf32>) -> !onnx.value loc("f0"("m.onnx":0:0))
    %1 = onnx.node "Flatten" opset 13 (%x) {axis = 0 : i64} : (tensor<2x2x2xf32>) -> !onnx.value loc("f1"("m.onnx":0:0))
    %2 = onnx.node "Transpose" opset 13 (%m) {} : (tensor<2x3xf32>) -> !onnx.value loc("t0"("m.onnx":0:0))
    %3 = onnx.node "Transpose" opset 13 (%x) {perm = array<i64: 2, 0, 1>} : (tensor<2x2x2xf32>) -> !onnx.value loc("t1"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Squeeze (opset 13) axes [-2] of 2x1x2: 2x2.
// CHECK: @squeeze result 0: tensor<2x2xf32> = {{\[\[}}1.0, 2.0], [3.0, 4.0]]
// Squeeze (opset 11) without axes drops every extent-1 dim: 1x2x1 -> [2].
// CHECK: @squeeze result 1: tensor<2xf32> = [5.0, 6.0]
// Unsqueeze (opset 13) axes [-1, 0] index the rank-3 output: [2] -> [1, 2, 1].
// CHECK: @squeeze result 2: tensor<1x2x1xf32> = {{\[\[}}[5.0], [6.0]]]
// Unsqueeze (opset 11) axes attribute [1]: [2] -> [2, 1].
// CHECK: @squeeze result 3: tensor<2x1xf32> = {{\[\[}}5.0], [6.0]]
module {
  func.func @squeeze() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
    %y = arith.constant dense<[[[5.0], [6.0]]]> : tensor<1x2x1xf32>
    %v = arith.constant dense<[5.0, 6.0]> : tensor<2xf32>
    %a0 = arith.constant dense<[-2]> : tensor<1xi64>
    %a1 = arith.constant dense<[-1, 0]> : tensor<2xi64>
    %0 = onnx.node "Squeeze" opset 13 (%x, %a0) {} : (tensor<2x1x2xf32>, tensor<1xi64>) -> !onnx.value loc("s0"("m.onnx":0:0))
    %1 = onnx.node "Squeeze" opset 11 (%y) {} : (tensor<1x2x1xf32>) -> !onnx.value loc("s1"("m.onnx":0:0))
    %2 = onnx.node "Unsqueeze" opset 13 (%v, %a1) {} : (tensor<2xf32>, tensor<2xi64>) -> !onnx.value loc("u0"("m.onnx":0:0))
    %3 = onnx.node "Unsqueeze" opset 11 (%v) {axes = array<i64: 1>} : (tensor<2xf32>) -> !onnx.value loc("u1"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Concat axis -1 of [[1], [2]] and [[3, 4], [5, 6]].
// CHECK: @concat result 0: tensor<2x3xf32> = {{\[\[}}1.0, 3.0, 4.0], [2.0, 5.0, 6.0]]
module {
  func.func @concat() -> tensor<*xf32> {
    %a = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %b = arith.constant dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
    %0 = onnx.node "Concat" opset 13 (%a, %b) {axis = -1 : i64} : (tensor<2x1xf32>, tensor<2x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// x = [[1, 2, 3, 4], [5, 6, 7, 8]]; axis 1 start -1 (3), end -100 (clamps to -1), step -2:
// columns 3, 1.
// CHECK: @slice result 0: tensor<2x2xf32> = {{\[\[}}4.0, 2.0], [8.0, 6.0]]
// v = [1..5]; start 1, end INT64_MAX (clamps to 5), step 2: v[1], v[3].
// CHECK: @slice result 1: tensor<2xf32> = [2.0, 4.0]
// start -2 (3), end INT64_MIN (clamps to -1: through index 0), step -1.
// CHECK: @slice result 2: tensor<4xf32> = [4.0, 3.0, 2.0, 1.0]
// start 3 >= end 1 with step 1: empty.
// CHECK: @slice result 3: tensor<0xf32> = []
// m = [1..12] as 3x4; axes [0, 1]: rows 0:3:2 = {0, 2}, columns 3 down to 0 exclusive.
// CHECK: @slice result 4: tensor<2x3xf32> = {{\[\[}}4.0, 3.0, 2.0], [12.0, 11.0, 10.0]]
// Slice-1 attributes: starts [1], ends [1000] (clamps to 5).
// CHECK: @slice result 5: tensor<4xf32> = [2.0, 3.0, 4.0, 5.0]
module {
  func.func @slice() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
    %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
    %m = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
    %one = arith.constant dense<[1]> : tensor<1xi64>
    %m1 = arith.constant dense<[-1]> : tensor<1xi64>
    %m2 = arith.constant dense<[-2]> : tensor<1xi64>
    %m100 = arith.constant dense<[-100]> : tensor<1xi64>
    %two = arith.constant dense<[2]> : tensor<1xi64>
    %three = arith.constant dense<[3]> : tensor<1xi64>
    %max = arith.constant dense<[9223372036854775807]> : tensor<1xi64>
    %min = arith.constant dense<[-9223372036854775808]> : tensor<1xi64>
    %s4 = arith.constant dense<[0, -1]> : tensor<2xi64>
    %e4 = arith.constant dense<[3, 0]> : tensor<2xi64>
    %a4 = arith.constant dense<[0, 1]> : tensor<2xi64>
    %st4 = arith.constant dense<[2, -1]> : tensor<2xi64>
    %0 = onnx.node "Slice" opset 13 (%x, %m1, %m100, %one, %m2) {} : (tensor<2x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> !onnx.value loc("s0"("m.onnx":0:0))
    %1 = onnx.node "Slice" opset 13 (%v, %one, %max, %m1, %two) {} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> !onnx.value loc("s1"("m.onnx":0:0))
    %2 = onnx.node "Slice" opset 13 (%v, %m2, %min, %m1, %m1) {} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> !onnx.value loc("s2"("m.onnx":0:0))
    %3 = onnx.node "Slice" opset 13 (%v, %three, %one) {} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> !onnx.value loc("s3"("m.onnx":0:0))
    %4 = onnx.node "Slice" opset 13 (%m, %s4, %e4, %a4, %st4) {} : (tensor<3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("s4"("m.onnx":0:0))
    %5 = onnx.node "Slice" opset 1 (%v) {starts = array<i64: 1>, ends = array<i64: 1000>, axes = array<i64: 0>} : (tensor<5xf32>) -> !onnx.value loc("s5"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Split (opset 13) by the input [1, 3].
// CHECK: @split result 0: tensor<1xf32> = [1.0]
// CHECK: @split result 1: tensor<3xf32> = [2.0, 3.0, 4.0]
// Split (opset 18) num_outputs 3 of 7: pieces of ceil(7 / 3) = 3, the last one smaller.
// CHECK: @split result 2: tensor<3xf32> = [0.0, 1.0, 2.0]
// CHECK: @split result 3: tensor<3xf32> = [3.0, 4.0, 5.0]
// CHECK: @split result 4: tensor<1xf32> = [6.0]
// Split (opset 11) attribute split [2, 1] along axis -1 of [[1, 2, 3], [4, 5, 6]].
// CHECK: @split result 5: tensor<2x2xf32> = {{\[\[}}1.0, 2.0], [4.0, 5.0]]
// CHECK: @split result 6: tensor<2x1xf32> = {{\[\[}}3.0], [6.0]]
module {
  func.func @split() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %w = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<7xf32>
    %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %sizes = arith.constant dense<[1, 3]> : tensor<2xi64>
    %0:2 = onnx.node "Split" opset 13 (%v, %sizes) {} : (tensor<4xf32>, tensor<2xi64>) -> (!onnx.value, !onnx.value) loc("p0"("m.onnx":0:0))
    %1:3 = onnx.node "Split" opset 18 (%w) {num_outputs = 3 : i64} : (tensor<7xf32>) -> (!onnx.value, !onnx.value, !onnx.value) loc("p1"("m.onnx":0:0))
    %2:2 = onnx.node "Split" opset 11 (%m) {axis = -1 : i64, split = array<i64: 2, 1>} : (tensor<2x3xf32>) -> (!onnx.value, !onnx.value) loc("p2"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %1#1, %1#2, %2#0, %2#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Shape of a 2x3x4 tensor: start -2 -> [3, 4]; end -1 -> [2, 3]; start 5 clamps to 3 -> [].
// CHECK: @shape result 0: tensor<2xi64> = [3, 4]
// CHECK: @shape result 1: tensor<2xi64> = [2, 3]
// CHECK: @shape result 2: tensor<0xi64> = []
// Size: 2 * 3 * 4.
// CHECK: @shape result 3: tensor<i64> = 24
module {
  func.func @shape() -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
    %x = arith.constant dense<0.0> : tensor<2x3x4xf32>
    %0 = onnx.node "Shape" opset 15 (%x) {start = -2 : i64} : (tensor<2x3x4xf32>) -> !onnx.value loc("h0"("m.onnx":0:0))
    %1 = onnx.node "Shape" opset 15 (%x) {end = -1 : i64} : (tensor<2x3x4xf32>) -> !onnx.value loc("h1"("m.onnx":0:0))
    %2 = onnx.node "Shape" opset 15 (%x) {start = 5 : i64} : (tensor<2x3x4xf32>) -> !onnx.value loc("h2"("m.onnx":0:0))
    %3 = onnx.node "Size" opset 13 (%x) {} : (tensor<2x3x4xf32>) -> !onnx.value loc("z"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Expand broadcasts both ways: [[1], [2]] (2x1) to [2, 1, 3] gives 2x2x3,
// y[i, j, k] = x[j, 0].
// CHECK: @expand result 0: tensor<2x2x3xf32> = {{\[\[\[}}1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], {{\[\[}}1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]]
// A target entry 1 keeps x's extent: [1, 2, 3] to [2, 1] gives 2x3.
// CHECK: @expand result 1: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
// Tile [[1, 2], [3, 4]] by [2, 2]: y[i, j] = x[i mod 2, j mod 2].
// CHECK: @expand result 2: tensor<4x4xf32> = {{\[\[}}1.0, 2.0, 1.0, 2.0], [3.0, 4.0, 3.0, 4.0], [1.0, 2.0, 1.0, 2.0], [3.0, 4.0, 3.0, 4.0]]
// Tile [[1, 2, 3]] by [2, 2]: 2x6, each row the row twice.
// CHECK: @expand result 3: tensor<2x6xf32> = {{\[\[}}1.0, 2.0, 3.0, 1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]]
module {
  func.func @expand() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %c = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %r = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %sq = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %row = arith.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
    %t0 = arith.constant dense<[2, 1, 3]> : tensor<3xi64>
    %t1 = arith.constant dense<[2, 1]> : tensor<2xi64>
    %rep = arith.constant dense<[2, 2]> : tensor<2xi64>
    %0 = onnx.node "Expand" opset 13 (%c, %t0) {} : (tensor<2x1xf32>, tensor<3xi64>) -> !onnx.value loc("e0"("m.onnx":0:0))
    %1 = onnx.node "Expand" opset 13 (%r, %t1) {} : (tensor<3xf32>, tensor<2xi64>) -> !onnx.value loc("e1"("m.onnx":0:0))
    %2 = onnx.node "Tile" opset 13 (%sq, %rep) {} : (tensor<2x2xf32>, tensor<2xi64>) -> !onnx.value loc("t0"("m.onnx":0:0))
    %3 = onnx.node "Tile" opset 13 (%row, %rep) {} : (tensor<1x3xf32>, tensor<2xi64>) -> !onnx.value loc("t1"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// ConstantOfShape [2, 3] with an int64 value 7; without a value: float zeros.
// CHECK: @constants result 0: tensor<2x3xi64> = {{\[\[}}7, 7, 7], [7, 7, 7]]
// CHECK: @constants result 1: tensor<2xf32> = [0.0, 0.0]
// Constant value_floats, value_int and value.
// CHECK: @constants result 2: tensor<2xf32> = [1.5, -2.0]
// CHECK: @constants result 3: tensor<i64> = 7
// CHECK: @constants result 4: tensor<2xi32> = [3, 4]
module {
  func.func @constants() -> (tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi32>) {
    %s = arith.constant dense<[2, 3]> : tensor<2xi64>
    %s2 = arith.constant dense<[2]> : tensor<1xi64>
    %0 = onnx.node "ConstantOfShape" opset 20 (%s) {value = dense<7> : tensor<1xi64>} : (tensor<2xi64>) -> !onnx.value loc("k0"("m.onnx":0:0))
    %1 = onnx.node "ConstantOfShape" opset 20 (%s2) {} : (tensor<1xi64>) -> !onnx.value loc("k1"("m.onnx":0:0))
    %2 = onnx.node "Constant" opset 13 () {value_floats = array<f32: 1.5, -2.0>} : () -> !onnx.value loc("c0"("m.onnx":0:0))
    %3 = onnx.node "Constant" opset 13 () {value_int = 7 : i64} : () -> !onnx.value loc("c1"("m.onnx":0:0))
    %4 = onnx.node "Constant" opset 13 () {value = dense<[3, 4]> : tensor<2xi32>} : () -> !onnx.value loc("c2"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Range(10, 4, -3): ceil((4 - 10) / -3) = 2 elements, 10 and 7.
// CHECK: @range result 0: tensor<2xi64> = [10, 7]
// Range(5, 1, 1): ceil(-4) < 0, so empty.
// CHECK: @range result 1: tensor<0xi64> = []
// Range(0.0, 1.2, 0.5): ceil(2.4) = 3 elements.
// CHECK: @range result 2: tensor<3xf32> = [0.0, 0.5, 1.0]
module {
  func.func @range() -> (tensor<*xi64>, tensor<*xi64>, tensor<*xf32>) {
    %s0 = arith.constant dense<10> : tensor<i64>
    %l0 = arith.constant dense<4> : tensor<i64>
    %d0 = arith.constant dense<-3> : tensor<i64>
    %s1 = arith.constant dense<5> : tensor<i64>
    %l1 = arith.constant dense<1> : tensor<i64>
    %d1 = arith.constant dense<1> : tensor<i64>
    %s2 = arith.constant dense<0.0> : tensor<f32>
    %l2 = arith.constant dense<1.2> : tensor<f32>
    %d2 = arith.constant dense<0.5> : tensor<f32>
    %0 = onnx.node "Range" opset 11 (%s0, %l0, %d0) {} : (tensor<i64>, tensor<i64>, tensor<i64>) -> !onnx.value loc("g0"("m.onnx":0:0))
    %1 = onnx.node "Range" opset 11 (%s1, %l1, %d1) {} : (tensor<i64>, tensor<i64>, tensor<i64>) -> !onnx.value loc("g1"("m.onnx":0:0))
    %2 = onnx.node "Range" opset 11 (%s2, %l2, %d2) {} : (tensor<f32>, tensor<f32>, tensor<f32>) -> !onnx.value loc("g2"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Squeezing a dim whose extent is known only from the data (2 rows kept by Compress).
// CHECK: @squeeze_dynamic error: prim.check at 's': node 's' (Squeeze): squeezed dim 0 must be 1
module {
  func.func @squeeze_dynamic() -> tensor<*xf32> {
    %x = arith.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
    %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
    %a = arith.constant dense<[0]> : tensor<1xi64>
    %y = onnx.node "Compress" opset 11 (%x, %c) {axis = 0 : i64} : (tensor<3x1xf32>, tensor<3xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    %0 = onnx.node "Squeeze" opset 13 (%y, %a) {} : (!onnx.value, tensor<1xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
