// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/Indexing.cpp on constants, evaluated: Gather, GatherElements and
// GatherND with negative indices, ScatterND / ScatterElements / Scatter with negative indices
// and each reduction, TopK (largest, smallest, ties, axis), CumSum, CumProd and Trilu; then
// the run-time checks, on extents known only from the data (made by Compress).
// Expected values by hand (numpy semantics), the derivation above each CHECK.

// d = [[1, 2], [3, 4], [5, 6]]. Gather axis 0, indices [-1, 0]: rows 2 and 0.
// CHECK: @gather result 0: tensor<2x2xf32> = {{\[\[}}5.0, 6.0], [1.0, 2.0]]
// axis 1, indices [[-1], [0]]: y[i, j, k] = d[i, idx[j, k] mod 2].
// CHECK: @gather result 1: tensor<3x2x1xf32> = {{\[\[\[}}2.0], [1.0]], {{\[\[}}4.0], [3.0]], {{\[\[}}6.0], [5.0]]]
// Gather from Shape(2x3x4) (shape arithmetic): index -1 (0-d) is 4; [0, -1] is [2, 4].
// CHECK: @gather result 2: tensor<i64> = 4
// CHECK: @gather result 3: tensor<2xi64> = [2, 4]
module {
  func.func @gather() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>) {
    %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
    %i0 = arith.constant dense<[-1, 0]> : tensor<2xi64>
    %i1 = arith.constant dense<[[-1], [0]]> : tensor<2x1xi32>
    %x = arith.constant dense<0.0> : tensor<2x3x4xf32>
    %last = arith.constant dense<-1> : tensor<i64>
    %ends = arith.constant dense<[0, -1]> : tensor<2xi64>
    %0 = onnx.node "Gather" opset 13 (%d, %i0) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<2xi64>) -> !onnx.value loc("g0"("m.onnx":0:0))
    %1 = onnx.node "Gather" opset 13 (%d, %i1) {axis = 1 : i64} : (tensor<3x2xf32>, tensor<2x1xi32>) -> !onnx.value loc("g1"("m.onnx":0:0))
    %s = onnx.node "Shape" opset 13 (%x) {} : (tensor<2x3x4xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    %2 = onnx.node "Gather" opset 13 (%s, %last) {axis = 0 : i64} : (!onnx.value, tensor<i64>) -> !onnx.value loc("g2"("m.onnx":0:0))
    %3 = onnx.node "Gather" opset 13 (%s, %ends) {axis = 0 : i64} : (!onnx.value, tensor<2xi64>) -> !onnx.value loc("g3"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// d = [[1, 2, 3], [4, 5, 6]]. GatherElements axis 1, idx [[-1, 0], [1, -3]]:
// y[i, j] = d[i, idx[i, j] mod 3].
// CHECK: @gather_elements result 0: tensor<2x2xf32> = {{\[\[}}3.0, 1.0], [5.0, 4.0]]
// axis 0, idx [[1, 0, -1]]: y[0, j] = d[idx[0, j] mod 2, j] = d[1, 0], d[0, 1], d[1, 2].
// CHECK: @gather_elements result 1: tensor<1x3xf32> = {{\[\[}}4.0, 2.0, 6.0]]
module {
  func.func @gather_elements() -> (tensor<*xf32>, tensor<*xf32>) {
    %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %i0 = arith.constant dense<[[-1, 0], [1, -3]]> : tensor<2x2xi64>
    %i1 = arith.constant dense<[[1, 0, -1]]> : tensor<1x3xi64>
    %0 = onnx.node "GatherElements" opset 13 (%d, %i0) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> !onnx.value loc("e0"("m.onnx":0:0))
    %1 = onnx.node "GatherElements" opset 13 (%d, %i1) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<1x3xi64>) -> !onnx.value loc("e1"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// GatherND on d = [[0, 1], [2, 3]]: full index rows [0, 0], [1, 1] pick elements.
// CHECK: @gather_nd result 0: tensor<2xf32> = [0.0, 3.0]
// Rows [1], [0] pick slices.
// CHECK: @gather_nd result 1: tensor<2x2xf32> = {{\[\[}}2.0, 3.0], [0.0, 1.0]]
// Row [-1, -2] wraps per dim to [1, 0]: d[1, 0].
// CHECK: @gather_nd result 2: tensor<1xf32> = [2.0]
// batch_dims 1 on e = [[[0, 1], [2, 3]], [[4, 5], [6, 7]]], rows [[-2], [-1]]:
// y[b] = e[b, idx[b] mod 2] = e[0, 0], e[1, 1].
// CHECK: @gather_nd result 3: tensor<2x2xf32> = {{\[\[}}0.0, 1.0], [6.0, 7.0]]
module {
  func.func @gather_nd() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %d = arith.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
    %e = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]> : tensor<2x2x2xf32>
    %i0 = arith.constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>
    %i1 = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
    %i2 = arith.constant dense<[[-1, -2]]> : tensor<1x2xi64>
    %i3 = arith.constant dense<[[-2], [-1]]> : tensor<2x1xi64>
    %0 = onnx.node "GatherND" opset 13 (%d, %i0) {} : (tensor<2x2xf32>, tensor<2x2xi64>) -> !onnx.value loc("n0"("m.onnx":0:0))
    %1 = onnx.node "GatherND" opset 13 (%d, %i1) {} : (tensor<2x2xf32>, tensor<2x1xi64>) -> !onnx.value loc("n1"("m.onnx":0:0))
    %2 = onnx.node "GatherND" opset 13 (%d, %i2) {} : (tensor<2x2xf32>, tensor<1x2xi64>) -> !onnx.value loc("n2"("m.onnx":0:0))
    %3 = onnx.node "GatherND" opset 13 (%e, %i3) {batch_dims = 1 : i64} : (tensor<2x2x2xf32>, tensor<2x1xi64>) -> !onnx.value loc("n3"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// ScatterND (ONNX's example 1): d = [1..8], rows [4], [3], [1], [7] get 9, 10, 11, 12.
// CHECK: @scatter_nd result 0: tensor<8xf32> = [1.0, 11.0, 3.0, 10.0, 9.0, 6.0, 7.0, 12.0]
// d = [1, 2, 3, 4], rows [0], [0], [-1] (= 3), updates 10, 20, 30.
// add: d[0] = 1 + 10 + 20, d[3] = 4 + 30.
// CHECK: @scatter_nd result 1: tensor<4xf32> = [31.0, 2.0, 3.0, 34.0]
// mul: d[0] = 1 * 10 * 20, d[3] = 4 * 30.
// CHECK: @scatter_nd result 2: tensor<4xf32> = [200.0, 2.0, 3.0, 120.0]
// d = [1, 5, 3], rows [0], [1], [1], updates 4, 2, 7. max: max(1, 4), max(5, 2, 7).
// CHECK: @scatter_nd result 3: tensor<3xf32> = [4.0, 7.0, 3.0]
// min: min(1, 4), min(5, 2, 7).
// CHECK: @scatter_nd result 4: tensor<3xf32> = [1.0, 2.0, 3.0]
// 2-D d = [[1, 2, 3], [4, 5, 6]]: row [-1] replaces the slice d[1] with [7, 8, 9].
// CHECK: @scatter_nd result 5: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [7.0, 8.0, 9.0]]
// Rows [0, -1] and [1, -3] wrap per dim: d[0, 2] = 100, d[1, 0] = 200.
// CHECK: @scatter_nd result 6: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 100.0], [200.0, 5.0, 6.0]]
module {
  func.func @scatter_nd() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %d0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %i0 = arith.constant dense<[[4], [3], [1], [7]]> : tensor<4x1xi64>
    %u0 = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
    %d1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %i1 = arith.constant dense<[[0], [0], [-1]]> : tensor<3x1xi64>
    %u1 = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
    %d2 = arith.constant dense<[1.0, 5.0, 3.0]> : tensor<3xf32>
    %i2 = arith.constant dense<[[0], [1], [1]]> : tensor<3x1xi32>
    %u2 = arith.constant dense<[4.0, 2.0, 7.0]> : tensor<3xf32>
    %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %i5 = arith.constant dense<[[-1]]> : tensor<1x1xi64>
    %u5 = arith.constant dense<[[7.0, 8.0, 9.0]]> : tensor<1x3xf32>
    %i6 = arith.constant dense<[[0, -1], [1, -3]]> : tensor<2x2xi64>
    %u6 = arith.constant dense<[100.0, 200.0]> : tensor<2xf32>
    %0 = onnx.node "ScatterND" opset 18 (%d0, %i0, %u0) {} : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> !onnx.value loc("s0"("m.onnx":0:0))
    %1 = onnx.node "ScatterND" opset 18 (%d1, %i1, %u1) {reduction = "add"} : (tensor<4xf32>, tensor<3x1xi64>, tensor<3xf32>) -> !onnx.value loc("s1"("m.onnx":0:0))
    %2 = onnx.node "ScatterND" opset 18 (%d1, %i1, %u1) {reduction = "mul"} : (tensor<4xf32>, tensor<3x1xi64>, tensor<3xf32>) -> !onnx.value loc("s2"("m.onnx":0:0))
    %3 = onnx.node "ScatterND" opset 18 (%d2, %i2, %u2) {reduction = "max"} : (tensor<3xf32>, tensor<3x1xi32>, tensor<3xf32>) -> !onnx.value loc("s3"("m.onnx":0:0))
    %4 = onnx.node "ScatterND" opset 18 (%d2, %i2, %u2) {reduction = "min"} : (tensor<3xf32>, tensor<3x1xi32>, tensor<3xf32>) -> !onnx.value loc("s4"("m.onnx":0:0))
    %5 = onnx.node "ScatterND" opset 18 (%m, %i5, %u5) {} : (tensor<2x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>) -> !onnx.value loc("s5"("m.onnx":0:0))
    %6 = onnx.node "ScatterND" opset 18 (%m, %i6, %u6) {} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2xf32>) -> !onnx.value loc("s6"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5, %6 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// ScatterElements axis 0 on zeros(3, 3): y[idx[i, j], j] = u[i, j] with idx [[1, 0, 2], [0, 2, 1]].
// CHECK: @scatter_elements result 0: tensor<3x3xf32> = {{\[\[}}2.0, 1.5, 0.0], [1.0, 0.0, 2.25], [0.0, 2.5, 1.25]]
// axis 1 on [[1, 2, 3, 4, 5]], idx [[-1, -4]] (= 4, 1), updates [[10, 20]].
// CHECK: @scatter_elements result 1: tensor<1x5xf32> = {{\[\[}}1.0, 20.0, 3.0, 4.0, 10.0]]
// The deprecated Scatter (opset 9) is ScatterElements: the same case.
// CHECK: @scatter_elements result 2: tensor<1x5xf32> = {{\[\[}}1.0, 20.0, 3.0, 4.0, 10.0]]
// idx [[1, 1, -1]], updates [[10, 20, -6]] into [[1, 2, 3, 4, 5]]:
// add: 2 + 10 + 20 = 32, 5 - 6 = -1.
// CHECK: @scatter_elements result 3: tensor<1x5xf32> = {{\[\[}}1.0, 32.0, 3.0, 4.0, -1.0]]
// mul: 2 * 10 * 20 = 400, 5 * -6 = -30.
// CHECK: @scatter_elements result 4: tensor<1x5xf32> = {{\[\[}}1.0, 400.0, 3.0, 4.0, -30.0]]
// max: max(2, 10, 20) = 20, max(5, -6) = 5.
// CHECK: @scatter_elements result 5: tensor<1x5xf32> = {{\[\[}}1.0, 20.0, 3.0, 4.0, 5.0]]
// min: min(2, 10, 20) = 2, min(5, -6) = -6.
// CHECK: @scatter_elements result 6: tensor<1x5xf32> = {{\[\[}}1.0, 2.0, 3.0, 4.0, -6.0]]
module {
  func.func @scatter_elements() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %z = arith.constant dense<0.0> : tensor<3x3xf32>
    %i0 = arith.constant dense<[[1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
    %u0 = arith.constant dense<[[1.0, 1.5, 1.25], [2.0, 2.5, 2.25]]> : tensor<2x3xf32>
    %r = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
    %i1 = arith.constant dense<[[-1, -4]]> : tensor<1x2xi64>
    %u1 = arith.constant dense<[[10.0, 20.0]]> : tensor<1x2xf32>
    %i3 = arith.constant dense<[[1, 1, -1]]> : tensor<1x3xi32>
    %u3 = arith.constant dense<[[10.0, 20.0, -6.0]]> : tensor<1x3xf32>
    %0 = onnx.node "ScatterElements" opset 18 (%z, %i0, %u0) {axis = 0 : i64} : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> !onnx.value loc("e0"("m.onnx":0:0))
    %1 = onnx.node "ScatterElements" opset 18 (%r, %i1, %u1) {axis = 1 : i64} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> !onnx.value loc("e1"("m.onnx":0:0))
    %2 = onnx.node "Scatter" opset 9 (%r, %i1, %u1) {axis = 1 : i64} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> !onnx.value loc("e2"("m.onnx":0:0))
    %3 = onnx.node "ScatterElements" opset 18 (%r, %i3, %u3) {axis = -1 : i64, reduction = "add"} : (tensor<1x5xf32>, tensor<1x3xi32>, tensor<1x3xf32>) -> !onnx.value loc("e3"("m.onnx":0:0))
    %4 = onnx.node "ScatterElements" opset 18 (%r, %i3, %u3) {axis = -1 : i64, reduction = "mul"} : (tensor<1x5xf32>, tensor<1x3xi32>, tensor<1x3xf32>) -> !onnx.value loc("e4"("m.onnx":0:0))
    %5 = onnx.node "ScatterElements" opset 18 (%r, %i3, %u3) {axis = -1 : i64, reduction = "max"} : (tensor<1x5xf32>, tensor<1x3xi32>, tensor<1x3xf32>) -> !onnx.value loc("e5"("m.onnx":0:0))
    %6 = onnx.node "ScatterElements" opset 18 (%r, %i3, %u3) {axis = -1 : i64, reduction = "min"} : (tensor<1x5xf32>, tensor<1x3xi32>, tensor<1x3xf32>) -> !onnx.value loc("e6"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5, %6 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// TopK of x = [3, 1, 4, 1, 5, 9, 2, 6], K = 3, largest: 9, 6, 5 at 5, 7, 4.
// CHECK: @top_k result 0: tensor<3xf32> = [9.0, 6.0, 5.0]
// CHECK: @top_k result 1: tensor<3xi64> = [5, 7, 4]
// Smallest: 1, 1, 2 at 1, 3, 6 (equal values: the lower index first).
// CHECK: @top_k result 2: tensor<3xf32> = [1.0, 1.0, 2.0]
// CHECK: @top_k result 3: tensor<3xi64> = [1, 3, 6]
// Ties when largest: [2, 5, 5, 1], K = 2 gives 5 at 1, then 5 at 2.
// CHECK: @top_k result 4: tensor<2xf32> = [5.0, 5.0]
// CHECK: @top_k result 5: tensor<2xi64> = [1, 2]
// TopK-1 (k attribute 2) along axis 0 of [[1, 6], [4, 2], [3, 5]]: column 0 -> 4 (1), 3 (2);
// column 1 -> 6 (0), 5 (2).
// CHECK: @top_k result 6: tensor<2x2xf32> = {{\[\[}}4.0, 6.0], [3.0, 5.0]]
// CHECK: @top_k result 7: tensor<2x2xi64> = {{\[\[}}1, 0], [2, 2]]
module {
  func.func @top_k() -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>) {
    %x = arith.constant dense<[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]> : tensor<8xf32>
    %t = arith.constant dense<[2.0, 5.0, 5.0, 1.0]> : tensor<4xf32>
    %m = arith.constant dense<[[1.0, 6.0], [4.0, 2.0], [3.0, 5.0]]> : tensor<3x2xf32>
    %k3 = arith.constant dense<[3]> : tensor<1xi64>
    %k2 = arith.constant dense<[2]> : tensor<1xi64>
    %0:2 = onnx.node "TopK" opset 11 (%x, %k3) {} : (tensor<8xf32>, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("k0"("m.onnx":0:0))
    %1:2 = onnx.node "TopK" opset 11 (%x, %k3) {largest = 0 : i64} : (tensor<8xf32>, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("k1"("m.onnx":0:0))
    %2:2 = onnx.node "TopK" opset 11 (%t, %k2) {} : (tensor<4xf32>, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("k2"("m.onnx":0:0))
    %3:2 = onnx.node "TopK" opset 1 (%m) {axis = 0 : i64, k = 2 : i64} : (tensor<3x2xf32>) -> (!onnx.value, !onnx.value) loc("k3"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// CumSum of [1, 2, 3, 4]: running sums; exclusive shifts right (0 first); reverse sums
// from the end; both: the suffix sums shifted left.
// CHECK: @cumulative result 0: tensor<4xf32> = [1.0, 3.0, 6.0, 10.0]
// CHECK: @cumulative result 1: tensor<4xf32> = [0.0, 1.0, 3.0, 6.0]
// CHECK: @cumulative result 2: tensor<4xf32> = [10.0, 9.0, 7.0, 4.0]
// CHECK: @cumulative result 3: tensor<4xf32> = [9.0, 7.0, 4.0, 0.0]
// axis -1 (a 0-d i32 axis) of [[1, 2, 3], [4, 5, 6]], reverse: suffix sums per row.
// CHECK: @cumulative result 4: tensor<2x3xf32> = {{\[\[}}6.0, 5.0, 3.0], [15.0, 11.0, 6.0]]
// CumProd of [1, 2, 3, 4]: 1, 2, 6, 24; exclusive: 1 first; reverse exclusive: 24, 12, 4, 1.
// CHECK: @cumulative result 5: tensor<4xf32> = [1.0, 2.0, 6.0, 24.0]
// CHECK: @cumulative result 6: tensor<4xf32> = [1.0, 1.0, 2.0, 6.0]
// CHECK: @cumulative result 7: tensor<4xf32> = [24.0, 12.0, 4.0, 1.0]
module {
  func.func @cumulative() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %a = arith.constant dense<0> : tensor<i64>
    %last = arith.constant dense<-1> : tensor<i32>
    %0 = onnx.node "CumSum" opset 14 (%x, %a) {} : (tensor<4xf32>, tensor<i64>) -> !onnx.value loc("c0"("m.onnx":0:0))
    %1 = onnx.node "CumSum" opset 14 (%x, %a) {exclusive = 1 : i64} : (tensor<4xf32>, tensor<i64>) -> !onnx.value loc("c1"("m.onnx":0:0))
    %2 = onnx.node "CumSum" opset 14 (%x, %a) {reverse = 1 : i64} : (tensor<4xf32>, tensor<i64>) -> !onnx.value loc("c2"("m.onnx":0:0))
    %3 = onnx.node "CumSum" opset 14 (%x, %a) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<4xf32>, tensor<i64>) -> !onnx.value loc("c3"("m.onnx":0:0))
    %4 = onnx.node "CumSum" opset 14 (%m, %last) {reverse = 1 : i64} : (tensor<2x3xf32>, tensor<i32>) -> !onnx.value loc("c4"("m.onnx":0:0))
    %5 = onnx.node "CumProd" opset 26 (%x, %a) {} : (tensor<4xf32>, tensor<i64>) -> !onnx.value loc("p0"("m.onnx":0:0))
    %6 = onnx.node "CumProd" opset 26 (%x, %a) {exclusive = 1 : i64} : (tensor<4xf32>, tensor<i64>) -> !onnx.value loc("p1"("m.onnx":0:0))
    %7 = onnx.node "CumProd" opset 26 (%x, %a) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<4xf32>, tensor<i64>) -> !onnx.value loc("p2"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3, %4, %5, %6, %7 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Trilu of x = [1..12] as 3x4 (x[i, j] = 4 i + j + 1). upper, k = 1: keep j - i >= 1.
// CHECK: @trilu result 0: tensor<3x4xf32> = {{\[\[}}0.0, 2.0, 3.0, 4.0], [0.0, 0.0, 7.0, 8.0], [0.0, 0.0, 0.0, 12.0]]
// lower, k = -1: keep j - i <= -1.
// CHECK: @trilu result 1: tensor<3x4xf32> = {{\[\[}}0.0, 0.0, 0.0, 0.0], [5.0, 0.0, 0.0, 0.0], [9.0, 10.0, 0.0, 0.0]]
// Defaults (upper, k = 0): keep j >= i.
// CHECK: @trilu result 2: tensor<3x4xf32> = {{\[\[}}1.0, 2.0, 3.0, 4.0], [0.0, 6.0, 7.0, 8.0], [0.0, 0.0, 11.0, 12.0]]
// lower, k absent, on i32: keep j <= i.
// CHECK: @trilu result 3: tensor<3x4xi32> = {{\[\[}}1, 0, 0, 0], [5, 6, 0, 0], [9, 10, 11, 0]]
module {
  func.func @trilu() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>) {
    %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
    %xi = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
    %k1 = arith.constant dense<1> : tensor<i64>
    %km1 = arith.constant dense<-1> : tensor<i64>
    %0 = onnx.node "Trilu" opset 14 (%x, %k1) {upper = 1 : i64} : (tensor<3x4xf32>, tensor<i64>) -> !onnx.value loc("t0"("m.onnx":0:0))
    %1 = onnx.node "Trilu" opset 14 (%x, %km1) {upper = 0 : i64} : (tensor<3x4xf32>, tensor<i64>) -> !onnx.value loc("t1"("m.onnx":0:0))
    %2 = onnx.node "Trilu" opset 14 (%x) {} : (tensor<3x4xf32>) -> !onnx.value loc("t2"("m.onnx":0:0))
    %3 = onnx.node "Trilu" opset 14 (%xi) {upper = 0 : i64} : (tensor<3x4xi32>) -> !onnx.value loc("t3"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Run-time check: TopK K = 3 of an axis whose extent is known only from the data (2 entries
// kept by Compress).
// CHECK: @top_k_extent error: prim.check at 'k': node 'k' (TopK): k must not exceed the extent of the axis
module {
  func.func @top_k_extent() -> (tensor<*xf32>, tensor<*xi64>) {
    %x = arith.constant dense<[3.0, 1.0, 4.0]> : tensor<3xf32>
    %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
    %k = arith.constant dense<[3]> : tensor<1xi64>
    %y = onnx.node "Compress" opset 11 (%x, %c) {axis = 0 : i64} : (tensor<3xf32>, tensor<3xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    %0:2 = onnx.node "TopK" opset 11 (%y, %k) {} : (!onnx.value, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("k"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

// Updates of 1 element (kept by Compress, so known only from the data) for 2 indices.
// CHECK: @scatter_elements_shape error: prim.check at 's': node 's' (ScatterElements): updates must have the shape of indices
module {
  func.func @scatter_elements_shape() -> tensor<*xf32> {
    %d = arith.constant dense<0.0> : tensor<4xf32>
    %i = arith.constant dense<[0, 1]> : tensor<2xi64>
    %u = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %c = arith.constant dense<[true, false, false]> : tensor<3xi1>
    %uu = onnx.node "Compress" opset 11 (%u, %c) {axis = 0 : i64} : (tensor<3xf32>, tensor<3xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    %0 = onnx.node "ScatterElements" opset 18 (%d, %i, %uu) {} : (tensor<4xf32>, tensor<2xi64>, !onnx.value) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// The same for ScatterND: 2 index rows, 1 update.
// CHECK: @scatter_nd_shape error: prim.check at 's': node 's' (ScatterND): updates must have shape indices.shape[:-1] + data.shape[k:]
module {
  func.func @scatter_nd_shape() -> tensor<*xf32> {
    %d = arith.constant dense<0.0> : tensor<4xf32>
    %i = arith.constant dense<[[0], [1]]> : tensor<2x1xi64>
    %u = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %c = arith.constant dense<[true, false, false]> : tensor<3xi1>
    %uu = onnx.node "Compress" opset 11 (%u, %c) {axis = 0 : i64} : (tensor<3xf32>, tensor<3xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    %0 = onnx.node "ScatterND" opset 18 (%d, %i, %uu) {} : (tensor<4xf32>, tensor<2x1xi64>, !onnx.value) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// GatherND batch_dims 1: 3 index rows (a data-dependent extent) for a batch of 2.
// CHECK: @gather_nd_batch error: prim.check at 'g': node 'g' (GatherND): batch dim 0 of the indices must equal the data's
module {
  func.func @gather_nd_batch() -> tensor<*xf32> {
    %d = arith.constant dense<1.0> : tensor<2x2xf32>
    %i = arith.constant dense<[[0], [1], [0]]> : tensor<3x1xi64>
    %c = arith.constant dense<[true, true, true]> : tensor<3xi1>
    %ii = onnx.node "Compress" opset 11 (%i, %c) {axis = 0 : i64} : (tensor<3x1xi64>, tensor<3xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    %0 = onnx.node "GatherND" opset 13 (%d, %ii) {batch_dims = 1 : i64} : (tensor<2x2xf32>, !onnx.value) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
