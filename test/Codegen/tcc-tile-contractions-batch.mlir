// RUN: tcc-opt %s --tcc-tile-contractions=vector-bits=512 --canonicalize --cse | FileCheck %s
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
func.func private @batched_1x1(%in: memref<?x32x196xf32>, %filter: memref<64x32xf32>, %result: memref<?x64x196xf32>) attributes {tcc.kernel} {
  linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<?x32x196xf32>, memref<64x32xf32>) outs(%result : memref<?x64x196xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
