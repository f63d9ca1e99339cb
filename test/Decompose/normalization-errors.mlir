// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>/dev/null | FileCheck %s --check-prefix=RUNTIME
// The user-facing errors of the normalization rules (lib/Decompose/Normalization.cpp): each
// names the node, its op type and opset, and what was expected. Extents known only at run
// time are checked by prim.check (the RUNTIME lines).

module {
  func.func @bn_training_outputs(%x: tensor<2x2xf32>, %s: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'bn' (BatchNormalization, opset 15): expected at most 3 outputs (Y, running_mean, running_var) with training_mode=1, got 5
    %0:5 = onnx.node "BatchNormalization" opset 15 (%x, %s, %s, %s, %s) {training_mode = 1 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("bn"("m.onnx":0:0))
    onnx.yield %0#0 : !onnx.value
  }
}

// -----

module {
  func.func @bn_spatial(%x: tensor<2x2xf32>, %s: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'bn' (BatchNormalization, opset 7): spatial=0 (statistics per element) is not supported
    %0 = onnx.node "BatchNormalization" opset 7 (%x, %s, %s, %s, %s) {spatial = 0 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("bn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bn_statistic_used(%x: tensor<2x2xf32>, %s: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'bn' (BatchNormalization, opset 9): output 1 (a training statistic) is used; at inference BatchNormalization computes only Y
    %0:5 = onnx.node "BatchNormalization" opset 9 (%x, %s, %s, %s, %s) {} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.value, !onnx.value, !onnx.value, !onnx.value, !onnx.value) loc("bn"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @bn_rank(%x: tensor<2xf32>, %s: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'bn' (BatchNormalization, opset 15): expected an input of rank >= 2 (N x C x ...), got 'tensor<2xf32>'
    %0 = onnx.node "BatchNormalization" opset 15 (%x, %s, %s, %s, %s) {} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("bn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bn_channels(%x: tensor<1x2x3xf32>, %s: tensor<2xf32>, %m: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'bn' (BatchNormalization, opset 15): input_mean has type 'tensor<3xf32>', expected 2 elements (the channels of X)
    %0 = onnx.node "BatchNormalization" opset 15 (%x, %s, %s, %m, %s) {} : (tensor<1x2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) -> !onnx.value loc("bn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @in_scale_rank(%x: tensor<1x2x3xf32>, %s: tensor<2x1x1xf32>, %b: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'in' (InstanceNormalization, opset 6): scale has type 'tensor<2x1x1xf32>', expected at most rank 2
    %0 = onnx.node "InstanceNormalization" opset 6 (%x, %s, %b) {} : (tensor<1x2x3xf32>, tensor<2x1x1xf32>, tensor<2xf32>) -> !onnx.value loc("in"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ln_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ln' (LayerNormalization, opset 17): axis 2 is out of range for rank 2
    %0 = onnx.node "LayerNormalization" opset 17 (%x, %s) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("ln"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ln_stash(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ln' (LayerNormalization, opset 17): stash_type 7 is not a floating-point type (expected 1, 10, 11 or 16)
    %0 = onnx.node "LayerNormalization" opset 17 (%x, %s) {stash_type = 7 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("ln"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @rms_stash(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'rms' (RMSNormalization, opset 23): stash_type 6 is not a floating-point type (expected 1, 10, 11 or 16)
    %0 = onnx.node "RMSNormalization" opset 23 (%x, %s) {stash_type = 6 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("rms"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @in_rank(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'in' (InstanceNormalization, opset 6): expected an input of rank >= 3 (N x C x D1 ...), got 'tensor<2x3xf32>'
    %0 = onnx.node "InstanceNormalization" opset 6 (%x, %s, %s) {} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("in"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @in_scale(%x: tensor<1x2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'in' (InstanceNormalization, opset 6): scale has extent 3 in dim 0, expected 2 (dim 1 of the input)
    %0 = onnx.node "InstanceNormalization" opset 6 (%x, %s, %s) {} : (tensor<1x2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> !onnx.value loc("in"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @lp_p(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'lp' (LpNormalization, opset 1): attribute 'p' is 3, expected 1 or 2
    %0 = onnx.node "LpNormalization" opset 1 (%x) {p = 3 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("lp"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mvn_twice(%x: tensor<1x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mvn' (MeanVarianceNormalization, opset 13): axis -1 is listed twice
    %0 = onnx.node "MeanVarianceNormalization" opset 13 (%x) {axes = array<i64: 2, -1>} : (tensor<1x2x3xf32>) -> !onnx.value loc("mvn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// The default axes [0, 2, 3] need a rank-4 input.
module {
  func.func @mvn_default_axes(%x: tensor<1x2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mvn' (MeanVarianceNormalization, opset 13): axis 3 is out of range for rank 3
    %0 = onnx.node "MeanVarianceNormalization" opset 13 (%x) {} : (tensor<1x2x3xf32>) -> !onnx.value loc("mvn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gn_rank(%x: tensor<2x4xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gn' (GroupNormalization, opset 21): expected an input of rank >= 3 (N x C x D1 ...), got 'tensor<2x4xf32>'
    %0 = onnx.node "GroupNormalization" opset 21 (%x, %s, %s) {num_groups = 2 : i64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("gn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gn_groups(%x: tensor<1x4x2xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gn' (GroupNormalization, opset 21): expected the attribute 'num_groups' >= 1
    %0 = onnx.node "GroupNormalization" opset 21 (%x, %s, %s) {} : (tensor<1x4x2xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("gn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gn_stash(%x: tensor<1x4x2xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gn' (GroupNormalization, opset 21): stash_type 9 is not a floating-point type (expected 1, 10, 11 or 16)
    %0 = onnx.node "GroupNormalization" opset 21 (%x, %s, %s) {num_groups = 2 : i64, stash_type = 9 : i64} : (tensor<1x4x2xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("gn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gn_multiple(%x: tensor<1x6x2xf32>, %s: tensor<6xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gn' (GroupNormalization, opset 21): the input has 6 channels, expected a multiple of num_groups (4)
    %0 = onnx.node "GroupNormalization" opset 21 (%x, %s, %s) {num_groups = 4 : i64} : (tensor<1x6x2xf32>, tensor<6xf32>, tensor<6xf32>) -> !onnx.value loc("gn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Opset 18 has one scale and bias per group.
module {
  func.func @gn18_scale(%x: tensor<1x4x2xf32>, %s: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gn' (GroupNormalization, opset 18): scale has type 'tensor<4xf32>', expected a vector of 2 (num_groups) elements at opset 18
    %0 = onnx.node "GroupNormalization" opset 18 (%x, %s, %s) {num_groups = 2 : i64} : (tensor<1x4x2xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("gn"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @runtime_channels(%x: tensor<1x?x2xf32>, %s: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // RUNTIME: prim.check %{{.*}}, "node 'gn' (GroupNormalization): the number of channels must be a multiple of num_groups (2)"
    %0 = onnx.node "GroupNormalization" opset 21 (%x, %s, %s) {num_groups = 2 : i64} : (tensor<1x?x2xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("gn"("m.onnx":0:0))
    // RUNTIME: prim.check %{{.*}}, "node 'in' (InstanceNormalization): scale dim 0 must equal input dim 1"
    %1 = onnx.node "InstanceNormalization" opset 6 (%x, %s, %s) {} : (tensor<1x?x2xf32>, tensor<4xf32>, tensor<4xf32>) -> !onnx.value loc("in"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
