// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 integer-quads=true min-convolutions-per-copy=1" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-channel-vector-convolutions="vector-bits=512 min-convolutions-per-copy=1" --canonicalize --cse | FileCheck %s --check-prefix=OFF

// A quantized residual block as tcc-integer-contractions leaves it: two int32 convolutions
// of uint8 activations padded and converted and of int8 constant weights, each requantized
// to uint8, the block's input dequantized and added to the second's. With integer-quads,
// both compute on blocks of 16 channels: the bytes are transposed into blocks once, where
// the chain starts, and padded as blocks; the requantization between the two, and the
// residual's dequantization (of the bytes whose blocks the first convolution reads), run on
// the blocks; the result is transposed back once. Without integer-quads, nothing changes.
// CHECK-LABEL: func.func @residual
// CHECK: %[[IN:.*]] = prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x2x16x14x14xui8> -> tensor<1x14x14x2x16xui8>
// CHECK: %[[PAD:.*]] = prim.pad %[[IN]], %{{.*}} low [0, 1, 1, 0, 0] high [0, 1, 1, 0, 0] : (tensor<1x14x14x2x16xui8>, tensor<ui8>) -> tensor<1x16x16x2x16xui8>
// CHECK: %[[WIDE:.*]] = prim.convert %[[PAD]] : tensor<1x16x16x2x16xui8> to tensor<1x16x16x2x16xi32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: linalg.generic {{.*}} ins(%[[WIDE]], %{{.*}} : tensor<1x16x16x2x16xi32>, tensor<2x3x3x2x16x16xi32>)
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: prim.convert %{{.*}} : tensor<1x14x14x2x16xf32> to tensor<1x14x14x2x16xui8>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: linalg.generic {{.*}} tensor<1x16x16x2x16xi32>, tensor<2x3x3x2x16x16xi32>)
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: prim.convert %[[IN]] : tensor<1x14x14x2x16xui8> to tensor<1x14x14x2x16xf32>
// CHECK-NOT: prim.transpose %{{.*}}, [0, 3, 4, 1, 2]
// CHECK: %[[OUT:.*]] = prim.convert %{{.*}} : tensor<1x14x14x2x16xf32> to tensor<1x14x14x2x16xui8>
// CHECK: prim.transpose %[[OUT]], [0, 3, 4, 1, 2] : tensor<1x14x14x2x16xui8> -> tensor<1x2x16x14x14xui8>
// CHECK-NOT: prim.convolution
// CHECK: return
// OFF-LABEL: func.func @residual
// OFF-COUNT-2: prim.convolution
// OFF-NOT: linalg.generic
func.func @residual(%q: tensor<1x32x14x14xui8>) -> tensor<1x32x14x14xui8> {
  %zp = arith.constant dense<0> : tensor<ui8>
  %cw = arith.constant dense<3> : tensor<32x32x3x3xi8>
  %cs = arith.constant dense<0.0625> : tensor<f32>
  %s = prim.broadcast_in_dim %cs, dims = [] : (tensor<f32>) -> tensor<1x32x14x14xf32>
  %w = prim.convert %cw : tensor<32x32x3x3xi8> to tensor<32x32x3x3xi32>
  %p1 = prim.pad %q, %zp low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x14x14xui8>, tensor<ui8>) -> tensor<1x32x16x16xui8>
  %u1 = prim.convert %p1 : tensor<1x32x16x16xui8> to tensor<1x32x16x16xi32>
  %c1 = prim.convolution %u1, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xi32>, tensor<32x32x3x3xi32>) -> tensor<1x32x14x14xi32>
  %f1 = prim.convert %c1 : tensor<1x32x14x14xi32> to tensor<1x32x14x14xf32>
  %m1 = prim.mul %f1, %s : tensor<1x32x14x14xf32>
  %r1 = prim.round_even %m1 : tensor<1x32x14x14xf32>
  %q1 = prim.convert %r1 : tensor<1x32x14x14xf32> to tensor<1x32x14x14xui8>
  %p2 = prim.pad %q1, %zp low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x14x14xui8>, tensor<ui8>) -> tensor<1x32x16x16xui8>
  %u2 = prim.convert %p2 : tensor<1x32x16x16xui8> to tensor<1x32x16x16xi32>
  %c2 = prim.convolution %u2, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xi32>, tensor<32x32x3x3xi32>) -> tensor<1x32x14x14xi32>
  %f2 = prim.convert %c2 : tensor<1x32x14x14xi32> to tensor<1x32x14x14xf32>
  %m2 = prim.mul %f2, %s : tensor<1x32x14x14xf32>
  %d = prim.convert %q : tensor<1x32x14x14xui8> to tensor<1x32x14x14xf32>
  %dm = prim.mul %d, %s : tensor<1x32x14x14xf32>
  %sum = prim.add %m2, %dm : tensor<1x32x14x14xf32>
  %r2 = prim.round_even %sum : tensor<1x32x14x14xf32>
  %q2 = prim.convert %r2 : tensor<1x32x14x14xf32> to tensor<1x32x14x14xui8>
  return %q2 : tensor<1x32x14x14xui8>
}

