// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the shape rules (lib/Decompose/Shape.cpp): each names the node,
// its op type and opset, and what was expected.

module {
  func.func @reshape_shape_type(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (Reshape, opset 14): input 1 ('tensor<2xf32>') must be a 0-d or 1-d integer tensor of static length
    %0 = onnx.node "Reshape" opset 14 (%x, %s) {} : (tensor<2x3xf32>, tensor<2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @reshape_two_inferred(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<[-1, -1]> : tensor<2xi64>
    // CHECK: error: node 'r' (Reshape, opset 14): the shape has more than one -1
    %0 = onnx.node "Reshape" opset 14 (%x, %s) {} : (tensor<2x3xf32>, tensor<2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @reshape_negative(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<[6, -2]> : tensor<2xi64>
    // CHECK: error: node 'r' (Reshape, opset 14): shape entry 1 is -2, expected >= -1
    %0 = onnx.node "Reshape" opset 14 (%x, %s) {} : (tensor<2x3xf32>, tensor<2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @reshape_copy_rank(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<[3, 2, 0]> : tensor<3xi64>
    // CHECK: error: node 'r' (Reshape, opset 14): shape entry 2 is 0 (copy the input dim) but the input has rank 2
    %0 = onnx.node "Reshape" opset 14 (%x, %s) {} : (tensor<2x3xf32>, tensor<3xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @flatten_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'f' (Flatten, opset 13): axis 3 is out of range for rank 2
    %0 = onnx.node "Flatten" opset 13 (%x) {axis = 3 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("f"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @transpose_perm_size(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 't' (Transpose, opset 13): perm has 1 entries, expected 2
    %0 = onnx.node "Transpose" opset 13 (%x) {perm = array<i64: 0>} : (tensor<2x3xf32>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @transpose_perm_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 't' (Transpose, opset 13): perm entry 5 is out of range for rank 2
    %0 = onnx.node "Transpose" opset 13 (%x) {perm = array<i64: 5, 0>} : (tensor<2x3xf32>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @squeeze_axes_input(%x: tensor<1x3xf32>, %a: tensor<?xi64>) -> tensor<*xf32> {
    // Axes read at run time must still have a static count.
    // CHECK: error: node 's' (Squeeze, opset 13): input 1 ('tensor<?xi64>') must be a 0-d or 1-d integer tensor of static length
    %0 = onnx.node "Squeeze" opset 13 (%x, %a) {} : (tensor<1x3xf32>, tensor<?xi64>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @squeeze_extent(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (Squeeze, opset 11): cannot squeeze dim 0 of extent 2
    %0 = onnx.node "Squeeze" opset 11 (%x) {axes = array<i64: 0>} : (tensor<2x3xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unsqueeze_twice(%x: tensor<3xf32>) -> tensor<*xf32> {
    %a = arith.constant dense<[0, -3]> : tensor<2xi64>
    // CHECK: error: node 'u' (Unsqueeze, opset 13): axis -3 is listed twice
    %0 = onnx.node "Unsqueeze" opset 13 (%x, %a) {} : (tensor<3xf32>, tensor<2xi64>) -> !onnx.value loc("u"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @concat_none() -> tensor<*xf32> {
    // CHECK: error: node 'c' (Concat, opset 13): expected at least one input
    %0 = onnx.node "Concat" opset 13 () {axis = 0 : i64} : () -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @concat_types(%x: tensor<2x3xf32>, %y: tensor<2x2xi32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Concat, opset 13): input 1 has type 'tensor<2x2xi32>', expected rank 2 and element type 'f32'
    %0 = onnx.node "Concat" opset 13 (%x, %y) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @slice_axes_input(%x: tensor<4xf32>, %a: tensor<?xi64>) -> tensor<*xf32> {
    %s = arith.constant dense<[0]> : tensor<1xi64>
    %e = arith.constant dense<[2]> : tensor<1xi64>
    // Axes read at run time must still have a static count.
    // CHECK: error: node 'l' (Slice, opset 13): input 3 ('tensor<?xi64>') must be a 0-d or 1-d integer tensor of static length
    %0 = onnx.node "Slice" opset 13 (%x, %s, %e, %a) {} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<?xi64>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @slice_steps_input(%x: tensor<4xf32>, %st: tensor<?xi64>) -> tensor<*xf32> {
    %s = arith.constant dense<[0]> : tensor<1xi64>
    %e = arith.constant dense<[2]> : tensor<1xi64>
    // Steps read at run time must still have a static count.
    // CHECK: error: node 'l' (Slice, opset 13): input 4 (steps) must be a 1-d integer tensor of static length
    %0 = onnx.node "Slice" opset 13 (%x, %s, %e, %s, %st) {} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<?xi64>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @slice_ends_length(%x: tensor<4x4xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<[0, 1]> : tensor<2xi64>
    %e = arith.constant dense<[2]> : tensor<1xi64>
    // CHECK: error: node 'l' (Slice, opset 13): starts has 2 entries but ends has 1
    %0 = onnx.node "Slice" opset 13 (%x, %s, %e) {} : (tensor<4x4xf32>, tensor<2xi64>, tensor<1xi64>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @slice_axes_length(%x: tensor<4x4xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<[0]> : tensor<1xi64>
    %a = arith.constant dense<[0, 1]> : tensor<2xi64>
    // CHECK: error: node 'l' (Slice, opset 13): starts, ends, axes and steps must have one length, got 1, 1, 2, 1
    %0 = onnx.node "Slice" opset 13 (%x, %s, %s, %a) {} : (tensor<4x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @slice_step_zero(%x: tensor<4xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<[0]> : tensor<1xi64>
    %z = arith.constant dense<[0]> : tensor<1xi64>
    // CHECK: error: node 'l' (Slice, opset 13): step 0 is 0
    %0 = onnx.node "Slice" opset 13 (%x, %s, %s, %s, %z) {} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @slice_axis_twice(%x: tensor<4x4xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<[0, 0]> : tensor<2xi64>
    %a = arith.constant dense<[0, -2]> : tensor<2xi64>
    // CHECK: error: node 'l' (Slice, opset 13): axis 0 is sliced twice
    %0 = onnx.node "Slice" opset 13 (%x, %s, %s, %a) {} : (tensor<4x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> !onnx.value loc("l"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @split_input(%x: tensor<4xf32>, %p: tensor<?xi64>) -> (tensor<*xf32>, tensor<*xf32>) {
    // Sizes read at run time must still have a static count (one per output).
    // CHECK: error: node 'p' (Split, opset 13): input 1 (split) must be a 1-d integer tensor of static length
    %0:2 = onnx.node "Split" opset 13 (%x, %p) {} : (tensor<4xf32>, tensor<?xi64>) -> (!onnx.value, !onnx.value) loc("p"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @split_count(%x: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'p' (Split, opset 11): split has 3 entries for 2 outputs
    %0:2 = onnx.node "Split" opset 11 (%x) {split = array<i64: 1, 1, 2>} : (tensor<4xf32>) -> (!onnx.value, !onnx.value) loc("p"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @tile_repeats(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    %r = arith.constant dense<[2]> : tensor<1xi64>
    // CHECK: error: node 't' (Tile, opset 13): repeats has 1 entries, expected 2
    %0 = onnx.node "Tile" opset 13 (%x, %r) {} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @constant_of_shape_count() -> tensor<*xf32> {
    %s = arith.constant dense<[2]> : tensor<1xi64>
    // CHECK: error: node 'k' (ConstantOfShape, opset 20): attribute 'value' must hold one element, got 'tensor<2xf32>'
    %0 = onnx.node "ConstantOfShape" opset 20 (%s) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1xi64>) -> !onnx.value loc("k"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @constant_of_shape_sparse() -> tensor<*xf32> {
    %s = arith.constant dense<[2]> : tensor<1xi64>
    // CHECK: error: node 'k' (ConstantOfShape, opset 20): attribute 'value' must be a dense tensor
    %0 = onnx.node "ConstantOfShape" opset 20 (%s) {value = sparse<[[0]], [1.0]> : tensor<1xf32>} : (tensor<1xi64>) -> !onnx.value loc("k"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @range_delta_zero() -> tensor<*xf32> {
    %i = arith.constant dense<2> : tensor<i64>
    %l = arith.constant dense<5.0> : tensor<f32>
    %d = arith.constant dense<0.0> : tensor<f32>
    %s = onnx.node "Cast" opset 13 (%i) {to = 1 : i64} : (tensor<i64>) -> !onnx.value loc("cast"("m.onnx":0:0))
    // CHECK: error: node 'g' (Range, opset 11): delta must not be 0
    %0 = onnx.node "Range" opset 11 (%s, %l, %d) {} : (!onnx.value, tensor<f32>, tensor<f32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @range_stash_type(%s: tensor<f16>, %l: tensor<f16>, %d: tensor<f16>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Range, opset 27): stash_type must be a float type
    %0 = onnx.node "Range" opset 27 (%s, %l, %d) {stash_type = 7 : i64} : (tensor<f16>, tensor<f16>, tensor<f16>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @constant_none() -> tensor<*xf32> {
    // CHECK: error: node 'c' (Constant, opset 13): expected one of the attributes value, value_float, value_floats, value_int, value_ints (string and sparse constants are not supported)
    %0 = onnx.node "Constant" opset 13 () {value_string = "a"} : () -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Extents that differ while compiling are errors then (not run-time checks that always fail):
// 2x3 (6 elements) reshaped to [4, 2] (8).
// CHECK: error: node 'r' (Reshape, opset 14): the reshape target must have as many elements as the input (8 vs 6)
module {
  func.func @reshape_count() -> tensor<*xf32> {
    %x = arith.constant dense<1.0> : tensor<2x3xf32>
    %s = arith.constant dense<[4, 2]> : tensor<2xi64>
    %0 = onnx.node "Reshape" opset 14 (%x, %s) {} : (tensor<2x3xf32>, tensor<2xi64>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// split [1, 2] adds up to 3, not 4.
// CHECK: error: node 'p' (Split, opset 13): the split sizes must add up to the extent of dim 0 (4 vs 3)
module {
  func.func @split_sum() -> (tensor<*xf32>, tensor<*xf32>) {
    %v = arith.constant dense<1.0> : tensor<4xf32>
    %sizes = arith.constant dense<[1, 2]> : tensor<2xi64>
    %0:2 = onnx.node "Split" opset 13 (%v, %sizes) {} : (tensor<4xf32>, tensor<2xi64>) -> (!onnx.value, !onnx.value) loc("p"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

// Before opset 18, equal parts must divide the dim: 5 into 2.
// CHECK: error: node 'p' (Split, opset 13): the split dim must divide evenly into the outputs (6 vs 5)
module {
  func.func @split_even() -> (tensor<*xf32>, tensor<*xf32>) {
    %v = arith.constant dense<1.0> : tensor<5xf32>
    %0:2 = onnx.node "Split" opset 13 (%v) {} : (tensor<5xf32>) -> (!onnx.value, !onnx.value) loc("p"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}
