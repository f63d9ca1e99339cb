// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1 min-winograd-width=7" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1" --canonicalize --cse | FileCheck %s --check-prefix=NARROW
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1 min-winograd-width=0" --canonicalize --cse | FileCheck %s --check-prefix=DIRECT

// A chain's 3x3 convolution with unit strides in Winograd's F(2x2, 3x3) form, on blocks:
// the input transform V (loops n, a, b, ty, tx, cb, cl, i, j: each 4x4 window at 2 ty, 2 tx
// times the constant BT (x) BT), the filter transform U (16 products of the filter's 9 taps
// with G (x) G rows, concatenated and packed as [4, 4, blocks, input blocks, 16, 16], folded
// later with the weights), the 16 products over the channels M, and the output transform
// (loops n, y, x, ob, ol, a, b: each output point from its tile, y floordiv 2, x floordiv 2,
// with AT (x) AT at y mod 2, x mod 2), whose epilogue (bias, ReLU) follows on blocks.
// CHECK-DAG: #[[VIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d3 * 2 + d7, d4 * 2 + d8, d5, d6)>
// CHECK-DAG: #[[VK:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d2, d7, d8)>
// CHECK-DAG: #[[SEVEN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4, d5, d6)>
// CHECK-DAG: #[[MV:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4, d7, d8)>
// CHECK-DAG: #[[MU:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d2, d5, d7, d8, d6)>
// CHECK-DAG: #[[YM:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d5, d6, d1 floordiv 2, d2 floordiv 2, d3, d4)>
// CHECK-DAG: #[[YK:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1 mod 2, d2 mod 2, d5, d6)>
// CHECK-DAG: #[[YOUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @winograd
// CHECK: %[[XP:.*]] = prim.pad %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0] : (tensor<?x8x8x2x16xf32>, tensor<f32>) -> tensor<?x10x10x2x16xf32>
// CHECK: %[[V:.*]] = linalg.generic {indexing_maps = [#[[VIN]], #[[VK]], #[[SEVEN]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[XP]], %{{.*}} : tensor<?x10x10x2x16xf32>, tensor<4x4x4x4xf32>) outs(%{{.*}} : tensor<?x4x4x4x4x2x16xf32>)
// CHECK: %[[TAPS:.*]] = prim.reshape %arg1 : (tensor<32x32x3x3xf32>) -> tensor<32x32x9xf32>
// CHECK-COUNT-16: prim.dot_general %[[TAPS]], %{{.*}} contracting = [2] x [0] batching = [] x [] : (tensor<32x32x9xf32>, tensor<9xf32>) -> tensor<32x32xf32>
// CHECK: %[[U16:.*]] = prim.concatenate {{.*}} : (tensor<1x32x32xf32>{{.*}}) -> tensor<16x32x32xf32>
// CHECK: %[[US:.*]] = prim.reshape %[[U16]] : (tensor<16x32x32xf32>) -> tensor<4x4x2x16x2x16xf32>
// CHECK: %[[U:.*]] = prim.transpose %[[US]], [0, 1, 2, 4, 5, 3] : tensor<4x4x2x16x2x16xf32> -> tensor<4x4x2x2x16x16xf32>
// CHECK: %[[M:.*]] = linalg.generic {indexing_maps = [#[[MV]], #[[MU]], #[[SEVEN]]], {{.*}} ins(%[[V]], %[[U]] : tensor<?x4x4x4x4x2x16xf32>, tensor<4x4x2x2x16x16xf32>) outs(%{{.*}} : tensor<?x4x4x4x4x2x16xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[YM]], #[[YK]], #[[YOUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[M]], %{{.*}} : tensor<?x4x4x4x4x2x16xf32>, tensor<2x2x4x4xf32>) outs(%{{.*}} : tensor<?x8x8x2x16xf32>)
// CHECK: %[[A:.*]] = prim.add %[[Y]], %{{.*}} : tensor<?x8x8x2x16xf32>
// CHECK: %[[R:.*]] = prim.max %[[A]], %{{.*}} : tensor<?x8x8x2x16xf32>
// The second convolution (7x7 output: one more padded row and column than the convolution's
// own padding, the last tile half used) takes the same form.
// CHECK: prim.pad %[[R]], %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0] : (tensor<?x8x8x2x16xf32>, tensor<f32>) -> tensor<?x10x10x2x16xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4x4x4x4x2x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x4x4x4x4x2x16xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x7x7x2x16xf32>)
// With the default min-winograd-width (14), 8- and 7-wide rows stay direct (measured on
// ResNet's 7x7 layer 4, where the padded last tiles and the transforms cost more than the
// products saved); so they do with min-winograd-width=0 (off).
// NARROW-LABEL: func.func @winograd
// NARROW-NOT: prim.dot_general
// NARROW-COUNT-2: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]
// NARROW-NOT: prim.dot_general
// DIRECT-LABEL: func.func @winograd
// DIRECT-NOT: prim.dot_general
// DIRECT-COUNT-2: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]
// DIRECT-NOT: prim.dot_general
func.func @winograd(%x: tensor<?x32x8x8xf32>, %w1: tensor<32x32x3x3xf32>, %b1: tensor<32xf32>, %w2: tensor<32x32x3x3xf32>) -> tensor<?x32x7x7xf32> {
  %n = prim.dim %x, 0 : tensor<?x32x8x8xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %c1 = prim.convolution %x, %w1 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x32x8x8xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x8x8xf32>
  %bb = prim.broadcast_in_dim %b1, dims = [1] sizes(%n) : (tensor<32xf32>) -> tensor<?x32x8x8xf32>
  %a1 = prim.add %c1, %bb : tensor<?x32x8x8xf32>
  %z = prim.broadcast_in_dim %zero, dims = [] sizes(%n) : (tensor<f32>) -> tensor<?x32x8x8xf32>
  %r1 = prim.max %a1, %z : tensor<?x32x8x8xf32>
  %c2 = prim.convolution %r1, %w2 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x32x8x8xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x7x7xf32>
  return %c2 : tensor<?x32x7x7xf32>
}

// -----

// Not Winograd: a stride-2 3x3 convolution and a pointwise one stay direct in the chain
// (min-winograd-width=7 lets their 8-wide rows through).
// CHECK-LABEL: func.func @direct
// CHECK-NOT: prim.dot_general
// CHECK-COUNT-2: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]
// CHECK-NOT: prim.dot_general
func.func @direct(%x: tensor<1x32x16x16xf32>, %w1: tensor<32x32x3x3xf32>, %w2: tensor<32x32x1x1xf32>) -> tensor<1x32x8x8xf32> {
  %c1 = prim.convolution %x, %w1 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x32x16x16xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x8x8xf32>
  %c2 = prim.convolution %c1, %w2 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x8x8xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x8x8xf32>
  return %c2 : tensor<1x32x8x8xf32>
}
