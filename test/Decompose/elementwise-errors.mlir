// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the elementwise rules (lib/Decompose/Elementwise.cpp): each names
// the node, its op type and opset, and what was expected. (A float-only op on integers is in
// errors.mlir.)

module {
  func.func @legacy_axis_fit(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'add' (Add, opset 6): B (rank 2) does not fit in A (rank 2) at axis 1
    %0 = onnx.node "Add" opset 6 (%arg0, %arg1) {broadcast = 1 : i64, axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x2xf32>) -> !onnx.value loc("add"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @legacy_axis_range(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mul' (Mul, opset 6): axis 2 is out of range for rank 2
    %0 = onnx.node "Mul" opset 6 (%arg0, %arg1) {broadcast = 1 : i64, axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.value loc("mul"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mixed_types(%arg0: tensor<2xf32>, %arg1: tensor<2xi32>) -> tensor<*xf32> {
    // CHECK: error: node 'sub' (Sub, opset 14): inputs have element types 'f32' and 'i32', expected one type
    %0 = onnx.node "Sub" opset 14 (%arg0, %arg1) {} : (tensor<2xf32>, tensor<2xi32>) -> !onnx.value loc("sub"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @string_less(%arg0: tensor<2x!prim.string>, %arg1: tensor<2x!prim.string>) -> tensor<*xi1> {
    // CHECK: error: node 'lt' (Less, opset 13): strings compare only for equality, and only with strings
    %0 = onnx.node "Less" opset 13 (%arg0, %arg1) {} : (tensor<2x!prim.string>, tensor<2x!prim.string>) -> !onnx.value loc("lt"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @variadic_empty() -> tensor<*xf32> {
    // CHECK: error: node 'max' (Max, opset 13): expected at least one input
    %0 = onnx.node "Max" opset 13 () {} : () -> !onnx.value loc("max"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @float_floored_mod(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mod' (Mod, opset 13): fmod=0 is only defined for integer inputs before opset 28, got 'f32'
    %0 = onnx.node "Mod" opset 13 (%arg0, %arg1) {} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.value loc("mod"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @shift_direction(%arg0: tensor<2xui8>, %arg1: tensor<2xui8>) -> tensor<*xui8> {
    // CHECK: error: node 'sh' (BitShift, opset 11): attribute 'direction' must be "LEFT" or "RIGHT", got "UP"
    %0 = onnx.node "BitShift" opset 11 (%arg0, %arg1) {direction = "UP"} : (tensor<2xui8>, tensor<2xui8>) -> !onnx.value loc("sh"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @cast_float8(%arg0: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'c' (Cast, opset 21): casting to ONNX data type 17 is not supported (supported: float, double, float16, bfloat16, bool, int8..int64, uint8..uint64, string)
    %0 = onnx.node "Cast" opset 21 (%arg0) {to = 17 : i64} : (tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bitcast_type(%arg0: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'bc' (BitCast, opset 26): bit-casting to ONNX data type 8 is not supported
    %0 = onnx.node "BitCast" opset 26 (%arg0) {to = 8 : i64} : (tensor<2xf32>) -> !onnx.value loc("bc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bitcast_width(%arg0: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'bc' (BitCast, opset 26): cannot bit-cast 'f32' to 'i16': the widths differ
    %0 = onnx.node "BitCast" opset 26 (%arg0) {to = 5 : i64} : (tensor<2xf32>) -> !onnx.value loc("bc"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dropout_training(%arg0: tensor<2xf32>) -> tensor<*xf32> {
    // Known while compiling: an error (a training_mode read at run time is a run-time check,
    // test/tools/signal-inputs-runtime.test).
    %ratio = arith.constant dense<0.5> : tensor<f32>
    %training = arith.constant dense<true> : tensor<i1>
    // CHECK: error: node 'd' (Dropout, opset 13): training_mode must be false, or the ratio 0: dropout in training draws random numbers, which tcc does not generate
    %0 = onnx.node "Dropout" opset 13 (%arg0, %ratio, %training) {} : (tensor<2xf32>, tensor<f32>, tensor<i1>) -> !onnx.value loc("d"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
