// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the rules of lib/Decompose/Rearrange.cpp (DepthToSpace,
// SpaceToDepth, OneHot, EyeLike, LRN, Einsum): each names the node, its op type and opset,
// and what was expected.

module {
  func.func @d2s_channels(%arg0: tensor<1x6x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'd2s' (DepthToSpace, opset 13): the channel extent is 6, expected a multiple of 4
    %0 = onnx.node "DepthToSpace" opset 13 (%arg0) {blocksize = 2 : i64} : (tensor<1x6x2x2xf32>) -> !onnx.value loc("d2s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @d2s_mode(%arg0: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'd2s' (DepthToSpace, opset 13): attribute 'mode' must be "DCR" or "CRD", got "XYZ"
    %0 = onnx.node "DepthToSpace" opset 13 (%arg0) {blocksize = 2 : i64, mode = "XYZ"} : (tensor<1x8x2x2xf32>) -> !onnx.value loc("d2s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @d2s_blocksize(%arg0: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'd2s' (DepthToSpace, opset 13): attribute 'blocksize' must be a positive INT, got none
    %0 = onnx.node "DepthToSpace" opset 13 (%arg0) {} : (tensor<1x8x2x2xf32>) -> !onnx.value loc("d2s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @s2d_height(%arg0: tensor<1x2x3x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's2d' (SpaceToDepth, opset 13): the height is 3, expected a multiple of 2
    %0 = onnx.node "SpaceToDepth" opset 13 (%arg0) {blocksize = 2 : i64} : (tensor<1x2x3x4xf32>) -> !onnx.value loc("s2d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @s2d_rank(%arg0: tensor<2x3x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's2d' (SpaceToDepth, opset 13): expected a 4-d input (N, C, H, W), got 'tensor<2x3x4xf32>'
    %0 = onnx.node "SpaceToDepth" opset 13 (%arg0) {blocksize = 2 : i64} : (tensor<2x3x4xf32>) -> !onnx.value loc("s2d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @onehot_values(%arg0: tensor<3xi64>, %arg1: tensor<i64>, %arg2: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'oh' (OneHot, opset 11): input 2 (values) has type 'tensor<3xf32>', expected 2 elements [off_value, on_value]
    %0 = onnx.node "OneHot" opset 11 (%arg0, %arg1, %arg2) {} : (tensor<3xi64>, tensor<i64>, tensor<3xf32>) -> !onnx.value loc("oh"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @onehot_depth(%arg0: tensor<3xi64>, %arg1: tensor<2xi64>, %arg2: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'oh' (OneHot, opset 11): input 1 (depth) has type 'tensor<2xi64>', expected a tensor of one element
    %0 = onnx.node "OneHot" opset 11 (%arg0, %arg1, %arg2) {} : (tensor<3xi64>, tensor<2xi64>, tensor<2xf32>) -> !onnx.value loc("oh"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @eyelike_rank(%arg0: tensor<2x3x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'eye' (EyeLike, opset 9): expected a 2-d input, got 'tensor<2x3x4xf32>'
    %0 = onnx.node "EyeLike" opset 9 (%arg0) {} : (tensor<2x3x4xf32>) -> !onnx.value loc("eye"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @eyelike_dtype(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'eye' (EyeLike, opset 9): attribute 'dtype' is ONNX data type 8, expected a numeric or bool type
    %0 = onnx.node "EyeLike" opset 9 (%arg0) {dtype = 8 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("eye"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @lrn_size(%arg0: tensor<1x3x4x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'lrn' (LRN, opset 13): attribute 'size' must be a positive INT, got none
    %0 = onnx.node "LRN" opset 13 (%arg0) {} : (tensor<1x3x4x4xf32>) -> !onnx.value loc("lrn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @einsum_terms(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'es' (Einsum, opset 12): equation "ij,jk->ik" has 2 input terms, expected one per input (1)
    %0 = onnx.node "Einsum" opset 12 (%arg0) {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> !onnx.value loc("es"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @einsum_char(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'es' (Einsum, opset 12): equation term "i2" must be letters with at most one "..."
    %0 = onnx.node "Einsum" opset 12 (%arg0) {equation = "i2->i"} : (tensor<2x3xf32>) -> !onnx.value loc("es"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @einsum_rank(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'es' (Einsum, opset 12): equation term "ijk" names 3 dims, expected input 0's rank 2
    %0 = onnx.node "Einsum" opset 12 (%arg0) {equation = "ijk->i"} : (tensor<2x3xf32>) -> !onnx.value loc("es"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @einsum_output(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'es' (Einsum, opset 12): output label 'z' must appear in the inputs and once in the output
    %0 = onnx.node "Einsum" opset 12 (%arg0) {equation = "ij->iz"} : (tensor<2x3xf32>) -> !onnx.value loc("es"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @einsum_types(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf64>) -> tensor<*xf32> {
    // CHECK: error: node 'es' (Einsum, opset 12): input 1 has element type 'f64', expected input 0's 'f32'
    %0 = onnx.node "Einsum" opset 12 (%arg0, %arg1) {equation = "ij,j->i"} : (tensor<2x3xf32>, tensor<3xf64>) -> !onnx.value loc("es"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
