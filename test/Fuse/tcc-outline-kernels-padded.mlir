// RUN: tcc-opt %s --split-input-file --tcc-outline-kernels | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-outline-kernels "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --cse --canonicalize | FileCheck %s --check-prefix=BUF
// A padded result (a 1x1 convolution + ReLU feeding a 3x3 convolution's zero padding) is
// written in place: the kernel computes into the padded buffer's interior (extract_slice ...
// insert_slice of the same sizes), so there is no copy; a second kernel then fills only the
// border, slab by slab (rows 0 and 9 over all 50 columns, then columns 0 and 49 over rows
// 1-8: no element twice), instead of the whole buffer.

// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[PADDED:.*]]: tensor<?x4x10x50xf32>, %[[N:.*]]: index
// CHECK: %[[INTERIOR:.*]] = tensor.extract_slice %[[PADDED]][0, 0, 1, 1] [%[[N]], 4, 8, 48] [1, 1, 1, 1]
// CHECK: linalg.fill {{.*}} outs(%[[INTERIOR]]
// CHECK: linalg.generic
// CHECK: %[[RELU:.*]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: tensor.insert_slice %[[RELU]] into %[[PADDED]][0, 0, 1, 1] [%[[N]], 4, 8, 48] [1, 1, 1, 1]
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%[[WHOLE:.*]]: tensor<?x4x10x50xf32>, %[[N1:.*]]: index)
// CHECK: %[[TOP:.*]] = tensor.extract_slice %[[WHOLE]][0, 0, 0, 0] [%[[N1]], 4, 1, 50]
// CHECK: linalg.fill {{.*}} outs(%[[TOP]]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 9, 0] [%[[N1]], 4, 1, 50]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 0] [%[[N1]], 4, 8, 1]
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 49] [%[[N1]], 4, 8, 1]
// CHECK-NOT: linalg.fill {{.*}} -> tensor<?x4x10x50xf32>
// CHECK-LABEL: func.func @main
// CHECK: %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<?x4x10x50xf32>
// CHECK: %[[COMPUTED:.*]] = call @kernel_0(%[[EMPTY]]
// CHECK: call @kernel_1(%[[COMPUTED]]

// After bufferization: subviews of the padded buffer, no allocation, no copy.
// BUF-LABEL: func.func private @kernel_0
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: memref.subview %arg0[0, 0, 1, 1]
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: return
#x = affine_map<(n, c, h, w, k) -> (n, k, h, w)>
#w = affine_map<(n, c, h, w, k) -> (c, k)>
#o = affine_map<(n, c, h, w, k) -> (n, c, h, w)>
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @main(%x: tensor<?x16x8x48xf32>, %w: tensor<4x16xf32>) -> tensor<?x4x10x50xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16x8x48xf32>
  %e = tensor.empty(%n) : tensor<?x4x8x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x8x48xf32>) -> tensor<?x4x8x48xf32>
  %c = linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x16x8x48xf32>, tensor<4x16xf32>) outs(%f : tensor<?x4x8x48xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x4x8x48xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<?x4x8x48xf32>) outs(%e : tensor<?x4x8x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x4x8x48xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x4x8x48xf32> to tensor<?x4x10x50xf32>
  return %p : tensor<?x4x10x50xf32>
}

// -----

// Rows of 14 stay contiguous (the tiler merges them into long vectors); the pad copies,
// and the copy's kernel fills only the border (rows 0 and 15, then columns 0 and 15 of
// rows 1-14), not the whole buffer first.
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%[[SRC:.*]]: tensor<4x14x14xf32>, %[[DST:.*]]: tensor<4x16x16xf32>)
// CHECK: %[[COPIED:.*]] = tensor.insert_slice %[[SRC]] into %[[DST]][0, 1, 1] [4, 14, 14]
// CHECK: tensor.extract_slice %[[COPIED]][0, 0, 0] [4, 1, 16]
// CHECK: tensor.extract_slice %{{.*}}[0, 15, 0] [4, 1, 16]
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 0] [4, 14, 1]
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 15] [4, 14, 1]
// CHECK-NOT: linalg.fill {{.*}} -> tensor<4x16x16xf32>
// CHECK-LABEL: func.func @main
// CHECK: %[[RELU:.*]] = call @kernel_0({{.*}}) -> tensor<4x14x14xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x16x16xf32>
// CHECK: call @kernel_1(%[[RELU]], %[[EMPTY]])
// CHECK-NOT: call
func.func @main(%x: tensor<4x14x14xf32>) -> tensor<4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x14x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(c, h, w) -> (c, h, w)>, affine_map<(c, h, w) -> (c, h, w)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x14x14xf32>) outs(%e : tensor<4x14x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x14x14xf32>
  %p = tensor.pad %r low[0, 1, 1] high[0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<4x14x14xf32> to tensor<4x16x16xf32>
  return %p : tensor<4x16x16xf32>
}

// -----

// As entry signatures leave a model: the batch is a symbol argument, the input a view of
// the caller's bytes, and the buffers are sized by the symbol. The padded buffer's batch
// (a dim of the input, through the view) is the same symbol, so only the border is filled.
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%[[WHOLE:.*]]: tensor<?x4x10x50xf32>, %[[N1:.*]]: index)
// CHECK: tensor.extract_slice %[[WHOLE]][0, 0, 0, 0] [%[[N1]], 4, 1, 50]
// CHECK-NOT: linalg.fill {{.*}} -> tensor<?x4x10x50xf32>
// CHECK-LABEL: func.func @main
// CHECK: %[[EMPTY:.*]] = tensor.empty(%arg0) : tensor<?x4x10x50xf32>
// CHECK: %[[COMPUTED:.*]] = call @kernel_0(%[[EMPTY]]
// CHECK: call @kernel_1(%[[COMPUTED]], %arg0)
func.func @main(%n: index, %bytes: memref<?xi8>) -> tensor<?x4x10x50xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %view = memref.view %bytes[%c0][%n] : memref<?xi8> to memref<?x4x8x48xf32>
  %x = bufferization.to_tensor %view restrict : memref<?x4x8x48xf32> to tensor<?x4x8x48xf32>
  %e = tensor.empty(%n) : tensor<?x4x8x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x4x8x48xf32>) outs(%e : tensor<?x4x8x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x4x8x48xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x4x8x48xf32> to tensor<?x4x10x50xf32>
  return %p : tensor<?x4x10x50xf32>
}

