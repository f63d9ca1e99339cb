// RUN: tcc-opt %s --tcc-integer-contractions --canonicalize --cse | FileCheck %s
// CPUs with AVX512-VNNI: quantized contractions become uint8 x int8 integer products.
// (1) A float32 convolution of dequantized operands (activation (q - 128) * 0.5, weights
// w * [0.25, 0.125] per output channel) is an int32 one times 0.5 * sw = [0.125, 0.0625].
// (2) The zero point leaves the sum: the padding of (q - 128) with 0 is the padding of q
// with 128, and 128 * sum(w[o]) = [-256, 1536] is subtracted per output channel.
// CHECK-LABEL: func.func @qdq_conv
// CHECK-DAG: %[[SCALE:.+]] = arith.constant dense<[1.250000e-01, 6.250000e-02]> : tensor<2xf32>
// CHECK-DAG: %[[Z:.+]] = arith.constant dense<128> : tensor<ui8>
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{\[\[\[\[}}1]], {{\[\[}}-2]], {{\[\[}}3]], {{\[\[}}-4]]], {{\[\[\[}}5]], {{\[\[}}6]], {{\[\[}}-7]], {{\[\[}}8]]]]> : tensor<2x4x1x1xi32>
// CHECK: %[[P:.+]] = prim.pad %arg0, %[[Z]] low [0, 0, 0, 1] high [0, 0, 1, 0] : (tensor<?x4x6x6xui8>, tensor<ui8>) -> tensor<?x4x7x7xui8>
// CHECK: %[[U:.+]] = prim.convert %[[P]] : tensor<?x4x7x7xui8> to tensor<?x4x7x7xi32>
// CHECK: %[[C:.+]] = prim.convolution %[[U]], %[[W]] {{{.*}}padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>{{.*}}} : (tensor<?x4x7x7xi32>, tensor<2x4x1x1xi32>) -> tensor<?x2x7x7xi32>
// CHECK: %[[SUMS:.+]] = prim.reduce sum %[[W]] dims = [1, 2, 3] : tensor<2x4x1x1xi32> -> tensor<2xi32>
// CHECK: %[[CORR:.+]] = prim.mul %[[SUMS]], %{{.+}} : tensor<2xi32>
// CHECK: %[[CORRB:.+]] = prim.broadcast_in_dim %[[CORR]], dims = [1] sizes(%{{.+}}) : (tensor<2xi32>) -> tensor<?x2x7x7xi32>
// CHECK: %[[ACC:.+]] = prim.sub %[[C]], %[[CORRB]] : tensor<?x2x7x7xi32>
// CHECK: %[[SB:.+]] = prim.broadcast_in_dim %[[SCALE]], dims = [1] sizes(%{{.+}}) : (tensor<2xf32>) -> tensor<?x2x7x7xf32>
// CHECK: %[[F:.+]] = prim.convert %[[ACC]] : tensor<?x2x7x7xi32> to tensor<?x2x7x7xf32>
// CHECK: %[[Y:.+]] = prim.mul %[[F]], %[[SB]] : tensor<?x2x7x7xf32>
// CHECK: return %[[Y]]
func.func @qdq_conv(%q: tensor<?x4x6x6xui8>) -> tensor<?x2x7x7xf32> {
  %c0 = arith.constant 0 : index
  %n = prim.dim %q, 0 : tensor<?x4x6x6xui8>
  %zx = arith.constant dense<128> : tensor<i32>
  %sx = arith.constant dense<0.5> : tensor<f32>
  %w = arith.constant dense<[[[[1]], [[-2]], [[3]], [[-4]]], [[[5]], [[6]], [[-7]], [[8]]]]> : tensor<2x4x1x1xi8>
  %sw = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %qi = prim.convert %q : tensor<?x4x6x6xui8> to tensor<?x4x6x6xi32>
  %zb = prim.broadcast_in_dim %zx, dims = [] sizes(%n) : (tensor<i32>) -> tensor<?x4x6x6xi32>
  %d = prim.sub %qi, %zb : tensor<?x4x6x6xi32>
  %df = prim.convert %d : tensor<?x4x6x6xi32> to tensor<?x4x6x6xf32>
  %sb = prim.broadcast_in_dim %sx, dims = [] sizes(%n) : (tensor<f32>) -> tensor<?x4x6x6xf32>
  %x = prim.mul %df, %sb : tensor<?x4x6x6xf32>
  %wi = prim.convert %w : tensor<2x4x1x1xi8> to tensor<2x4x1x1xi32>
  %wf = prim.convert %wi : tensor<2x4x1x1xi32> to tensor<2x4x1x1xf32>
  %swb = prim.broadcast_in_dim %sw, dims = [0] : (tensor<2xf32>) -> tensor<2x4x1x1xf32>
  %wd = prim.mul %wf, %swb : tensor<2x4x1x1xf32>
  %y = prim.convolution %x, %wd {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 0>, padding_low = array<i64: 0, 1>, strides = array<i64: 1, 1>} : (tensor<?x4x6x6xf32>, tensor<2x4x1x1xf32>) -> tensor<?x2x7x7xf32>
  return %y : tensor<?x2x7x7xf32>
}

