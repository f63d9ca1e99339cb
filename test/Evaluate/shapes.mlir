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

// prim.loop: the body runs count times, carrying its values; a row per iteration here.
// CHECK: @loop result 0: tensor<3xf32> = [1.8922917, -1.9120249, 1.9150672]
// CHECK: @loop result 1: tensor<4x3xf32> = {{\[\[}}0.92423433, -1.5231884, 1.9280552], [1.4557889, -1.8185034, 1.9171518], [1.7936633, -1.897378, 1.915364], [1.8922917, -1.9120249, 1.9150672]]
// CHECK: @loop_zero result 0: tensor<2xf32> = [1.0, 2.0]
func.func @loop() -> (tensor<3xf32>, tensor<4x3xf32>) {
  %n = arith.constant 4 : index
  %h0 = arith.constant dense<[0.5, -1.0, 2.0]> : tensor<3xf32>
  %y0 = arith.constant dense<0.0> : tensor<4x3xf32>
  %r:2 = prim.loop %n carrying(%h0, %y0 : tensor<3xf32>, tensor<4x3xf32>) {
  ^bb0(%i: index, %h: tensor<3xf32>, %y: tensor<4x3xf32>):
    %t = prim.tanh %h : tensor<3xf32>
    %two = arith.constant dense<2.0> : tensor<3xf32>
    %next = prim.mul %t, %two : tensor<3xf32>
    %ii = arith.index_cast %i : index to i64
    %row = tensor.from_elements %ii : tensor<1x1xi64>
    %upd = prim.reshape %next : (tensor<3xf32>) -> tensor<1x3xf32>
    %y2 = prim.scatter %y[%row], %upd : (tensor<4x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>) -> tensor<4x3xf32>
    prim.yield %next, %y2 : tensor<3xf32>, tensor<4x3xf32>
  } -> tensor<3xf32>, tensor<4x3xf32>
  return %r#0, %r#1 : tensor<3xf32>, tensor<4x3xf32>
}

// No iterations: the results are the inits.
func.func @loop_zero() -> tensor<2xf32> {
  %n = arith.constant 0 : index
  %h0 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = prim.loop %n carrying(%h0 : tensor<2xf32>) {
  ^bb0(%i: index, %h: tensor<2xf32>):
    %t = prim.tanh %h : tensor<2xf32>
    prim.yield %t : tensor<2xf32>
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
