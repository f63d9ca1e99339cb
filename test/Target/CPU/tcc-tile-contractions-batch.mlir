// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32 split-wide-fma=true" --canonicalize --cse | FileCheck %s
// A dynamic batch before the row tiles: the two become one parallel dim of n x 8 (the 64
// output channels in tiles of 8 rows), batch-major: threads split it at any batch (at batch
// 1, the tiles), and each thread's range walks few images, whose inputs stay in cache
// across their tiles (instead of every image again for each tile).
// CHECK-LABEL: func.func private @batched_1x1
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: %[[RANGE:.*]] = arith.muli %[[N]], %c8
// CHECK: scf.parallel (%[[K:.*]]) = (%c0) to (%[[RANGE]]) step (%c1)
// CHECK: %[[IMAGE:.*]] = arith.divui %[[K]], %c8
// CHECK: %[[TILE:.*]] = arith.remui %[[K]], %c8
#x = affine_map<(n, o, p, c) -> (n, c, p)>
#w = affine_map<(n, o, p, c) -> (o, c)>
#out = affine_map<(n, o, p, c) -> (n, o, p)>
func.func private @batched_1x1(%in: memref<?x32x196xf32>, %filter: memref<64x32xf32>, %result: memref<?x64x196xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<?x32x196xf32>, memref<64x32xf32>) outs(%result : memref<?x64x196xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// A classifier with the batch as rows (? x 1280 . 1280 x 1000): at batch 1 the single-row
// remainder is all that runs, so the tile keeps 4 vectors per row (one row of 64 columns
// per reduction step, four independent FMA chains), not 8 rows of one vector (one chain).
// The full tile: 6 rows x 4 vectors (each broadcast feeds 4 FMAs).
// CHECK-LABEL: func.func private @classifier
// CHECK: scf.for
// CHECK: %[[B:.*]] = vector.broadcast
// CHECK-NEXT: vector.fma %[[B]]
// CHECK-NEXT: vector.fma %[[B]]
// CHECK-NEXT: vector.fma %[[B]]
// CHECK-NEXT: vector.fma %[[B]]
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func private @classifier(%x: memref<?x1280xf32>, %w: memref<1280x1000xf32>, %y: memref<?x1000xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<?x1280xf32>, memref<1280x1000xf32>) outs(%y : memref<?x1000xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