// int8 activations less -5 (a QLinearMatMul's): u = q + 128 as uint8, z' = 123, and
// 123 * sum_k w[k, n] leaves the product.
// CHECK-LABEL: func.func @int8_matmul
// CHECK-DAG: %[[ZP:.+]] = arith.constant dense<123> : tensor<2xi32>
// CHECK-DAG: %[[SHIFT:.+]] = arith.constant dense<128> : tensor<3x8xi32>
// CHECK-DAG: %[[WM:.+]] = arith.constant dense<{{.*}}> : tensor<8x2xi32>
// CHECK: %[[Q:.+]] = prim.convert %arg0 : tensor<3x8xi8> to tensor<3x8xi32>
// CHECK: %[[QS:.+]] = prim.add %[[Q]], %[[SHIFT]] : tensor<3x8xi32>
// CHECK: %[[U8:.+]] = prim.convert %[[QS]] : tensor<3x8xi32> to tensor<3x8xui8>
// CHECK: %[[UM:.+]] = prim.convert %[[U8]] : tensor<3x8xui8> to tensor<3x8xi32>
// CHECK: %[[M:.+]] = prim.dot_general %[[UM]], %[[WM]] contracting = [1] x [0]
// CHECK: %[[S:.+]] = prim.reduce sum %[[WM]] dims = [0] : tensor<8x2xi32> -> tensor<2xi32>
// CHECK: %[[K:.+]] = prim.mul %[[S]], %[[ZP]] : tensor<2xi32>
// CHECK: %[[KB:.+]] = prim.broadcast_in_dim %[[K]], dims = [1] : (tensor<2xi32>) -> tensor<3x2xi32>
// CHECK: %[[R:.+]] = prim.sub %[[M]], %[[KB]] : tensor<3x2xi32>
// CHECK: return %[[R]]
func.func @int8_matmul(%q: tensor<3x8xi8>) -> tensor<3x2xi32> {
  %z = arith.constant dense<-5> : tensor<3x8xi32>
  %w = arith.constant dense<[[1, -1], [2, 0], [3, 1], [4, 2], [5, 3], [6, 4], [7, 5], [8, 6]]> : tensor<8x2xi8>
  %qi = prim.convert %q : tensor<3x8xi8> to tensor<3x8xi32>
  %d = prim.sub %qi, %z : tensor<3x8xi32>
  %wi = prim.convert %w : tensor<8x2xi8> to tensor<8x2xi32>
  %y = prim.dot_general %d, %wi contracting = [1] x [0] batching = [] x [] : (tensor<3x8xi32>, tensor<8x2xi32>) -> tensor<3x2xi32>
  return %y : tensor<3x2xi32>
}

// Left alone: a product of two activations (no constant weights to pack) and a grouped
// convolution (its reduction is the window's).
// CHECK-LABEL: func.func @activations
// CHECK-NEXT: prim.convert %arg0
// CHECK-NEXT: prim.convert %arg1
// CHECK-NEXT: prim.dot_general
// CHECK-NEXT: return
// CHECK-LABEL: func.func @grouped
// CHECK-NOT: prim.sub
// CHECK: prim.convolution {{.*}}feature_group_count = 4
// CHECK-NEXT: return
func.func @activations(%q: tensor<3x8xui8>, %r: tensor<8x2xui8>) -> tensor<3x2xi32> {
  %qi = prim.convert %q : tensor<3x8xui8> to tensor<3x8xi32>
  %ri = prim.convert %r : tensor<8x2xui8> to tensor<8x2xi32>
  %y = prim.dot_general %qi, %ri contracting = [1] x [0] batching = [] x [] : (tensor<3x8xi32>, tensor<8x2xi32>) -> tensor<3x2xi32>
  return %y : tensor<3x2xi32>
}
func.func @grouped(%q: tensor<1x4x5x5xui8>) -> tensor<1x4x5x5xi32> {
  %w = arith.constant dense<1> : tensor<4x1x1x1xi8>
  %qi = prim.convert %q : tensor<1x4x5x5xui8> to tensor<1x4x5x5xi32>
  %wi = prim.convert %w : tensor<4x1x1x1xi8> to tensor<4x1x1x1xi32>
  %y = prim.convolution %qi, %wi {dilations = array<i64: 1, 1>, feature_group_count = 4 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x5x5xi32>, tensor<4x1x1x1xi32>) -> tensor<1x4x5x5xi32>
  return %y : tensor<1x4x5x5xi32>
}

