// RUN: tcc-opt %s --split-input-file --tcc-gpu-device-checks | FileCheck %s

// A check of a flag in memory becomes a store of its code into the status word (@main's
// new last argument, passed to the kernels @main calls); a second check of the same
// condition is dropped (the first fails first); a check of host values stays.
// CHECK: module attributes {kernel.device_check_messages = ["index out of range"]}
// CHECK-LABEL: func.func private @kernel
// CHECK-SAME: (%{{.*}}: memref<i1>, %{{.*}}: memref<?xi8> {kernel.device_status})
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[N:.*]]: index, %[[FLAG:.*]]: memref<i1>, %[[STATUS:.*]]: memref<?xi8> {kernel.device_status})
// CHECK: call @kernel(%[[FLAG]], %[[STATUS]])
// CHECK: %[[OK:.*]] = memref.load %[[FLAG]][]
// CHECK: %[[FAILED:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK: scf.if %[[FAILED]] {
// CHECK:   %[[WORD:.*]] = memref.view %[[STATUS]][%{{.*}}][] : memref<?xi8> to memref<i32>
// CHECK:   %[[CODE:.*]] = arith.constant 1 : i32
// CHECK:   memref.store %[[CODE]], %[[WORD]][] : memref<i32>
// CHECK: prim.check %{{.*}}, "n must be positive"
// CHECK-NOT: index out of range again
module {
  func.func private @kernel(%flag: memref<i1>) {
    return
  }
  func.func @main(%n: index, %flag: memref<i1>) {
    call @kernel(%flag) : (memref<i1>) -> ()
    %ok = memref.load %flag[] : memref<i1>
    prim.check %ok, "index out of range"
    %c0 = arith.constant 0 : index
    %positive = arith.cmpi sgt, %n, %c0 : index
    prim.check %positive, "n must be positive"
    prim.check %ok, "index out of range again"
    return
  }
}

// -----

// Without such checks, an empty list and no status word.
// CHECK: module attributes {kernel.device_check_messages = []}
// CHECK: func.func @main(%{{.*}}: index)
module {
  func.func @main(%n: index) {
    return
  }
}
