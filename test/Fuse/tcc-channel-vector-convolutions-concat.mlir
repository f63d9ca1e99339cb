// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-winograd-width=0" --canonicalize --cse | FileCheck %s

// Two fire modules in small (SqueezeNet's): a pointwise squeeze, then a pointwise and a 3x3
// expand whose outputs are concatenated along the channels, read by the next squeeze. The
// concatenation of whole blocks of 16 channels joins the blocks along dim 3 ([n, y, x, cb,
// 16]), so the chain runs through it: 5 convolutions for 2 transposing copies (the input's
// and the result's), and no transpose between the modules.
// CHECK-LABEL: func.func @fire
// CHECK: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x2x16x14x14xf32> -> tensor<1x14x14x2x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: %[[CAT:.*]] = prim.concatenate %{{.*}}, %{{.*}} dim = 3 : (tensor<1x14x14x2x16xf32>, tensor<1x14x14x2x16xf32>) -> tensor<1x14x14x4x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: linalg.generic {{.*}} ins(%[[CAT]], %{{.*}} : tensor<1x14x14x4x16xf32>, tensor<1x1x1x4x16x16xf32>)
// CHECK: %[[BACK:.*]] = prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x14x14x1x16xf32> -> tensor<1x1x16x14x14xf32>
// CHECK-NOT: prim.concatenate
// CHECK-NOT: prim.convolution
// CHECK: return
func.func @fire(%x: tensor<1x32x14x14xf32>, %ws: tensor<16x32x1x1xf32>, %we1: tensor<32x16x1x1xf32>, %we3: tensor<32x16x3x3xf32>, %ws2: tensor<16x64x1x1xf32>) -> tensor<1x16x14x14xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %z16 = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<1x16x14x14xf32>
  %z32 = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<1x32x14x14xf32>
  %s = prim.convolution %x, %ws {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<16x32x1x1xf32>) -> tensor<1x16x14x14xf32>
  %sr = prim.max %s, %z16 : tensor<1x16x14x14xf32>
  %e1 = prim.convolution %sr, %we1 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x16x14x14xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x14x14xf32>
  %e1r = prim.max %e1, %z32 : tensor<1x32x14x14xf32>
  %e3 = prim.convolution %sr, %we3 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x16x14x14xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x14x14xf32>
  %e3r = prim.max %e3, %z32 : tensor<1x32x14x14xf32>
  %cat = prim.concatenate %e1r, %e3r dim = 1 : (tensor<1x32x14x14xf32>, tensor<1x32x14x14xf32>) -> tensor<1x64x14x14xf32>
  %s2 = prim.convolution %cat, %ws2 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x64x14x14xf32>, tensor<16x64x1x1xf32>) -> tensor<1x16x14x14xf32>
  return %s2 : tensor<1x16x14x14xf32>
}

// -----

// A concatenation with a tensor of 8 channels (not a whole block) stays channels first: the
// chain of four convolutions ends before it with a transposing copy.
// CHECK-LABEL: func.func @partial_block
// CHECK-COUNT-4: linalg.generic
// CHECK: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x14x14x2x16xf32> -> tensor<1x2x16x14x14xf32>
// CHECK: prim.concatenate %{{.*}}, %arg2 dim = 1 : (tensor<1x32x14x14xf32>, tensor<1x8x14x14xf32>) -> tensor<1x40x14x14xf32>
func.func @partial_block(%x: tensor<1x32x14x14xf32>, %w: tensor<32x32x3x3xf32>, %extra: tensor<1x8x14x14xf32>) -> tensor<1x40x14x14xf32> {
  %c1 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32>
  %c2 = prim.convolution %c1, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32>
  %c3 = prim.convolution %c2, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32>
  %c4 = prim.convolution %c3, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32>
  %cat = prim.concatenate %c4, %extra dim = 1 : (tensor<1x32x14x14xf32>, tensor<1x8x14x14xf32>) -> tensor<1x40x14x14xf32>
  return %cat : tensor<1x40x14x14xf32>
}
