// RUN: tcc-opt %s --tcc-requantize-clamps | FileCheck %s --check-prefix=IR
// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s --check-prefix=VAL
// RUN: tcc-opt %s --tcc-requantize-clamps --tcc-test-evaluate | FileCheck %s --check-prefix=VAL
// QuantizeLinear(Clip(DequantizeLinear(q))) with one scale and zero point is a clamp of q: the
// values are the same before and after the pass (VAL, both runs), worked by hand.

// ReLU6 (Clip 0..6) at s = 0.05, z = 53: Q(0) = 53, Q(6) = round(6 / 0.05) + 53 = 173.
// IR-LABEL: func.func @relu6
// IR: %[[W:.*]] = prim.convert %{{.*}} : tensor<8xui8> to tensor<8xi32>
// IR: %[[LO:.*]] = arith.constant dense<53> : tensor<8xi32>
// IR: %[[MAX:.*]] = prim.max %[[W]], %[[LO]] : tensor<8xi32>
// IR: %[[HI:.*]] = arith.constant dense<173> : tensor<8xi32>
// IR: %[[MIN:.*]] = prim.min %[[MAX]], %[[HI]] : tensor<8xi32>
// IR: %[[Y:.*]] = prim.convert %[[MIN]] : tensor<8xi32> to tensor<8xui8>
// IR-NOT: prim.round_even
// IR: return %[[Y]]
// VAL: @relu6 result 0: tensor<8xui8> = [53, 53, 53, 54, 172, 173, 173, 173]
func.func @relu6() -> tensor<8xui8> {
  %q = arith.constant dense<[0, 52, 53, 54, 172, 173, 174, 255]> : tensor<8xui8>
  %s = arith.constant dense<0.05> : tensor<8xf32>
  %zi = arith.constant dense<53> : tensor<8xi32>
  %zf = arith.constant dense<53.0> : tensor<8xf32>
  %lo = arith.constant dense<0.0> : tensor<8xf32>
  %hi = arith.constant dense<6.0> : tensor<8xf32>
  %0 = prim.convert %q : tensor<8xui8> to tensor<8xi32>
  %1 = prim.sub %0, %zi : tensor<8xi32>
  %2 = prim.convert %1 : tensor<8xi32> to tensor<8xf32>
  %3 = prim.mul %2, %s : tensor<8xf32>
  %4 = prim.max %3, %lo : tensor<8xf32>
  %5 = prim.min %4, %hi : tensor<8xf32>
  %6 = prim.div %5, %s : tensor<8xf32>
  %7 = prim.round_even %6 : tensor<8xf32>
  %8 = prim.add %7, %zf : tensor<8xf32>
  %9 = prim.convert %8 : tensor<8xf32> to tensor<8xui8>
  return %9 : tensor<8xui8>
}

// int8 without zero points, Clip -1..6 at s = 0.03: Q(-1) = round(-33.33) = -33, Q(6) = 200
// saturates to 127.
// IR-LABEL: func.func @clip_int8
// IR: arith.constant dense<-33> : tensor<5xi32>
// IR: arith.constant dense<127> : tensor<5xi32>
// IR-NOT: prim.round_even
// VAL: @clip_int8 result 0: tensor<5xi8> = [-33, -33, -33, 0, 127]
func.func @clip_int8() -> tensor<5xi8> {
  %q = arith.constant dense<[-128, -34, -33, 0, 127]> : tensor<5xi8>
  %s = arith.constant dense<0.03> : tensor<5xf32>
  %lo = arith.constant dense<-1.0> : tensor<5xf32>
  %hi = arith.constant dense<6.0> : tensor<5xf32>
  %0 = prim.convert %q : tensor<5xi8> to tensor<5xi32>
  %1 = prim.convert %0 : tensor<5xi32> to tensor<5xf32>
  %2 = prim.mul %1, %s : tensor<5xf32>
  %3 = prim.max %2, %lo : tensor<5xf32>
  %4 = prim.min %3, %hi : tensor<5xf32>
  %5 = prim.div %4, %s : tensor<5xf32>
  %6 = prim.round_even %5 : tensor<5xf32>
  %7 = prim.convert %6 : tensor<5xf32> to tensor<5xi8>
  return %7 : tensor<5xi8>
}

// Another scale on the way out: not a clamp of q, left alone.
// IR-LABEL: func.func @other_scale
// IR: prim.round_even
// VAL: @other_scale result 0: tensor<3xui8> = [0, 125, 255]
func.func @other_scale() -> tensor<3xui8> {
  %q = arith.constant dense<[0, 100, 255]> : tensor<3xui8>
  %s = arith.constant dense<0.05> : tensor<3xf32>
  %s2 = arith.constant dense<0.04> : tensor<3xf32>
  %lo = arith.constant dense<0.0> : tensor<3xf32>
  %0 = prim.convert %q : tensor<3xui8> to tensor<3xi32>
  %1 = prim.convert %0 : tensor<3xi32> to tensor<3xf32>
  %2 = prim.mul %1, %s : tensor<3xf32>
  %3 = prim.max %2, %lo : tensor<3xf32>
  %4 = prim.div %3, %s2 : tensor<3xf32>
  %5 = prim.round_even %4 : tensor<3xf32>
  %6 = prim.convert %5 : tensor<3xf32> to tensor<3xui8>
  return %6 : tensor<3xui8>
}

