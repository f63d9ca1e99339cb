// RUN: tcc-opt %s --split-input-file --tcc-split-reductions="slice=256 max-columns=512" --canonicalize --cse | FileCheck %s

// A matmul of dynamic rows over a reduction of 1024 into 256 columns: four slices of 256.
// Both inputs are viewed with the reduction as [4, 256]; the partials are a contraction with
// s as its outermost (batch) dim, into a zero-filled [4, M, 256]; their sum is elementwise,
// slice 0 + 1 + 2 + 3 in that order (the fill's 0 is not added), and takes the
// contraction's place.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[P:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[S0:.*]] = affine_map<(d0, d1) -> (0, d0, d1)>
// CHECK-DAG: #[[S3:.*]] = affine_map<(d0, d1) -> (3, d0, d1)>
// CHECK-LABEL: func.func @fc2
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[A:.*]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [%[[M]], 4, 256] : tensor<?x1024xf32> into tensor<?x4x256xf32>
// CHECK: %[[B:.*]] = tensor.expand_shape %arg1 {{\[}}[0, 1], [2]] output_shape [4, 256, 256] : tensor<1024x256xf32> into tensor<4x256x256xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[M]]) : tensor<4x?x256xf32>
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<4x?x256xf32>)
// CHECK: %[[PARTIALS:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[Y]], #[[P]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<?x4x256xf32>, tensor<4x256x256xf32>) outs(%[[ZEROS]] : tensor<4x?x256xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[S0]], #{{.*}}, #{{.*}}, #[[S3]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%[[PARTIALS]], %[[PARTIALS]], %[[PARTIALS]], %[[PARTIALS]] :
// CHECK-NEXT: ^bb0(%[[P0:.*]]: f32, %[[P1:.*]]: f32, %[[P2:.*]]: f32, %[[P3:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T1:.*]] = arith.addf %[[P0]], %[[P1]]
// CHECK-NEXT: %[[T2:.*]] = arith.addf %[[T1]], %[[P2]]
// CHECK-NEXT: %[[T3:.*]] = arith.addf %[[T2]], %[[P3]]
// CHECK-NEXT: linalg.yield %[[T3]]
// CHECK: return %[[SUM]]
// CHECK-NOT: linalg.matmul
func.func @fc2(%a: tensor<?x1024xf32>, %w: tensor<1024x256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x1024xf32>
  %e = tensor.empty(%m) : tensor<?x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
  %c = linalg.matmul ins(%a, %w : tensor<?x1024xf32>, tensor<1024x256xf32>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %c : tensor<?x256xf32>
}

// -----

// A batch of 3-D activations (a transformer's [batch, seq, 688] x [688, 256]), the weights
// transposed in the generic's maps, a fill of 1.5: 688 = 2 x 344 (a third split would leave
// 172 < 256), and the fill's value starts the sum.
// CHECK-LABEL: func.func @down
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1], [2, 3]] {{.*}} : tensor<?x128x688xf32> into tensor<?x128x2x344xf32>
// CHECK: tensor.expand_shape %arg1 {{\[}}[0], [1, 2]] {{.*}} : tensor<256x688xf32> into tensor<256x2x344xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x?x128x256xf32>)
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[P0:.*]]: f32, %[[P1:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T1:.*]] = arith.addf %[[P0]], %cst
// CHECK: arith.addf %{{.*}}, %[[P1]]
#x = affine_map<(b, m, n, k) -> (b, m, k)>
#wt = affine_map<(b, m, n, k) -> (n, k)>
#o = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @down(%a: tensor<?x128x688xf32>, %w: tensor<256x688xf32>) -> tensor<?x128x256xf32> {
  %c0 = arith.constant 0 : index
  %init = arith.constant 1.5 : f32
  %n = tensor.dim %a, %c0 : tensor<?x128x688xf32>
  %e = tensor.empty(%n) : tensor<?x128x256xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<?x128x256xf32>) -> tensor<?x128x256xf32>
  %c = linalg.generic {indexing_maps = [#x, #wt, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<?x128x688xf32>, tensor<256x688xf32>) outs(%f : tensor<?x128x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<?x128x256xf32>
  return %c : tensor<?x128x256xf32>
}

// -----

// Accumulating into a tensor that is not a fill: the sum starts from it.
// CHECK-LABEL: func.func @accumulate
// CHECK: linalg.generic {{.*}} ins(%arg2, %{{.*}}, %{{.*}} : tensor<?x256xf32>, tensor<2x?x256xf32>, tensor<2x?x256xf32>)
// CHECK-NEXT: ^bb0(%[[C:.*]]: f32, %[[P0:.*]]: f32, %[[P1:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T1:.*]] = arith.addf %[[C]], %[[P0]]
// CHECK-NEXT: arith.addf %[[T1]], %[[P1]]
func.func @accumulate(%a: tensor<?x512xf32>, %w: tensor<512x256xf32>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %r = linalg.matmul ins(%a, %w : tensor<?x512xf32>, tensor<512x256xf32>) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// Left alone: 768 columns (tiles enough), a reduction of 384 (no two slices of 256), a
// static problem of fewer than 2^18 outputs (split lanes); below, a dynamic reduction.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-3: linalg.matmul
// CHECK-NOT: tensor.expand_shape
func.func @kept(%a: tensor<?x1024xf32>, %w: tensor<1024x768xf32>, %c: tensor<?x768xf32>,
                %a2: tensor<?x384xf32>, %w2: tensor<384x256xf32>, %c2: tensor<?x256xf32>,
                %a3: tensor<64x1024xf32>, %w3: tensor<1024x256xf32>, %c3: tensor<64x256xf32>)
    -> (tensor<?x768xf32>, tensor<?x256xf32>, tensor<64x256xf32>) {
  %r = linalg.matmul ins(%a, %w : tensor<?x1024xf32>, tensor<1024x768xf32>) outs(%c : tensor<?x768xf32>) -> tensor<?x768xf32>
  %r2 = linalg.matmul ins(%a2, %w2 : tensor<?x384xf32>, tensor<384x256xf32>) outs(%c2 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %r3 = linalg.matmul ins(%a3, %w3 : tensor<64x1024xf32>, tensor<1024x256xf32>) outs(%c3 : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %r, %r2, %r3 : tensor<?x768xf32>, tensor<?x256xf32>, tensor<64x256xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_depth
// CHECK-NOT: tensor.expand_shape
func.func @dynamic_depth(%a: tensor<?x?xf32>, %w: tensor<?x256xf32>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %r = linalg.matmul ins(%a, %w : tensor<?x?xf32>, tensor<?x256xf32>) outs(%c : tensor<?x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}

// -----

// A reduction that the first input reads in two dims (its diagonal) is not a view's split.
// CHECK-LABEL: func.func @diagonal
// CHECK-NOT: tensor.expand_shape
#diag = affine_map<(m, n, k) -> (m, k, k)>
#wk = affine_map<(m, n, k) -> (k, n)>
#om = affine_map<(m, n, k) -> (m, n)>
func.func @diagonal(%a: tensor<?x1024x1024xf32>, %w: tensor<1024x256xf32>, %c: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %r = linalg.generic {indexing_maps = [#diag, #wk, #om], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %w : tensor<?x1024x1024xf32>, tensor<1024x256xf32>) outs(%c : tensor<?x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}
