// RUN: tcc-opt %s --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1 min-winograd-width=0" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1 min-winograd-width=0 depthwise-chains=false" --canonicalize --cse | FileCheck %s --check-prefix=OFF

// MobileNetV2's inverted residual: a pointwise expansion, a 3x3 depthwise convolution
// (stride 2, padding 1), a pointwise projection, ReLU6s between. The depthwise one joins
// the chain on blocks: its input padded as blocks, its filter [64, 1, 3, 3] as
// [cb, ky, kx, 16], one generic over (n, y, x, cb, l, ky, kx) whose both operands read the
// lanes; the chain transposes its input once and its result once.
// CHECK-LABEL: func.func @inverted_residual
// CHECK: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x2x16x14x14xf32> -> tensor<1x14x14x2x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: %[[PAD:.*]] = prim.pad %{{.*}}, %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0] : (tensor<1x14x14x4x16xf32>, tensor<f32>) -> tensor<1x16x16x4x16xf32>
// CHECK: %[[W:.*]] = prim.transpose %{{.*}}, [0, 2, 3, 1] : tensor<4x16x3x3xf32> -> tensor<4x3x3x16xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN:.*]], #[[WM:.*]], #[[OUT:.*]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PAD]], %[[W]] : tensor<1x16x16x4x16xf32>, tensor<4x3x3x16xf32>) outs(%{{.*}} : tensor<1x7x7x4x16xf32>)
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: linalg.generic
// CHECK: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x7x7x2x16xf32> -> tensor<1x2x16x7x7xf32>
// CHECK-NOT: prim.convolution
// OFF-LABEL: func.func @inverted_residual
// OFF: prim.convolution {{.*}}feature_group_count = 64
func.func @inverted_residual(%x: tensor<1x32x14x14xf32>, %we: tensor<64x32x1x1xf32>, %wd: tensor<64x1x3x3xf32>, %wp: tensor<32x64x1x1xf32>) -> tensor<1x32x7x7xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %six = arith.constant dense<6.0> : tensor<f32>
  %z64 = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<1x64x14x14xf32>
  %s64 = prim.broadcast_in_dim %six, dims = [] : (tensor<f32>) -> tensor<1x64x14x14xf32>
  %z7 = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<1x64x7x7xf32>
  %e = prim.convolution %x, %we {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<64x32x1x1xf32>) -> tensor<1x64x14x14xf32>
  %e1 = prim.max %e, %z64 : tensor<1x64x14x14xf32>
  %e2 = prim.min %e1, %s64 : tensor<1x64x14x14xf32>
  %d = prim.convolution %e2, %wd {dilations = array<i64: 1, 1>, feature_group_count = 64 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x14x14xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x7x7xf32>
  %d1 = prim.max %d, %z7 : tensor<1x64x7x7xf32>
  %p = prim.convolution %d1, %wp {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x64x7x7xf32>, tensor<32x64x1x1xf32>) -> tensor<1x32x7x7xf32>
  return %p : tensor<1x32x7x7xf32>
}
