// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1.5 min-winograd-width=0 min-reduction=2048" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-winograd-width=0 min-reduction=2048" | FileCheck %s --check-prefix=DEFAULT
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1.5 min-channels-last-width=0 min-reduction=2048" | FileCheck %s --check-prefix=NOCL
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=256 min-convolutions-per-copy=1.5" | FileCheck %s --check-prefix=NOCL
// The first three pin min-reduction=2048: a convolution the chains leave alone then stays a
// prim.convolution (the narrow maps' channel form is tcc-channel-vector-convolutions.mlir's).

// A chain of three convolutions on 56x56 and 28x28 maps (a ResNet stage in small): a 3x3
// one with bias and ReLU, a 3x3 one with a residual add and ReLU, then a pointwise one on
// every second point (the decomposed stride-2 pointwise convolution: a slice, then the
// convolution). Computed channels last, in blocks of 16 channels ([n, y, x, c / 16, 16]):
// the input is transposed into blocks once (the first convolution and the residual add
// read the same blocks), the bias, the residual add, the ReLUs, the slice and the padding
// compute on blocks, and only the last result is transposed back. Each convolution is one
// linalg.generic over (n, y, x, block, lane, ky, kx, input block, input lane), its filter
// packed as [blocks, ky, kx, input blocks, 16, 16] (a pointwise one has ky = kx = 0).
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1 + d5, d2 + d6, d7, d8)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d3, d5, d6, d7, d8, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @chain
// CHECK: %[[N:.*]] = prim.dim %arg0, 0
// CHECK: %[[SPLIT:.*]] = prim.reshape %arg0 sizes(%[[N]]) : (tensor<?x32x56x56xf32>) -> tensor<?x2x16x56x56xf32>
// CHECK: %[[XB:.*]] = prim.transpose %[[SPLIT]], [0, 3, 4, 1, 2] : tensor<?x2x16x56x56xf32> -> tensor<?x56x56x2x16xf32>
// CHECK: %[[XP:.*]] = prim.pad %[[XB]], %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0] : (tensor<?x56x56x2x16xf32>, tensor<f32>) -> tensor<?x58x58x2x16xf32>
// CHECK: %[[W1:.*]] = prim.transpose %{{.*}}, [0, 4, 5, 2, 3, 1] : tensor<2x16x2x16x3x3xf32> -> tensor<2x3x3x2x16x16xf32>
// CHECK: %[[C1:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%[[XP]], %[[W1]] : tensor<?x58x58x2x16xf32>, tensor<2x3x3x2x16x16xf32>) outs(%{{.*}} : tensor<?x56x56x2x16xf32>)
// CHECK: %[[BIAS:.*]] = prim.reshape %arg2 : (tensor<32xf32>) -> tensor<2x16xf32>
// CHECK: %[[BB:.*]] = prim.broadcast_in_dim %[[BIAS]], dims = [3, 4] sizes(%{{.*}}) : (tensor<2x16xf32>) -> tensor<?x56x56x2x16xf32>
// CHECK: %[[A1:.*]] = prim.add %[[C1]], %[[BB]] : tensor<?x56x56x2x16xf32>
// CHECK: %[[R1:.*]] = prim.max %[[A1]], %{{.*}} : tensor<?x56x56x2x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: %[[P1:.*]] = prim.pad %[[R1]], %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0]
// CHECK: %[[C2:.*]] = linalg.generic {{.*}} ins(%[[P1]], %{{.*}} : tensor<?x58x58x2x16xf32>, tensor<2x3x3x2x16x16xf32>)
// CHECK: %[[A2:.*]] = prim.add %[[C2]], %[[XB]] : tensor<?x56x56x2x16xf32>
// CHECK: %[[R2:.*]] = prim.max %[[A2]], %{{.*}} : tensor<?x56x56x2x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: %[[S:.*]] = prim.slice %[[R2]] [0, 0, 0, 0, 0] [%{{.*}}, 28, 28, 2, 16] strides [1, 2, 2, 1, 1] : tensor<?x56x56x2x16xf32> -> tensor<?x28x28x2x16xf32>
// CHECK: %[[C3:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[W]], #[[OUT]]], {{.*}} ins(%[[S]], %{{.*}} : tensor<?x28x28x2x16xf32>, tensor<2x1x1x2x16x16xf32>) outs(%{{.*}} : tensor<?x28x28x2x16xf32>)
// CHECK: %[[BACK:.*]] = prim.transpose %[[C3]], [0, 3, 4, 1, 2] : tensor<?x28x28x2x16xf32> -> tensor<?x2x16x28x28xf32>
// CHECK: %[[Y:.*]] = prim.reshape %[[BACK]] sizes(%{{.*}}) : (tensor<?x2x16x28x28xf32>) -> tensor<?x32x28x28xf32>
// CHECK: return %[[Y]]
// With the default of 2 convolutions per copy, 3 convolutions for 2 copies (the input's
// and the result's) are left to the other forms; so are they without the channels-last
// form (min-channels-last-width=0) and with 256-bit vectors.
// DEFAULT-LABEL: func.func @chain
// DEFAULT-NOT: linalg.generic
// DEFAULT-NOT: prim.transpose
// NOCL-LABEL: func.func @chain
// NOCL-NOT: linalg.generic
// NOCL-NOT: prim.transpose
func.func @chain(%x: tensor<?x32x56x56xf32>, %w1: tensor<32x32x3x3xf32>, %b1: tensor<32xf32>, %w2: tensor<32x32x3x3xf32>, %w3: tensor<32x32x1x1xf32>) -> tensor<?x32x28x28xf32> {
  %n = prim.dim %x, 0 : tensor<?x32x56x56xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %c1 = prim.convolution %x, %w1 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x32x56x56xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x56x56xf32>
  %bb = prim.broadcast_in_dim %b1, dims = [1] sizes(%n) : (tensor<32xf32>) -> tensor<?x32x56x56xf32>
  %a1 = prim.add %c1, %bb : tensor<?x32x56x56xf32>
  %z = prim.broadcast_in_dim %zero, dims = [] sizes(%n) : (tensor<f32>) -> tensor<?x32x56x56xf32>
  %r1 = prim.max %a1, %z : tensor<?x32x56x56xf32>
  %c2 = prim.convolution %r1, %w2 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x32x56x56xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x56x56xf32>
  %a2 = prim.add %c2, %x : tensor<?x32x56x56xf32>
  %r2 = prim.max %a2, %z : tensor<?x32x56x56xf32>
  %s = prim.slice %r2 [0, 0, 0, 0] [%n, 32, 28, 28] strides [1, 1, 2, 2] : tensor<?x32x56x56xf32> -> tensor<?x32x28x28xf32>
  %c3 = prim.convolution %s, %w3 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x32x28x28xf32>, tensor<32x32x1x1xf32>) -> tensor<?x32x28x28xf32>
  return %c3 : tensor<?x32x28x28xf32>
}

