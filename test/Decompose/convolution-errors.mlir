// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>/dev/null | FileCheck %s --check-prefix=RUNTIME
// The user-facing errors of the Conv rule (lib/Decompose/Convolution.cpp, with the operand
// checks it shares from RuleSupport.cpp): each names the node, its op type and opset, and
// what was expected. A channel count known only at run time is checked by prim.check (the
// RUNTIME line).

module {
  func.func @auto_pad(%arg0: tensor<1x1x4xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): attribute 'auto_pad' is "SAME", expected NOTSET, VALID, SAME_UPPER or SAME_LOWER
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {auto_pad = "SAME"} : (tensor<1x1x4xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @same_dynamic_kernel(%arg0: tensor<1x1x4xf32>, %arg1: tensor<1x1x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): auto_pad SAME_UPPER needs a static kernel extent, spatial dim 0 is dynamic (give kernel_shape)
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {auto_pad = "SAME_UPPER"} : (tensor<1x1x4xf32>, tensor<1x1x?xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @same_dynamic_input(%arg0: tensor<1x1x?xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): auto_pad SAME_LOWER with stride 2 needs a static input extent, spatial dim 0 is dynamic (tcc's paddings are compile-time constants)
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {auto_pad = "SAME_LOWER", strides = array<i64: 2>} : (tensor<1x1x?xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @kernel_shape_count(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): attribute 'kernel_shape' has 1 entries, expected 2
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 2>} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @kernel_shape_value(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): kernel_shape[1] is 3 but W has extent 2 there
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 2, 3>} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @channels(%arg0: tensor<1x3x4xf32>, %arg1: tensor<2x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): X has 3 channels, expected W's 1 input channels x group (2)
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {group = 2 : i64} : (tensor<1x3x4xf32>, tensor<2x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @out_channels(%arg0: tensor<1x2x4xf32>, %arg1: tensor<3x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): W has 3 output channels, expected a multiple of group (2)
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {group = 2 : i64} : (tensor<1x2x4xf32>, tensor<3x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @kernel_too_large(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): spatial dim 0: the dilated kernel (5) is larger than the padded input (3 + 0 + 1)
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {dilations = array<i64: 2>, pads = array<i64: 0, 1>} : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @operand_rank(%arg0: tensor<1x4xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): expected X (N x C x D1 ...) and W (M x C/group x k1 ...) of one rank >= 3, got 'tensor<1x4xf32>' and 'tensor<1x1x2xf32>'
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {} : (tensor<1x4xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @group_zero(%arg0: tensor<1x1x4xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): attribute 'group' is 0, expected >= 1
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {group = 0 : i64} : (tensor<1x1x4xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @pads_count(%arg0: tensor<1x1x4x4xf32>, %arg1: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): attribute 'pads' has 2 entries, expected a begin and an end per spatial dim (4)
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {pads = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bias_count(%arg0: tensor<1x1x4xf32>, %arg1: tensor<2x1x2xf32>, %arg2: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Conv, opset 11): B has 3 elements, expected 2 (one per output channel)
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1, %arg2) {} : (tensor<1x1x4xf32>, tensor<2x1x2xf32>, tensor<3xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @runtime_channels(%arg0: tensor<1x?x4xf32>, %arg1: tensor<2x1x2xf32>) -> tensor<*xf32> {
    // RUNTIME: prim.check %{{.*}}, "node 'c' (Conv): X's channels must equal W's input channels x group"
    %0 = onnx.node "Conv" opset 11 (%arg0, %arg1) {group = 2 : i64} : (tensor<1x?x4xf32>, tensor<2x1x2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
