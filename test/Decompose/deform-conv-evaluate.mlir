// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s
// DeformConv (lib/Decompose/DeformConv.cpp) on constants, evaluated. Expected values
// ("numpy:") from a direct numpy loop over ONNX's formula (bilinear samples in pixel
// coordinates, 0 outside the image); quarter-valued inputs make them exact.

// group 2, offset_group 2, strides 2, asymmetric pads [1, 0, 0, 1], mask and bias; samples
// fall inside, across and outside the image edges.
// numpy: [[[[0.5, 0.5], [-0.15625, 0.517578125]], [[-1.2578125, -1.0], [-0.74609375, -1.1484375]]]]
// CHECK: @deform_groups_mask_bias result 0: tensor<1x2x2x2xf32> = {{\[\[\[\[}}0.5, 0.5], [-0.15625, 0.5175781{{[0-9]*}}]], {{\[\[}}-1.2578125, -1.0], [-0.74609375, -1.1484375]]]]
module {
  func.func @deform_groups_mask_bias() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[2.0, 0.5, 0.75], [1.75, 0.25, 1.25], [1.5, -1.25, -2.0]], [[-0.75, -1.0, 1.5], [1.75, -2.0, 0.0], [1.25, -1.5, 1.25]]]]> : tensor<1x2x3x3xf32>
    %w = arith.constant dense<[[[[-0.75, 0.0], [0.75, -0.5]]], [[[-0.25, -0.5], [0.5, -0.5]]]]> : tensor<2x1x2x2xf32>
    %off = arith.constant dense<[[[[1.5, -0.25], [0.0, 0.0]], [[0.25, 0.25], [0.0, 1.5]], [[1.0, 1.0], [0.75, 0.5]], [[-0.5, 1.5], [0.0, -1.0]], [[1.0, -1.0], [1.25, 0.25]], [[-1.25, -1.5], [-0.25, -1.5]], [[-1.25, 0.0], [1.5, 0.0]], [[1.0, 1.25], [1.0, 0.5]], [[-0.25, 0.0], [-0.75, 0.0]], [[-0.5, -0.75], [1.5, -1.5]], [[-1.25, -1.0], [1.5, 0.5]], [[1.25, -1.0], [0.75, -0.5]], [[0.0, -1.5], [0.5, 1.0]], [[0.5, -1.0], [0.0, -0.75]], [[1.5, 1.25], [-1.0, 0.0]], [[1.5, 1.25], [0.75, 0.5]]]]> : tensor<1x16x2x2xf32>
    %b = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
    %m = arith.constant dense<[[[[0.0, 0.75], [0.5, 0.0]], [[0.25, 0.5], [0.75, 0.5]], [[0.75, 1.0], [0.75, 0.25]], [[0.75, 0.5], [0.0, 0.0]], [[0.75, 0.25], [0.5, 0.25]], [[0.25, 0.0], [0.25, 1.0]], [[0.5, 0.25], [0.5, 1.0]], [[0.25, 0.5], [0.5, 0.75]]]]> : tensor<1x8x2x2xf32>
    %0 = onnx.node "DeformConv" opset 19 (%x, %w, %off, %b, %m) {group = 2 : i64, offset_group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 1>, kernel_shape = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x1x2x2xf32>, tensor<1x16x2x2xf32>, tensor<2xf32>, tensor<1x8x2x2xf32>) -> !onnx.value loc("dc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
