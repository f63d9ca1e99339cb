// RUN: tcc-opt %s --tcc-lower-checks | FileCheck %s
// A failed check returns its 1-based index; the messages are kept for the descriptor.

// CHECK: module attributes {kernel.check_messages = ["first", "second"]}
// CHECK-LABEL: func.func @main
// CHECK-SAME: -> i32
// CHECK: cf.cond_br %arg0, ^[[OK1:.*]], ^[[FAIL1:.*]]
// CHECK: ^[[FAIL1]]:
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: return %[[ONE]] : i32
// CHECK: ^[[OK1]]:
// CHECK: cf.cond_br %arg1
// CHECK: arith.constant 2 : i32
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: return %[[ZERO]] : i32
func.func @main(%ok1: i1, %ok2: i1) {
  prim.check %ok1, "first"
  prim.check %ok2, "second"
  return
}
