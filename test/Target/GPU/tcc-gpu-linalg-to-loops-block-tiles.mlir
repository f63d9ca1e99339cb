// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops --canonicalize --cse | FileCheck %s

// A matmul with enough outputs becomes block tiles staged through workgroup memory, their
// shape chosen on the host by cost: for each of 128 x 128 outputs a block (8 x 8 a thread,
// the reduction 8 at a time), 128 x 64 (8 x 4) and 64 x 64 (4 x 4, 16 at a time; at least
// 32 tiles), the blocks on the busiest of 132 SMs (ceil(tiles / 132)) price the shape from
// its table (the H200's measured times for 1 to 4 blocks, then a slope); the cheapest shape
// that fits is taken (ties to the larger), else the one-output-per-thread loops. Each block:
// 256 threads (kernel.block_threads), the first slice of A's rows and B's columns copied into
// workgroup buffer 0, a barrier, then per slice the next one loaded into registers, 8
// unrolled steps of 64 multiply-adds from the slice's buffer, the next slice stored into
// the other buffer, one barrier (the 64 x 64 shape has one buffer, and a barrier before
// storing too); the fill starts the accumulators, the epilogue (bias, ReLU) runs on
// them, and outputs past the rows' end are not stored. (256 is a whole number of slices:
// the branch for the rest of the reduction folds away.)
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[M:.*]] = memref.dim %arg0, %c0
// CHECK: %[[ROW_TILES:.*]] = arith.ceildivui %[[M]], %c128
// CHECK: %[[TILES:.*]] = arith.muli %[[ROW_TILES]], %c6
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[TILES]], %c132
// CHECK: %[[TWO:.*]] = arith.cmpi uge, %[[BLOCKS]], %c2
// CHECK: arith.select %[[TWO]], %c770, %c470
// CHECK: arith.select %{{.*}}, %c1540,
// CHECK: %[[PAST:.*]] = arith.maxui %[[BLOCKS]], %c4
// CHECK: %[[MORE:.*]] = arith.subi %[[PAST]], %c4
// CHECK: arith.muli %[[MORE]], %c385
// CHECK: %[[LARGE:.*]] = arith.select %{{.*}}, %{{.*}}, %c2147483647
// CHECK: arith.muli %[[ROW_TILES]], %c12
// CHECK: arith.select %{{.*}}, %c595, %c420
// CHECK: %[[MEDIUM:.*]] = arith.select %{{.*}}, %{{.*}}, %c2147483647
// CHECK: %[[SMALL_ROW_TILES:.*]] = arith.ceildivui %[[M]], %c64
// CHECK: %[[SMALL_TILES:.*]] = arith.muli %[[SMALL_ROW_TILES]], %c12
// CHECK: arith.cmpi uge, %[[SMALL_TILES]], %c32
// CHECK: arith.select %{{.*}}, %c390, %c250
// CHECK: %[[SMALL:.*]] = arith.select %{{.*}}, %{{.*}}, %c2147483647
// CHECK: arith.cmpi ule, %[[LARGE]], %[[MEDIUM]]
// CHECK: arith.cmpi ule, %[[LARGE]], %[[SMALL]]
// CHECK: scf.if
// CHECK: scf.parallel (%[[RT:.*]], %[[CT:.*]], %[[T:.*]]) = (%c0, %c0, %c0) to (%[[ROW_TILES]], %c6, %c256)
// CHECK: %[[XTILE:.*]] = memref.alloca() : memref<2x8x128xf32, #gpu.address_space<workgroup>>
// CHECK: %[[YTILE:.*]] = memref.alloca() : memref<2x8x128xf32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: memref.load %arg0
// CHECK-COUNT-4: memref.load %arg1
// CHECK-COUNT-4: memref.store %{{.*}}, %[[XTILE]]
// CHECK-COUNT-4: memref.store %{{.*}}, %[[YTILE]]
// CHECK: gpu.barrier
// CHECK: %[[SUMS:.*]]:64 = scf.for %{{.*}} = %c0 to %c256 step %c8 iter_args(%{{.*}} = %[[ZERO]],
// CHECK-COUNT-4: memref.load %arg0
// CHECK-COUNT-4: memref.load %arg1
// CHECK: %[[BUFFER:.*]] = arith.remui %{{.*}}, %c2
// CHECK-COUNT-8: memref.load %[[XTILE]][%[[BUFFER]], %c0,
// CHECK-COUNT-8: memref.load %[[YTILE]][%[[BUFFER]], %c0,
// CHECK-COUNT-64: arith.addf
// CHECK: memref.load %[[XTILE]][%[[BUFFER]], %c7,
// CHECK-NOT: gpu.barrier
// CHECK: %[[NEXT:.*]] = arith.remui %{{.*}}, %c2
// CHECK-COUNT-4: memref.store %{{.*}}, %[[XTILE]][%[[NEXT]],
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: scf.if %{{.*}} -> (f32,
// CHECK: scf.if
// CHECK: %[[BIAS:.*]] = memref.load %arg3
// CHECK: %[[BIASED:.*]] = arith.addf %[[SUMS]]#0, %[[BIAS]] : f32
// CHECK: %[[RELU:.*]] = arith.maximumf %[[BIASED]], %[[ZERO]] : f32
// CHECK: memref.store %[[RELU]], %arg2
// CHECK: } {kernel.block_threads = 256 : i64}
// CHECK: } else {
// CHECK: arith.cmpi ule, %[[MEDIUM]], %[[SMALL]]
// CHECK: scf.parallel ({{.*}}) to (%[[ROW_TILES]], %c12, %c256)
// CHECK: memref.alloca() : memref<2x8x128xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<2x8x64xf32, #gpu.address_space<workgroup>>
// CHECK: } {kernel.block_threads = 256 : i64}
// CHECK: } else {
// CHECK: scf.parallel ({{.*}}) to (%[[SMALL_ROW_TILES]], %c12, %c256)
// CHECK: memref.alloca() : memref<1x16x64xf32, #gpu.address_space<workgroup>>
// CHECK: } {kernel.block_threads = 256 : i64}
// CHECK: } else {
// CHECK: scf.parallel
// CHECK-NOT: gpu.barrier
// CHECK-NOT: linalg.
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%a: memref<?x256xf32>, %b: memref<256x768xf32>, %c: memref<?x768xf32>, %bias: memref<768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x768xf32>)
  linalg.matmul ins(%a, %b : memref<?x256xf32>, memref<256x768xf32>) outs(%c : memref<?x768xf32>)
  linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<?x768xf32>, memref<768xf32>) outs(%c : memref<?x768xf32>) {
  ^bb0(%in: f32, %b0: f32, %out: f32):
    %0 = arith.addf %in, %b0 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A convolution as an implicit GEMM: rows are the pixels (n, oh, ow: the dims the filter
// does not read), columns the output channels, the reduction (c, kh, kw); each flat index is
// split back into its dims (remainders and quotients by the extents) where memory is read,
// and the image's index is the map's oh + kh. The output's innermost dim is a pixel dim, so
// the lanes run along the rows. A reduction of 3 x 3 x 3 = 27 is one whole slice of 16 and
// a rest of 11 (the loop of one whole slice and the branch to the rest fold away).
// CHECK-LABEL: func.func @conv
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[T:.*]]) = (%c0, %c0, %c0) to (%{{.*}}, %c2, %c256)
// CHECK: memref.alloca() : memref<1x16x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %c16
// CHECK: %[[ROW_START:.*]] = arith.muli %[[LANE]], %c4
// CHECK-DAG: arith.remui %{{.*}}, %c30
// CHECK-DAG: arith.divui %{{.*}}, %c30
// CHECK-DAG: arith.remui %{{.*}}, %c3
// CHECK-DAG: arith.divui %{{.*}}, %c3
// CHECK-DAG: memref.load %arg0
// CHECK: gpu.barrier
// CHECK-COUNT-256: arith.addf
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %c0 to %c11 step %c1
// CHECK: memref.load %{{.*}}[%c0, %{{.*}}, %{{.*}}] : memref<1x16x64xf32
// CHECK: } {kernel.block_threads = 256 : i64}
#in = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, c, oh + kh, ow + kw)>
#filter = affine_map<(n, f, oh, ow, c, kh, kw) -> (f, c, kh, kw)>
#out = affine_map<(n, f, oh, ow, c, kh, kw) -> (n, f, oh, ow)>
func.func @conv(%x: memref<?x3x32x32xf32>, %w: memref<128x3x3x3xf32>, %y: memref<?x128x30x30xf32>) {
  linalg.generic {indexing_maps = [#in, #filter, #out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<?x3x32x32xf32>, memref<128x3x3x3xf32>) outs(%y : memref<?x128x30x30xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Too small to stage (8 columns, a reduction of 4): the plain loops only.
// CHECK-LABEL: func.func @small
// CHECK-NOT: kernel.block_threads
// CHECK-NOT: gpu.barrier
func.func @small(%a: memref<?x4xf32>, %b: memref<4x8xf32>, %c: memref<?x8xf32>) {
  linalg.matmul ins(%a, %b : memref<?x4xf32>, memref<4x8xf32>) outs(%c : memref<?x8xf32>)
  return
}
