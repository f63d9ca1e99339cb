// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>/dev/null | FileCheck %s --check-prefix=RUNTIME
// The user-facing errors of the ConvTranspose rule (lib/Decompose/ConvTranspose.cpp): each
// names the node, its op type and opset, and what was expected. A channel count known only
// at run time is checked by prim.check (the RUNTIME line).

module {
  func.func @auto_pad(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): attribute 'auto_pad' is "SAME", expected NOTSET, VALID, SAME_UPPER or SAME_LOWER
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {auto_pad = "SAME"} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @output_shape_count(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): attribute 'output_shape' has 2 entries, expected one per spatial dim (1)
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {output_shape = array<i64: 4, 4>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @output_shape_dynamic(%arg0: tensor<1x1x?xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): attribute 'output_shape' needs a static input extent, spatial dim 0 is dynamic (tcc's paddings are compile-time constants)
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {output_shape = array<i64: 6>} : (tensor<1x1x?xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @kernel_shape_count(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): attribute 'kernel_shape' has 2 entries, expected 1
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @kernel_shape_value(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): kernel_shape[0] is 3 but W has extent 2 there
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {kernel_shape = array<i64: 3>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dynamic_kernel(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x?xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): W's spatial dim 0 is dynamic, expected a static kernel extent (or give kernel_shape)
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {} : (tensor<1x1x3xf32>, tensor<1x1x?xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @group_multiple(%arg0: tensor<1x3x3xf32>, %arg1: tensor<3x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): W has 3 input channels, expected a multiple of group (2)
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {group = 2 : i64} : (tensor<1x3x3xf32>, tensor<3x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @channels(%arg0: tensor<1x2x3xf32>, %arg1: tensor<3x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): X has 2 channels, expected W's 3
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {} : (tensor<1x2x3xf32>, tensor<3x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// A kernel of 1 reaches no neighbour: pads [2, 2] crop 4 of the 3 input elements.
module {
  func.func @crop(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x1xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): spatial dim 0: the pads crop 4 elements from an upsampled input of 3
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {pads = array<i64: 2, 2>} : (tensor<1x1x3xf32>, tensor<1x1x1xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @output_padding(%arg0: tensor<1x1x3xf32>, %arg1: tensor<1x1x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'ct' (ConvTranspose, opset 11): attribute 'output_padding' has entry -1, expected >= 0
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {output_padding = array<i64: -1>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @runtime_channels(%arg0: tensor<1x?x3xf32>, %arg1: tensor<2x1x2xf32>) -> tensor<*xf32> {
    // RUNTIME: prim.check %{{.*}}, "node 'ct' (ConvTranspose): X's channels must equal W's first extent"
    %0 = onnx.node "ConvTranspose" opset 11 (%arg0, %arg1) {} : (tensor<1x?x3xf32>, tensor<2x1x2xf32>) -> !onnx.value loc("ct"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
