// RUN: tcc-opt %s --split-input-file --tcc-split-strided-convolutions="vector-bits=512" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-split-strided-convolutions="vector-bits=256 all-widths=true" --canonicalize --cse | FileCheck %s --check-prefix=ALL
// RUN: tcc-opt %s --split-input-file --tcc-split-strided-convolutions | FileCheck %s --check-prefix=OFF

// A 3x3 window with stride 2 and padding 1 from 28x28 to 14x14 (over a dynamic batch):
// the columns are padded once (28 -> 30); phase 0, the even padded columns (15 of them),
// takes the window's columns 0 and 2, phase 1, the odd ones (14), column 1; each is a
// convolution with column stride 1 that keeps the rows' stride and padding; their sum is
// the result. An output row of 14 points fits one vector of 16.
// CHECK-LABEL: func.func @narrow
// CHECK: %[[XP:.*]] = prim.pad %arg0, %{{.*}} low [0, 0, 0, 1] high [0, 0, 0, 1] : (tensor<?x8x28x28xf32>, tensor<f32>) -> tensor<?x8x28x30xf32>
// CHECK: %[[N:.*]] = prim.dim %arg0, 0
// CHECK: %[[P0:.*]] = prim.slice %[[XP]] [0, 0, 0, 0] [%[[N]], 8, 28, 15] strides [1, 1, 1, 2]
// CHECK: %[[W0:.*]] = prim.slice %arg1 [0, 0, 0, 0] [16, 8, 3, 2] strides [1, 1, 1, 2]
// CHECK: %[[C0:.*]] = prim.convolution %[[P0]], %[[W0]] {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 0>, padding_low = array<i64: 1, 0>, strides = array<i64: 2, 1>} : (tensor<?x8x28x15xf32>, tensor<16x8x3x2xf32>) -> tensor<?x16x14x14xf32>
// CHECK: %[[P1:.*]] = prim.slice %[[XP]] [0, 0, 0, 1] [%[[N]], 8, 28, 14] strides [1, 1, 1, 2]
// CHECK: %[[W1:.*]] = prim.slice %arg1 [0, 0, 0, 1] [16, 8, 3, 1] strides [1, 1, 1, 2]
// CHECK: %[[C1:.*]] = prim.convolution %[[P1]], %[[W1]] {{.*}}strides = array<i64: 2, 1>} : (tensor<?x8x28x14xf32>, tensor<16x8x3x1xf32>) -> tensor<?x16x14x14xf32>
// CHECK: %[[SUM:.*]] = prim.add %[[C0]], %[[C1]]
// CHECK: return %[[SUM]]
// ALL-LABEL: func.func @narrow
// ALL-COUNT-2: prim.convolution
// ALL: prim.add
// Without vector-bits the pass is off.
// OFF-LABEL: func.func @narrow
// OFF-NOT: prim.slice
// OFF: prim.convolution %arg0, %arg1
func.func @narrow(%x: tensor<?x8x28x28xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<?x16x14x14xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x8x28x28xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x14x14xf32>
  return %0 : tensor<?x16x14x14xf32>
}

// -----

// Output rows of 28 points, two vectors of 16: left alone at 512 bits (measured no faster
// split), split at 256 bits with all-widths.
// CHECK-LABEL: func.func @wide
// CHECK-NOT: prim.slice
// CHECK: prim.convolution %arg0, %arg1
// ALL-LABEL: func.func @wide
// ALL-COUNT-2: prim.convolution
// ALL: prim.add
func.func @wide(%x: tensor<1x8x56x56xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x28x28xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x56x56xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x28x28xf32>
  return %0 : tensor<1x16x28x28xf32>
}

// -----

// ResNet's stem: a 7x7 window with stride 2 and padding 3 over 3 channels. Phase 0 takes
// the window's columns 0, 2, 4, 6 (T = 4: 112 + 3 = 115 phase columns), phase 1 columns
// 1, 3, 5 (T = 3: 114); the padded row of 230 columns holds both (its last needed column
// is 2 * 111 + 6 = 228).
// ALL-LABEL: func.func @stem
// ALL: prim.pad %arg0, %{{.*}} low [0, 0, 0, 3] high [0, 0, 0, 3] : (tensor<1x3x224x224xf32>, tensor<f32>) -> tensor<1x3x224x230xf32>
// ALL: prim.convolution {{.*}} : (tensor<1x3x224x115xf32>, tensor<8x3x7x4xf32>) -> tensor<1x8x112x112xf32>
// ALL: prim.convolution {{.*}} : (tensor<1x3x224x114xf32>, tensor<8x3x7x3xf32>) -> tensor<1x8x112x112xf32>
// ALL: prim.add
func.func @stem(%x: tensor<1x3x224x224xf32>, %w: tensor<8x3x7x7xf32>) -> tensor<1x8x112x112xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 3, 3>, padding_low = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<8x3x7x7xf32>) -> tensor<1x8x112x112xf32>
  return %0 : tensor<1x8x112x112xf32>
}

// -----

// Stride 3 with a 3-wide window, no padding: three phases of one window column each, and
// two additions.
// CHECK-LABEL: func.func @stride3
// CHECK-NOT: prim.pad
// CHECK: prim.slice %arg0 [0, 0, 0, 0] [1, 4, 9, 3] strides [1, 1, 1, 3]
// CHECK: prim.slice %arg0 [0, 0, 0, 1] [1, 4, 9, 3] strides [1, 1, 1, 3]
// CHECK: prim.add
// CHECK: prim.slice %arg0 [0, 0, 0, 2] [1, 4, 9, 3] strides [1, 1, 1, 3]
// CHECK: prim.add
func.func @stride3(%x: tensor<1x4x9x9xf32>, %w: tensor<5x4x3x3xf32>) -> tensor<1x5x3x3xf32> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 3, 3>} : (tensor<1x4x9x9xf32>, tensor<5x4x3x3xf32>) -> tensor<1x5x3x3xf32>
  return %0 : tensor<1x5x3x3xf32>
}

// -----

// Left alone: a depthwise convolution (groups; measured 1.1-1.9x slower split), a dilated
// window's columns, a column stride wider than the window (a 1x1 stride-2 downsample), and
// a row stride alone.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: prim.slice
// CHECK-COUNT-4: prim.convolution %arg
// ALL-LABEL: func.func @kept
// ALL-NOT: prim.slice
// ALL-COUNT-4: prim.convolution %arg
func.func @kept(%x: tensor<1x8x28x28xf32>, %dw: tensor<8x1x3x3xf32>, %w: tensor<8x8x3x3xf32>, %p: tensor<8x8x1x1xf32>) -> (tensor<1x8x14x14xf32>, tensor<1x8x13x13xf32>, tensor<1x8x14x14xf32>, tensor<1x8x14x28xf32>) {
  %0 = prim.convolution %x, %dw {dilations = array<i64: 1, 1>, feature_group_count = 8 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x28x28xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x14x14xf32>
  %1 = prim.convolution %x, %w {dilations = array<i64: 2, 2>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x28x28xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x13x13xf32>
  %2 = prim.convolution %x, %p {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x8x28x28xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x14x14xf32>
  %3 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 1>} : (tensor<1x8x28x28xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x14x28xf32>
  return %0, %1, %2, %3 : tensor<1x8x14x14xf32>, tensor<1x8x13x13xf32>, tensor<1x8x14x14xf32>, tensor<1x8x14x28xf32>
}
