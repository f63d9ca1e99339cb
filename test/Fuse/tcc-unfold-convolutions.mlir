// RUN: tcc-opt %s --split-input-file --tcc-unfold-convolutions="vector-bits=512" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-unfold-convolutions="vector-bits=256" | FileCheck %s --check-prefix=AVX2
// RUN: tcc-opt %s --split-input-file --tcc-unfold-convolutions="vector-bits=512 split-wide-fma=true" | FileCheck %s --check-prefix=SPLIT
// RUN: tcc-opt %s --split-input-file --tcc-unfold-convolutions | FileCheck %s --check-prefix=OFF

// A 3x3 window on a 7x7 map: the row form takes 7 vectors of 16 lanes (7 in use) per output
// channel and reduction point, the unfolded one ceil(49 / 16) = 4. The padded input's
// windows are copied out once as [n, c, ky, kx, y, x] (one generic reading
// xp[n, c, y + ky, x + kx]), viewed as 288 channels in (c, ky, kx) order, and a 1x1
// convolution with the filter viewed the same way takes the convolution's place.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @narrow
// CHECK: %[[XP:.*]] = prim.pad %arg0, %{{.*}} low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x7x7xf32>, tensor<f32>) -> tensor<1x32x9x9xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x32x3x3x7x7xf32>
// CHECK: %[[U:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[ALL]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[XP]] : tensor<1x32x9x9xf32>) outs(%[[EMPTY]] : tensor<1x32x3x3x7x7xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[U2:.*]] = prim.reshape %[[U]] : (tensor<1x32x3x3x7x7xf32>) -> tensor<1x288x7x7xf32>
// CHECK: %[[W2:.*]] = prim.reshape %arg1 : (tensor<16x32x3x3xf32>) -> tensor<16x288x1x1xf32>
// CHECK: %[[Y:.*]] = prim.convolution %[[U2]], %[[W2]] {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x288x7x7xf32>, tensor<16x288x1x1xf32>) -> tensor<1x16x7x7xf32>
// CHECK: return %[[Y]]
// With 8 lanes (AVX2) the unfolded form needs ceil(49 / 8) = 7 vectors, as many as the
// rows: left alone. Where a 512-bit FMA issues as two halves, each 7-point row counts half
// a vector (3.5 in all) against 4: left alone. Without vector-bits the pass is off.
// AVX2-LABEL: func.func @narrow
// AVX2-NOT: linalg.generic
// AVX2: prim.convolution %arg0, %arg1
// SPLIT-LABEL: func.func @narrow
// SPLIT-NOT: linalg.generic
// SPLIT: prim.convolution %arg0, %arg1
// OFF-LABEL: func.func @narrow
// OFF-NOT: linalg.generic
// OFF: prim.convolution %arg0, %arg1
func.func @narrow(%x: tensor<1x32x7x7xf32>, %w: tensor<16x32x3x3xf32>) -> tensor<1x16x7x7xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x32x7x7xf32>, tensor<16x32x3x3xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}

// -----

// Strides, dilations and a dynamic batch: the copy reads xp[n, c, 2y + 2ky, 2x + 2kx]
// (14 + 4 padded, dilated window of 5, stride 2: 7 outputs), into [?, 8, 3, 3, 7, 7] sized
// by the input's batch; the 1x1 convolution has unit strides and dilations.
// CHECK-DAG: #[[SREAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2 * 2, d5 * 2 + d3 * 2)>
// CHECK-LABEL: func.func @strided_dilated
// CHECK: %[[N:.*]] = prim.dim %arg0, 0
// CHECK: %[[XP:.*]] = prim.pad %arg0, %{{.*}} low [0, 0, 2, 2] high [0, 0, 2, 2] : (tensor<?x8x14x14xf32>, tensor<f32>) -> tensor<?x8x18x18xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x8x3x3x7x7xf32>
// CHECK: %[[U:.*]] = linalg.generic {indexing_maps = [#[[SREAD]], #{{.*}}]{{.*}} ins(%[[XP]] : tensor<?x8x18x18xf32>) outs(%[[EMPTY]] : tensor<?x8x3x3x7x7xf32>)
// CHECK: %[[U2:.*]] = prim.reshape %[[U]] sizes(%[[N]]) : (tensor<?x8x3x3x7x7xf32>) -> tensor<?x72x7x7xf32>
// CHECK: prim.convolution %[[U2]], %{{.*}} {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x72x7x7xf32>, tensor<16x72x1x1xf32>) -> tensor<?x16x7x7xf32>
func.func @strided_dilated(%x: tensor<?x8x14x14xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<?x16x7x7xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 2, 2>, feature_group_count = 1 : i64, padding_high = array<i64: 2, 2>, padding_low = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x8x14x14xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x7x7xf32>
  return %0 : tensor<?x16x7x7xf32>
}

// -----

// Left alone: a 14x14 map (ceil(196 / 16) = 13 vectors against 14 rows: more than 3/4),
// a 1x1 window (a matrix product already), two groups, integers, a dynamic map and a
// dynamic filter.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: linalg.generic
// CHECK-COUNT-6: prim.convolution %arg
func.func @left_alone(%a: tensor<1x8x14x14xf32>, %b: tensor<1x8x7x7xf32>, %c: tensor<1x8x7x7xi32>,
                      %d: tensor<1x8x?x?xf32>, %w: tensor<16x8x3x3xf32>, %w1: tensor<16x8x1x1xf32>,
                      %wg: tensor<16x4x3x3xf32>, %wi: tensor<16x8x3x3xi32>, %wd: tensor<?x8x3x3xf32>)
    -> (tensor<1x16x14x14xf32>, tensor<1x16x7x7xf32>, tensor<1x16x7x7xf32>, tensor<1x16x7x7xi32>,
        tensor<1x16x?x?xf32>, tensor<1x?x7x7xf32>) {
  %0 = prim.convolution %a, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x14x14xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x14x14xf32>
  %1 = prim.convolution %b, %w1 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x8x7x7xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x7x7xf32>
  %2 = prim.convolution %b, %wg {dilations = array<i64: 1, 1>, feature_group_count = 2 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x7x7xf32>, tensor<16x4x3x3xf32>) -> tensor<1x16x7x7xf32>
  %3 = prim.convolution %c, %wi {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x7x7xi32>, tensor<16x8x3x3xi32>) -> tensor<1x16x7x7xi32>
  %4 = prim.convolution %d, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x?x?xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x?x?xf32>
  %5 = prim.convolution %b, %wd {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x8x7x7xf32>, tensor<?x8x3x3xf32>) -> tensor<1x?x7x7xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x16x14x14xf32>, tensor<1x16x7x7xf32>, tensor<1x16x7x7xf32>, tensor<1x16x7x7xi32>, tensor<1x16x?x?xf32>, tensor<1x?x7x7xf32>
}
