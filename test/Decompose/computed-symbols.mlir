// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s
// Range whose bounds are graph inputs (lib/Decompose/ComputedSymbols.cpp): its length is a
// computed module symbol, prim.data_symbol of a scalar computation over the inputs' elements,
// -1 when there is none (delta 0).

// CHECK: prim.symbol @r_count {computed, min = 0 : i64}
// CHECK-LABEL: func.func @int_range
// CHECK-SAME: -> tensor<?xi32>
// CHECK-DAG: %[[S:.*]] = tensor.extract %arg0[] : tensor<i32>
// CHECK-DAG: %[[L:.*]] = tensor.extract %arg1[] : tensor<i32>
// CHECK-DAG: %[[D:.*]] = tensor.extract %arg2[] : tensor<i32>
// CHECK: %[[ZERO:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i64
// CHECK: arith.ceildivsi
// CHECK: %[[N:.*]] = arith.select %[[ZERO]], %{{.*}}, %{{.*}} : index
// CHECK: %[[C:.*]] = prim.data_symbol @r_count(%[[N]]) : index
// CHECK: prim.iota dim = 0 sizes(%[[C]]) : tensor<?xi32>
module {
  func.func @int_range(%s: tensor<i32>, %l: tensor<i32>, %d: tensor<i32>) -> tensor<*xi32> {
    %0 = onnx.node "Range" opset 11 (%s, %l, %d) {} : (tensor<i32>, tensor<i32>, tensor<i32>) -> !onnx.value loc("r")
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Float bounds: ceil((l - s) / d) in f64, none for d = 0 or past 2^53; two Ranges get two
// symbols.
// CHECK: prim.symbol @a_count {computed, min = 0 : i64}
// CHECK: prim.symbol @b_count {computed, min = 0 : i64}
// CHECK-LABEL: func.func @float_ranges
// CHECK: math.ceil %{{.*}} : f64
// CHECK: prim.data_symbol @a_count
// CHECK: prim.data_symbol @b_count
module {
  func.func @float_ranges(%s: tensor<f32>, %l: tensor<f32>, %d: tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %0 = onnx.node "Range" opset 11 (%s, %l, %d) {} : (tensor<f32>, tensor<f32>, tensor<f32>) -> !onnx.value loc("a")
    %1 = onnx.node "Range" opset 11 (%l, %s, %d) {} : (tensor<f32>, tensor<f32>, tensor<f32>) -> !onnx.value loc("b")
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}

// -----

// Bounds known while compiling stay arithmetic on constants and dims: no symbol.
// CHECK-LABEL: func.func @static_range
// CHECK-NOT: prim.data_symbol
// CHECK: prim.iota dim = 0 : tensor<4xi64>
module {
  func.func @static_range() -> tensor<*xi64> {
    %s = arith.constant dense<1> : tensor<i64>
    %l = arith.constant dense<9> : tensor<i64>
    %d = arith.constant dense<2> : tensor<i64>
    %0 = onnx.node "Range" opset 11 (%s, %l, %d) {} : (tensor<i64>, tensor<i64>, tensor<i64>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}
