// RUN: tcc-opt %s --tcc-plan-buffers | FileCheck %s
// A select between buffers (a one-element compaction's branch folded into one) aliases
// both: %a is read through %s at the end, so %c (born after the select) must not share its
// bytes: three distinct offsets.

// CHECK-LABEL: func.func @main
// CHECK-SAME: attributes {kernel.workspace_size = 192 : i64}
// CHECK: %[[O1:.*]] = arith.constant 0 : index
// CHECK: memref.view %{{.*}}[%[[O1]]][] : memref<?xi8> to memref<4x4xf32>
// CHECK: %[[O2:.*]] = arith.constant 64 : index
// CHECK: memref.view %{{.*}}[%[[O2]]][] : memref<?xi8> to memref<4x4xf32>
// CHECK: %[[O3:.*]] = arith.constant 128 : index
// CHECK: memref.view %{{.*}}[%[[O3]]][] : memref<?xi8> to memref<4x4xf32>
func.func @main(%in: memref<4x4xf32>, %out: memref<4x4xf32>, %flag: i1) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %b : memref<4x4xf32> to memref<4x4xf32>
  %s = arith.select %flag, %a, %b : memref<4x4xf32>
  %c = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %c : memref<4x4xf32> to memref<4x4xf32>
  memref.copy %c, %out : memref<4x4xf32> to memref<4x4xf32>
  memref.copy %s, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}
