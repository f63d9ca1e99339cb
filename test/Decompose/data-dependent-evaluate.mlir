// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// The rules of lib/Decompose/DataDependent.cpp on constants, evaluated: NonZero, Compress,
// Unique (sorted and in order of first occurrence, with and without an axis) and
// NonMaxSuppression, whose output extents come from the data. Expected values by hand
// (numpy.nonzero / numpy.compress / numpy.unique semantics; the NonMaxSuppression cases are
// ONNX's own test cases, rechecked with a python transcription of the greedy selection).

// NonZero of [[0, 2, 0], [5, 0, 0.1]]: nonzero at (0, 1), (1, 0), (1, 2), one row per dim.
// CHECK: @non_zero result 0: tensor<2x3xi64> = {{\[\[}}0, 1, 1], [1, 0, 2]]
// A bool input is its own mask: [true, false, true] -> [[0, 2]].
// CHECK: @non_zero result 1: tensor<1x2xi64> = {{\[\[}}0, 2]]
// A 0-d input counts as 1-d (numpy): 3 -> [[0]].
// CHECK: @non_zero result 2: tensor<1x1xi64> = {{\[\[}}0]]
// All zeros (i32, 2x2): no coordinates, shape [2, 0].
// CHECK: @non_zero result 3: tensor<2x0xi64> = {{\[\[}}], []]
module {
  func.func @non_zero() -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
    %x = arith.constant dense<[[0.0, 2.0, 0.0], [5.0, 0.0, 0.1]]> : tensor<2x3xf32>
    %b = arith.constant dense<[true, false, true]> : tensor<3xi1>
    %s = arith.constant dense<3.0> : tensor<f32>
    %z = arith.constant dense<0> : tensor<2x2xi32>
    %0 = onnx.node "NonZero" opset 13 (%x) {} : (tensor<2x3xf32>) -> !onnx.value loc("n0"("m.onnx":0:0))
    %1 = onnx.node "NonZero" opset 13 (%b) {} : (tensor<3xi1>) -> !onnx.value loc("n1"("m.onnx":0:0))
    %2 = onnx.node "NonZero" opset 13 (%s) {} : (tensor<f32>) -> !onnx.value loc("n2"("m.onnx":0:0))
    %3 = onnx.node "NonZero" opset 9 (%z) {} : (tensor<2x2xi32>) -> !onnx.value loc("n3"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Compress of x = [[1, 2], [3, 4], [5, 6]] (ONNX's examples): axis 0, [false, true, true]
// keeps rows 1 and 2.
// CHECK: @compress result 0: tensor<2x2xf32> = {{\[\[}}3.0, 4.0], [5.0, 6.0]]
// axis -1, [false, true]: column 1.
// CHECK: @compress result 1: tensor<3x1xf32> = {{\[\[}}2.0], [4.0], [6.0]]
// No axis: the flattened x [1..6] with the shorter condition [F, T, F, F, T]: 2 and 5.
// CHECK: @compress result 2: tensor<2xf32> = [2.0, 5.0]
// Nothing kept along axis 0: shape [0, 2].
// CHECK: @compress result 3: tensor<0x2xf32> = []
module {
  func.func @compress() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
    %c0 = arith.constant dense<[false, true, true]> : tensor<3xi1>
    %c1 = arith.constant dense<[false, true]> : tensor<2xi1>
    %c2 = arith.constant dense<[false, true, false, false, true]> : tensor<5xi1>
    %c3 = arith.constant dense<false> : tensor<3xi1>
    %0 = onnx.node "Compress" opset 11 (%x, %c0) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> !onnx.value loc("c0"("m.onnx":0:0))
    %1 = onnx.node "Compress" opset 11 (%x, %c1) {axis = -1 : i64} : (tensor<3x2xf32>, tensor<2xi1>) -> !onnx.value loc("c1"("m.onnx":0:0))
    %2 = onnx.node "Compress" opset 11 (%x, %c2) {} : (tensor<3x2xf32>, tensor<5xi1>) -> !onnx.value loc("c2"("m.onnx":0:0))
    %3 = onnx.node "Compress" opset 9 (%x, %c3) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> !onnx.value loc("c3"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Unique of [2, 1, 1, 3, 4, 3] (ONNX's examples). sorted = 1: Y = [1, 2, 3, 4], indices of
// the first occurrences [1, 0, 3, 4], inverse [1, 0, 0, 2, 3, 2], counts [2, 1, 2, 1].
// CHECK: @unique result 0: tensor<4xf32> = [1.0, 2.0, 3.0, 4.0]
// CHECK: @unique result 1: tensor<4xi64> = [1, 0, 3, 4]
// CHECK: @unique result 2: tensor<6xi64> = [1, 0, 0, 2, 3, 2]
// CHECK: @unique result 3: tensor<4xi64> = [2, 1, 2, 1]
// sorted = 0: in order of first occurrence, Y = [2, 1, 3, 4], indices [0, 1, 3, 4],
// inverse [0, 1, 1, 2, 3, 2], counts [1, 2, 2, 1].
// CHECK: @unique result 4: tensor<4xf32> = [2.0, 1.0, 3.0, 4.0]
// CHECK: @unique result 5: tensor<4xi64> = [0, 1, 3, 4]
// CHECK: @unique result 6: tensor<6xi64> = [0, 1, 1, 2, 3, 2]
// CHECK: @unique result 7: tensor<4xi64> = [1, 2, 2, 1]
module {
  func.func @unique() -> (tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
    %x = arith.constant dense<[2.0, 1.0, 1.0, 3.0, 4.0, 3.0]> : tensor<6xf32>
    %0:4 = onnx.node "Unique" opset 11 (%x) {} : (tensor<6xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("u0"("m.onnx":0:0))
    %1:4 = onnx.node "Unique" opset 11 (%x) {sorted = 0 : i64} : (tensor<6xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("u1"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2, %0#3, %1#0, %1#1, %1#2, %1#3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Unique rows (axis 0) of [[1, 0, 0], [1, 0, 0], [2, 3, 4]]: Y = rows 0 and 2, indices
// [0, 2], inverse [0, 0, 1], counts [2, 1].
// CHECK: @unique_axis result 0: tensor<2x3xf32> = {{\[\[}}1.0, 0.0, 0.0], [2.0, 3.0, 4.0]]
// CHECK: @unique_axis result 1: tensor<2xi64> = [0, 2]
// CHECK: @unique_axis result 2: tensor<3xi64> = [0, 0, 1]
// CHECK: @unique_axis result 3: tensor<2xi64> = [2, 1]
// axis 1 of a 2x4x2 x whose slices x[:, j, :] are, flattened, j0 = [1, 1, 1, 1],
// j1 = [0, 1, 0, 1], j2 = [2, 1, 2, 1], j3 = j1. Sorted lexicographically: j1 < j0 < j2.
// CHECK: @unique_axis result 4: tensor<2x3x2xf32> = {{\[\[\[}}0.0, 1.0], [1.0, 1.0], [2.0, 1.0]], {{\[\[}}0.0, 1.0], [1.0, 1.0], [2.0, 1.0]]]
// CHECK: @unique_axis result 5: tensor<3xi64> = [1, 0, 2]
// CHECK: @unique_axis result 6: tensor<4xi64> = [1, 0, 2, 0]
// CHECK: @unique_axis result 7: tensor<3xi64> = [2, 1, 1]
// sorted = 0, axis -1 of [[3, 1, 3, 2], [0, 5, 0, 5]]: columns (3, 0), (1, 5), (3, 0),
// (2, 5); first occurrences 0, 1, 3; inverse [0, 1, 0, 2]; counts [2, 1, 1].
// CHECK: @unique_axis result 8: tensor<2x3xf32> = {{\[\[}}3.0, 1.0, 2.0], [0.0, 5.0, 5.0]]
// CHECK: @unique_axis result 9: tensor<3xi64> = [0, 1, 3]
// CHECK: @unique_axis result 10: tensor<4xi64> = [0, 1, 0, 2]
// CHECK: @unique_axis result 11: tensor<3xi64> = [2, 1, 1]
module {
  func.func @unique_axis() -> (tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
    %x = arith.constant dense<[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 3.0, 4.0]]> : tensor<3x3xf32>
    %y = arith.constant dense<[[[1.0, 1.0], [0.0, 1.0], [2.0, 1.0], [0.0, 1.0]], [[1.0, 1.0], [0.0, 1.0], [2.0, 1.0], [0.0, 1.0]]]> : tensor<2x4x2xf32>
    %z = arith.constant dense<[[3.0, 1.0, 3.0, 2.0], [0.0, 5.0, 0.0, 5.0]]> : tensor<2x4xf32>
    %0:4 = onnx.node "Unique" opset 11 (%x) {axis = 0 : i64} : (tensor<3x3xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("u0"("m.onnx":0:0))
    %1:4 = onnx.node "Unique" opset 11 (%y) {axis = 1 : i64} : (tensor<2x4x2xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("u1"("m.onnx":0:0))
    %2:4 = onnx.node "Unique" opset 11 (%z) {axis = -1 : i64, sorted = 0 : i64} : (tensor<2x4xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("u2"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2, %0#3, %1#0, %1#1, %1#2, %1#3, %2#0, %2#1, %2#2, %2#3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// NonMaxSuppression, ONNX's suppress_by_IOU case: boxes 0..2 overlap (IoU > 0.5), 3 and 4
// overlap, 5 is alone; by score 3 (0.95), 0 (0.9), then 5 after the suppressed 1, 2, 4.
// CHECK: @nms result 0: tensor<3x3xi64> = {{\[\[}}0, 0, 3], [0, 0, 0], [0, 0, 5]]
// score_threshold 0.4 drops box 5 (0.3).
// CHECK: @nms result 1: tensor<2x3xi64> = {{\[\[}}0, 0, 3], [0, 0, 0]]
// Flipped corners (y2 < y1 or x2 < x1) describe the same boxes.
// CHECK: @nms result 2: tensor<3x3xi64> = {{\[\[}}0, 0, 3], [0, 0, 0], [0, 0, 5]]
// Without max_output_boxes_per_class (default 0) nothing is selected.
// CHECK: @nms result 3: tensor<0x3xi64> = []
module {
  func.func @nms() -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
    %boxes = arith.constant dense<[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]]]> : tensor<1x6x4xf32>
    %flipped = arith.constant dense<[[[1.0, 1.0, 0.0, 0.0], [0.0, 0.1, 1.0, 1.1], [0.0, 0.9, 1.0, -0.1], [0.0, 10.0, 1.0, 11.0], [1.0, 10.1, 0.0, 11.1], [1.0, 101.0, 0.0, 100.0]]]> : tensor<1x6x4xf32>
    %scores = arith.constant dense<[[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]]> : tensor<1x1x6xf32>
    %max = arith.constant dense<[3]> : tensor<1xi64>
    %iou = arith.constant dense<[0.5]> : tensor<1xf32>
    %zero = arith.constant dense<[0.0]> : tensor<1xf32>
    %t = arith.constant dense<[0.4]> : tensor<1xf32>
    %0 = onnx.node "NonMaxSuppression" opset 11 (%boxes, %scores, %max, %iou, %zero) {} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> !onnx.value loc("n0"("m.onnx":0:0))
    %1 = onnx.node "NonMaxSuppression" opset 11 (%boxes, %scores, %max, %iou, %t) {} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> !onnx.value loc("n1"("m.onnx":0:0))
    %2 = onnx.node "NonMaxSuppression" opset 11 (%flipped, %scores, %max, %iou, %zero) {} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> !onnx.value loc("n2"("m.onnx":0:0))
    %3 = onnx.node "NonMaxSuppression" opset 11 (%boxes, %scores) {} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>) -> !onnx.value loc("n3"("m.onnx":0:0))
    onnx.yield %0, %1, %2, %3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// center_point_box 1 ([xc, yc, w, h]) describing the same six boxes.
// CHECK: @nms_more result 0: tensor<3x3xi64> = {{\[\[}}0, 0, 3], [0, 0, 0], [0, 0, 5]]
// Two batches of the same boxes and scores, at most 2 per class: rows (b, 0, 3), (b, 0, 0).
// CHECK: @nms_more result 1: tensor<4x3xi64> = {{\[\[}}0, 0, 3], [0, 0, 0], [1, 0, 3], [1, 0, 0]]
// Two classes of one batch, at most 2 per class.
// CHECK: @nms_more result 2: tensor<4x3xi64> = {{\[\[}}0, 0, 3], [0, 0, 0], [0, 1, 3], [0, 1, 0]]
module {
  func.func @nms_more() -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
    %centers = arith.constant dense<[[[0.5, 0.5, 1.0, 1.0], [0.5, 0.6, 1.0, 1.0], [0.5, 0.4, 1.0, 1.0], [0.5, 10.5, 1.0, 1.0], [0.5, 10.6, 1.0, 1.0], [0.5, 100.5, 1.0, 1.0]]]> : tensor<1x6x4xf32>
    %scores = arith.constant dense<[[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]]> : tensor<1x1x6xf32>
    %boxes2 = arith.constant dense<[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]], [[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]]]> : tensor<2x6x4xf32>
    %scores2 = arith.constant dense<[[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]], [[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]]> : tensor<2x1x6xf32>
    %classes = arith.constant dense<[[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3], [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]]> : tensor<1x2x6xf32>
    %boxes = arith.constant dense<[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]]]> : tensor<1x6x4xf32>
    %max3 = arith.constant dense<[3]> : tensor<1xi64>
    %max2 = arith.constant dense<[2]> : tensor<1xi64>
    %iou = arith.constant dense<[0.5]> : tensor<1xf32>
    %zero = arith.constant dense<[0.0]> : tensor<1xf32>
    %0 = onnx.node "NonMaxSuppression" opset 11 (%centers, %scores, %max3, %iou, %zero) {center_point_box = 1 : i64} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> !onnx.value loc("n0"("m.onnx":0:0))
    %1 = onnx.node "NonMaxSuppression" opset 11 (%boxes2, %scores2, %max2, %iou, %zero) {} : (tensor<2x6x4xf32>, tensor<2x1x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> !onnx.value loc("n1"("m.onnx":0:0))
    %2 = onnx.node "NonMaxSuppression" opset 11 (%boxes, %classes, %max2, %iou, %zero) {} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> !onnx.value loc("n2"("m.onnx":0:0))
    onnx.yield %0, %1, %2 : !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

// Run-time check: a condition of 3 entries (kept by another Compress, so its length is known
// only from the data) for an axis of 2.
// CHECK: @compress_long error: prim.check at 'c': node 'c' (Compress): the condition must not be longer than the input's axis
module {
  func.func @compress_long() -> tensor<*xf32> {
    %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %c0 = arith.constant dense<[true, true, true, false]> : tensor<4xi1>
    %m = arith.constant dense<[true, true, true, false]> : tensor<4xi1>
    %c = onnx.node "Compress" opset 11 (%c0, %m) {axis = 0 : i64} : (tensor<4xi1>, tensor<4xi1>) -> !onnx.value loc("k"("m.onnx":0:0))
    %0 = onnx.node "Compress" opset 11 (%x, %c) {axis = 0 : i64} : (tensor<2xf32>, !onnx.value) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// NonMaxSuppression ties and touching boxes, iou_threshold 0 (any overlap suppresses).
// Four identical boxes of equal score (ONNX's identical_boxes case): the lowest index first,
// which suppresses the others.
// CHECK: @nms_ties result 0: tensor<1x3xi64> = {{\[\[}}0, 0, 0]]
// Boxes 1 and 2 only touch box 3 (which duplicates box 0): zero intersection never
// suppresses, so by score 3, 2, 1 are kept (box 0 overlaps 3).
// CHECK: @nms_ties result 1: tensor<3x3xi64> = {{\[\[}}0, 0, 3], [0, 0, 2], [0, 0, 1]]
module {
  func.func @nms_ties() -> (tensor<*xi64>, tensor<*xi64>) {
    %boxes = arith.constant dense<[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]]]> : tensor<1x4x4xf32>
    %scores = arith.constant dense<[[[0.9, 0.9, 0.9, 0.9]]]> : tensor<1x1x4xf32>
    %touch = arith.constant dense<[[[0.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 2.0], [1.0, 0.0, 2.0, 1.0], [0.0, 0.0, 1.0, 1.0]]]> : tensor<1x4x4xf32>
    %rising = arith.constant dense<[[[0.5, 0.6, 0.7, 0.8]]]> : tensor<1x1x4xf32>
    %max = arith.constant dense<[3]> : tensor<1xi64>
    %iou = arith.constant dense<[0.0]> : tensor<1xf32>
    %0 = onnx.node "NonMaxSuppression" opset 11 (%boxes, %scores, %max, %iou) {} : (tensor<1x4x4xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1xf32>) -> !onnx.value loc("n0"("m.onnx":0:0))
    %1 = onnx.node "NonMaxSuppression" opset 11 (%touch, %rising, %max, %iou) {} : (tensor<1x4x4xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1xf32>) -> !onnx.value loc("n1"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
