// RUN: tcc-opt %s --tcc-range-kernels | FileCheck %s
// Which kernels threads split (default min-parallel-work, 32768 estimated ops). A dynamic
// extent counts 64, but a dim of a collapse_shape counts the static extents it merged: a
// flattened fill of ? x 96 x 114 x 114 floats is large (ranged); 16 x ? floats is not.

// CHECK-LABEL: func.func private @flat_fill
// CHECK-SAME: %{{.*}}: index, %{{.*}}: index)
// CHECK-LABEL: func.func private @small
// CHECK-SAME: (%{{.*}}: memref<16x?xf32>)
// A dynamic first extent (a batch, 1 at batch 1) alone is not enough for threads: it is
// merged with the first dim of static extent >= 4 (the 96 channels), batch-major: threads
// split n x 96 (k -> image k / 96, channel k % 96), and the caller passes that product.
// CHECK-LABEL: func.func private @batch_first
// CHECK-SAME: (%[[X:.*]]: memref<?x96x3136xf32>, %[[S:.*]]: memref<?x96xf32>, %[[BEGIN:.*]]: index, %[[END:.*]]: index)
// CHECK: scf.parallel (%[[K:.*]], %[[P:.*]]) = (%[[BEGIN]], %c0) to (%[[END]], %c3136)
// CHECK: %[[N:.*]] = arith.divui %[[K]], %c96
// CHECK: %[[C:.*]] = arith.remui %[[K]], %c96
// CHECK: memref.load %[[S]][%[[N]], %[[C]]]
// CHECK: memref.store %{{.*}}, %[[X]][%[[N]], %[[C]], %[[P]]]
// The innermost dim walks memory contiguously (LLVM vectorizes it): it never moves.
// CHECK-LABEL: func.func private @inner_stays
// CHECK-SAME: (%{{.*}}: memref<?x1024xf32>, %[[B2:.*]]: index, %[[E2:.*]]: index)
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%[[B2]], %c0) to (%[[E2]], %c1024)
// Loop bounds that follow a loop's induction variable (tcc-tile-contractions' groups of row
// tiles: [g * 43, min(g * 43 + 43, 171)) with g = w % 4) count their own trips: the middle
// of the parallel range for w (8), so g 3 and 42 trips of 128 stores in each of 16 items.
// CHECK-LABEL: func.func private @iv_bounds
// CHECK-SAME: (%{{.*}}: memref<171x128xf32>, %{{.*}}: index, %{{.*}}: index)
// CHECK-LABEL: func.func @main
// CHECK: kernel.launch @flat_fill(
// CHECK: call @small(
// CHECK: %[[EXTENT:.*]] = arith.muli %{{.*}}, %c96
// CHECK: kernel.launch @batch_first(%{{.*}}, %{{.*}}) range(%[[EXTENT]])
// CHECK: kernel.launch @inner_stays(
func.func private @flat_fill(%padded: memref<?x96x114x114xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %flat = memref.collapse_shape %padded [[0, 1, 2, 3]] : memref<?x96x114x114xf32> into memref<?xf32>
  %n = memref.dim %flat, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %flat[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
func.func private @small(%a: memref<16x?xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %a, %c1 : memref<16x?xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %zero, %a[%i, %j] : memref<16x?xf32>
    }
    scf.reduce
  }
  return
}
func.func private @batch_first(%x: memref<?x96x3136xf32>, %s: memref<?x96xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c96 = arith.constant 96 : index
  %c3136 = arith.constant 3136 : index
  %n = memref.dim %x, %c0 : memref<?x96x3136xf32>
  scf.parallel (%i, %c, %p) = (%c0, %c0, %c0) to (%n, %c96, %c3136) step (%c1, %c1, %c1) {
    %v = memref.load %x[%i, %c, %p] : memref<?x96x3136xf32>
    %w = memref.load %s[%i, %c] : memref<?x96xf32>
    %m = arith.mulf %v, %w : f32
    memref.store %m, %x[%i, %c, %p] : memref<?x96x3136xf32>
    scf.reduce
  }
  return
}
func.func private @inner_stays(%x: memref<?x1024xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x1024xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c1024) step (%c1, %c1) {
    memref.store %zero, %x[%i, %j] : memref<?x1024xf32>
    scf.reduce
  }
  return
}
func.func private @iv_bounds(%x: memref<171x128xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c43 = arith.constant 43 : index
  %c128 = arith.constant 128 : index
  %c171 = arith.constant 171 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%w) = (%c0) to (%c16) step (%c1) {
    %g = arith.remui %w, %c4 : index
    %first = arith.muli %g, %c43 : index
    %next = arith.addi %first, %c43 : index
    %end = arith.minui %next, %c171 : index
    scf.for %t = %first to %end step %c1 {
      scf.for %j = %c0 to %c128 step %c1 {
        memref.store %zero, %x[%t, %j] : memref<171x128xf32>
      }
    }
    scf.reduce
  }
  return
}
func.func @main(%r: memref<1x1024xf32>, %a: memref<2x96x114x114xf32>, %b: memref<16x8xf32>, %x: memref<1x96x3136xf32>, %s: memref<1x96xf32>) {
  %dyn = memref.cast %a : memref<2x96x114x114xf32> to memref<?x96x114x114xf32>
  kernel.launch @flat_fill(%dyn) : memref<?x96x114x114xf32>
  %bd = memref.cast %b : memref<16x8xf32> to memref<16x?xf32>
  kernel.launch @small(%bd) : memref<16x?xf32>
  %xd = memref.cast %x : memref<1x96x3136xf32> to memref<?x96x3136xf32>
  %sd = memref.cast %s : memref<1x96xf32> to memref<?x96xf32>
  kernel.launch @batch_first(%xd, %sd) : memref<?x96x3136xf32>, memref<?x96xf32>
  %rd = memref.cast %r : memref<1x1024xf32> to memref<?x1024xf32>
  kernel.launch @inner_stays(%rd) : memref<?x1024xf32>
  %iv = memref.alloc() : memref<171x128xf32>
  kernel.launch @iv_bounds(%iv) : memref<171x128xf32>
  return
}
