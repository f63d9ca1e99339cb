// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of lib/Decompose/ContribQuantization.cpp (ONNX Runtime's quantized
// com.microsoft ops): each names the node and what was expected.

module {
  func.func @add_vector_scale(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<*xui8> {
    %sa = arith.constant dense<[0.1, 0.2]> : tensor<2xf32>
    %s = arith.constant dense<0.1> : tensor<f32>
    %z = arith.constant dense<3> : tensor<ui8>
    // CHECK: error: node 'add_vector_scale' (QLinearAdd, domain com.microsoft, opset 1): A's scale has type 'tensor<2xf32>', expected a scalar or a 1-element vector (per-tensor quantization)
    %0 = onnx.node "QLinearAdd" domain "com.microsoft" opset 1 (%a, %sa, %z, %b, %s, %z, %s, %z) {} : (tensor<4xui8>, tensor<2xf32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.value loc("add_vector_scale"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @add_mixed_types(%a: tensor<4xui8>, %b: tensor<4xi8>) -> tensor<*xui8> {
    %s = arith.constant dense<0.1> : tensor<f32>
    %none = onnx.none
    // CHECK: error: node 'add_mixed_types' (QLinearAdd, domain com.microsoft, opset 1): A has type 'tensor<4xui8>' and B 'tensor<4xi8>', expected one element type
    %0 = onnx.node "QLinearAdd" domain "com.microsoft" opset 1 (%a, %s, %none, %b, %s, %none, %s) {} : (tensor<4xui8>, tensor<f32>, none, tensor<4xi8>, tensor<f32>, none, tensor<f32>) -> !onnx.value loc("add_mixed_types"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @add_float(%a: tensor<4xf32>) -> tensor<*xui8> {
    %s = arith.constant dense<0.1> : tensor<f32>
    // CHECK: error: node 'add_float' (QLinearAdd, domain com.microsoft, opset 1): A has type 'tensor<4xf32>', expected int8 or uint8
    %0 = onnx.node "QLinearAdd" domain "com.microsoft" opset 1 (%a, %s, %a, %s, %s) {} : (tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> !onnx.value loc("add_float"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @softmax_opset(%x: tensor<2x4xui8>) -> tensor<*xui8> {
    %s = arith.constant dense<0.1> : tensor<f32>
    %z = arith.constant dense<0> : tensor<ui8>
    // CHECK: error: node 'softmax_opset' (QLinearSoftmax, domain com.microsoft, opset 1): expected the attribute 'opset' (the opset of the Softmax it replaces)
    %0 = onnx.node "QLinearSoftmax" domain "com.microsoft" opset 1 (%x, %s, %z, %s, %z) {} : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.value loc("softmax_opset"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gap_rank(%x: tensor<2x4xui8>) -> tensor<*xui8> {
    %s = arith.constant dense<0.1> : tensor<f32>
    %z = arith.constant dense<0> : tensor<ui8>
    // CHECK: error: node 'gap_rank' (QLinearGlobalAveragePool, domain com.microsoft, opset 1): expected an input of rank >= 3 (N x C x D1 ...), got 'tensor<2x4xui8>'
    %0 = onnx.node "QLinearGlobalAveragePool" domain "com.microsoft" opset 1 (%x, %s, %z, %s, %z) {} : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> !onnx.value loc("gap_rank"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @concat_count(%x: tensor<2x4xui8>) -> tensor<*xui8> {
    %s = arith.constant dense<0.1> : tensor<f32>
    %z = arith.constant dense<0> : tensor<ui8>
    // CHECK: error: node 'concat_count' (QLinearConcat, domain com.microsoft, opset 1): has 4 inputs, expected Y_scale, Y_zero_point and then triples (X, X_scale, X_zero_point)
    %0 = onnx.node "QLinearConcat" domain "com.microsoft" opset 1 (%s, %z, %x, %s) {axis = 0 : i64} : (tensor<f32>, tensor<ui8>, tensor<2x4xui8>, tensor<f32>) -> !onnx.value loc("concat_count"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @concat_types(%x: tensor<2x4xui8>, %y: tensor<2x4xi8>) -> tensor<*xui8> {
    %s = arith.constant dense<0.1> : tensor<f32>
    %z = arith.constant dense<0> : tensor<ui8>
    %zi = arith.constant dense<0> : tensor<i8>
    // CHECK: error: node 'concat_types' (QLinearConcat, domain com.microsoft, opset 1): input 1 has type 'tensor<2x4xi8>', expected the element type of Y_zero_point ('ui8')
    %0 = onnx.node "QLinearConcat" domain "com.microsoft" opset 1 (%s, %z, %x, %s, %z, %y, %s, %zi) {axis = 0 : i64} : (tensor<f32>, tensor<ui8>, tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x4xi8>, tensor<f32>, tensor<i8>) -> !onnx.value loc("concat_types"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @qgemm_half_output(%a: tensor<2x3xui8>, %b: tensor<3x4xi8>) -> tensor<*xf32> {
    %s = arith.constant dense<0.1> : tensor<f32>
    %z = arith.constant dense<0> : tensor<ui8>
    %zb = arith.constant dense<0> : tensor<i8>
    %c = arith.constant dense<0> : tensor<4xi32>
    // CHECK: error: node 'qgemm_half_output' (QGemm, domain com.microsoft, opset 1): y_scale and y_zero_point must be given together (a quantized output) or both left out (a float output)
    %0 = onnx.node "QGemm" domain "com.microsoft" opset 1 (%a, %s, %z, %b, %s, %zb, %c, %s) {} : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xi8>, tensor<f32>, tensor<i8>, tensor<4xi32>, tensor<f32>) -> !onnx.value loc("qgemm_half_output"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @qgemm_rank(%a: tensor<2x2x3xui8>, %b: tensor<3x4xi8>) -> tensor<*xf32> {
    %s = arith.constant dense<0.1> : tensor<f32>
    %z = arith.constant dense<0> : tensor<ui8>
    %zb = arith.constant dense<0> : tensor<i8>
    // CHECK: error: node 'qgemm_rank' (QGemm, domain com.microsoft, opset 1): A has type 'tensor<2x2x3xui8>' and B 'tensor<3x4xi8>', expected matrices
    %0 = onnx.node "QGemm" domain "com.microsoft" opset 1 (%a, %s, %z, %b, %s, %zb) {} : (tensor<2x2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xi8>, tensor<f32>, tensor<i8>) -> !onnx.value loc("qgemm_rank"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @mmitf_scales(%a: tensor<2x3xui8>, %b: tensor<3x4xi8>) -> tensor<*xf32> {
    %sa = arith.constant dense<0.1> : tensor<f32>
    %sb = arith.constant dense<[[0.1, 0.2, 0.3, 0.4]]> : tensor<1x4xf32>
    // CHECK: error: node 'mmitf_scales' (MatMulIntegerToFloat, domain com.microsoft, opset 1): b_scale has type 'tensor<1x4xf32>', expected a scalar or a vector with one element per column of B
    %0 = onnx.node "MatMulIntegerToFloat" domain "com.microsoft" opset 1 (%a, %b, %sa, %sb) {} : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<f32>, tensor<1x4xf32>) -> !onnx.value loc("mmitf_scales"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @dqmm_float_b(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<*xf32> {
    %s = arith.constant dense<0.1> : tensor<f32>
    // CHECK: error: node 'dqmm_float_b' (DynamicQuantizeMatMul, domain com.microsoft, opset 1): B has element type 'f32', expected int8, uint8, int16 or uint16
    %0 = onnx.node "DynamicQuantizeMatMul" domain "com.microsoft" opset 1 (%a, %b, %s) {} : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<f32>) -> !onnx.value loc("dqmm_float_b"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
