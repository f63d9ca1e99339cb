// RUN: tcc-opt %s --split-input-file --tcc-outline-kernels | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-outline-kernels "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --cse --canonicalize | FileCheck %s --check-prefix=BUF
// Two convolutions + ReLU concatenated along the channels (a fire module's expands), as
// eliminate-empty-tensors leaves them: each ReLU writes into its slice of the
// concatenation's buffer, cut after the convolution's fill, and is inserted back there.
// Each kernel takes the whole buffer, accumulates in its slice from the start (fill,
// product, ReLU) and inserts it back: no kernel of its own copies a result into the
// concatenation. The two fills' scratch buffer is one (CSE), which no longer matters.

// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[CAT:.*]]: tensor<?x8x8x48xf32>, %[[N:.*]]: index
// CHECK: %[[LOW:.*]] = tensor.extract_slice %[[CAT]][0, 0, 0, 0] [%[[N]], 4, 8, 48] [1, 1, 1, 1]
// CHECK: linalg.fill {{.*}} outs(%[[LOW]]
// CHECK: linalg.generic
// CHECK: %[[RELU:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: tensor.insert_slice %[[RELU]] into %[[CAT]][0, 0, 0, 0] [%[[N]], 4, 8, 48] [1, 1, 1, 1]
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%[[CAT1:.*]]: tensor<?x8x8x48xf32>, %[[N1:.*]]: index
// CHECK: %[[HIGH:.*]] = tensor.extract_slice %[[CAT1]][0, 4, 0, 0] [%[[N1]], 4, 8, 48] [1, 1, 1, 1]
// CHECK: linalg.fill {{.*}} outs(%[[HIGH]]
// CHECK: tensor.insert_slice %{{.*}} into %[[CAT1]][0, 4, 0, 0] [%[[N1]], 4, 8, 48] [1, 1, 1, 1]
// CHECK-NOT: func.func private @kernel_2
// CHECK-LABEL: func.func @main
// CHECK: %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<?x8x8x48xf32>
// CHECK: %[[FIRST:.*]] = call @kernel_0(%[[EMPTY]]
// CHECK: %[[BOTH:.*]] = call @kernel_1(%[[FIRST]]
// CHECK: return %[[BOTH]]

// After bufferization: subviews of the concatenation's buffer, no allocation, no copy.
// BUF-LABEL: func.func private @kernel_0
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: memref.subview %arg0[0, 0, 0, 0]
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: return
// BUF-LABEL: func.func private @kernel_1
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: memref.subview %arg0[0, 4, 0, 0]
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: return
#x = affine_map<(n, c, h, w, k) -> (n, k, h, w)>
#w = affine_map<(n, c, h, w, k) -> (c, k)>
#o = affine_map<(n, c, h, w, k) -> (n, c, h, w)>
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @main(%x: tensor<?x16x8x48xf32>, %w1: tensor<4x16xf32>, %w2: tensor<4x16xf32>) -> tensor<?x8x8x48xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16x8x48xf32>
  %e = tensor.empty(%n) : tensor<?x4x8x48xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x8x48xf32>) -> tensor<?x4x8x48xf32>
  %c1 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w1 : tensor<?x16x8x48xf32>, tensor<4x16xf32>) outs(%f1 : tensor<?x4x8x48xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x4x8x48xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x8x48xf32>) -> tensor<?x4x8x48xf32>
  %c2 = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w2 : tensor<?x16x8x48xf32>, tensor<4x16xf32>) outs(%f2 : tensor<?x4x8x48xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x4x8x48xf32>
  %cat = tensor.empty(%n) : tensor<?x8x8x48xf32>
  %s1 = tensor.extract_slice %cat[0, 0, 0, 0] [%n, 4, 8, 48] [1, 1, 1, 1] : tensor<?x8x8x48xf32> to tensor<?x4x8x48xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<?x4x8x48xf32>) outs(%s1 : tensor<?x4x8x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x4x8x48xf32>
  %i1 = tensor.insert_slice %r1 into %cat[0, 0, 0, 0] [%n, 4, 8, 48] [1, 1, 1, 1] : tensor<?x4x8x48xf32> into tensor<?x8x8x48xf32>
  %s2 = tensor.extract_slice %i1[0, 4, 0, 0] [%n, 4, 8, 48] [1, 1, 1, 1] : tensor<?x8x8x48xf32> to tensor<?x4x8x48xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<?x4x8x48xf32>) outs(%s2 : tensor<?x4x8x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x4x8x48xf32>
  %i2 = tensor.insert_slice %r2 into %i1[0, 4, 0, 0] [%n, 4, 8, 48] [1, 1, 1, 1] : tensor<?x4x8x48xf32> into tensor<?x8x8x48xf32>
  return %i2 : tensor<?x8x8x48xf32>
}
