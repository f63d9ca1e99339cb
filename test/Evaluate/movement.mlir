// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// Data movement prim ops. Expected values by hand (transpose, slice, gather checked with
// numpy's transpose, strided slicing and take).

// Operand dims of extent 1 broadcast; a dynamic result extent comes from `sizes`.
// CHECK: @broadcast result 0: tensor<2x3xf32> = {{\[\[}}1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
// CHECK: @broadcast result 1: tensor<3x2xi32> = {{\[\[}}1, 1], [2, 2], [3, 3]]
// CHECK: @broadcast result 2: tensor<3xf32> = [7.0, 7.0, 7.0]
// CHECK: @broadcast result 3: tensor<2x2x3xi32> = {{\[\[\[}}1, 1, 1], [2, 2, 2]], {{\[\[}}1, 1, 1], [2, 2, 2]]]
func.func @broadcast() -> (tensor<2x3xf32>, tensor<3x2xi32>, tensor<?xf32>, tensor<2x2x3xi32>) {
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = prim.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %y = arith.constant dense<[[1], [2], [3]]> : tensor<3x1xi32>
  %1 = prim.broadcast_in_dim %y, dims = [0, 1] : (tensor<3x1xi32>) -> tensor<3x2xi32>
  %z = arith.constant dense<7.0> : tensor<1xf32>
  %n = arith.constant 3 : index
  %2 = prim.broadcast_in_dim %z, dims = [0] sizes(%n) : (tensor<1xf32>) -> tensor<?xf32>
  %w = arith.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %3 = prim.broadcast_in_dim %w, dims = [1, 2] : (tensor<2x1xi32>) -> tensor<2x2x3xi32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<3x2xi32>, tensor<?xf32>, tensor<2x2x3xi32>
}

// CHECK: @reshape result 0: tensor<3x2xi32> = {{\[\[}}1, 2], [3, 4], [5, 6]]
// CHECK: @reshape result 1: tensor<6xi32> = [1, 2, 3, 4, 5, 6]
// CHECK: @reshape result 2: tensor<1x1xf32> = {{\[\[}}2.5]]
func.func @reshape() -> (tensor<3x2xi32>, tensor<?xi32>, tensor<1x1xf32>) {
  %x = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = prim.reshape %x : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %n = arith.constant 6 : index
  %1 = prim.reshape %x sizes(%n) : (tensor<2x3xi32>) -> tensor<?xi32>
  %s = arith.constant dense<2.5> : tensor<f32>
  %2 = prim.reshape %s : (tensor<f32>) -> tensor<1x1xf32>
  return %0, %1, %2 : tensor<3x2xi32>, tensor<?xi32>, tensor<1x1xf32>
}

// CHECK: @iota result 0: tensor<2x3xi64> = {{\[\[}}0, 1, 2], [0, 1, 2]]
// CHECK: @iota result 1: tensor<2x3xf32> = {{\[\[}}0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
// CHECK: @iota result 2: tensor<4xui8> = [0, 1, 2, 3]
func.func @iota() -> (tensor<2x3xi64>, tensor<2x3xf32>, tensor<?xui8>) {
  %0 = prim.iota dim = 1 : tensor<2x3xi64>
  %1 = prim.iota dim = 0 : tensor<2x3xf32>
  %n = arith.constant 4 : index
  %2 = prim.iota dim = 0 sizes(%n) : tensor<?xui8>
  return %0, %1, %2 : tensor<2x3xi64>, tensor<2x3xf32>, tensor<?xui8>
}