// (1) for a depthwise convolution (a filter per channel: no quads): the float32 convolution
// of the integers (exact: 9 taps of |values| <= 255), times sx sw[c]; the activation stays
// float((q - z)), the form tcc-channel-vector-convolutions reads as bytes.
// CHECK-LABEL: func.func @qdq_depthwise
// CHECK-DAG: %[[SCALE:.+]] = arith.constant dense<[1.250000e-01, 6.250000e-02]> : tensor<2xf32>
// CHECK: %[[QI:.+]] = prim.convert %arg0 : tensor<?x2x6x6xui8> to tensor<?x2x6x6xi32>
// CHECK: %[[D:.+]] = prim.sub %[[QI]], %{{.+}} : tensor<?x2x6x6xi32>
// CHECK: %[[DF:.+]] = prim.convert %[[D]] : tensor<?x2x6x6xi32> to tensor<?x2x6x6xf32>
// CHECK: %[[C:.+]] = prim.convolution %[[DF]], %{{.+}} {{{.*}}feature_group_count = 2 : i64{{.*}}} : (tensor<?x2x6x6xf32>, tensor<2x1x3x3xf32>) -> tensor<?x2x6x6xf32>
// CHECK: %[[SB:.+]] = prim.broadcast_in_dim %[[SCALE]], dims = [1] sizes(%{{.+}}) : (tensor<2xf32>) -> tensor<?x2x6x6xf32>
// CHECK: %[[Y:.+]] = prim.mul %[[C]], %[[SB]] : tensor<?x2x6x6xf32>
// CHECK: return %[[Y]]
func.func @qdq_depthwise(%q: tensor<?x2x6x6xui8>) -> tensor<?x2x6x6xf32> {
  %n = prim.dim %q, 0 : tensor<?x2x6x6xui8>
  %zx = arith.constant dense<128> : tensor<i32>
  %sx = arith.constant dense<0.5> : tensor<f32>
  %w = arith.constant dense<[[[[1, -2, 3], [-4, 5, 6], [-7, 8, 9]]], [[[2, 2, 2], [-1, -1, -1], [0, 3, 0]]]]> : tensor<2x1x3x3xi8>
  %sw = arith.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %qi = prim.convert %q : tensor<?x2x6x6xui8> to tensor<?x2x6x6xi32>
  %zb = prim.broadcast_in_dim %zx, dims = [] sizes(%n) : (tensor<i32>) -> tensor<?x2x6x6xi32>
  %d = prim.sub %qi, %zb : tensor<?x2x6x6xi32>
  %df = prim.convert %d : tensor<?x2x6x6xi32> to tensor<?x2x6x6xf32>
  %sb = prim.broadcast_in_dim %sx, dims = [] sizes(%n) : (tensor<f32>) -> tensor<?x2x6x6xf32>
  %x = prim.mul %df, %sb : tensor<?x2x6x6xf32>
  %wi = prim.convert %w : tensor<2x1x3x3xi8> to tensor<2x1x3x3xi32>
  %wf = prim.convert %wi : tensor<2x1x3x3xi32> to tensor<2x1x3x3xf32>
  %swb = prim.broadcast_in_dim %sw, dims = [0] : (tensor<2xf32>) -> tensor<2x1x3x3xf32>
  %wd = prim.mul %wf, %swb : tensor<2x1x3x3xf32>
  %y = prim.convolution %x, %wd {dilations = array<i64: 1, 1>, feature_group_count = 2 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<?x2x6x6xf32>, tensor<2x1x3x3xf32>) -> tensor<?x2x6x6xf32>
  return %y : tensor<?x2x6x6xf32>
}
