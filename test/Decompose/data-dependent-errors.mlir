// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the data-dependent rules (lib/Decompose/DataDependent.cpp): each
// names the node, its op type and opset, and what was expected.

module {
  func.func @compress_condition_type(%x: tensor<3xf32>, %c: tensor<3xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Compress, opset 11): condition must be a 1-D bool tensor, got 'tensor<3xi64>'
    %0 = onnx.node "Compress" opset 11 (%x, %c) {} : (tensor<3xf32>, tensor<3xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @compress_condition_rank(%x: tensor<2x2xf32>, %c: tensor<2x2xi1>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Compress, opset 11): condition must be a 1-D bool tensor, got 'tensor<2x2xi1>'
    %0 = onnx.node "Compress" opset 11 (%x, %c) {axis = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @compress_condition_long(%x: tensor<3x2xf32>, %c: tensor<4xi1>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Compress, opset 11): condition has 4 entries but axis 0 of the input has only 3
    %0 = onnx.node "Compress" opset 11 (%x, %c) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<4xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @compress_axis(%x: tensor<3x2xf32>, %c: tensor<2xi1>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Compress, opset 11): axis 2 is out of range for rank 2
    %0 = onnx.node "Compress" opset 11 (%x, %c) {axis = 2 : i64} : (tensor<3x2xf32>, tensor<2xi1>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unique_dynamic(%x: tensor<3x?xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'u' (Unique, opset 11): Unique along an axis needs the other dims static (each slice is compared element by element)
    %0:4 = onnx.node "Unique" opset 11 (%x) {axis = 0 : i64} : (tensor<3x?xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("u"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2, %0#3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @unique_slice_limit(%x: tensor<2x300xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'u' (Unique, opset 11): Unique along an axis compares slices of 300 elements with one sort per element; tcc's limit is 256
    %0:4 = onnx.node "Unique" opset 11 (%x) {axis = 0 : i64} : (tensor<2x300xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("u"("m.onnx":0:0))
    onnx.yield %0#0, %0#1, %0#2, %0#3 : !onnx.value, !onnx.value, !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @nms_rank(%b: tensor<6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'n' (NonMaxSuppression, opset 11): boxes must be [batch, boxes, 4] and scores [batch, classes, boxes]
    %0 = onnx.node "NonMaxSuppression" opset 11 (%b, %s) {} : (tensor<6x4xf32>, tensor<1x1x6xf32>) -> !onnx.value loc("n"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nms_dynamic_boxes(%b: tensor<1x?x4xf32>, %s: tensor<1x1x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'n' (NonMaxSuppression, opset 11): the number of boxes must be static and each box 4 numbers, got 'tensor<1x?x4xf32>'
    %0 = onnx.node "NonMaxSuppression" opset 11 (%b, %s) {} : (tensor<1x?x4xf32>, tensor<1x1x?xf32>) -> !onnx.value loc("n"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nms_box_size(%b: tensor<1x6x5xf32>, %s: tensor<1x1x6xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'n' (NonMaxSuppression, opset 10): the number of boxes must be static and each box 4 numbers, got 'tensor<1x6x5xf32>'
    %0 = onnx.node "NonMaxSuppression" opset 10 (%b, %s) {} : (tensor<1x6x5xf32>, tensor<1x1x6xf32>) -> !onnx.value loc("n"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nms_too_many(%b: tensor<1x300x4xf32>, %s: tensor<1x1x300xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'n' (NonMaxSuppression, opset 11): NonMaxSuppression over 300 boxes: the greedy selection is unrolled over the boxes, up to 256 (longer needs a run-time loop, which tcc lacks)
    %0 = onnx.node "NonMaxSuppression" opset 11 (%b, %s) {} : (tensor<1x300x4xf32>, tensor<1x1x300xf32>) -> !onnx.value loc("n"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Static extents that disagree: one error naming both values, nothing built after it (this
// crashed tcc-opt before: a null value reached prim.gather).
module {
  func.func @nms_batch_mismatch(%b: tensor<2x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'n' (NonMaxSuppression, opset 11): scores and boxes must have the same batch (1 vs 2)
    // CHECK-NOT: node 'n' (NonMaxSuppression, opset 11): node 'n'
    %0 = onnx.node "NonMaxSuppression" opset 11 (%b, %s) {} : (tensor<2x6x4xf32>, tensor<1x1x6xf32>) -> !onnx.value loc("n"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @nms_score_count(%b: tensor<1x6x4xf32>, %s: tensor<1x1x5xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'n' (NonMaxSuppression, opset 11): scores must have one score per box (5 vs 6)
    %0 = onnx.node "NonMaxSuppression" opset 11 (%b, %s) {} : (tensor<1x6x4xf32>, tensor<1x1x5xf32>) -> !onnx.value loc("n"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
