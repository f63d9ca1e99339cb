// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops --canonicalize --cse | FileCheck %s

// Few outputs over a long reduction (a projection at batch 1: 128 x 256 outputs over 1024):
// lanes split each output's reduction. B runs along its columns, so 4 lanes a column and 8
// neighbouring columns a warp; 2 rows a thread (128 x 256 x 4 / 2 = 2^16 threads); each
// lane takes positions lane, lane + 4, ..., 4 of them an iteration (16 apart), the rest
// (none here) after; a cluster of 4 lanes adds its sums with shuffles and lane 0 adds the
// fill's value and stores. The sizes are static: no other form is emitted.
// CHECK-LABEL: func.func @lanes
// CHECK-NOT: scf.if
// CHECK: scf.parallel (%[[GROUP:.*]], %[[COLUMN:.*]], %[[LANE:.*]]) = (%c0, %c0, %c0) to (%c64, %c256, %c4)
// CHECK: %[[ROW:.*]] = arith.muli %[[GROUP]], %c2
// CHECK: scf.for %[[K:.*]] = %[[LANE]] to %c1012 step %c16 iter_args
// CHECK-COUNT-4: memref.load %arg1[
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024 step %c4
// CHECK: %[[SUM:.*]] = gpu.subgroup_reduce add %{{.*}}#0 uniform cluster(size = 4) : (f32) -> f32
// CHECK: gpu.subgroup_reduce add %{{.*}}#1 uniform cluster(size = 4) : (f32) -> f32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: %[[VALUE:.*]] = arith.addf %[[SUM]], %cst
// CHECK: memref.store %[[VALUE]], %arg2[%[[ROW]], %[[COLUMN]]]
// CHECK-NOT: kernel.block_threads
func.func @lanes(%a: memref<128x1024xf32>, %b: memref<1024x256xf32>, %c: memref<128x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
  linalg.matmul ins(%a, %b : memref<128x1024xf32>, memref<1024x256xf32>) outs(%c : memref<128x256xf32>)
  return
}

// -----

// B transposed (it runs along the reduction): 8 lanes a column, 4 columns a warp (72 padded
// to 72); 96 x 72 x 8 < 2^16 threads even with one row each; 200 positions: the unrolled loop
// to 200 - 24, the rest after. The output's own value starts the sum.
// CHECK-LABEL: func.func @lanes_transposed
// CHECK: scf.parallel ({{.*}}) = (%c0, %c0, %c0) to (%c96, %c72, %c8)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c176 step %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %c200 step %c8
// CHECK: %[[SUM:.*]] = gpu.subgroup_reduce add %{{.*}} uniform cluster(size = 8) : (f32) -> f32
// CHECK: %[[START:.*]] = memref.load %arg2
// CHECK: arith.addf %[[START]], %[[SUM]]
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (j, k)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @lanes_transposed(%x: memref<96x200xf32>, %y: memref<72x200xf32>, %z: memref<96x72xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<96x200xf32>, memref<72x200xf32>) outs(%z : memref<96x72xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Dynamic rows: the host chooses, by the output count, between the lanes (2 rows a thread
// when the count is unknown) and the other forms.
// CHECK-LABEL: func.func @lanes_dynamic
// CHECK: %[[OUTPUTS:.*]] = arith.muli %{{.*}}, %c160
// CHECK: %[[FEW:.*]] = arith.cmpi ult, %[[OUTPUTS]], %c262144
// CHECK: scf.if %[[FEW]] {
// CHECK: scf.parallel ({{.*}}) = (%c0, %c0, %c0) to (%{{.*}}, %c160, %c4)
// CHECK: gpu.subgroup_reduce add {{.*}} cluster(size = 4)
// CHECK: } else {
// CHECK: kernel.block_threads
func.func @lanes_dynamic(%a: memref<?x300xf32>, %b: memref<300x160xf32>, %c: memref<?x160xf32>) {
  linalg.matmul ins(%a, %b : memref<?x300xf32>, memref<300x160xf32>) outs(%c : memref<?x160xf32>)
  return
}

// -----

// Not this form: a short reduction (32), many outputs (1024 x 512), a max-plus product.
// CHECK-LABEL: func.func @short
// CHECK-NOT: subgroup_reduce
// CHECK-LABEL: func.func @many
// CHECK-NOT: subgroup_reduce
// CHECK-LABEL: func.func @max_plus
// CHECK-NOT: subgroup_reduce
func.func @short(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
func.func @many(%a: memref<1024x256xf32>, %b: memref<256x512xf32>, %c: memref<1024x512xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x256xf32>, memref<256x512xf32>) outs(%c : memref<1024x512xf32>)
  return
}
#pa = affine_map<(i, j, k) -> (i, k)>
#pb = affine_map<(i, j, k) -> (k, j)>
#pc = affine_map<(i, j, k) -> (i, j)>
func.func @max_plus(%x: memref<16x256xf32>, %y: memref<256x16xf32>, %z: memref<16x16xf32>) {
  linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<16x256xf32>, memref<256x16xf32>) outs(%z : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.addf %p, %q : f32
    %1 = arith.maximumf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