// A max pooling (3x3, strides 2, padding 1) between a ReLU's requantization and the next
// QuantizeLinear at the same s = 0.05, z = 53 (ResNet's stem): the pooling runs on the clamped
// bytes, padded with 0 where the float pooling pads with -inf (which quantizes to 0).
// IR-LABEL: func.func @relu_maxpool
// IR: %[[MAX:.*]] = prim.max %{{.*}}, %{{.*}} : tensor<1x1x4x4xi32>
// IR: %[[B:.*]] = prim.convert %[[MAX]] : tensor<1x1x4x4xi32> to tensor<1x1x4x4xui8>
// IR: %[[P:.*]] = prim.reduce_window max %[[B]] {{.*}} : tensor<1x1x4x4xui8> -> tensor<1x1x2x2xui8>
// IR-NOT: prim.round_even
// IR: return %[[P]]
// VAL: @relu_maxpool result 0: tensor<1x1x2x2xui8> = {{\[\[\[\[}}60, 200], [100, 255]]]]
func.func @relu_maxpool() -> tensor<1x1x2x2xui8> {
  %q = arith.constant dense<[[[[0, 60, 10, 200], [52, 53, 54, 55], [100, 0, 0, 0], [0, 0, 0, 255]]]]> : tensor<1x1x4x4xui8>
  %s = arith.constant dense<0.05> : tensor<1x1x4x4xf32>
  %s2 = arith.constant dense<0.05> : tensor<1x1x2x2xf32>
  %zi = arith.constant dense<53> : tensor<1x1x4x4xi32>
  %zf = arith.constant dense<53.0> : tensor<1x1x2x2xf32>
  %lo = arith.constant dense<0.0> : tensor<1x1x4x4xf32>
  %0 = prim.convert %q : tensor<1x1x4x4xui8> to tensor<1x1x4x4xi32>
  %1 = prim.sub %0, %zi : tensor<1x1x4x4xi32>
  %2 = prim.convert %1 : tensor<1x1x4x4xi32> to tensor<1x1x4x4xf32>
  %3 = prim.mul %2, %s : tensor<1x1x4x4xf32>
  %4 = prim.max %3, %lo : tensor<1x1x4x4xf32>
  %5 = prim.reduce_window max %4 {padding_high = array<i64: 0, 0, 1, 1>, padding_low = array<i64: 0, 0, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<1x1x4x4xf32> -> tensor<1x1x2x2xf32>
  %6 = prim.div %5, %s2 : tensor<1x1x2x2xf32>
  %7 = prim.round_even %6 : tensor<1x1x2x2xf32>
  %8 = prim.add %7, %zf : tensor<1x1x2x2xf32>
  %9 = prim.convert %8 : tensor<1x1x2x2xf32> to tensor<1x1x2x2xui8>
  return %9 : tensor<1x1x2x2xui8>
}

// The pooling alone, int8 values without a zero point (s = 0.1): windows whose values are all
// negative keep their largest, and a quantization of a different scale (0.2) is left alone.
// IR-LABEL: func.func @maxpool_int8
// IR: %[[P:.*]] = prim.reduce_window max %{{.*}} {{.*}} : tensor<1x1x2x4xi8> -> tensor<1x1x1x2xi8>
// IR: return %[[P]], %{{.*}}
// VAL: @maxpool_int8 result 0: tensor<1x1x1x2xi8> = {{\[\[\[\[}}-3, 127]]]]
// VAL: @maxpool_int8 result 1: tensor<1x1x1x2xi8> = {{\[\[\[\[}}-2, 64]]]]
func.func @maxpool_int8() -> (tensor<1x1x1x2xi8>, tensor<1x1x1x2xi8>) {
  %q = arith.constant dense<[[[[-128, -3, -7, 127], [-5, -100, 12, -128]]]]> : tensor<1x1x2x4xi8>
  %s = arith.constant dense<0.1> : tensor<1x1x2x4xf32>
  %s2 = arith.constant dense<0.1> : tensor<1x1x1x2xf32>
  %t2 = arith.constant dense<0.2> : tensor<1x1x1x2xf32>
  %0 = prim.convert %q : tensor<1x1x2x4xi8> to tensor<1x1x2x4xi32>
  %1 = prim.convert %0 : tensor<1x1x2x4xi32> to tensor<1x1x2x4xf32>
  %2 = prim.mul %1, %s : tensor<1x1x2x4xf32>
  %3 = prim.reduce_window max %2 {padding_high = array<i64: 0, 0, 0, 0>, padding_low = array<i64: 0, 0, 0, 0>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<1x1x2x4xf32> -> tensor<1x1x1x2xf32>
  %4 = prim.div %3, %s2 : tensor<1x1x1x2xf32>
  %5 = prim.round_even %4 : tensor<1x1x1x2xf32>
  %6 = prim.convert %5 : tensor<1x1x1x2xf32> to tensor<1x1x1x2xi8>
  %7 = prim.div %3, %t2 : tensor<1x1x1x2xf32>
  %8 = prim.round_even %7 : tensor<1x1x1x2xf32>
  %9 = prim.convert %8 : tensor<1x1x1x2xf32> to tensor<1x1x1x2xi8>
  return %6, %9 : tensor<1x1x1x2xi8>, tensor<1x1x1x2xi8>
}
