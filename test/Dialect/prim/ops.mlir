// RUN: tcc-opt %s | tcc-opt | FileCheck %s
// Round trip of every prim op's assembly format.

prim.symbol @batch {max = 64 : i64}

// CHECK-LABEL: func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {
  // CHECK: prim.add %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %0 = prim.add %a, %b : tensor<2x3xf32>
  // CHECK: prim.exp %{{.*}} : tensor<2x3xf32>
  %1 = prim.exp %0 : tensor<2x3xf32>
  // CHECK: prim.compare lt, %{{.*}}, %{{.*}} : tensor<2x3xf32>
  %2 = prim.compare lt, %1, %b : tensor<2x3xf32>
  // CHECK: prim.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xi1>, tensor<2x3xf32>
  %3 = prim.select %2, %1, %a : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK: prim.is_nan %{{.*}} : tensor<2x3xf32>
  %4 = prim.is_nan %3 : tensor<2x3xf32>
  // CHECK: prim.convert %{{.*}} : tensor<2x3xi32> to tensor<2x3xf32>
  %5 = prim.convert %i : tensor<2x3xi32> to tensor<2x3xf32>
  // CHECK: prim.clamp
  %6 = prim.clamp %a, %5, %b : tensor<2x3xf32>
  // CHECK: prim.shift_right_arithmetic
  %7 = prim.shift_right_arithmetic %i, %i : tensor<2x3xi32>
  return %6 : tensor<2x3xf32>
}

// CHECK-LABEL: func @movement
func.func @movement(%x: tensor<?x4xf32>, %n: index, %p: tensor<f32>, %idx: tensor<5xi64>) {
  // CHECK: prim.broadcast_in_dim %{{.*}}, dims = [0, 2] sizes(%{{.*}}) : (tensor<?x4xf32>) -> tensor<?x3x4xf32>
  %0 = prim.broadcast_in_dim %x, dims = [0, 2] sizes(%n) : (tensor<?x4xf32>) -> tensor<?x3x4xf32>
  // CHECK: prim.reshape %{{.*}} sizes(%{{.*}}) : (tensor<?x4xf32>) -> tensor<?xf32>
  %1 = prim.reshape %x sizes(%n) : (tensor<?x4xf32>) -> tensor<?xf32>
  // CHECK: prim.transpose %{{.*}}, [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
  %2 = prim.transpose %x, [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
  // CHECK: prim.slice %{{.*}}[0, %{{.*}}] [2, 2] strides [1, 2] : tensor<4x?xf32> -> tensor<2x2xf32>
  %3 = prim.slice %2 [0, %n] [2, 2] strides [1, 2] : tensor<4x?xf32> -> tensor<2x2xf32>
  // CHECK: prim.pad
  %4 = prim.pad %3, %p low [1, 0] high [0, 2] : (tensor<2x2xf32>, tensor<f32>) -> tensor<3x4xf32>
  // CHECK: prim.concatenate
  %5 = prim.concatenate %4, %4 dim = 0 : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  // CHECK: prim.gather
  %6 = prim.gather %5[%idx] axis = 0 : (tensor<6x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
  // CHECK: prim.iota dim = 1 : tensor<2x3xi64>
  %7 = prim.iota dim = 1 : tensor<2x3xi64>
  // CHECK: prim.reverse
  %8 = prim.reverse %5, dims = [0] : tensor<6x4xf32>
  // CHECK: prim.dim %{{.*}}, 0 : tensor<?x4xf32>
  %9 = prim.dim %x, 0 : tensor<?x4xf32>
  prim.bind_shape %x [@batch] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  return
}

// CHECK-LABEL: func @compute
func.func @compute(%a: tensor<2x8x4xf32>, %b: tensor<2x4x16xf32>, %img: tensor<1x3x8x8xf32>, %w: tensor<6x3x3x3xf32>) {
  // CHECK: prim.dot_general %{{.*}}, %{{.*}} contracting = [2] x [1] batching = [0] x [0]
  %0 = prim.dot_general %a, %b contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x4xf32>, tensor<2x4x16xf32>) -> tensor<2x8x16xf32>
  // CHECK: prim.reduce sum %{{.*}} dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %1 = prim.reduce sum %0 dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  // CHECK: prim.arg_reduce argmax
  %2 = prim.arg_reduce argmax %1 dim = 1 : tensor<2x8xf32> -> tensor<2xi64>
  // CHECK: prim.convolution
  %3 = prim.convolution %img, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x4x4xf32>
  // CHECK: prim.reduce_window max
  %4 = prim.reduce_window max %3 {padding_high = array<i64: 0, 0, 0, 0>, padding_low = array<i64: 0, 0, 0, 0>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<1x6x4x4xf32> -> tensor<1x6x2x2xf32>
  // CHECK: prim.cumulative sum
  %5 = prim.cumulative sum %1 dim = 1 {exclusive} : tensor<2x8xf32>
  // CHECK: prim.scatter %{{.*}}[%{{.*}}], %{{.*}} combine = max : (tensor<2x8xf32>, tensor<3x1xi64>, tensor<3x8xf32>) -> tensor<2x8xf32>
  %i = arith.constant dense<[[0], [1], [0]]> : tensor<3x1xi64>
  %u = arith.constant dense<1.0> : tensor<3x8xf32>
  %6 = prim.scatter %1[%i], %u combine = max : (tensor<2x8xf32>, tensor<3x1xi64>, tensor<3x8xf32>) -> tensor<2x8xf32>
  // CHECK: prim.scatter %{{.*}}[%{{.*}}], %{{.*}} : (tensor<2x8xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<2x8xf32>
  %j = arith.constant dense<[[0, 1], [1, 7], [0, 0]]> : tensor<3x2xi64>
  %v = arith.constant dense<2.0> : tensor<3xf32>
  %7 = prim.scatter %1[%j], %v : (tensor<2x8xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<2x8xf32>
  // CHECK: prim.sort %{{.*}} dim = 1 {descending} : tensor<2x8xf32> -> tensor<2x8xf32>, tensor<2x8xi64>
  %8:2 = prim.sort %1 dim = 1 {descending} : tensor<2x8xf32> -> tensor<2x8xf32>, tensor<2x8xi64>
  // CHECK: prim.compact %{{.*}}, %{{.*}} dim = 1 : (tensor<2x8xf32>, tensor<8xi1>) -> tensor<2x?xf32>
  %m = arith.constant dense<[true, false, true, true, false, false, false, true]> : tensor<8xi1>
  %9 = prim.compact %1, %m dim = 1 : (tensor<2x8xf32>, tensor<8xi1>) -> tensor<2x?xf32>
  return
}
