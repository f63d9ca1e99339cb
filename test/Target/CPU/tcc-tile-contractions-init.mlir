// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32" --canonicalize --cse | FileCheck %s
// A float sum of products without a fill goes on from the values its output holds (a
// residual, tcc-accumulate-residuals): the tile sums the products from zero and adds those
// values after, so that no product rounds at the residual's scale. The epilogue follows.

// CHECK-LABEL: func.func private @residual_init
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: %[[SUMS:.*]]:{{[0-9]+}} = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]],
// CHECK: vector.fma
// CHECK: scf.yield
// CHECK: %[[R:.*]] = vector.load %arg2[
// CHECK: %[[WITH:.*]] = arith.addf %[[SUMS]]#0, %[[R]] : vector<16xf32>
// CHECK: %[[BIASED:.*]] = arith.addf %[[WITH]], %{{.*}} : vector<16xf32>
// CHECK: arith.maximumf %[[BIASED]]
// CHECK: vector.store
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func private @residual_init(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %out: memref<64x64xf32>, %bias: memref<64xf32>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x256xf32>, memref<256x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%out, %bias : memref<64x64xf32>, memref<64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%s: f32, %c: f32, %o: f32):
    %0 = arith.addf %s, %c : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}