// -----

// Weights that are not constants (or not int8 values converted) are not the quantized form
// tcc-quad-int8-contractions computes in quads: those convolutions stay as they are.
// CHECK-LABEL: func.func @weights_not_constant
// CHECK-COUNT-2: prim.convolution
// CHECK-NOT: linalg.generic
func.func @weights_not_constant(%q: tensor<1x32x14x14xui8>, %cw: tensor<32x32x3x3xi8>) -> tensor<1x32x14x14xi32> {
  %zp = arith.constant dense<0> : tensor<ui8>
  %w = prim.convert %cw : tensor<32x32x3x3xi8> to tensor<32x32x3x3xi32>
  %p1 = prim.pad %q, %zp low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x14x14xui8>, tensor<ui8>) -> tensor<1x32x16x16xui8>
  %u1 = prim.convert %p1 : tensor<1x32x16x16xui8> to tensor<1x32x16x16xi32>
  %c1 = prim.convolution %u1, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xi32>, tensor<32x32x3x3xi32>) -> tensor<1x32x14x14xi32>
  %f1 = prim.convert %c1 : tensor<1x32x14x14xi32> to tensor<1x32x14x14xf32>
  %q1 = prim.convert %f1 : tensor<1x32x14x14xf32> to tensor<1x32x14x14xui8>
  %p2 = prim.pad %q1, %zp low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x14x14xui8>, tensor<ui8>) -> tensor<1x32x16x16xui8>
  %u2 = prim.convert %p2 : tensor<1x32x16x16xui8> to tensor<1x32x16x16xi32>
  %c2 = prim.convolution %u2, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xi32>, tensor<32x32x3x3xi32>) -> tensor<1x32x14x14xi32>
  return %c2 : tensor<1x32x14x14xi32>
}

// -----

// A chain's bytes read by a quantized convolution outside it (8 output channels: not whole
// blocks, SqueezeNet-int8's classifier of 1000): the transpose back to channels first stays
// on the bytes, before their int32 conversion (moved past it, the convolution would read a
// transposed int32 tensor, which tcc-quad-int8-contractions cannot read as quads).
// CHECK-LABEL: func.func @leaves_chain
// CHECK-COUNT-2: linalg.generic
// CHECK: %[[BACK:.*]] = prim.transpose %{{.*}}, [0, 3, 4, 1, 2] : tensor<1x14x14x2x16xui8> -> tensor<1x2x16x14x14xui8>
// CHECK: %[[NCHW:.*]] = prim.reshape %[[BACK]] : (tensor<1x2x16x14x14xui8>) -> tensor<1x32x14x14xui8>
// CHECK: %[[WIDE:.*]] = prim.convert %[[NCHW]] : tensor<1x32x14x14xui8> to tensor<1x32x14x14xi32>
// CHECK: prim.convolution %[[WIDE]]
func.func @leaves_chain(%q: tensor<1x32x14x14xui8>) -> tensor<1x8x14x14xi32> {
  %zp = arith.constant dense<0> : tensor<ui8>
  %cw = arith.constant dense<3> : tensor<32x32x3x3xi8>
  %cw2 = arith.constant dense<2> : tensor<8x32x1x1xi8>
  %w = prim.convert %cw : tensor<32x32x3x3xi8> to tensor<32x32x3x3xi32>
  %w2 = prim.convert %cw2 : tensor<8x32x1x1xi8> to tensor<8x32x1x1xi32>
  %p1 = prim.pad %q, %zp low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x14x14xui8>, tensor<ui8>) -> tensor<1x32x16x16xui8>
  %u1 = prim.convert %p1 : tensor<1x32x16x16xui8> to tensor<1x32x16x16xi32>
  %c1 = prim.convolution %u1, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xi32>, tensor<32x32x3x3xi32>) -> tensor<1x32x14x14xi32>
  %q1 = prim.convert %c1 : tensor<1x32x14x14xi32> to tensor<1x32x14x14xui8>
  %p2 = prim.pad %q1, %zp low [0, 0, 1, 1] high [0, 0, 1, 1] : (tensor<1x32x14x14xui8>, tensor<ui8>) -> tensor<1x32x16x16xui8>
  %u2 = prim.convert %p2 : tensor<1x32x16x16xui8> to tensor<1x32x16x16xi32>
  %c2 = prim.convolution %u2, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x16x16xi32>, tensor<32x32x3x3xi32>) -> tensor<1x32x14x14xi32>
  %q2 = prim.convert %c2 : tensor<1x32x14x14xi32> to tensor<1x32x14x14xui8>
  %u3 = prim.convert %q2 : tensor<1x32x14x14xui8> to tensor<1x32x14x14xi32>
  %c3 = prim.convolution %u3, %w2 {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x32x14x14xi32>, tensor<8x32x1x1xi32>) -> tensor<1x8x14x14xi32>
  return %c3 : tensor<1x8x14x14xi32>
}
