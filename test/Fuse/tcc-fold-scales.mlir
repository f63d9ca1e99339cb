// RUN: tcc-opt %s --split-input-file --tcc-fold-scales | FileCheck %s
// A squeeze-excitation's per-image, per-channel scale before a 1x1 convolution moves into
// the weights: W'[n,o,c] = W[o,c] s[n,c] (n o c = 8 x 64 products instead of the map's
// n c h w = 64 x 196), and the convolution reads the unscaled map.

// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$S:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, 0, 0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$X:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>
// CHECK-DAG: #[[$SCALED:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK-SAME: (%[[X:.*]]: tensor<?x64x14x14xf32>, %[[S:.*]]: tensor<?x64x1x1xf32>, %[[W:.*]]: tensor<8x64xf32>
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x8x64xf32>
// CHECK: %[[SW:.*]] = linalg.generic {indexing_maps = [#[[$W]], #[[$S]], #[[$ID]]], {{.*}}} ins(%[[W]], %[[S]] : tensor<8x64xf32>, tensor<?x64x1x1xf32>) outs(%[[E]] : tensor<?x8x64xf32>)
// CHECK: arith.mulf
// CHECK: linalg.generic {indexing_maps = [#[[$X]], #[[$SCALED]], {{.*}}]{{.*}} ins(%[[X]], %[[SW]] : tensor<?x64x14x14xf32>, tensor<?x8x64xf32>)
// CHECK-NOT: tensor<?x64x14x14xf32>) outs
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#se = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
#x = affine_map<(n, o, h, w, c) -> (n, c, h, w)>
#w = affine_map<(n, o, h, w, c) -> (o, c)>
#out = affine_map<(n, o, h, w, c) -> (n, o, h, w)>
func.func @squeeze_excitation(%x: tensor<?x64x14x14xf32>, %s: tensor<?x64x1x1xf32>, %w: tensor<8x64xf32>, %acc: tensor<?x8x14x14xf32>) -> tensor<?x8x14x14xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64x14x14xf32>
  %e = tensor.empty(%n) : tensor<?x64x14x14xf32>
  %scaled = linalg.generic {indexing_maps = [#se, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %x : tensor<?x64x1x1xf32>, tensor<?x64x14x14xf32>) outs(%e : tensor<?x64x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<?x64x14x14xf32>
  %y = linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled, %w : tensor<?x64x14x14xf32>, tensor<8x64xf32>) outs(%acc : tensor<?x8x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x8x14x14xf32>
  return %y : tensor<?x8x14x14xf32>
}

// -----

// More output channels than pixels (1152 -> 320 on a 2x2 map): the scaled weights would
// be larger than the map, so the scale stays.
// CHECK-LABEL: func.func @wide_output
// CHECK: linalg.generic {{.*}} ins(%arg1, %arg0
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg2 : tensor<1x64x2x2xf32>, tensor<320x64xf32>)
#id2 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#se2 = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
#x2 = affine_map<(n, o, h, w, c) -> (n, c, h, w)>
#w2 = affine_map<(n, o, h, w, c) -> (o, c)>
#out2 = affine_map<(n, o, h, w, c) -> (n, o, h, w)>
func.func @wide_output(%x: tensor<1x64x2x2xf32>, %s: tensor<1x64x1x1xf32>, %w: tensor<320x64xf32>, %acc: tensor<1x320x2x2xf32>) -> tensor<1x320x2x2xf32> {
  %e = tensor.empty() : tensor<1x64x2x2xf32>
  %scaled = linalg.generic {indexing_maps = [#se2, #id2, #id2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %x : tensor<1x64x1x1xf32>, tensor<1x64x2x2xf32>) outs(%e : tensor<1x64x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x64x2x2xf32>
  %y = linalg.generic {indexing_maps = [#x2, #w2, #out2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%scaled, %w : tensor<1x64x2x2xf32>, tensor<320x64xf32>) outs(%acc : tensor<1x320x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x320x2x2xf32>
  return %y : tensor<1x320x2x2xf32>
}

// -----

// Self-attention's scaled queries against keys of the same length: moving the scale to the
// keys saves nothing (and moving it back would not either), so it stays and the pass ends.
// CHECK-LABEL: func.func @scaled_queries
// CHECK: %[[Q:.*]] = linalg.generic {{.*}} ins(%arg0, %arg2
// CHECK: linalg.generic {{.*}} ins(%[[Q]], %arg1 : tensor<4x16xf32>, tensor<4x16xf32>)
#q = affine_map<(i, d) -> (i, d)>
#scalar = affine_map<(i, d) -> ()>
#qm = affine_map<(i, j, d) -> (i, d)>
#km = affine_map<(i, j, d) -> (j, d)>
#sm = affine_map<(i, j, d) -> (i, j)>
func.func @scaled_queries(%q: tensor<4x16xf32>, %k: tensor<4x16xf32>, %s: tensor<f32>, %acc: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %scaled = linalg.generic {indexing_maps = [#q, #scalar, #q], iterator_types = ["parallel", "parallel"]}
      ins(%q, %s : tensor<4x16xf32>, tensor<f32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#qm, #km, #sm], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%scaled, %k : tensor<4x16xf32>, tensor<4x16xf32>) outs(%acc : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// A blocked pointwise convolution (tcc-channel-vector-convolutions' chains): loops
// (n, y, x, b, l, cb, cl), the filter [b, cb, cl, l] with its 16 output channels last, the
// scale [n, cb, cl] on blocks. The scaled filter keeps that layout behind the scale's own
// dim: W'[n, b, cb, cl, l], read at (n, b, cb, cl, l), its lanes l still last (in the
// contraction's loop order they would come before cb and cl).
// CHECK-DAG: #[[$WB:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>
// CHECK-DAG: #[[$SB:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3)>
// CHECK-DAG: #[[$BSCALED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d3, d5, d6, d4)>
// CHECK-LABEL: func.func @blocked
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x2x4x16x16xf32>
// CHECK: %[[SW:.*]] = linalg.generic {indexing_maps = [#[[$WB]], #[[$SB]], #{{.*}}], {{.*}}} ins(%arg2, %arg1 : tensor<2x4x16x16xf32>, tensor<?x4x16xf32>) outs(%[[E]] : tensor<?x2x4x16x16xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$BSCALED]], {{.*}}]{{.*}} ins(%arg0, %[[SW]] : tensor<?x14x14x4x16xf32>, tensor<?x2x4x16x16xf32>)
#id5 = affine_map<(n, y, x, cb, cl) -> (n, y, x, cb, cl)>
#se5 = affine_map<(n, y, x, cb, cl) -> (n, cb, cl)>
#xb = affine_map<(n, y, x, b, l, cb, cl) -> (n, y, x, cb, cl)>
#wb = affine_map<(n, y, x, b, l, cb, cl) -> (b, cb, cl, l)>
#ob = affine_map<(n, y, x, b, l, cb, cl) -> (n, y, x, b, l)>
func.func @blocked(%x: tensor<?x14x14x4x16xf32>, %s: tensor<?x4x16xf32>, %w: tensor<2x4x16x16xf32>, %acc: tensor<?x14x14x2x16xf32>) -> tensor<?x14x14x2x16xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x14x14x4x16xf32>
  %e = tensor.empty(%n) : tensor<?x14x14x4x16xf32>
  %scaled = linalg.generic {indexing_maps = [#se5, #id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %x : tensor<?x4x16xf32>, tensor<?x14x14x4x16xf32>) outs(%e : tensor<?x14x14x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<?x14x14x4x16xf32>
  %y = linalg.generic {indexing_maps = [#xb, #wb, #ob], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%scaled, %w : tensor<?x14x14x4x16xf32>, tensor<2x4x16x16xf32>) outs(%acc : tensor<?x14x14x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x14x14x2x16xf32>
  return %y : tensor<?x14x14x2x16xf32>
}
