// RUN: tcc-opt %s --tcc-plan-buffers | FileCheck %s

// A buffer is live from the first op that touches it, not from its alloc: %c is allocated
// first (CSE hoists equal empties) but written only after %a's last use, so the two share
// bytes (128 in all, not 192). A view's uses count as the buffer's (%v reads %b).
// CHECK-LABEL: func.func @main
// CHECK-SAME: {kernel.workspace_size = 128 : i64}
// CHECK-COUNT-3: memref.view
// CHECK-NOT: memref.alloc
func.func @main(%in: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %c = memref.alloc() : memref<4x4xf32>
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %in, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<4x4xf32>
  memref.copy %a, %b : memref<4x4xf32> to memref<4x4xf32>
  %v = memref.subview %b[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  %w = memref.subview %c[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %v, %w : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32, strided<[4, 1]>>
  memref.copy %c, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}