// -----

// Not in a chain: a convolution between an input and a consumer the blocks cannot reach (a
// reduction) needs two copies for itself; 6-wide rows (below min-channels-last-width, 7)
// and 24 channels (not whole blocks of 16) are not taken at all.
// CHECK-LABEL: func.func @alone
// CHECK-NOT: linalg.generic
// CHECK-COUNT-3: prim.convolution
// CHECK-NOT: linalg.generic
func.func @alone(%x: tensor<1x32x56x56xf32>, %w: tensor<32x32x3x3xf32>, %v: tensor<1x32x6x6xf32>, %u: tensor<1x24x56x56xf32>, %w24: tensor<32x24x3x3xf32>) -> (tensor<1x32xf32>, tensor<1x32x6x6xf32>, tensor<1x32x56x56xf32>) {
  %c = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x56x56xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x56x56xf32>
  %r = prim.reduce sum %c dims = [2, 3] : tensor<1x32x56x56xf32> -> tensor<1x32xf32>
  %narrow = prim.convolution %v, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32>
  %odd = prim.convolution %u, %w24 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x24x56x56xf32>, tensor<32x24x3x3xf32>) -> tensor<1x32x56x56xf32>
  return %r, %narrow, %odd : tensor<1x32xf32>, tensor<1x32x6x6xf32>, tensor<1x32x56x56xf32>
}

// -----

// Narrow maps: three 3x3 convolutions on 7x7 maps joined by ReLUs (ResNet's layer 4 in
// small) are a chain like the wider ones, each reading its padded blocks (9x9) directly;
// the same chain on 6x6 maps (below min-channels-last-width, 7) is left to the other forms.
// CHECK-LABEL: func.func @seven_wide
// CHECK: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x2x16x7x7xf32> -> tensor<1x7x7x2x16xf32>
// CHECK-COUNT-3: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x9x9x2x16xf32>, tensor<2x3x3x2x16x16xf32>)
// CHECK-NOT: prim.convolution
// CHECK-LABEL: func.func @six_wide
// CHECK-NOT: linalg.generic
// CHECK-COUNT-3: prim.convolution
// CHECK-NOT: linalg.generic
func.func @seven_wide(%x: tensor<1x32x7x7xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x7x7xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %z = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<1x32x7x7xf32>
  %c1 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x7x7xf32>
  %r1 = prim.max %c1, %z : tensor<1x32x7x7xf32>
  %c2 = prim.convolution %r1, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x7x7xf32>
  %r2 = prim.max %c2, %z : tensor<1x32x7x7xf32>
  %c3 = prim.convolution %r2, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x7x7xf32>
  return %c3 : tensor<1x32x7x7xf32>
}

func.func @six_wide(%x: tensor<1x32x6x6xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %z = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<1x32x6x6xf32>
  %c1 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32>
  %r1 = prim.max %c1, %z : tensor<1x32x6x6xf32>
  %c2 = prim.convolution %r1, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32>
  %r2 = prim.max %c2, %z : tensor<1x32x6x6xf32>
  %c3 = prim.convolution %r2, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32>
  return %c3 : tensor<1x32x6x6xf32>
}
