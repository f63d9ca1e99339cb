// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the DeformConv rule (lib/Decompose/DeformConv.cpp): each names
// the node, its op type and opset, and what was expected.

module {
  func.func @deform_3d(%x: tensor<1x1x3x3x3xf32>, %w: tensor<1x1x2x2x2xf32>, %o: tensor<1x48x2x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'dc' (DeformConv, opset 19): input 0 (X) has type 'tensor<1x1x3x3x3xf32>', expected a 4-d tensor (N, C, H, W): tcc supports 2-d DeformConv only
    %0 = onnx.node "DeformConv" opset 19 (%x, %w, %o) {} : (tensor<1x1x3x3x3xf32>, tensor<1x1x2x2x2xf32>, tensor<1x48x2x2x2xf32>) -> !onnx.value loc("dc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @deform_dynamic_w(%x: tensor<1x1x3x3xf32>, %w: tensor<?x1x2x2xf32>, %o: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'dc' (DeformConv, opset 22): input 0 (X) has type 'tensor<1x1x3x3xf32>' and input 1 (W) 'tensor<?x1x2x2xf32>', expected a static channel dim of X and a static W
    %0 = onnx.node "DeformConv" opset 22 (%x, %w, %o) {} : (tensor<1x1x3x3xf32>, tensor<?x1x2x2xf32>, tensor<1x8x2x2xf32>) -> !onnx.value loc("dc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @deform_kernel_shape(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>, %o: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'dc' (DeformConv, opset 19): attribute 'kernel_shape' does not match W's spatial dims 2 x 2
    %0 = onnx.node "DeformConv" opset 19 (%x, %w, %o) {kernel_shape = array<i64: 3, 3>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>) -> !onnx.value loc("dc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @deform_offset_channels(%x: tensor<1x2x3x3xf32>, %w: tensor<1x2x2x2xf32>, %o: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'dc' (DeformConv, opset 19): input 2 (offset) has type 'tensor<1x8x2x2xf32>', expected dim 1 = offset_group * kH * kW * 2 = 16
    %0 = onnx.node "DeformConv" opset 19 (%x, %w, %o) {offset_group = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<1x2x2x2xf32>, tensor<1x8x2x2xf32>) -> !onnx.value loc("dc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @deform_output_extent(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>, %o: tensor<1x8x3x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'dc' (DeformConv, opset 19): input 2 (offset) has 3 output positions on spatial dim 0, expected 2 for X's extent, kernel, pads, strides and dilations
    %0 = onnx.node "DeformConv" opset 19 (%x, %w, %o) {} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x3x2xf32>) -> !onnx.value loc("dc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @deform_groups(%x: tensor<1x3x3x3xf32>, %w: tensor<2x1x2x2xf32>, %o: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'dc' (DeformConv, opset 19): X has 3 channels and W is (2, 1, ...), expected C = W.dim1 * group (2) and oC divisible by group
    %0 = onnx.node "DeformConv" opset 19 (%x, %w, %o) {group = 2 : i64} : (tensor<1x3x3x3xf32>, tensor<2x1x2x2xf32>, tensor<1x8x2x2xf32>) -> !onnx.value loc("dc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
