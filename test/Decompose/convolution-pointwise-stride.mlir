// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-decompose-onnx --tcc-test-evaluate | FileCheck %s --check-prefix=VALUES
// A 1x1 kernel without padding and with strides (a ResNet downsample) reads only every
// stride-th input point: it becomes a strided prim.slice of the input (ceil(in / stride)
// points per spatial dim, static or computed) and a convolution with stride 1.
// x[0, c, i, j] = 25 c + 5 i + j + 1, w = [2, -1] over the two channels, strides [2, 3]:
// out[i][j] = 2 x[0, 0, 2i, 3j] - x[0, 1, 2i, 3j] = 10 i + 3 j - 24.

// CHECK-LABEL: func.func @pointwise
// CHECK: %[[S:.*]] = prim.slice %{{.*}} [0, 0, 0, 0] [1, 2, 3, 2] strides [1, 1, 2, 3] : tensor<1x2x5x5xf32> -> tensor<1x2x3x2xf32>
// CHECK: prim.convolution %[[S]], %{{.*}} {{.*}}strides = array<i64: 1, 1>
// VALUES: @pointwise result 0: tensor<1x1x3x2xf32> = {{\[\[\[\[}}-24.0, -21.0], [-14.0, -11.0], [-4.0, -1.0]]]]
module {
  func.func @pointwise() -> tensor<*xf32> {
    %x = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0, 25.0]], [[26.0, 27.0, 28.0, 29.0, 30.0], [31.0, 32.0, 33.0, 34.0, 35.0], [36.0, 37.0, 38.0, 39.0, 40.0], [41.0, 42.0, 43.0, 44.0, 45.0], [46.0, 47.0, 48.0, 49.0, 50.0]]]]> : tensor<1x2x5x5xf32>
    %w = arith.constant dense<[[[[2.0]], [[-1.0]]]]> : tensor<1x2x1x1xf32>
    %0 = onnx.node "Conv" opset 11 (%x, %w) {strides = array<i64: 2, 3>} : (tensor<1x2x5x5xf32>, tensor<1x2x1x1xf32>) -> !onnx.value loc("down"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Dynamic spatial extents: the slice's sizes are ceil(in / 2), computed.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[S:.*]] = prim.slice %arg0 [0, 0, 0, 0] [%{{.*}}, 8, %{{.*}}, %{{.*}}] strides [1, 1, 2, 2] : tensor<?x8x?x?xf32> -> tensor<?x8x?x?xf32>
// CHECK: prim.convolution %[[S]], %{{.*}} {{.*}}strides = array<i64: 1, 1>
module {
  func.func @dynamic(%x: tensor<?x8x?x?xf32>) -> tensor<*xf32> {
    %w = arith.constant dense<1.0> : tensor<4x8x1x1xf32>
    %0 = onnx.node "Conv" opset 11 (%x, %w) {strides = array<i64: 2, 2>} : (tensor<?x8x?x?xf32>, tensor<4x8x1x1xf32>) -> !onnx.value loc("down"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Padding, or a kernel larger than 1, keeps the strided convolution.
// CHECK-LABEL: func.func @padded
// CHECK-NOT: prim.slice
// CHECK: prim.convolution {{.*}}strides = array<i64: 2, 2>
// CHECK-NOT: prim.slice
// CHECK: prim.convolution {{.*}}strides = array<i64: 2, 2>
module {
  func.func @padded(%x: tensor<1x8x6x6xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %w = arith.constant dense<1.0> : tensor<4x8x1x1xf32>
    %w3 = arith.constant dense<1.0> : tensor<4x8x3x3xf32>
    %0 = onnx.node "Conv" opset 11 (%x, %w) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    %1 = onnx.node "Conv" opset 11 (%x, %w3) {strides = array<i64: 2, 2>} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> !onnx.value loc("b"("m.onnx":0:0))
    onnx.yield %0, %1 : !onnx.value, !onnx.value
  }
}
