// RUN: tcc-opt %s --split-input-file --tcc-fuse-elementwise="byte-operands=true" | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-fuse-elementwise | FileCheck %s --check-prefix=OFF

// A quantized depthwise convolution on blocks (tcc-channel-vector-convolutions): its input
// is the conversion of padded byte blocks to float. With byte-operands the conversion moves
// into the contraction's body, which then reads the bytes; without, it stays a generic of
// its own (a float copy of the blocks).
#in = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y * 2 + ky, x * 2 + kx, cb, l)>
#w = affine_map<(n, y, x, cb, l, ky, kx) -> (cb, ky, kx, l)>
#out = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y, x, cb, l)>
#id = affine_map<(n, y, x, cb, l) -> (n, y, x, cb, l)>
// CHECK-LABEL: func.func @depthwise_bytes
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1 : tensor<1x16x16x4x16xi8>, tensor<4x3x3x16xf32>)
// CHECK-NEXT: ^bb0(%[[Q:.*]]: i8, %[[W:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[X:.*]] = arith.uitofp %[[Q]] : i8 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[W]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NOT: linalg.generic
// OFF-LABEL: func.func @depthwise_bytes
// OFF: linalg.generic {{.*}} ins(%arg0 : tensor<1x16x16x4x16xi8>)
// OFF: arith.uitofp
// OFF: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<1x16x16x4x16xf32>, tensor<4x3x3x16xf32>)
func.func @depthwise_bytes(%q: tensor<1x16x16x4x16xi8>, %w: tensor<4x3x3x16xf32>, %init: tensor<1x7x7x4x16xf32>) -> tensor<1x7x7x4x16xf32> {
  %e = tensor.empty() : tensor<1x16x16x4x16xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x16x16x4x16xi8>) outs(%e : tensor<1x16x16x4x16xf32>) {
  ^bb0(%a: i8, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    linalg.yield %f : f32
  } -> tensor<1x16x16x4x16xf32>
  %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x16x16x4x16xf32>, tensor<4x3x3x16xf32>) outs(%init : tensor<1x7x7x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x7x7x4x16xf32>
  return %r : tensor<1x7x7x4x16xf32>
}

// -----

// A conversion that another op also reads is stored once for both: not fused.
#in = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y * 2 + ky, x * 2 + kx, cb, l)>
#w = affine_map<(n, y, x, cb, l, ky, kx) -> (cb, ky, kx, l)>
#out = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y, x, cb, l)>
#id = affine_map<(n, y, x, cb, l) -> (n, y, x, cb, l)>
// CHECK-LABEL: func.func @shared_conversion
// CHECK: %[[X:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x16x16x4x16xi8>)
// CHECK: linalg.generic {{.*}} ins(%[[X]], %arg1 : tensor<1x16x16x4x16xf32>, tensor<4x3x3x16xf32>)
func.func @shared_conversion(%q: tensor<1x16x16x4x16xi8>, %w: tensor<4x3x3x16xf32>, %init: tensor<1x7x7x4x16xf32>) -> (tensor<1x7x7x4x16xf32>, tensor<1x16x16x4x16xf32>) {
  %e = tensor.empty() : tensor<1x16x16x4x16xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x16x16x4x16xi8>) outs(%e : tensor<1x16x16x4x16xf32>) {
  ^bb0(%a: i8, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    linalg.yield %f : f32
  } -> tensor<1x16x16x4x16xf32>
  %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x16x16x4x16xf32>, tensor<4x3x3x16xf32>) outs(%init : tensor<1x7x7x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x7x7x4x16xf32>
  return %r, %x : tensor<1x7x7x4x16xf32>, tensor<1x16x16x4x16xf32>
}
