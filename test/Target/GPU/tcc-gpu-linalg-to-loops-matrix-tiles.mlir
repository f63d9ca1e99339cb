// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops="matrix-unit=nvidia-bf16" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops="matrix-unit=nvidia-tf32" --canonicalize --cse | FileCheck %s --check-prefix=TF32
// RUN: tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops="matrix-unit=nvidia-fp16" --canonicalize --cse | FileCheck %s --check-prefix=FP16
// RUN: not tcc-opt %s --split-input-file --tcc-gpu-linalg-to-loops="matrix-unit=nvidia-fp8" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// With a matrix unit (--precision=bf16), a float32 acc + a * b with at least 64 rows, 64
// columns and a reduction of 16 runs as 128 x 128 tiles of 8 warps on the unit: the
// reduction in slices of 16 words (32 bf16, rounded and packed two to an i32 word by
// nvvm.convert.f32x2.to.bf16x2), staged in two workgroup buffers of [128][16 + 4] words for
// A's rows and B's columns, fragments read with ldmatrix (4 for A, 2 for B per step of 8
// words), 2 x 16 mma.sync per slice, one barrier a slice; 256 / 32 = 8 slices. Both inputs
// have their innermost dim contiguous (A along the reduction, B along its columns), so where
// the host finds their addresses 16-byte aligned they are staged with 16-byte loads (A: 4
// vectors of 4 reduction positions, 2 words each; B: 2 x 2 vectors of 4 columns, 4 words
// each), else element by element. The fill starts the accumulators and the bias-and-ReLU
// epilogue runs before the guarded stores. Smaller problems take the float32 block tiles and
// loops (the else branch).
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[M:.*]] = memref.dim %arg0, %c0
// CHECK: %[[FITS:.*]] = arith.cmpi uge, %[[M]], %c64 : index
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: arith.remui %[[PA]], %c16
// CHECK: %[[PB:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: arith.remui %[[PB]], %c16
// CHECK: %[[ALIGNED:.*]] = arith.andi
// CHECK: scf.if %[[FITS]] {
// CHECK-NEXT: scf.if %[[ALIGNED]] {
// CHECK: scf.parallel ({{.*}}) to (%{{.*}}, %c6, %c256)
// CHECK: %[[A:.*]] = memref.alloca() : memref<2x128x20xi32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.alloca() : memref<2x128x20xi32, #gpu.address_space<workgroup>>
// CHECK-COUNT-4: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<?x256xf32>, vector<4xf32>
// CHECK-COUNT-4: vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<256x768xf32>, vector<4xf32>
// CHECK-COUNT-8: memref.store %{{.*}}, %[[A]][%c0,
// CHECK-COUNT-8: memref.store %{{.*}}, %[[B]][%c0,
// CHECK: gpu.barrier
// CHECK: %[[SUMS:.*]]:64 = scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}} = %[[ZERO]],
// CHECK-COUNT-8: vector.load
// CHECK: nvvm.convert.f32x2.to.bf16x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>
// CHECK-COUNT-6: nvvm.ldmatrix {{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-16: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK-COUNT-6: nvvm.ldmatrix
// CHECK-COUNT-16: nvvm.mma.sync
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK: scf.if
// CHECK: %[[BIAS:.*]] = memref.load %arg3
// CHECK: %[[BIASED:.*]] = arith.addf %[[SUMS]]#0, %[[BIAS]] : f32
// CHECK: arith.maximumf %[[BIASED]], %[[ZERO]] : f32
// CHECK: } {kernel.block_threads = 256 : i64}
// Unaligned: the same tiles, each element a 4-byte load.
// CHECK: } else {
// CHECK: scf.parallel ({{.*}}) to (%{{.*}}, %c6, %c256)
// CHECK-NOT: vector.load
// CHECK: memref.load %arg0
// CHECK: nvvm.convert.f32x2.to.bf16x2
// CHECK: nvvm.mma.sync
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
// TF32: nvvm.ldmatrix
// TF32-COUNT-32: nvvm.mma.sync {{.*}} multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// fp16: two halves a word (cvt.rn.f16x2.f32), the f16 instruction taking them as pairs.
// FP16-LABEL: func.func @matmul_bias_relu
// FP16: nvvm.convert.f32x2.to.f16x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>
// FP16: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// FP16: nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
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
