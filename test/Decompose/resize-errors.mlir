// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the Resize and Upsample rules (lib/Decompose/Resize.cpp): each
// names the node, its op type and opset, and what was expected.

module {
  func.func @scales_not_constant(%arg0: tensor<1x1x2x2xf32>, %arg1: tensor<?xf32>) -> tensor<*xf32> {
    // Scales read at run time must still have a static count (one per axis).
    // CHECK: error: node 'r' (Resize, opset 13): scales has type 'tensor<?xf32>', expected a 1-d floating-point tensor of static length
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %none, %arg1) {} : (tensor<1x1x2x2xf32>, none, tensor<?xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scales_and_sizes(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 13): expected one of the inputs scales (2) and sizes (3), got both
    %scales = arith.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
    %sizes = arith.constant dense<[1, 1, 4, 4]> : tensor<4xi64>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %none, %scales, %sizes) {} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, tensor<4xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @neither(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 11): expected one of the inputs scales (2) and sizes (3), got neither
    %empty = arith.constant dense<> : tensor<0xf32>
    %0 = onnx.node "Resize" opset 11 (%arg0, %empty, %empty) {} : (tensor<1x1x2x2xf32>, tensor<0xf32>, tensor<0xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bad_mode(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 13): attribute 'mode' is "area", expected nearest, linear or cubic
    %scales = arith.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %none, %scales) {mode = "area"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @removed_transform(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 13): attribute 'coordinate_transformation_mode' is "tf_half_pixel_for_nn", expected half_pixel, pytorch_half_pixel, align_corners, asymmetric or tf_crop_and_resize
    %scales = arith.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %none, %scales) {coordinate_transformation_mode = "tf_half_pixel_for_nn"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @antialias_nearest(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 18): antialias applies to the linear and cubic modes, the mode is nearest
    %scales = arith.constant dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 18 (%arg0, %none, %scales) {antialias = 1} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scales_count(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 18): scales has 4 entries, expected 2 (one per resized axis)
    %scales = arith.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 18 (%arg0, %none, %scales) {axes = array<i64: 2, 3>} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @roi_count(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 13): roi has 2 entries, expected 8 (start and end of each resized axis) with tf_crop_and_resize
    %roi = arith.constant dense<[0.0, 1.0]> : tensor<2xf32>
    %sizes = arith.constant dense<[1, 1, 3, 3]> : tensor<4xi64>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %roi, %none, %sizes) {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x2x2xf32>, tensor<2xf32>, none, tensor<4xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dynamic_fractional_scale(%arg0: tensor<1x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Resize, opset 13): dim 1 of the input is dynamic and scaled by 1.5: tcc needs a static extent there unless the scale is an integer (the output extent must be index arithmetic over the input's)
    %scales = arith.constant dense<[1.0, 1.5]> : tensor<2xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %none, %scales) {} : (tensor<1x?xf32>, none, tensor<2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @upsample_shrink(%arg0: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'u' (Upsample, opset 9): scale 0.5 of dim 2 must be >= 1
    %scales = arith.constant dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>
    %0 = onnx.node "Upsample" opset 9 (%arg0, %scales) {} : (tensor<1x1x4x4xf32>, tensor<4xf32>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @upsample_deprecated(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'u' (Upsample, opset 10): Upsample is deprecated since opset 10; the model should use Resize
    %scales = arith.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
    %0 = onnx.node "Upsample" opset 10 (%arg0, %scales) {} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
