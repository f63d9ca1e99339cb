// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-reduction=64" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512" | FileCheck %s --check-prefix=DEFAULT
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=256 min-reduction=64" | FileCheck %s --check-prefix=AVX2
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions | FileCheck %s --check-prefix=OFF

// A 3x3 window on a 7x7 map, 32 output channels: rows of 7 points, or the unfolded 49 in
// ceil(49 / 16) = 4 vectors per output channel, against 2 vectors of channels per point
// (98 against 128 per reduction point). The windows are copied out as unfolding does, the
// filter is packed as [2 blocks, 288, 16] (folded with the weights), the product's loops
// are (n, y, x, block, lane, k) with the copy broadcast and the filter block read as
// vectors, and the [n, y, x, 32] result is transposed back to NCHW.
// CHECK-DAG: #[[WINDOWS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-DAG: #[[U:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d5, d1, d2)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d5, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @narrow
// CHECK: %[[XP:.*]] = prim.pad %arg0, %{{.*}} low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x7x7xf32>, tensor<f32>) -> tensor<1x32x9x9xf32>
// CHECK: %[[COPY:.*]] = linalg.generic {indexing_maps = [#[[WINDOWS]], #{{.*}}]{{.*}} ins(%[[XP]] : tensor<1x32x9x9xf32>) outs(%{{.*}} : tensor<1x32x3x3x7x7xf32>)
// CHECK: %[[UNFOLDED:.*]] = prim.reshape %[[COPY]] : (tensor<1x32x3x3x7x7xf32>) -> tensor<1x288x7x7xf32>
// CHECK: %[[BLOCKS:.*]] = prim.reshape %arg1 : (tensor<32x32x3x3xf32>) -> tensor<2x16x288xf32>
// CHECK: %[[PACKED:.*]] = prim.transpose %[[BLOCKS]], [0, 2, 1] : tensor<2x16x288xf32> -> tensor<2x288x16xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x7x7x2x16xf32>)
// CHECK: %[[PRODUCT:.*]] = linalg.generic {indexing_maps = [#[[U]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[UNFOLDED]], %[[PACKED]] : tensor<1x288x7x7xf32>, tensor<2x288x16xf32>) outs(%[[ZERO]] : tensor<1x7x7x2x16xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: %[[NHWC:.*]] = prim.reshape %[[PRODUCT]] : (tensor<1x7x7x2x16xf32>) -> tensor<1x7x7x32xf32>
// CHECK: %[[Y:.*]] = prim.transpose %[[NHWC]], [0, 3, 1, 2] : tensor<1x7x7x32xf32> -> tensor<1x32x7x7xf32>
// CHECK: return %[[Y]]
// The default min-reduction (128) takes its 288 products; 256-bit vectors (not measured)
// and a pass without vector-bits leave it alone.
// DEFAULT-LABEL: func.func @narrow
// DEFAULT: linalg.generic
// DEFAULT: prim.transpose
// AVX2-LABEL: func.func @narrow
// AVX2-NOT: linalg.generic
// AVX2: prim.convolution %arg0, %arg1
// OFF-LABEL: func.func @narrow
// OFF-NOT: linalg.generic
// OFF: prim.convolution %arg0, %arg1
func.func @narrow(%x: tensor<1x32x7x7xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<1x32x7x7xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

// A pointwise convolution reads its input without a copy; a dynamic batch sizes the result.
// CHECK-LABEL: func.func @pointwise
// CHECK: %[[N:.*]] = prim.dim %arg0, 0
// CHECK-NOT: prim.pad
// CHECK: %[[PACKED:.*]] = prim.transpose %{{.*}}, [0, 2, 1] : tensor<2x16x64xf32> -> tensor<2x64x16xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x7x7x2x16xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[PACKED]] : tensor<?x64x7x7xf32>, tensor<2x64x16xf32>)
// CHECK: prim.transpose %{{.*}}, [0, 3, 1, 2] : tensor<?x7x7x32xf32> -> tensor<?x32x7x7xf32>
// Its 64 products are fewer than the default min-reduction's 128: left alone.
// DEFAULT-LABEL: func.func @pointwise
// DEFAULT-NOT: linalg.generic
// DEFAULT: prim.convolution %arg0, %arg1
func.func @pointwise(%x: tensor<?x64x7x7xf32>, %w: tensor<32x64x1x1xf32>) -> tensor<?x32x7x7xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x64x7x7xf32>, tensor<32x64x1x1xf32>) -> tensor<?x32x7x7xf32>
  return %0 : tensor<?x32x7x7xf32>
}

// -----

// Left alone: a 14x14 map with a 3x3 window (tcc-unfold-convolutions does not take it, and
// the windows' copy costs more than the lanes gain), a pointwise one on 14x14 (196 points:
// 13 vectors per output channel, 416 in all, against 2 per point, 392: more than 0.9 of
// them), output channels that are not whole blocks of 16 (24), two groups, and integers.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: linalg.generic
// CHECK-COUNT-5: prim.convolution %arg
func.func @left_alone(%a: tensor<1x32x14x14xf32>, %b: tensor<1x64x14x14xf32>, %c: tensor<1x32x7x7xf32>,
                      %d: tensor<1x32x7x7xi32>, %w: tensor<32x32x3x3xf32>, %w1: tensor<32x64x1x1xf32>,
                      %w24: tensor<24x32x3x3xf32>, %wg: tensor<32x16x3x3xf32>, %wi: tensor<32x32x3x3xi32>)
    -> (tensor<1x32x14x14xf32>, tensor<1x32x14x14xf32>, tensor<1x24x7x7xf32>, tensor<1x32x7x7xf32>,
        tensor<1x32x7x7xi32>) {
  %0 = prim.convolution %a, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x14x14xf32>
  %1 = prim.convolution %b, %w1 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x64x14x14xf32>, tensor<32x64x1x1xf32>) -> tensor<1x32x14x14xf32>
  %2 = prim.convolution %c, %w24 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<24x32x3x3xf32>) -> tensor<1x24x7x7xf32>
  %3 = prim.convolution %c, %wg {dilations = array<i64: 1, 1>, feature_group_count = 2 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x7x7xf32>
  %4 = prim.convolution %d, %wi {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xi32>, tensor<32x32x3x3xi32>) -> tensor<1x32x7x7xi32>
  return %0, %1, %2, %3, %4 : tensor<1x32x14x14xf32>, tensor<1x32x14x14xf32>, tensor<1x24x7x7xf32>, tensor<1x32x7x7xf32>, tensor<1x32x7x7xi32>
}
