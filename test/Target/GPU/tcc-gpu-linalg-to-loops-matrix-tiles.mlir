// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops="matrix-unit=nvidia-bf16" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops="matrix-unit=nvidia-tf32" --canonicalize --cse | FileCheck %s --check-prefix=TF32
// RUN: not tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops="matrix-unit=nvidia-fp8" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// With a matrix unit (--precision=bf16), a float32 acc + a * b with at least 64 rows, 64
// columns and a reduction of 16 runs as 128 x 128 tiles of 8 warps on the unit: the
// reduction in slices of 16 words (32 bf16, each rounded by truncf and packed two to an i32
// word), staged in two workgroup buffers of [128][16 + 4] words for A's rows and B's
// columns, 2 x 16 mma.sync per slice, one barrier a slice; 256 / 32 = 8 slices. The fill
// starts the accumulators and the bias-and-ReLU epilogue runs before the guarded stores.
// Smaller problems take the float32 block tiles and loops (the else branch).
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[M:.*]] = memref.dim %arg0, %c0
// CHECK: %[[FITS:.*]] = arith.cmpi uge, %[[M]], %c64 : index
// CHECK: scf.if %[[FITS]] {
// CHECK: scf.parallel ({{.*}}) to (%{{.*}}, %c6, %c256)
// CHECK: %[[A:.*]] = memref.alloca() : memref<2x128x20xi32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.alloca() : memref<2x128x20xi32, #gpu.address_space<workgroup>>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: arith.shli %{{.*}}, %c16_i32 : i32
// CHECK-COUNT-8: memref.store %{{.*}}, %[[A]][%c0,
// CHECK-COUNT-8: memref.store %{{.*}}, %[[B]][%c0,
// CHECK: gpu.barrier
// CHECK: %[[SUMS:.*]]:64 = scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}} = %[[ZERO]],
// CHECK-COUNT-32: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: %[[BIAS:.*]] = memref.load %arg3
// CHECK: %[[BIASED:.*]] = arith.addf %[[SUMS]]#0, %[[BIAS]] : f32
// CHECK: arith.maximumf %[[BIASED]], %[[ZERO]] : f32
// CHECK: } {kernel.block_threads = 256 : i64}
// CHECK: } else {
// CHECK-NOT: nvvm.mma.sync
// CHECK: memref.alloca() : memref<2x8x128xf32, #gpu.address_space<workgroup>>
// tf32: one rounded float32 a word (bits + 2^12, the low 13 cleared), 16 k a slice.
// TF32-LABEL: func.func @matmul_bias_relu
// TF32: arith.bitcast %{{.*}} : f32 to i32
// TF32: arith.addi %{{.*}}, %c4096_i32 : i32
// TF32: arith.andi %{{.*}}, %c-8192_i32 : i32
// TF32: scf.for %{{.*}} = %c0 to %c16 step %c1
// TF32-COUNT-32: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// UNKNOWN: tcc-gpu-linalg-to-loops: no matrix unit named 'nvidia-fp8'
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

// Not a plain multiply-add (a max-plus product): no matrix unit, the float32 tiles.
// CHECK-LABEL: func.func @max_plus
// CHECK-NOT: nvvm.mma.sync
// CHECK: kernel.block_threads
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @max_plus(%x: memref<?x256xf32>, %y: memref<256x256xf32>, %z: memref<?x256xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<?x256xf32>, memref<256x256xf32>) outs(%z : memref<?x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.addf %p, %q : f32
    %1 = arith.maximumf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
