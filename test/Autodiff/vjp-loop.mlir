// RUN: tcc-opt %s --tcc-test-vjp | FileCheck %s
// The VJP of prim.loop (a taping loop records each iteration's carried values, then a
// reverse loop applies the body's VJP to the carried cotangents) against central finite
// differences in f64: carried state, a value read from outside the loop (its gradient sums
// over the iterations), the iteration number, and a per-iteration output written by row.

// CHECK-DAG: @recurrence: ok
func.func @recurrence(%h0: tensor<3xf64>, %w: tensor<3xf64>) -> tensor<3xf64> {
  %n = arith.constant 4 : index
  %r = prim.loop %n carrying(%h0 : tensor<3xf64>) {
  ^bb0(%i: index, %h: tensor<3xf64>):
    %hw = prim.mul %h, %w : tensor<3xf64>
    %ii = arith.index_cast %i : index to i64
    %t = tensor.from_elements %ii : tensor<i64>
    %tf = prim.convert %t : tensor<i64> to tensor<f64>
    %b = prim.broadcast_in_dim %tf, dims = [] : (tensor<f64>) -> tensor<3xf64>
    %s = prim.add %hw, %b : tensor<3xf64>
    %next = prim.tanh %s : tensor<3xf64>
    prim.yield %next : tensor<3xf64>
  } -> tensor<3xf64>
  return %r : tensor<3xf64>
}

// Two carried values (one a row-per-iteration output) and a dynamic trip count from a dim.
// CHECK-DAG: @rows: ok
func.func @rows(%h0: tensor<2xf64>, %w: tensor<2xf64>, %y0: tensor<?x2xf64>) -> (tensor<2xf64>, tensor<?x2xf64>) attributes {tcc.test_shapes = [array<i64: 2>, array<i64: 2>, array<i64: 3, 2>]} {
  %n = prim.dim %y0, 0 : tensor<?x2xf64>
  %r:2 = prim.loop %n carrying(%h0, %y0 : tensor<2xf64>, tensor<?x2xf64>) {
  ^bb0(%i: index, %h: tensor<2xf64>, %y: tensor<?x2xf64>):
    %m = prim.mul %h, %w : tensor<2xf64>
    %next = prim.sin %m : tensor<2xf64>
    %ii = arith.index_cast %i : index to i64
    %row = tensor.from_elements %ii : tensor<1x1xi64>
    %upd = prim.reshape %next : (tensor<2xf64>) -> tensor<1x2xf64>
    %y2 = prim.scatter %y[%row], %upd : (tensor<?x2xf64>, tensor<1x1xi64>, tensor<1x2xf64>) -> tensor<?x2xf64>
    prim.yield %next, %y2 : tensor<2xf64>, tensor<?x2xf64>
  } -> tensor<2xf64>, tensor<?x2xf64>
  return %r#0, %r#1 : tensor<2xf64>, tensor<?x2xf64>
}
