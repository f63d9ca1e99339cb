// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// prim.dim, prim.check and prim.bind_shape when the assumptions hold; errors.mlir has the
// failures. Functions with arguments are not evaluated by the test pass.

prim.symbol @batch {max = 64 : i64}
prim.symbol @pair {divisor = 2 : i64}

// CHECK-NOT: @takes_an_argument
func.func @takes_an_argument(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// @batch binds to 3 at the first bind_shape and every later use agrees, including the
// expression s0 * 2 and the static 4.
// CHECK: @shapes result 0: index = 3
// CHECK: @shapes result 1: tensor<3x4xf32> = {{\[\[}}1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]
// CHECK: @shapes result 2: tensor<3x6xf32>
func.func @shapes() -> (index, tensor<?x4xf32>, tensor<?x?xf32>) {
  %n = arith.constant 3 : index
  %m = arith.constant 6 : index
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  %x = prim.broadcast_in_dim %one, dims = [0, 1] sizes(%n) : (tensor<1x1xf32>) -> tensor<?x4xf32>
  prim.bind_shape %x [@batch] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %y = prim.broadcast_in_dim %one, dims = [0, 1] sizes(%n, %m) : (tensor<1x1xf32>) -> tensor<?x?xf32>
  prim.bind_shape %y [@batch, @pair] affine_map<()[s0, s1] -> (s0, s1)> : tensor<?x?xf32>
  prim.bind_shape %y [@batch] affine_map<()[s0] -> (s0, s0 * 2)> : tensor<?x?xf32>
  %d = prim.dim %x, 0 : tensor<?x4xf32>
  %ok = arith.cmpi eq, %d, %n : index
  prim.check %ok, "dim 0 of x must be 3"
  return %d, %x, %y : index, tensor<?x4xf32>, tensor<?x?xf32>
}
