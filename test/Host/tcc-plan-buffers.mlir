// RUN: tcc-opt %s --tcc-plan-buffers | FileCheck %s
// Intermediates become views of one workspace; buffers whose live ranges do not overlap
// share bytes (%a dies before %c is born, so %c reuses %a's offset).

// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<?xi8> {kernel.workspace}) attributes {kernel.workspace_size = 128 : i64}
// CHECK-NOT: memref.alloc
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[WS]][%[[O1]]][] : memref<?xi8> to memref<4x4xf32>
// CHECK: %[[O2:.*]] = arith.constant 64 : index
// CHECK: memref.view %[[WS]][%[[O2]]][] : memref<?xi8> to memref<4x4xf32>
// CHECK: %[[O3:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[WS]][%[[O3]]][] : memref<?xi8> to memref<4x4xf32>
// CHECK-NOT: memref.alloc
func.func @main(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<4x4xf32>
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32>
  %c = memref.alloc() : memref<4x4xf32>
  memref.copy %b, %c : memref<4x4xf32> to memref<4x4xf32>
  memref.copy %c, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}
