// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the rules of lib/Decompose/Sampling.cpp (GridSample, AffineGrid,
// RoiAlign, CenterCropPad) and Col2Im.cpp: each names the node, its op type and opset, and what was
// expected.

module {
  func.func @gs_mode16(%arg0: tensor<1x1x2x2xf32>, %arg1: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 16): attribute 'mode' is "linear", expected bilinear, nearest or bicubic
    %0 = onnx.node "GridSample" opset 16 (%arg0, %arg1) {mode = "linear"} : (tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_padding(%arg0: tensor<1x1x2x2xf32>, %arg1: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 20): attribute 'padding_mode' is "mirror", expected zeros, border or reflection
    %0 = onnx.node "GridSample" opset 20 (%arg0, %arg1) {padding_mode = "mirror"} : (tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_rank16(%arg0: tensor<1x1x2x2x2xf32>, %arg1: tensor<1x2x2x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 16): input 0 (X) has type 'tensor<1x1x2x2x2xf32>', expected a 4-d tensor (N, C, H, W)
    %0 = onnx.node "GridSample" opset 16 (%arg0, %arg1) {} : (tensor<1x1x2x2x2xf32>, tensor<1x2x2x2x3xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_grid_last(%arg0: tensor<1x1x2x2xf32>, %arg1: tensor<1x2x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 20): input 1 (grid) has type 'tensor<1x2x2x3xf32>', expected rank 4 (N, D1_out, ..., Dr_out, 2) with a static last dim of 2
    %0 = onnx.node "GridSample" opset 20 (%arg0, %arg1) {} : (tensor<1x1x2x2xf32>, tensor<1x2x2x3xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_grid_int(%arg0: tensor<1x1x2x2xf32>, %arg1: tensor<1x2x2x2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 20): input 1 (grid) has type 'tensor<1x2x2x2xi64>', expected a floating-point tensor
    %0 = onnx.node "GridSample" opset 20 (%arg0, %arg1) {} : (tensor<1x1x2x2xf32>, tensor<1x2x2x2xi64>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_bool(%arg0: tensor<1x1x2x2xi1>, %arg1: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 20): input 0 (X) has type 'tensor<1x1x2x2xi1>', expected numbers for linear and cubic interpolation
    %0 = onnx.node "GridSample" opset 20 (%arg0, %arg1) {} : (tensor<1x1x2x2xi1>, tensor<1x2x2x2xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_batch(%arg0: tensor<2x1x2x2xf32>, %arg1: tensor<3x2x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 20): input 1 (grid) has batch 3, expected X's 2
    %0 = onnx.node "GridSample" opset 20 (%arg0, %arg1) {} : (tensor<2x1x2x2xf32>, tensor<3x2x2x2xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_taps(%arg0: tensor<1x1x2x2x2x2x2xf32>, %arg1: tensor<1x1x1x1x1x1x5xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 20): interpolating 5 spatial dims needs 4^5 gathers, tcc supports at most 256
    %0 = onnx.node "GridSample" opset 20 (%arg0, %arg1) {mode = "cubic"} : (tensor<1x1x2x2x2x2x2xf32>, tensor<1x1x1x1x1x1x5xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gs_empty(%arg0: tensor<1x1x0x2xf32>, %arg1: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gs' (GridSample, opset 20): dim 2 of input 0 (X) is empty, expected at least one element to sample from
    %0 = onnx.node "GridSample" opset 20 (%arg0, %arg1) {} : (tensor<1x1x0x2xf32>, tensor<1x2x2x2xf32>) -> !onnx.value loc("gs"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ag_size(%arg0: tensor<1x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ag' (AffineGrid, opset 20): input 1 (size) has type 'tensor<3xi64>', expected 4 (N, C, H, W) or 5 (N, C, D, H, W) integers
    %c0 = arith.constant dense<[1, 1, 4]> : tensor<3xi64>
    %0 = onnx.node "AffineGrid" opset 20 (%arg0, %c0) {} : (tensor<1x2x3xf32>, tensor<3xi64>) -> !onnx.value loc("ag"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ag_theta(%arg0: tensor<1x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ag' (AffineGrid, opset 20): input 0 (theta) has type 'tensor<1x2x3xf32>', expected (N, 3, 4) for a 3-d size
    %c0 = arith.constant dense<[1, 1, 2, 3, 4]> : tensor<5xi64>
    %0 = onnx.node "AffineGrid" opset 20 (%arg0, %c0) {} : (tensor<1x2x3xf32>, tensor<5xi64>) -> !onnx.value loc("ag"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ag_negative(%arg0: tensor<1x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ag' (AffineGrid, opset 20): input 1 (size) has a negative extent -2
    %c0 = arith.constant dense<[1, 1, -2, 3]> : tensor<4xi64>
    %0 = onnx.node "AffineGrid" opset 20 (%arg0, %c0) {} : (tensor<1x2x3xf32>, tensor<4xi64>) -> !onnx.value loc("ag"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_adaptive(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 16): sampling_ratio 0 (adaptive) needs input 1 (rois) to be a constant (an initializer or a Constant node): the number of sampling points per bin depends on each roi's size; give a sampling_ratio > 0 otherwise
    %0 = onnx.node "RoiAlign" opset 16 (%arg0, %arg1, %arg2) {} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_mode(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 16): attribute 'mode' is "sum", expected avg or max
    %0 = onnx.node "RoiAlign" opset 16 (%arg0, %arg1, %arg2) {mode = "sum", sampling_ratio = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_transform(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 16): attribute 'coordinate_transformation_mode' is "asymmetric", expected half_pixel or output_half_pixel
    %0 = onnx.node "RoiAlign" opset 16 (%arg0, %arg1, %arg2) {coordinate_transformation_mode = "asymmetric", sampling_ratio = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_output(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 16): attributes 'output_height' and 'output_width' are 0 and 1, expected >= 1
    %0 = onnx.node "RoiAlign" opset 16 (%arg0, %arg1, %arg2) {output_height = 0 : i64, sampling_ratio = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_ratio(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 22): attribute 'sampling_ratio' is -1, expected >= 0
    %0 = onnx.node "RoiAlign" opset 22 (%arg0, %arg1, %arg2) {sampling_ratio = -1 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_rois(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<2x5xf32>, %arg2: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 22): input 1 (rois) has type 'tensor<2x5xf32>', expected (num_rois, 4)
    %0 = onnx.node "RoiAlign" opset 22 (%arg0, %arg1, %arg2) {sampling_ratio = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<2x5xf32>, tensor<2xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_indices(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<3xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 22): input 2 (batch_indices) has 3 entries, expected one per roi (2)
    %0 = onnx.node "RoiAlign" opset 22 (%arg0, %arg1, %arg2) {sampling_ratio = 2 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<3xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ra_rank(%arg0: tensor<1x4x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'ra' (RoiAlign, opset 10): input 0 (X) has type 'tensor<1x4x4xf32>', expected a 4-d tensor (N, C, H, W)
    %0 = onnx.node "RoiAlign" opset 10 (%arg0, %arg1, %arg2) {sampling_ratio = 2 : i64} : (tensor<1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> !onnx.value loc("ra"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @c2i_image(%arg0: tensor<1x4x4xf32>, %arg1: tensor<?xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'c2i' (Col2Im, opset 18): input 1 (image_shape) has type 'tensor<?xi64>', expected a 1-d integer tensor of static length
    %c0 = arith.constant dense<[2, 2]> : tensor<2xi64>
    %0 = onnx.node "Col2Im" opset 18 (%arg0, %arg1, %c0) {} : (tensor<1x4x4xf32>, tensor<?xi64>, tensor<2xi64>) -> !onnx.value loc("c2i"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @c2i_block(%arg0: tensor<1x4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c2i' (Col2Im, opset 18): image_shape has 2 entries and block_shape 3, expected the same number (>= 1)
    %c0 = arith.constant dense<[3, 3]> : tensor<2xi64>
    %c1 = arith.constant dense<[2, 2, 1]> : tensor<3xi64>
    %0 = onnx.node "Col2Im" opset 18 (%arg0, %c0, %c1) {} : (tensor<1x4x4xf32>, tensor<2xi64>, tensor<3xi64>) -> !onnx.value loc("c2i"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @c2i_channels(%arg0: tensor<1x6x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c2i' (Col2Im, opset 18): input 0 has type 'tensor<1x6x4xf32>': dim 1 must be a multiple of prod(block_shape) = 4
    %c0 = arith.constant dense<[3, 3]> : tensor<2xi64>
    %c1 = arith.constant dense<[2, 2]> : tensor<2xi64>
    %0 = onnx.node "Col2Im" opset 18 (%arg0, %c0, %c1) {} : (tensor<1x6x4xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("c2i"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @c2i_blocks(%arg0: tensor<1x4x5xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c2i' (Col2Im, opset 18): input 0 has 5 blocks (dim 2), expected 4 for these image_shape, block_shape, dilations, pads and strides
    %c0 = arith.constant dense<[3, 3]> : tensor<2xi64>
    %c1 = arith.constant dense<[2, 2]> : tensor<2xi64>
    %0 = onnx.node "Col2Im" opset 18 (%arg0, %c0, %c1) {} : (tensor<1x4x5xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("c2i"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @c2i_large(%arg0: tensor<1x4x1xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c2i' (Col2Im, opset 18): spatial dim 0: the block (4 with dilation) is larger than the padded image (3)
    %c0 = arith.constant dense<[3, 3]> : tensor<2xi64>
    %c1 = arith.constant dense<[2, 2]> : tensor<2xi64>
    %0 = onnx.node "Col2Im" opset 18 (%arg0, %c0, %c1) {dilations = array<i64: 3, 1>} : (tensor<1x4x1xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("c2i"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @c2i_strides(%arg0: tensor<1x4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c2i' (Col2Im, opset 18): attribute 'strides' has 1 entries, expected one per spatial dim (2)
    %c0 = arith.constant dense<[3, 3]> : tensor<2xi64>
    %c1 = arith.constant dense<[2, 2]> : tensor<2xi64>
    %0 = onnx.node "Col2Im" opset 18 (%arg0, %c0, %c1) {strides = array<i64: 1>} : (tensor<1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("c2i"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @c2i_bool(%arg0: tensor<1x4x4xi1>) -> tensor<*xf32> {
    // CHECK: error: node 'c2i' (Col2Im, opset 18): input 0 has type 'tensor<1x4x4xi1>', expected numbers (blocks are summed)
    %c0 = arith.constant dense<[3, 3]> : tensor<2xi64>
    %c1 = arith.constant dense<[2, 2]> : tensor<2xi64>
    %0 = onnx.node "Col2Im" opset 18 (%arg0, %c0, %c1) {} : (tensor<1x4x4xi1>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("c2i"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ccp_shape(%arg0: tensor<4x4xf32>, %arg1: tensor<?xi64>) -> tensor<*xf32> {
    // A shape read at run time must still have a static count (one entry per axis).
    // CHECK: error: node 'ccp' (CenterCropPad, opset 18): input 1 (shape) has type 'tensor<?xi64>', expected a 1-d integer tensor
    %0 = onnx.node "CenterCropPad" opset 18 (%arg0, %arg1) {} : (tensor<4x4xf32>, tensor<?xi64>) -> !onnx.value loc("ccp"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ccp_dynamic(%arg0: tensor<?x4xf32>) -> tensor<*xf32> {
    // A dynamic dim is cropped or padded as its run-time extent asks; a negative target is
    // still an error.
    // CHECK: error: node 'ccp' (CenterCropPad, opset 18): input 1 (shape) has entry -2 for dim 0, expected >= 0
    %c0 = arith.constant dense<[-2, 4]> : tensor<2xi64>
    %0 = onnx.node "CenterCropPad" opset 18 (%arg0, %c0) {} : (tensor<?x4xf32>, tensor<2xi64>) -> !onnx.value loc("ccp"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ccp_count(%arg0: tensor<4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ccp' (CenterCropPad, opset 18): input 1 (shape) has 2 entries, expected 1 (one per axis)
    %c0 = arith.constant dense<[2, 4]> : tensor<2xi64>
    %0 = onnx.node "CenterCropPad" opset 18 (%arg0, %c0) {axes = array<i64: 0>} : (tensor<4x4xf32>, tensor<2xi64>) -> !onnx.value loc("ccp"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ccp_axes(%arg0: tensor<4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ccp' (CenterCropPad, opset 18): attribute 'axes' lists dim 1 twice
    %c0 = arith.constant dense<[2, 4]> : tensor<2xi64>
    %0 = onnx.node "CenterCropPad" opset 18 (%arg0, %c0) {axes = array<i64: 1, -1>} : (tensor<4x4xf32>, tensor<2xi64>) -> !onnx.value loc("ccp"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ccp_negative(%arg0: tensor<4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ccp' (CenterCropPad, opset 18): input 1 (shape) has entry -2 for dim 0, expected >= 0
    %c0 = arith.constant dense<[-2, 4]> : tensor<2xi64>
    %0 = onnx.node "CenterCropPad" opset 18 (%arg0, %c0) {} : (tensor<4x4xf32>, tensor<2xi64>) -> !onnx.value loc("ccp"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
