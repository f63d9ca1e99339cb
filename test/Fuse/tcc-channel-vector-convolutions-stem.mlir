// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-winograd-width=0" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 max-stem-channels=0 min-winograd-width=0" --canonicalize --cse | FileCheck %s --check-prefix=NOSTEM

// A network's stem in small (ResNet's): a 7x7 stride-2 convolution of the image's 3
// channels with bias and ReLU, a 3x3 stride-2 max pooling, then two 3x3 convolutions and a
// residual add of the pooled map. The stem reads the image channels first as it is (padded
// along y and x) and writes blocks of 16 channels: one linalg.generic over (n, y, x, block,
// lane, ky, kx, c), its filter packed as [blocks, ky, kx, c, 16]. The bias, the ReLU and the
// pooling (the same window on the blocks' y and x) compute on blocks, so the chain's only
// transposing copy is the result's.
// CHECK-DAG: #[[SREAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d7, d1 * 2 + d5, d2 * 2 + d6)>
// CHECK-DAG: #[[SW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3, d5, d6, d7, d4)>
// CHECK-DAG: #[[SOUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @stem
// CHECK: %[[XP:.*]] = prim.pad %arg0, %{{.*}} low [0, 0, 3, 3] high [0, 0, 3, 3] : (tensor<?x3x64x64xf32>, tensor<f32>) -> tensor<?x3x70x70xf32>
// CHECK: %[[WS:.*]] = prim.reshape %arg1 : (tensor<32x3x7x7xf32>) -> tensor<2x16x3x7x7xf32>
// CHECK: %[[WP:.*]] = prim.transpose %[[WS]], [0, 3, 4, 2, 1] : tensor<2x16x3x7x7xf32> -> tensor<2x7x7x3x16xf32>
// CHECK: %[[C1:.*]] = linalg.generic {indexing_maps = [#[[SREAD]], #[[SW]], #[[SOUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[XP]], %[[WP]] : tensor<?x3x70x70xf32>, tensor<2x7x7x3x16xf32>) outs(%{{.*}} : tensor<?x32x32x2x16xf32>)
// CHECK: %[[A1:.*]] = prim.add %[[C1]], %{{.*}} : tensor<?x32x32x2x16xf32>
// CHECK: %[[R1:.*]] = prim.max %[[A1]], %{{.*}} : tensor<?x32x32x2x16xf32>
// CHECK: %[[P:.*]] = prim.reduce_window max %[[R1]] {padding_high = array<i64: 0, 1, 1, 0, 0>, padding_low = array<i64: 0, 1, 1, 0, 0>, window_dilations = array<i64: 1, 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1, 1>, window_strides = array<i64: 1, 2, 2, 1, 1>} : tensor<?x32x32x2x16xf32> -> tensor<?x16x16x2x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: prim.pad %[[P]], %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0]
// CHECK: %[[C2:.*]] = linalg.generic
// CHECK: %[[C3:.*]] = linalg.generic
// CHECK: %[[A3:.*]] = prim.add %[[C3]], %[[P]] : tensor<?x16x16x2x16xf32>
// CHECK: %[[BACK:.*]] = prim.transpose %[[A3]], [0, 3, 4, 1, 2] : tensor<?x16x16x2x16xf32> -> tensor<?x2x16x16x16xf32>
// CHECK: %[[Y:.*]] = prim.reshape %[[BACK]]
// CHECK: return %[[Y]]
// Without stems (max-stem-channels=0) the chain would start at the pooled map: two
// convolutions for two transposing copies (the pooled map's and the result's), below the
// default of 2 per copy, so nothing is taken.
// NOSTEM-LABEL: func.func @stem
// NOSTEM-NOT: linalg.generic
// NOSTEM-NOT: prim.transpose
// NOSTEM: return
func.func @stem(%x: tensor<?x3x64x64xf32>, %w1: tensor<32x3x7x7xf32>, %b1: tensor<32xf32>, %w2: tensor<32x32x3x3xf32>, %w3: tensor<32x32x3x3xf32>) -> tensor<?x32x16x16xf32> {
  %n = prim.dim %x, 0 : tensor<?x3x64x64xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %c1 = prim.convolution %x, %w1 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 3, 3>, padding_low = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<?x3x64x64xf32>, tensor<32x3x7x7xf32>) -> tensor<?x32x32x32xf32>
  %bb = prim.broadcast_in_dim %b1, dims = [1] sizes(%n) : (tensor<32xf32>) -> tensor<?x32x32x32xf32>
  %a1 = prim.add %c1, %bb : tensor<?x32x32x32xf32>
  %z = prim.broadcast_in_dim %zero, dims = [] sizes(%n) : (tensor<f32>) -> tensor<?x32x32x32xf32>
  %r1 = prim.max %a1, %z : tensor<?x32x32x32xf32>
  %p = prim.reduce_window max %r1 {padding_high = array<i64: 0, 0, 1, 1>, padding_low = array<i64: 0, 0, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<?x32x32x32xf32> -> tensor<?x32x16x16xf32>
  %c2 = prim.convolution %p, %w2 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x32x16x16xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x16x16xf32>
  %c3 = prim.convolution %c2, %w3 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x32x16x16xf32>, tensor<32x32x3x3xf32>) -> tensor<?x32x16x16xf32>
  %a3 = prim.add %c3, %p : tensor<?x32x16x16xf32>
  return %a3 : tensor<?x32x16x16xf32>
}

// -----

// Not taken: a stem whose output no chain reads (a reduction reads it) would be one
// convolution for its own transposing copy; a convolution of 8 input channels (more than
// max-stem-channels, 4, and not whole blocks) is no stem; a pooling with a window along
// the channels does not sink, so the stem before it stays channels first too.
// CHECK-LABEL: func.func @not_stems
// CHECK-NOT: linalg.generic
// CHECK-COUNT-4: prim.convolution
// CHECK-NOT: linalg.generic
func.func @not_stems(%x: tensor<1x3x64x64xf32>, %w: tensor<32x3x3x3xf32>, %ws: tensor<32x3x3x3xf32>, %u: tensor<1x8x64x64xf32>, %w8: tensor<32x8x3x3xf32>, %w2: tensor<32x32x3x3xf32>) -> (tensor<1x32xf32>, tensor<1x32x64x64xf32>, tensor<1x32x64x64xf32>) {
  %c = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x64x64xf32>, tensor<32x3x3x3xf32>) -> tensor<1x32x64x64xf32>
  %r = prim.reduce sum %c dims = [2, 3] : tensor<1x32x64x64xf32> -> tensor<1x32xf32>
  %wide = prim.convolution %u, %w8 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x64x64xf32>, tensor<32x8x3x3xf32>) -> tensor<1x32x64x64xf32>
  %s = prim.convolution %x, %ws {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x3x64x64xf32>, tensor<32x3x3x3xf32>) -> tensor<1x32x64x64xf32>
  %p = prim.reduce_window max %s {padding_high = array<i64: 0, 1, 1, 1>, padding_low = array<i64: 0, 1, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 3>, window_strides = array<i64: 1, 1, 1, 1>} : tensor<1x32x64x64xf32> -> tensor<1x32x64x64xf32>
  %c2 = prim.convolution %p, %w2 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x64x64xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x64x64xf32>
  return %r, %wide, %c2 : tensor<1x32xf32>, tensor<1x32x64x64xf32>, tensor<1x32x64x64xf32>
}
