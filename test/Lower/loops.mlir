// RUN: tcc-opt %s --tcc-lower-prim-to-linalg | FileCheck %s
// prim.loop -> scf.for over [0, count), the carried values as iteration arguments (their
// next values copied into them, for in-place buffers); a loop that its carried condition
// ends (exit_unless) reads it first in every iteration (prim.exit_unless, for
// tcc-loop-exits).

// CHECK-LABEL: func.func @while_loop
// CHECK: %[[R:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[X:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}) -> (tensor<2xf32>, tensor<i1>)
// CHECK-NEXT: %[[F:.*]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK-NEXT: prim.exit_unless %[[F]]
// CHECK: linalg.copy
// CHECK: scf.yield
// CHECK: } {prim.invariant_extents}
func.func @while_loop(%n: index, %x: tensor<2xf32>, %c: tensor<i1>) -> tensor<2xf32> {
  %r:2 = prim.loop %n carrying(%x, %c : tensor<2xf32>, tensor<i1>) {
  ^bb0(%i: index, %xi: tensor<2xf32>, %ci: tensor<i1>):
    %y = prim.add %xi, %xi : tensor<2xf32>
    prim.yield %y, %ci : tensor<2xf32>, tensor<i1>
  } {exit_unless = 1 : i64} -> tensor<2xf32>, tensor<i1>
  return %r#0 : tensor<2xf32>
}
