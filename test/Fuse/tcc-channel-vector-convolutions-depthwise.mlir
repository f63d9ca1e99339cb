// RUN: tcc-opt %s --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=0.5 min-winograd-width=0" --canonicalize --cse | FileCheck %s
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

// A quantized activation's depthwise convolution (tcc-integer-contractions' form: the
// input float(q - z), the filter an integer one as float): the blocks are of the bytes q,
// padded with z (so that a padded point adds z w, as every point does), converted to float
// where the contraction reads them; z times each channel's filter sum is subtracted after.
// CHECK-LABEL: func.func @quantized_depthwise
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<3.000000e+00> : tensor<4x16xf32>
// CHECK-DAG: %[[ZB:.*]] = arith.constant dense<3> : tensor<ui8>
// CHECK: %[[QB:.*]] = prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x4x16x14x14xui8> -> tensor<1x14x14x4x16xui8>
// CHECK: %[[PAD:.*]] = prim.pad %[[QB]], %[[ZB]] low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0] : (tensor<1x14x14x4x16xui8>, tensor<ui8>) -> tensor<1x16x16x4x16xui8>
// CHECK: %[[X:.*]] = prim.convert %[[PAD]] : tensor<1x16x16x4x16xui8> to tensor<1x16x16x4x16xf32>
// CHECK: %[[W:.*]] = prim.transpose %{{.*}}, [0, 2, 3, 1] : tensor<4x16x3x3xf32> -> tensor<4x3x3x16xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[W]] : tensor<1x16x16x4x16xf32>, tensor<4x3x3x16xf32>)
// CHECK: %[[WS:.*]] = prim.reduce sum %[[W]] dims = [1, 2] : tensor<4x3x3x16xf32> -> tensor<4x16xf32>
// CHECK: %[[SHARE:.*]] = prim.mul %[[WS]], %[[Z]] : tensor<4x16xf32>
// CHECK: %[[B:.*]] = prim.broadcast_in_dim %[[SHARE]], dims = [3, 4] : (tensor<4x16xf32>) -> tensor<1x7x7x4x16xf32>
// CHECK: prim.sub %[[SUM]], %[[B]] : tensor<1x7x7x4x16xf32>
func.func @quantized_depthwise(%q: tensor<1x64x14x14xui8>, %wq: tensor<64x1x3x3xi8>) -> tensor<1x64x7x7xf32> {
  %z = arith.constant dense<3> : tensor<i32>
  %zb = prim.broadcast_in_dim %z, dims = [] : (tensor<i32>) -> tensor<1x64x14x14xi32>
  %qi = prim.convert %q : tensor<1x64x14x14xui8> to tensor<1x64x14x14xi32>
  %qc = prim.sub %qi, %zb : tensor<1x64x14x14xi32>
  %x = prim.convert %qc : tensor<1x64x14x14xi32> to tensor<1x64x14x14xf32>
  %wi = prim.convert %wq : tensor<64x1x3x3xi8> to tensor<64x1x3x3xi32>
  %w = prim.convert %wi : tensor<64x1x3x3xi32> to tensor<64x1x3x3xf32>
  %d = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 64 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x14x14xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x7x7xf32>
  return %d : tensor<1x64x7x7xf32>
}

// The same input with a float filter (no bound on its values, so float sums of the bytes
// might round differently): the blocks stay the dequantized floats, padded with 0.
// CHECK-LABEL: func.func @quantized_input_float_filter
// CHECK: %[[PAD:.*]] = prim.pad %{{.*}}, %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0] : (tensor<1x14x14x4x16xf32>, tensor<f32>) -> tensor<1x16x16x4x16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[PAD]], %{{.*}} : tensor<1x16x16x4x16xf32>, tensor<4x3x3x16xf32>)
// CHECK-NOT: prim.reduce
func.func @quantized_input_float_filter(%q: tensor<1x64x14x14xui8>, %w: tensor<64x1x3x3xf32>) -> tensor<1x64x7x7xf32> {
  %qi = prim.convert %q : tensor<1x64x14x14xui8> to tensor<1x64x14x14xi32>
  %x = prim.convert %qi : tensor<1x64x14x14xi32> to tensor<1x64x14x14xf32>
  %d = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 64 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x14x14xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x7x7xf32>
  return %d : tensor<1x64x7x7xf32>
}

// EfficientNet's block: a pointwise expansion, a depthwise convolution, a squeeze-excitation
// (the maps' sums, a scale per image and channel from them, the map multiplied by it) and a
// pointwise projection, on a dynamic batch. The sums read the blocks (dims 1 and 2 of
// [n, y, x, cb, l]: a vector of 16 channels per point), the scale is made again on blocks
// ([n, cb, 16] along dims 0, 3, 4) and the multiply computes on blocks: the chain goes
// through, with one transpose in and one out.
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<?x2x16x14x14xf32> -> tensor<?x14x14x2x16xf32>
// CHECK: %[[D:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: %[[S:.*]] = prim.reduce sum %[[D]] dims = [1, 2] : tensor<?x14x14x4x16xf32> -> tensor<?x4x16xf32>
// CHECK: prim.reshape %[[S]] sizes(%{{.*}}) : (tensor<?x4x16xf32>) -> tensor<?x64xf32>
// CHECK: %[[G:.*]] = prim.reshape %{{.*}} sizes(%{{.*}}) : (tensor<?x64x1x1xf32>) -> tensor<?x4x16xf32>
// CHECK: %[[GB:.*]] = prim.broadcast_in_dim %[[G]], dims = [0, 3, 4] sizes(%{{.*}}) : (tensor<?x4x16xf32>) -> tensor<?x14x14x4x16xf32>
// CHECK: prim.mul %[[D]], %[[GB]] : tensor<?x14x14x4x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<?x14x14x4x16xf32>
// CHECK: prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<?x14x14x2x16xf32> -> tensor<?x2x16x14x14xf32>
// CHECK-NOT: prim.convolution
func.func @squeeze_excitation(%x: tensor<?x32x14x14xf32>, %we: tensor<64x32x1x1xf32>, %wd: tensor<64x1x3x3xf32>, %wp: tensor<32x64x1x1xf32>) -> tensor<?x32x14x14xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x32x14x14xf32>
  %e = prim.convolution %x, %we {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x32x14x14xf32>, tensor<64x32x1x1xf32>) -> tensor<?x64x14x14xf32>
  %d = prim.convolution %e, %wd {dilations = array<i64: 1, 1>, feature_group_count = 64 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x64x14x14xf32>, tensor<64x1x3x3xf32>) -> tensor<?x64x14x14xf32>
  %s = prim.reduce sum %d dims = [2, 3] : tensor<?x64x14x14xf32> -> tensor<?x64xf32>
  %g = prim.logistic %s : tensor<?x64xf32>
  %g4 = prim.reshape %g sizes(%n) : (tensor<?x64xf32>) -> tensor<?x64x1x1xf32>
  %gb = prim.broadcast_in_dim %g4, dims = [0, 1, 2, 3] sizes(%n) : (tensor<?x64x1x1xf32>) -> tensor<?x64x14x14xf32>
  %m = prim.mul %d, %gb : tensor<?x64x14x14xf32>
  %p = prim.convolution %m, %wp {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x64x14x14xf32>, tensor<32x64x1x1xf32>) -> tensor<?x32x14x14xf32>
  return %p : tensor<?x32x14x14xf32>
}
