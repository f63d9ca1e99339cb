// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>/dev/null | FileCheck %s --check-prefix=RUNTIME
// The user-facing errors of the pooling rules (lib/Decompose/Pooling.cpp): each names the
// node, its op type and opset, and what was expected. MaxUnpool's check that I has X's
// shape, where a dim is known only at run time, is a prim.check (the RUNTIME line).

module {
  func.func @pool_rank(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (MaxPool, opset 12): expected an input of rank >= 3 (N x C x D1 ...), got 'tensor<2x3xf32>'
    %0 = onnx.node "MaxPool" opset 12 (%arg0) {kernel_shape = array<i64: 2>} : (tensor<2x3xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @kernel_shape(%arg0: tensor<1x1x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (AveragePool, opset 19): expected the attribute 'kernel_shape'
    %0 = onnx.node "AveragePool" opset 19 (%arg0) {} : (tensor<1x1x4xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @auto_pad(%arg0: tensor<1x1x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (AveragePool, opset 19): attribute 'auto_pad' is "SAME", expected NOTSET, VALID, SAME_UPPER or SAME_LOWER
    %0 = onnx.node "AveragePool" opset 19 (%arg0) {kernel_shape = array<i64: 2>, auto_pad = "SAME"} : (tensor<1x1x4xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @same_dynamic(%arg0: tensor<1x1x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (MaxPool, opset 12): auto_pad SAME_UPPER with stride 2 needs a static input extent, spatial dim 0 is dynamic (tcc's paddings are compile-time constants)
    %0 = onnx.node "MaxPool" opset 12 (%arg0) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, auto_pad = "SAME_UPPER"} : (tensor<1x1x?xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @ceil_dynamic(%arg0: tensor<1x1x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (AveragePool, opset 19): ceil_mode with stride 2 needs a static input extent, spatial dim 0 is dynamic
    %0 = onnx.node "AveragePool" opset 19 (%arg0) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, ceil_mode = 1 : i64} : (tensor<1x1x?xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @window_too_large(%arg0: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (MaxPool, opset 12): spatial dim 0: the window (3 with dilation) is larger than the padded input (2 + 0)
    %0 = onnx.node "MaxPool" opset 12 (%arg0) {kernel_shape = array<i64: 2>, dilations = array<i64: 2>} : (tensor<1x1x2xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @indices_before_8(%arg0: tensor<1x1x4xf32>) -> (tensor<*xf32>, tensor<*xi64>) {
    // CHECK: error: node 'p' (MaxPool, opset 1): MaxPool has an Indices output from opset 8 on
    %0:2 = onnx.node "MaxPool" opset 1 (%arg0) {kernel_shape = array<i64: 2>} : (tensor<1x1x4xf32>) -> (!onnx.value, !onnx.value) loc("p"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @storage_order(%arg0: tensor<1x1x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (MaxPool, opset 12): attribute 'storage_order' is 2, expected 0 (row major) or 1 (column major)
    %0 = onnx.node "MaxPool" opset 12 (%arg0) {kernel_shape = array<i64: 2>, storage_order = 2 : i64} : (tensor<1x1x4xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @average_int(%arg0: tensor<1x1x4xi32>) -> tensor<*xi32> {
    // CHECK: error: node 'p' (AveragePool, opset 19): input 0 has type 'tensor<1x1x4xi32>', expected a floating-point tensor
    %0 = onnx.node "AveragePool" opset 19 (%arg0) {kernel_shape = array<i64: 2>} : (tensor<1x1x4xi32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @lp_int(%arg0: tensor<1x1x4xi32>) -> tensor<*xi32> {
    // CHECK: error: node 'p' (LpPool, opset 18): input 0 has type 'tensor<1x1x4xi32>', expected a floating-point tensor
    %0 = onnx.node "LpPool" opset 18 (%arg0) {kernel_shape = array<i64: 2>} : (tensor<1x1x4xi32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @lp_p(%arg0: tensor<1x1x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'p' (LpPool, opset 18): attribute 'p' is 0, expected >= 1
    %0 = onnx.node "LpPool" opset 18 (%arg0) {kernel_shape = array<i64: 2>, p = 0 : i64} : (tensor<1x1x4xf32>) -> !onnx.value loc("p"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @global_rank(%arg0: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (GlobalMaxPool, opset 1): expected an input of rank >= 3 (N x C x D1 ...), got 'tensor<2x3xf32>'
    %0 = onnx.node "GlobalMaxPool" opset 1 (%arg0) {} : (tensor<2x3xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @global_average_int(%arg0: tensor<1x1x4xi32>) -> tensor<*xi32> {
    // CHECK: error: node 'g' (GlobalAveragePool, opset 1): input 0 has type 'tensor<1x1x4xi32>', expected a floating-point tensor
    %0 = onnx.node "GlobalAveragePool" opset 1 (%arg0) {} : (tensor<1x1x4xi32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @global_lp_p(%arg0: tensor<1x1x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (GlobalLpPool, opset 2): attribute 'p' is -1, expected >= 1
    %0 = onnx.node "GlobalLpPool" opset 2 (%arg0) {p = -1 : i64} : (tensor<1x1x4xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unpool_float_indices(%arg0: tensor<1x1x2xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'u' (MaxUnpool, opset 11): I has type 'tensor<1x1x2xf32>', expected an integer tensor
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unpool_rank(%arg0: tensor<1x2xf32>, %arg1: tensor<1x2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'u' (MaxUnpool, opset 11): expected an input of rank >= 3 (N x C x D1 ...), got 'tensor<1x2xf32>'
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 2>} : (tensor<1x2xf32>, tensor<1x2xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unpool_indices_rank(%arg0: tensor<1x1x2xf32>, %arg1: tensor<1x2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'u' (MaxUnpool, opset 11): I has type 'tensor<1x2xi64>', expected the shape of X 'tensor<1x1x2xf32>'
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x2xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unpool_kernel_shape(%arg0: tensor<1x1x2xf32>, %arg1: tensor<1x1x2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'u' (MaxUnpool, opset 11): expected the attribute 'kernel_shape'
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1) {} : (tensor<1x1x2xf32>, tensor<1x1x2xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unpool_shape_runtime(%arg0: tensor<1x1x2xf32>, %arg1: tensor<1x1x2xi64>, %arg2: tensor<?xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'u' (MaxUnpool, opset 11): output_shape has type 'tensor<?xi64>', expected a 1-d integer tensor of static length
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1, %arg2) {kernel_shape = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x1x2xi64>, tensor<?xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unpool_shape_count(%arg0: tensor<1x1x2xf32>, %arg1: tensor<1x1x2xi64>) -> tensor<*xf32> {
    %s = arith.constant dense<[1, 4]> : tensor<2xi64>
    // CHECK: error: node 'u' (MaxUnpool, opset 11): output_shape has 2 elements, expected 3 (the rank of X)
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1, %s) {kernel_shape = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x1x2xi64>, tensor<2xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// The inferred extent is (2 - 1) * 2 + 2 = 4; output_shape may only add zeros after it.
module {
  func.func @unpool_shape_small(%arg0: tensor<1x1x2xf32>, %arg1: tensor<1x1x2xi64>) -> tensor<*xf32> {
    %s = arith.constant dense<[1, 1, 3]> : tensor<3xi64>
    // CHECK: error: node 'u' (MaxUnpool, opset 11): output_shape dim 2 is 1 smaller than the unpooled extent
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1, %s) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x1x2xi64>, tensor<3xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unpool_runtime_indices(%arg0: tensor<1x1x?xf32>, %arg1: tensor<1x1x2xi64>) -> tensor<*xf32> {
    // RUNTIME: prim.check %{{.*}}, "node 'u' (MaxUnpool): I must have the shape of X (dim 2)"
    %0 = onnx.node "MaxUnpool" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 2>} : (tensor<1x1x?xf32>, tensor<1x1x2xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