// CHECK: @transpose result 0: tensor<3x2xi32> = {{\[\[}}1, 4], [2, 5], [3, 6]]
// CHECK: @transpose result 1: tensor<4x2x3xi32> = {{\[\[\[}}0, 4, 8], [12, 16, 20]], {{\[\[}}1, 5, 9], [13, 17, 21]], {{\[\[}}2, 6, 10], [14, 18, 22]], {{\[\[}}3, 7, 11], [15, 19, 23]]]
func.func @transpose() -> (tensor<3x2xi32>, tensor<4x2x3xi32>) {
  %x = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = prim.transpose %x, [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
  %y = prim.iota dim = 0 : tensor<24xi32>
  %z = prim.reshape %y : (tensor<24xi32>) -> tensor<2x3x4xi32>
  %1 = prim.transpose %z, [2, 0, 1] : tensor<2x3x4xi32> -> tensor<4x2x3xi32>
  return %0, %1 : tensor<3x2xi32>, tensor<4x2x3xi32>
}

// x = arange(20).reshape(4, 5); x[1:4:2, 1:5:3] with the column offset dynamic.
// CHECK: @slice result 0: tensor<2x2xi32> = {{\[\[}}6, 9], [16, 19]]
// CHECK: @slice result 1: tensor<0x5xi32> = []
func.func @slice() -> (tensor<2x2xi32>, tensor<0x5xi32>) {
  %y = prim.iota dim = 0 : tensor<20xi32>
  %x = prim.reshape %y : (tensor<20xi32>) -> tensor<4x5xi32>
  %o = arith.constant 1 : index
  %0 = prim.slice %x [1, %o] [2, 2] strides [2, 3] : tensor<4x5xi32> -> tensor<2x2xi32>
  %1 = prim.slice %x [4, 0] [0, 5] strides [1, 1] : tensor<4x5xi32> -> tensor<0x5xi32>
  return %0, %1 : tensor<2x2xi32>, tensor<0x5xi32>
}

// CHECK: @pad result 0: tensor<3x4xf32> = {{\[\[}}-1.0, -1.0, -1.0, -1.0], [1.0, 2.0, -1.0, -1.0], [3.0, 4.0, -1.0, -1.0]]
func.func @pad() -> tensor<3x4xf32> {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %p = arith.constant dense<-1.0> : tensor<f32>
  %0 = prim.pad %x, %p low [1, 0] high [0, 2] : (tensor<2x2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK: @concatenate result 0: tensor<2x3xi32> = {{\[\[}}1, 2, 5], [3, 4, 6]]
// CHECK: @concatenate result 1: tensor<3x2xi32> = {{\[\[}}1, 2], [3, 4], [7, 8]]
func.func @concatenate() -> (tensor<2x3xi32>, tensor<3x2xi32>) {
  %a = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = arith.constant dense<[[5], [6]]> : tensor<2x1xi32>
  %c = arith.constant dense<[[7, 8]]> : tensor<1x2xi32>
  %0 = prim.concatenate %a, %b dim = 1 : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  %1 = prim.concatenate %a, %c dim = 0 : (tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<3x2xi32>
  return %0, %1 : tensor<2x3xi32>, tensor<3x2xi32>
}

// CHECK: @reverse result 0: tensor<2x3xi32> = {{\[\[}}3, 2, 1], [6, 5, 4]]
// CHECK: @reverse result 1: tensor<2x3xi32> = {{\[\[}}6, 5, 4], [3, 2, 1]]
func.func @reverse() -> (tensor<2x3xi32>, tensor<2x3xi32>) {
  %x = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %0 = prim.reverse %x, dims = [1] : tensor<2x3xi32>
  %1 = prim.reverse %x, dims = [0, 1] : tensor<2x3xi32>
  return %0, %1 : tensor<2x3xi32>, tensor<2x3xi32>
}

// The result shape is operand[:axis] + indices + operand[axis+1:].
// CHECK: @gather result 0: tensor<2x2xf32> = {{\[\[}}5.0, 6.0], [1.0, 2.0]]
// CHECK: @gather result 1: tensor<3x2x2xf32> = {{\[\[\[}}2.0, 1.0], [2.0, 2.0]], {{\[\[}}4.0, 3.0], [4.0, 4.0]], {{\[\[}}6.0, 5.0], [6.0, 6.0]]]
// CHECK: @gather result 2: tensor<2xf32> = [3.0, 1.0]
func.func @gather() -> (tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<2xf32>) {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %i = arith.constant dense<[2, 0]> : tensor<2xi64>
  %0 = prim.gather %x[%i] axis = 0 : (tensor<3x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %j = arith.constant dense<[[1, 0], [1, 1]]> : tensor<2x2xi32>
  %1 = prim.gather %x[%j] axis = 1 : (tensor<3x2xf32>, tensor<2x2xi32>) -> tensor<3x2x2xf32>
  %v = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %k = arith.constant dense<[2, 0]> : tensor<2xui8>
  %2 = prim.gather %v[%k] axis = 0 : (tensor<3xf32>, tensor<2xui8>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<2xf32>
}

// Rows in order: a later row writing the same place wins, or accumulates; a row whose tuple
// is out of range is skipped.
// CHECK: @scatter result 0: tensor<3x2xf32> = {{\[\[}}7.0, 8.0], [0.0, 0.0], [5.0, 6.0]]
// CHECK: @scatter result 1: tensor<3x2xf32> = {{\[\[}}10.0, 12.0], [0.0, 0.0], [5.0, 6.0]]
// CHECK: @scatter result 2: tensor<3x2xi32> = {{\[\[}}0, 9], [0, 0], [0, 0]]
func.func @scatter() -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xi32>) {
  %x = arith.constant dense<0.0> : tensor<3x2xf32>
  %i = arith.constant dense<[[0], [2], [3], [0]]> : tensor<4x1xi64>
  %u = arith.constant dense<[[3.0, 4.0], [5.0, 6.0], [9.0, 9.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %0 = prim.scatter %x[%i], %u : (tensor<3x2xf32>, tensor<4x1xi64>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %1 = prim.scatter %x[%i], %u combine = sum : (tensor<3x2xf32>, tensor<4x1xi64>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %y = arith.constant dense<0> : tensor<3x2xi32>
  %j = arith.constant dense<[[0, 1], [-1, 0], [0, 1]]> : tensor<3x2xi64>
  %v = arith.constant dense<[4, 100, 5]> : tensor<3xi32>
  %2 = prim.scatter %y[%j], %v combine = sum : (tensor<3x2xi32>, tensor<3x2xi64>, tensor<3xi32>) -> tensor<3x2xi32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xi32>
}

// The kept slices, in order; the result extent comes from the data.
// CHECK: @compact result 0: tensor<2x2xi32> = {{\[\[}}1, 3], [4, 6]]
// CHECK: @compact result 1: tensor<0xi32> = []
func.func @compact() -> (tensor<2x?xi32>, tensor<?xi32>) {
  %x = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %m = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %0 = prim.compact %x, %m dim = 1 : (tensor<2x3xi32>, tensor<3xi1>) -> tensor<2x?xi32>
  %y = arith.constant dense<[7, 8]> : tensor<2xi32>
  %none = arith.constant dense<false> : tensor<2xi1>
  %1 = prim.compact %y, %none dim = 0 : (tensor<2xi32>, tensor<2xi1>) -> tensor<?xi32>
  return %0, %1 : tensor<2x?xi32>, tensor<?xi32>
}
