// RUN: tcc-opt %s --allow-unregistered-dialect --split-input-file --tcc-plan-buffers --canonicalize --cse | FileCheck %s
// With dynamic extents the offsets are arithmetic over the symbol arguments, computed once at
// entry: each buffer sits above the earlier-placed buffers whose live ranges overlap its
// own (%a: 4n bytes, %b: 256 bytes, both live at once, so %b is at align(4n); %c lives
// after %a died and reuses its bytes, so CSE merges their views). @workspace_size computes
// the total, max(4n, align(4n) + 256) aligned, from the symbols alone. Sizes are multiplied
// in i128 and saturate at 2^48 bytes (no product of unbounded extents wraps around), and a
// total of 2^48 or more makes @workspace_size -1: refused at run time.

// CHECK-LABEL: func.func @workspace_size
// CHECK-SAME: (%[[N:.*]]: index) -> index
// CHECK: %[[NN:.*]] = arith.maxsi %[[N]], %c0
// CHECK: %[[W:.*]] = arith.index_castui %[[NN]] : index to i128
// CHECK: %[[A:.*]] = arith.muli %[[W]], %c4_i128 : i128
// CHECK: %[[SAT:.*]] = arith.minui %[[A]], %c281474976710656_i128 : i128
// CHECK: %[[AN:.*]] = arith.index_castui %[[SAT]] : i128 to index
// CHECK: %[[AB:.*]] = arith.maxsi %[[AN]], %c1
// CHECK: %[[SUM:.*]] = arith.addi %[[AB]], %c63
// CHECK: %[[ALIGNED:.*]] = arith.andi %[[SUM]], %c-64
// CHECK: arith.addi %[[ALIGNED]], %c256
// CHECK: %[[TOTAL:.*]] = arith.andi
// CHECK: %[[TOO_LARGE:.*]] = arith.cmpi uge, %[[TOTAL]], %c281474976710656 : index
// CHECK: %[[RESULT:.*]] = arith.select %[[TOO_LARGE]], %c-1, %[[TOTAL]]
// CHECK: return %[[RESULT]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<?xi8> {kernel.workspace})
// CHECK-NOT: memref.alloc
// CHECK: arith.muli %{{.*}}, %c4_i128
// CHECK: %[[VA:.*]] = memref.view %[[WS]][%c0][%arg0] : memref<?xi8> to memref<?xf32>
// CHECK: memref.copy %arg1, %[[VA]]
// CHECK: %[[VB:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<?xi8> to memref<64xf32>
// CHECK: "test.use"(%[[VA]], %[[VB]])
// CHECK: memref.copy %arg1, %[[VA]]
// CHECK-NOT: memref.alloc
func.func @main(%n: index {kernel.symbol = "n"}, %in: memref<?xf32>, %out: memref<?xf32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  memref.copy %in, %a : memref<?xf32> to memref<?xf32>
  %b = memref.alloc() : memref<64xf32>
  "test.use"(%a, %b) : (memref<?xf32>, memref<64xf32>) -> ()
  %c = memref.alloc(%n) : memref<?xf32>
  memref.copy %in, %c : memref<?xf32> to memref<?xf32>
  memref.copy %c, %out : memref<?xf32> to memref<?xf32>
  return
}

// -----

// A data-dependent extent (min(count, n): a compaction's result, the count read from a
// buffer at run time) is planned at its upper bound n, computed at entry; the view has the
// actual extent and is made where the count is known.
// CHECK-LABEL: func.func @workspace_size
// CHECK-SAME: (%[[N:.*]]: index) -> index
// CHECK: arith.maxsi %[[N]], %c0
// CHECK: arith.muli %{{.*}}, %c4_i128
// CHECK-LABEL: func.func @main
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<?xi8> {kernel.workspace})
// CHECK: %[[COUNT:.*]] = memref.load
// CHECK: %[[K:.*]] = arith.minui
// CHECK: memref.view %[[WS]][%{{.*}}][%[[K]]] : memref<?xi8> to memref<?xf32>
func.func @main(%n: index {kernel.symbol = "n"}, %count: memref<index>, %in: memref<?xf32>) {
  %loaded = memref.load %count[] : memref<index>
  %k = arith.minui %loaded, %n : index
  %a = memref.alloc(%k) : memref<?xf32>
  "test.use"(%a, %in) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}
