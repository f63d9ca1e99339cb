// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s
// Resize decomposes one axis at a time, last axis first, into gathers of constant taps
// (nearest: one gather) or weighted sums of gathers (linear, cubic); axes whose outputs
// equal their inputs are left alone. Taps of dims known only at run time come from an iota.

// Nearest, half_pixel, round_prefer_floor: x = (o + 0.5) / scale - 0.5 rounded half down
// and clamped; N and C (scale 1) are untouched.
// CHECK-LABEL: func.func @nearest
// CHECK-SAME: -> tensor<1x1x4x6xf32>
// CHECK: %[[W:.*]] = arith.constant dense<[0, 0, 0, 1, 1, 1]> : tensor<6xi64>
// CHECK: %[[G:.*]] = prim.gather %arg0[%[[W]]] axis = 3 : (tensor<1x1x2x2xf32>, tensor<6xi64>) -> tensor<1x1x2x6xf32>
// CHECK: %[[H:.*]] = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
// CHECK: %[[R:.*]] = prim.gather %[[G]][%[[H]]] axis = 2 : (tensor<1x1x2x6xf32>, tensor<4xi64>) -> tensor<1x1x4x6xf32>
// CHECK-NEXT: return %[[R]]
module {
  func.func @nearest(%arg0: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
    %scales = arith.constant dense<[1.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %none, %scales) {mode = "nearest"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Linear, half_pixel, 2 -> 4 on the last axis: taps floor(x) and floor(x) + 1 (clamped)
// weighted by 1 - r and r, r = x - floor(x).
// CHECK-LABEL: func.func @linear
// CHECK-SAME: -> tensor<3x4xf32>
// CHECK-DAG: %[[I0:.*]] = arith.constant dense<[0, 0, 0, 1]> : tensor<4xi64>
// CHECK-DAG: %[[W0:.*]] = arith.constant dense<[2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01]> : tensor<4xf32>
// CHECK-DAG: %[[I1:.*]] = arith.constant dense<[0, 1, 1, 1]> : tensor<4xi64>
// CHECK-DAG: %[[W1:.*]] = arith.constant dense<[7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]> : tensor<4xf32>
// CHECK: %[[G0:.*]] = prim.gather %arg0[%[[I0]]] axis = 1 : (tensor<3x2xf32>, tensor<4xi64>) -> tensor<3x4xf32>
// CHECK: %[[B0:.*]] = prim.broadcast_in_dim %[[W0]], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: %[[M0:.*]] = prim.mul %[[G0]], %[[B0]] : tensor<3x4xf32>
// CHECK: %[[G1:.*]] = prim.gather %arg0[%[[I1]]] axis = 1 : (tensor<3x2xf32>, tensor<4xi64>) -> tensor<3x4xf32>
// CHECK: %[[B1:.*]] = prim.broadcast_in_dim %[[W1]], dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: %[[M1:.*]] = prim.mul %[[G1]], %[[B1]] : tensor<3x4xf32>
// CHECK: %[[S:.*]] = prim.add %[[M0]], %[[M1]] : tensor<3x4xf32>
// CHECK-NEXT: return %[[S]]
module {
  func.func @linear(%arg0: tensor<3x2xf32>) -> tensor<*xf32> {
    %sizes = arith.constant dense<[4]> : tensor<1xi64>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 18 (%arg0, %none, %none, %sizes) {mode = "linear", axes = array<i64: -1>} : (tensor<3x2xf32>, none, none, tensor<1xi64>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}

// -----

// A dynamic dim scaled by 2 (asymmetric, floor): out = 2 in, and the source indices
// clamp(floor(iota / 2), 0, in - 1) are computed at run time.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: -> tensor<1x?xf32>
// CHECK: %[[IN:.*]] = prim.dim %arg0, 1
// CHECK: %[[OUT:.*]] = arith.muli %[[IN]], %{{.*}} : index
// CHECK: %[[IOTA:.*]] = prim.iota dim = 0 sizes(%[[OUT]]) : tensor<?xi64>
// CHECK: %[[X:.*]] = prim.convert %[[IOTA]] : tensor<?xi64> to tensor<?xf64>
// CHECK: %[[SRC:.*]] = prim.div %[[X]], %{{.*}} : tensor<?xf64>
// CHECK: %[[FLOOR:.*]] = prim.floor %[[SRC]] : tensor<?xf64>
// CHECK: %[[INDEX:.*]] = prim.convert %[[FLOOR]] : tensor<?xf64> to tensor<?xi64>
// CHECK: %[[CLAMPED:.*]] = prim.clamp %{{.*}}, %[[INDEX]], %{{.*}} : tensor<?xi64>
// CHECK: prim.gather %arg0[%[[CLAMPED]]] axis = 1 : (tensor<1x?xf32>, tensor<?xi64>) -> tensor<1x?xf32>
module {
  func.func @dynamic(%arg0: tensor<1x?xf32>) -> tensor<*xf32> {
    %scales = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %none = onnx.none
    %0 = onnx.node "Resize" opset 13 (%arg0, %none, %scales) {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x?xf32>, none, tensor<2xf32>) -> !onnx.value
    onnx.yield %0 : !onnx.value
  }
}
