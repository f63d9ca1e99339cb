// RUN: tcc-opt %s --split-input-file --tcc-gpu-lower-attention --verify-diagnostics | FileCheck %s --check-prefixes=CHECK,SUB
// RUN: tcc-opt %s --split-input-file --tcc-gpu-lower-attention=subgroups=false --verify-diagnostics | FileCheck %s --check-prefixes=CHECK,NOSUB
// kernel.attention as block tiles: 64 query rows a block, keys staged 32 at a time in
// workgroup memory ([32][D + 4] keys, [32][E] values), each tile folded into the rows'
// running maxima, sums and accumulators 8 keys at a time. With subgroups: 4 threads a row
// (partial dot products combined by a clustered reduction), 2 rows a thread: 128 threads;
// the host takes the warp per row below 16 query rows. Without: 1 thread a row, 64 threads.

// CHECK-LABEL: func.func @tiles
// SUB: %[[ROWS:.*]] = memref.dim %{{.*}}, %c1
// SUB: %[[MANY:.*]] = arith.cmpi uge, %[[ROWS]], %c16
// SUB: scf.if %[[MANY]] {
// SUB: scf.parallel {{.*}} to (%{{.*}}, %{{.*}}, %c128{{.*}})
// NOSUB-NOT: scf.if
// NOSUB: scf.parallel {{.*}} to (%{{.*}}, %{{.*}}, %c64{{.*}})
// CHECK: memref.alloca() : memref<32x68xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<32x32xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK: memref.store {{.*}} : memref<32x68xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store {{.*}} : memref<32x32xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32{{.*}} step %c8
// SUB: gpu.subgroup_reduce add %{{.*}} uniform cluster(size = 4)
// NOSUB-NOT: gpu.subgroup_reduce
// CHECK: math.exp
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store {{.*}} : memref<?x?x32xf32>
// CHECK: kernel.block_threads
// SUB: } else {
// SUB: scf.parallel {{.*}} to (%{{.*}}, %{{.*}}, %c32{{.*}})
// SUB: gpu.subgroup_reduce maximumf
// CHECK-NOT: kernel.attention
func.func @tiles(%q: memref<?x?x64xf32>, %k: memref<?x?x64xf32>, %v: memref<?x?x32xf32>, %o: memref<?x?x32xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<?x?x32xf32>) {scale = 0.125 : f32} : memref<?x?x64xf32>, memref<?x?x64xf32>, memref<?x?x32xf32>
  return
}

// -----

// Static rows, at least 16: the tiles only; keys transposed are staged column by column.
// CHECK-LABEL: func.func @static_rows
// CHECK-NOT: scf.if %
// CHECK: scf.parallel
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x16x?xf32>
// CHECK-NOT: gpu.subgroup_reduce maximumf
func.func @static_rows(%q: memref<2x100x16xf32>, %k: memref<2x16x?xf32>, %v: memref<2x?x16xf32>, %o: memref<2x100x16xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<2x100x16xf32>) {key_transposed, scale = 0.25 : f32} : memref<2x100x16xf32>, memref<2x16x?xf32>, memref<2x?x16xf32>
  return
}


// -----

// A softcap: c · tanh(s / c) of each scaled score, before the bias.
// CHECK-LABEL: func.func @softcap
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %cst{{.*}} : f32
// CHECK: %[[OVER:.*]] = arith.divf %[[S]], %[[C:.*]] : f32
// CHECK: %[[T:.*]] = math.tanh %[[OVER]] : f32
// CHECK: arith.mulf %[[C]], %[[T]] : f32
func.func @softcap(%q: memref<2x100x16xf32>, %k: memref<2x?x16xf32>, %v: memref<2x?x16xf32>, %o: memref<2x100x16xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<2x100x16xf32>) {scale = 0.25 : f32, softcap = 5.0 : f32} : memref<2x100x16xf32>, memref<2x?x16xf32>, memref<2x?x16xf32>
  return
}

// -----

// A causal diagonal t = 0: the block of 64 rows from 64 b reads the tiles of keys below
// min(N, 64 b + 64); each score of key j for row i is -inf unless j <= i.
// CHECK-LABEL: func.func @causal
// CHECK: %[[END:.*]] = arith.addi %{{.*}}, %c64{{.*}} : index
// CHECK: %[[KEYS:.*]] = arith.minui %{{.*}}, %[[END]] : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KEYS]] step %c32
// CHECK: %[[INSIDE:.*]] = arith.cmpi ule, %{{.*}}, %{{.*}} : index
// CHECK: arith.select %[[INSIDE]], %{{.*}}, %cst{{.*}} : f32
func.func @causal(%q: memref<2x100x16xf32>, %k: memref<2x?x16xf32>, %v: memref<2x?x16xf32>, %o: memref<2x100x16xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<2x100x16xf32>) {causal = 0 : i64, scale = 0.25 : f32} : memref<2x100x16xf32>, memref<2x?x16xf32>, memref<2x?x16xf32>
  return
}