// -----

// The padded result has another reader (a residual branch adding it to %y): it is still
// computed into the padded buffer, and the reader's kernel takes the whole padded buffer
// and reads its interior through a view made inside (a view passed in would be copied to a
// buffer of its own at the call: after bufferization, no copy in @main).
// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[PADDED:[^:]*]]: tensor<4x10x50xf32>
// CHECK: tensor.extract_slice %[[PADDED]][0, 1, 1] [4, 8, 48] [1, 1, 1]
// CHECK: tensor.insert_slice %{{.*}} into %[[PADDED]][0, 1, 1] [4, 8, 48] [1, 1, 1]
// CHECK-LABEL: func.func private @kernel_1
// CHECK-SAME: (%{{.*}}: tensor<4x10x50xf32>)
// CHECK-LABEL: func.func private @kernel_2
// CHECK-SAME: (%[[WHOLE:[^:]*]]: tensor<4x10x50xf32>, %[[Y:[^:]*]]: tensor<4x8x48xf32>
// CHECK: %[[INTERIOR:[^ ]*]] = tensor.extract_slice %[[WHOLE]][0, 1, 1] [4, 8, 48] [1, 1, 1] {tcc.padded_interior}
// CHECK: linalg.generic {{.*}} ins(%[[INTERIOR]], %[[Y]]
// CHECK-LABEL: func.func @main
// CHECK: %[[COMPUTED:.*]] = call @kernel_0(
// CHECK: %[[BORDERED:.*]] = call @kernel_1(%[[COMPUTED]])
// CHECK: call @kernel_2(%[[BORDERED]], %arg1
// BUF-LABEL: func.func @main
// BUF-NOT: memref.copy
// BUF: return
func.func @main(%x: tensor<4x8x48xf32>, %y: tensor<4x8x48xf32>) -> (tensor<4x10x50xf32>, tensor<4x8x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(c, h, w) -> (c, h, w)>, affine_map<(c, h, w) -> (c, h, w)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x8x48xf32>) outs(%e : tensor<4x8x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8x48xf32>
  %p = tensor.pad %r low[0, 1, 1] high[0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<4x8x48xf32> to tensor<4x10x50xf32>
  %e2 = tensor.empty() : tensor<4x8x48xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(c, h, w) -> (c, h, w)>, affine_map<(c, h, w) -> (c, h, w)>, affine_map<(c, h, w) -> (c, h, w)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r, %y : tensor<4x8x48xf32>, tensor<4x8x48xf32>) outs(%e2 : tensor<4x8x48xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8x48xf32>
  return %p, %s : tensor<4x10x50xf32>, tensor<4x8x48xf32>
}

// -----

// A row is the innermost padded dim with the whole dims inside it: bf16 pairs
// [c', h, w, 2] padded along h and w have rows of 14 x 2 = 28 elements, so the packed
// values are computed in place (tcc-pair-bf16-contractions' layout), where 14 floats alone
// (the case above) are copied.
// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[PADDED:.*]]: tensor<4x16x16x2xbf16>
// CHECK: %[[PAIRS:.*]] = linalg.generic
// CHECK: tensor.insert_slice %[[PAIRS]] into %[[PADDED]][0, 1, 1, 0] [4, 14, 14, 2] [1, 1, 1, 1]
// CHECK-LABEL: func.func @main
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x16x16x2xbf16>
// CHECK: %[[COMPUTED:.*]] = call @kernel_0(%[[EMPTY]]
// CHECK: call @kernel_1(%[[COMPUTED]])
func.func @main(%x: tensor<8x14x14xf32>) -> tensor<4x16x16x2xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x14x14x2xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(c, h, w, p) -> (c * 2 + p, h, w)>, affine_map<(c, h, w, p) -> (c, h, w, p)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x14x14xf32>) outs(%e : tensor<4x14x14x2xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<4x14x14x2xbf16>
  %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : bf16
  } : tensor<4x14x14x2xbf16> to tensor<4x16x16x2xbf16>
  return %p : tensor<4x16x16x2xbf16>
}

// -----

// Padded along the rows only (a column phase of a strided convolution): the whole 14-wide
// rows are contiguous in the padded buffer too, a row of 14 x 14 elements: in place.
// CHECK-LABEL: func.func private @kernel_0
// CHECK-SAME: (%[[PADDED:.*]]: tensor<4x16x14xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[PADDED]][0, 1, 0] [4, 14, 14] [1, 1, 1]
// CHECK-LABEL: func.func @main
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x16x14xf32>
// CHECK: call @kernel_0(%[[EMPTY]]
func.func @main(%x: tensor<4x14x14xf32>) -> tensor<4x16x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x14x14xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(c, h, w) -> (c, h, w)>, affine_map<(c, h, w) -> (c, h, w)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x14x14xf32>) outs(%e : tensor<4x14x14xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x14x14xf32>
  %p = tensor.pad %r low[0, 1, 0] high[0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<4x14x14xf32> to tensor<4x16x14xf32>
  return %p : tensor<4x16x14xf32>
}
