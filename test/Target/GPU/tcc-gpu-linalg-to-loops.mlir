// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops | FileCheck %s

// A matmul: one iteration per output element, the dot product in an iteration argument,
// the output loaded once and stored once.
// (8 columns: too few to give a thread several; rows in fours only where there are at
// least 2^20 outputs: the other branch is one output per thread; first, the host's choice
// of lanes splitting the reduction for fewer than 2^18 outputs: SplitLanes.cpp.)
// CHECK-LABEL: func.func @matmul
// CHECK: gpu.subgroup_reduce add {{.*}} cluster(size = 4)
// CHECK: } else {
// CHECK: } else {
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}})
// CHECK:   %[[INIT:.*]] = memref.load %arg2[%[[I]], %[[J]]] : memref<?x8xf32>
// CHECK:   %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK:     %[[A:.*]] = memref.load %arg0[%[[I]], %[[K]]]
// CHECK:     %[[B:.*]] = memref.load %arg1[%[[K]], %[[J]]]
// CHECK:     %[[P:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK:     %[[S:.*]] = arith.addf %[[ACC]], %[[P]]
// CHECK:     scf.yield %[[S]]
// CHECK:   memref.store %[[SUM]], %arg2[%[[I]], %[[J]]]
// CHECK-NOT: linalg.
func.func @matmul(%a: memref<?x64xf32>, %b: memref<64x8xf32>, %c: memref<?x8xf32>) {
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x8xf32>) outs(%c : memref<?x8xf32>)
  return
}

// -----

