// RUN: tcc-opt %s --split-input-file --tcc-loop-exits | FileCheck %s
// A bufferized loop whose body starts by reading its carried condition (prim.exit_unless)
// becomes an scf.while that tests i < ub and the condition before every iteration.

// CHECK-LABEL: func.func @while
// CHECK-SAME: (%[[FLAG:.*]]: memref<i1>, %[[X:.*]]: memref<4xf32>, %[[UB:.*]]: index)
// CHECK: %[[R:.*]] = scf.while (%[[I:.*]] = %c0) : (index) -> index {
// CHECK:   %[[IN:.*]] = arith.cmpi slt, %[[I]], %[[UB]] : index
// CHECK:   %[[C:.*]] = memref.load %[[FLAG]][] : memref<i1>
// CHECK:   %[[GO:.*]] = arith.andi %[[IN]], %[[C]] : i1
// CHECK:   scf.condition(%[[GO]]) %[[I]] : index
// CHECK: } do {
// CHECK: ^bb0(%[[J:.*]]: index):
// CHECK-NOT: prim.exit_unless
// CHECK:   call @step(%[[FLAG]], %[[X]], %[[J]])
// CHECK:   %[[NEXT:.*]] = arith.addi %[[J]], %c1 : index
// CHECK:   scf.yield %[[NEXT]] : index
func.func private @step(memref<i1>, memref<4xf32>, index)
func.func @while(%flag: memref<i1>, %x: memref<4xf32>, %ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %ub step %c1 {
    %c = memref.load %flag[] : memref<i1>
    prim.exit_unless %c
    func.call @step(%flag, %x, %i) : (memref<i1>, memref<4xf32>, index) -> ()
  }
  return
}

// -----

// A condition that folded to true needs no exit: the loop stays an scf.for.
// CHECK-LABEL: func.func @always
// CHECK: scf.for
// CHECK-NOT: prim.exit_unless
// CHECK-NOT: scf.while
func.func @always(%ub: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  scf.for %i = %c0 to %ub step %c1 {
    prim.exit_unless %true
  }
  return
}
