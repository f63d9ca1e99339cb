// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=128 vector-registers=32" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=128 vector-registers=16" --canonicalize --cse | FileCheck %s --check-prefix=SIXTEEN
// The register file is the target's (TargetInfo): AArch64's 32 NEON registers of 4 floats
// hold a tile of 6 rows x 4 vectors (24 accumulators, 4 loads of b, one broadcast of a);
// with 16 registers the same matmul gets a tile of half the accumulators.

// CHECK-LABEL: func.func private @matmul
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c2) step (%c1)
// CHECK: scf.for %[[K:.*]] = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: vector.load %arg1[%[[K]], %c0] : memref<64x16xf32>, vector<4xf32>
// CHECK: vector.load %arg1[%[[K]], %c12] : memref<64x16xf32>, vector<4xf32>
// CHECK-COUNT-24: vector.fma
// CHECK-NOT: vector.fma
// CHECK-NOT: linalg.matmul
// SIXTEEN-LABEL: func.func private @matmul
// SIXTEEN-COUNT-12: vector.fma
// SIXTEEN-NOT: vector.fma
func.func private @matmul(%a: memref<12x64xf32>, %b: memref<64x16xf32>, %c: memref<12x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.matmul ins(%a, %b : memref<12x64xf32>, memref<64x16xf32>) outs(%c : memref<12x16xf32>)
  return
}