// 32 columns: each thread computes 4 neighbouring outputs of a row, so that each element of
// A it loads feeds 4 accumulators, and where there are at least 2^20 outputs (decided on the
// host), 4 rows of them too (B is read once for 4 rows; rows past the end are computed from
// the last row and not stored). The fill before the matmul starts the accumulators (no load
// of C) and the bias-and-ReLU epilogue after it runs on them before the one store.
#map = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @fused
// CHECK-NOT: linalg.
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[LARGE:.*]] = arith.cmpi sge, %{{.*}}, %c1048576 : index
// CHECK: scf.if %[[LARGE]] {
// CHECK:   scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%c4{{.*}}, %c4
// CHECK:     %[[CLAMPED:.*]] = arith.minui %[[ROW1:.*]], %{{.*}} : index
// CHECK:     %[[EXISTS:.*]] = arith.cmpi ult, %[[ROW1]], %{{.*}} : index
// CHECK:     scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK:     scf.if %[[EXISTS]] {
// CHECK:       memref.store %{{.*}}, %arg2[%[[ROW1]], %{{.*}}] : memref<?x32xf32>
// CHECK: } else {
// CHECK:   scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %c4{{.*}})
// CHECK-NOT: memref.load %arg2
// CHECK:     %[[SUMS:.*]]:4 = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]]) -> (f32, f32, f32, f32)
// CHECK:     %[[BIAS:.*]] = memref.load %arg3[%[[J]]] : memref<32xf32>
// CHECK:     %[[BIASED:.*]] = arith.addf %[[SUMS]]#0, %[[BIAS]] : f32
// CHECK:     %[[RELU:.*]] = arith.maximumf %[[BIASED]], %[[ZERO]] : f32
// CHECK:     memref.store %[[RELU]], %arg2[%[[I]], %[[J]]] : memref<?x32xf32>
// CHECK-COUNT-3: memref.store
// CHECK-NOT: memref.store
func.func @fused(%a: memref<?x64xf32>, %b: memref<64x32xf32>, %c: memref<?x32xf32>, %bias: memref<32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<?x32xf32>)
  linalg.matmul ins(%a, %b : memref<?x64xf32>, memref<64x32xf32>) outs(%c : memref<?x32xf32>)
  linalg.generic {indexing_maps = [#map, #bias, #map], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<?x32xf32>, memref<32xf32>) outs(%c : memref<?x32xf32>) {
  ^bb0(%in: f32, %b0: f32, %out: f32):
    %0 = arith.addf %in, %b0 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// An elementwise op that does not read its output: no load of it; linalg.index is the
// loop index.
#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @elementwise
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NOT: memref.load %arg1
// CHECK: %[[X:.*]] = memref.load %arg0[%[[I]], %[[J]]]
// CHECK: %[[F:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK: memref.store %{{.*}}, %arg1[%[[I]], %[[J]]]
func.func @elementwise(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %j = linalg.index 1 : index
    %i = arith.index_cast %j : index to i32
    %f = arith.sitofp %i : i32 to f32
    %r = arith.addf %in, %f : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A full reduction: the loop nest alone (no parallel dims), which one thread runs.
#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @sum
// CHECK-NOT: scf.parallel
// CHECK: %[[INIT:.*]] = memref.load %arg1[] : memref<f32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (f32)
// CHECK: memref.store %[[SUM]], %arg1[] : memref<f32>
func.func @sum(%x: memref<?xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%s : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %acc, %in : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A fill: its scalar input is used as it is.
// CHECK-LABEL: func.func @fill
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: memref.store %[[ZERO]], %arg0[%[[I]]]
func.func @fill(%y: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<?xf32>)
  return
}

// -----

// A reduction to one flag with `and` (a check that every index is in range): one thread
// per element, each storing false where its element fails.
#idx = affine_map<(d0, d1) -> (d0, d1)>
#flag = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @all_in_range
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK:   %[[V:.*]] = memref.load %arg0[%[[I]], %[[J]]] : memref<?x128xi64>
// CHECK:   %[[OK:.*]] = arith.cmpi ult, %[[V]], %{{.*}} : i64
// CHECK:   %[[BAD:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK:   scf.if %[[BAD]] {
// CHECK:     %[[FALSE:.*]] = arith.constant false
// CHECK:     memref.store %[[FALSE]], %arg1[] : memref<i1>
// CHECK-NOT: scf.for
func.func @all_in_range(%indices: memref<?x128xi64>, %flag: memref<i1>) {
  %n = arith.constant 1000 : i64
  linalg.generic {indexing_maps = [#idx, #flag], iterator_types = ["reduction", "reduction"]}
      ins(%indices : memref<?x128xi64>) outs(%flag : memref<i1>) {
  ^bb0(%in: i64, %acc: i1):
    %ok = arith.cmpi ult, %in, %n : i64
    %all = arith.andi %acc, %ok : i1
    linalg.yield %all : i1
  }
  return
}

// -----

// A convolution whose pixels do not divide by 4 (14 x 14): its 4 output channels per thread
// (the input is read once for them) and, with enough outputs, 4 pixels of a row.
// CHECK-LABEL: func.func @patches
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) to (%{{.*}}, %c256{{.*}}, %c14{{.*}}, %c14{{.*}}) step (%{{.*}}, %c4{{.*}}, %{{.*}}, %c4{{.*}})
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: } else {
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) to (%{{.*}}, %c256{{.*}}, %c14{{.*}}, %c14{{.*}}) step (%{{.*}}, %c4{{.*}}, %{{.*}}, %{{.*}})
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32)
func.func @patches(%x: memref<?x3x224x224xf32>, %w: memref<256x3x16x16xf32>, %y: memref<?x256x14x14xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<16> : tensor<2xi64>}
      ins(%x, %w : memref<?x3x224x224xf32>, memref<256x3x16x16xf32>) outs(%y : memref<?x256x14x14xf32>)
  return
}

// -----

// A row sum that no input lets tile (each element is read once): 32 lanes per row, each
// summing every 32nd element, combined by a warp reduction; lane 0 adds the output's value
// and stores.
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sums
// CHECK: scf.parallel (%[[I:.*]], %[[LANE:.*]]) = (%{{.*}}, %c0{{.*}}) to (%{{.*}}, %c32{{.*}}) step
// CHECK:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:   %[[PARTIAL:.*]] = scf.for %[[K:.*]] = %[[LANE]] to %{{.*}} step %c32{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32)
// CHECK:     memref.load %arg0[%[[I]], %[[K]]]
// CHECK:   %[[TOTAL:.*]] = gpu.subgroup_reduce add %[[PARTIAL]] uniform : (f32) -> f32
// CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK:   scf.if %[[FIRST]] {
// CHECK:     %[[OLD:.*]] = memref.load %arg1[%[[I]]] : memref<?xf32>
// CHECK:     %[[SUM:.*]] = arith.addf %[[OLD]], %[[TOTAL]] : f32
// CHECK:     memref.store %[[SUM]], %arg1[%[[I]]] : memref<?xf32>
func.func @row_sums(%x: memref<?x256xf32>, %sums: memref<?xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x256xf32>) outs(%sums : memref<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A contraction whose dims tcc-collapse-dims merged (a [?, 128, 64] output viewed as
// [?, 64]) after a fill of the whole buffer: the fill still starts the accumulators (the
// view covers every element), so no loop stores the zeros first.
// CHECK-LABEL: func.func @fill_through_view
// CHECK-NOT: memref.store %{{.*}}, %arg0
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %cst
// CHECK-NOT: linalg.
func.func @fill_through_view(%out: memref<?x128x64xf32>, %a: memref<?x128x32xf32>, %b: memref<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<?x128x64xf32>)
  %flat_out = memref.collapse_shape %out [[0, 1], [2]] : memref<?x128x64xf32> into memref<?x64xf32>
  %flat_a = memref.collapse_shape %a [[0, 1], [2]] : memref<?x128x32xf32> into memref<?x32xf32>
  linalg.matmul ins(%flat_a, %b : memref<?x32xf32>, memref<32x64xf32>) outs(%flat_out : memref<?x64xf32>)
  return
}

// -----

// A row sum of x + a position embedding broadcast over the batch (ViT's first norm): only
// one input misses an output dim, so it is a row reduction (a warp per output, combined by
// a subgroup reduction), not rows tiled 4 to a thread.
// CHECK-LABEL: func.func @sum_broadcast
// CHECK: gpu.subgroup_reduce add
#x3 = affine_map<(b, s, d) -> (b, s, d)>
#pos = affine_map<(b, s, d) -> (0, s, d)>
#row = affine_map<(b, s, d) -> (b, s)>
func.func @sum_broadcast(%x: memref<?x197x256xf32>, %p: memref<1x197x256xf32>, %out: memref<?x197xf32>) {
  linalg.generic {indexing_maps = [#x3, #pos, #row], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %p : memref<?x197x256xf32>, memref<1x197x256xf32>) outs(%out : memref<?x197xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.addf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
