// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>/dev/null | FileCheck %s --check-prefix=RUNTIME
// The user-facing errors of the contraction rules (lib/Decompose/Contraction.cpp): each names
// the node, its op type and opset, and what was expected. Dims known only at run time are
// checked by prim.check with the message the user sees then (the RUNTIME lines).

module {
  func.func @matmul_types(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf16>) -> tensor<*xf32> {
    // CHECK: error: node 'mm' (MatMul, opset 13): inputs have element types 'f32' and 'f16', expected one type
    %0 = onnx.node "MatMul" opset 13 (%arg0, %arg1) {} : (tensor<2x3xf32>, tensor<3x2xf16>) -> !onnx.value loc("mm"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @matmul_scalar(%arg0: tensor<f32>, %arg1: tensor<3x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mm' (MatMul, opset 13): inputs must have rank >= 1, got 0 and 2
    %0 = onnx.node "MatMul" opset 13 (%arg0, %arg1) {} : (tensor<f32>, tensor<3x2xf32>) -> !onnx.value loc("mm"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gemm_rank(%arg0: tensor<2x3x4xf32>, %arg1: tensor<4x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Gemm, opset 13): A and B must be 2-d, got 'tensor<2x3x4xf32>' and 'tensor<4x2xf32>'
    %0 = onnx.node "Gemm" opset 13 (%arg0, %arg1) {} : (tensor<2x3x4xf32>, tensor<4x2xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gemm_types(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf64>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Gemm, opset 13): A and B have different element types
    %0 = onnx.node "Gemm" opset 13 (%arg0, %arg1) {} : (tensor<2x3xf32>, tensor<3x2xf64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gemm_c_type(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf32>, %arg2: tensor<2xf64>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Gemm, opset 13): C has element type 'f64', expected 'f32'
    %0 = onnx.node "Gemm" opset 13 (%arg0, %arg1, %arg2) {} : (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xf64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// C broadcasts onto the result only (unidirectionally).
module {
  func.func @gemm_c_shape(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Gemm, opset 13): cannot broadcast dim 0 of extent 3 to 4
    %0 = onnx.node "Gemm" opset 13 (%arg0, %arg1, %arg2) {} : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<3xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @runtime_contracted(%arg0: tensor<2x?xf32>, %arg1: tensor<?x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // RUNTIME: prim.check %{{.*}}, "node 'mm' (MatMul): the contracted dims of A and B must agree"
    %0 = onnx.node "MatMul" opset 13 (%arg0, %arg1) {} : (tensor<2x?xf32>, tensor<?x4xf32>) -> !onnx.value loc("mm"("m.onnx":0:0))
    // RUNTIME: prim.check %{{.*}}, "node 'g' (Gemm): the contracted dims of A and B must agree"
    %1 = onnx.node "Gemm" opset 13 (%arg0, %arg1) {} : (tensor<2x?xf32>, tensor<?x4xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @runtime_batch(%arg0: tensor<?x2x3xf32>, %arg1: tensor<?x3x2xf32>) -> tensor<*xf32> {
    // RUNTIME: prim.check %{{.*}}, "node 'mm' (MatMul): the batch dims of A and B must broadcast"
    %0 = onnx.node "MatMul" opset 13 (%arg0, %arg1) {} : (tensor<?x2x3xf32>, tensor<?x3x2xf32>) -> !onnx.value loc("mm"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Contracted dims that differ at compile time are an error at the node, not a crash.
module {
  func.func @matmul_static_mismatch(%arg0: tensor<2x3xf32>, %arg1: tensor<4x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'mm' (MatMul, opset 13): the contracted dims of A and B must agree (3 vs 4)
    %0 = onnx.node "MatMul" opset 13 (%arg0, %arg1) {} : (tensor<2x3xf32>, tensor<4x2xf32>) -> !onnx.value loc("mm"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gemm_static_mismatch(%arg0: tensor<2x3xf32>, %arg1: tensor<4x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'gemm' (Gemm, opset 13): the contracted dims of A and B must agree (3 vs 4)
    %0 = onnx.node "Gemm" opset 13 (%arg0, %arg1) {} : (tensor<2x3xf32>, tensor<4x2xf32>) -> !onnx.value loc("gemm"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @matmul_batch_mismatch(%arg0: tensor<2x3x4xf32>, %arg1: tensor<5x4x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'bmm' (MatMul, opset 13): the batch dims of A and B must broadcast (2 vs 5)
    %0 = onnx.node "MatMul" opset 13 (%arg0, %arg1) {} : (tensor<2x3x4xf32>, tensor<5x4x2xf32>) -> !onnx.value loc("bmm"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
