// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the random rules (lib/Decompose/Random.cpp): each names the node,
// its op type and opset, and what was expected.

module {
  func.func @uniform_shape() -> tensor<*xf32> {
    // CHECK: error: node 'r' (RandomUniform, opset 22): attribute 'shape' is required
    %0 = onnx.node "RandomUniform" opset 22 () {} : () -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @normal_negative_shape() -> tensor<*xf32> {
    // CHECK: error: node 'r' (RandomNormal, opset 1): attribute 'shape' has the negative extent -1
    %0 = onnx.node "RandomNormal" opset 1 () {shape = array<i64: 2, -1>} : () -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @uniform_dtype() -> tensor<*xf32> {
    // CHECK: error: node 'r' (RandomUniform, opset 22): dtype must be a floating-point type
    %0 = onnx.node "RandomUniform" opset 22 () {shape = array<i64: 2>, dtype = 7 : i64} : () -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @uniform_like_type(%x: tensor<2xi32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RandomUniformLike, opset 22): dtype must be a floating-point type
    %0 = onnx.node "RandomUniformLike" opset 22 (%x) {} : (tensor<2xi32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @normal_like_dtype(%x: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'r' (RandomNormalLike, opset 22): dtype must be a floating-point type
    %0 = onnx.node "RandomNormalLike" opset 22 (%x) {dtype = 6 : i64} : (tensor<2xf32>) -> !onnx.value loc("r"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bernoulli_dtype(%p: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'b' (Bernoulli, opset 22): unsupported dtype 8
    %0 = onnx.node "Bernoulli" opset 22 (%p) {dtype = 8 : i64} : (tensor<3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @multinomial_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'm' (Multinomial, opset 22): input must be [batch, classes], got 'tensor<3xf32>'
    %0 = onnx.node "Multinomial" opset 22 (%x) {} : (tensor<3xf32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @multinomial_samples(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'm' (Multinomial, opset 7): sample_size must be at least 1, got 0
    %0 = onnx.node "Multinomial" opset 7 (%x) {sample_size = 0 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @multinomial_dtype(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'm' (Multinomial, opset 22): dtype must be int32 or int64
    %0 = onnx.node "Multinomial" opset 22 (%x) {dtype = 1 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @multinomial_dtype_narrow(%x: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'm' (Multinomial, opset 22): dtype must be int32 or int64
    %0 = onnx.node "Multinomial" opset 22 (%x) {dtype = 5 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("m"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// uint32 (ONNX code 12) and uint64 (13) are not among Multinomial's output types.
module {
  func.func @multinomial_unsigned(%x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'm' (Multinomial, opset 22): dtype must be int32 or int64
    %0 = onnx.node "Multinomial" opset 22 (%x) {dtype = 12 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("m"("m.onnx":0:0))
    // CHECK: error: node 'n' (Multinomial, opset 22): dtype must be int32 or int64
    %1 = onnx.node "Multinomial" opset 22 (%x) {dtype = 13 : i64} : (tensor<2x3xf32>) -> !onnx.value loc("n"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
