// RUN: tcc-opt %s --tcc-pair-bf16-contractions --canonicalize --cse | FileCheck %s
// --precision=bf16 on CPUs with AVX512-BF16: float32 contractions read their inputs as bf16
// pairs along a reduction dim of even extent, the pair as the last index and the op's new
// last (reduction) dim. Constant inputs are rounded (to nearest, ties to even) and packed
// here; a zero padding moves after the packing; pairs along an input's last dim are its own
// order (a rounding and a view), others a packing generic.

// The maps (printed first).
// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[PACK:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2 + d4, d2, d3)>
// CHECK-DAG: #[[ID5:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[CX:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d4, d2 + d5, d3 + d6, d7)>
// CHECK-DAG: #[[CW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d4, d5, d6, d7)>

// A matrix product: the activation's pairs along its last dim (rounded, then viewed as
// [?, 2, 2]); the weights [4, 2] packed to [2, 2, 2], element [k', n, p] = w[2k' + p, n]:
// 1 + 2^-8 rounds to 1 (a tie, to even), 1 + 3 * 2^-8 to 1 + 2^-6.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 1.015630e+00], [2.000000e+00, -3.000000e+00]], {{\[\[}}5.000000e-01, 7.000000e+00], [2.500000e-01, 8.000000e+00]]]> : tensor<2x2x2xbf16>
// CHECK: %[[ROUNDED:.+]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]]{{.*}} ins(%arg0 : tensor<?x4xf32>) outs(%{{.*}} : tensor<?x4xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: %[[PAIRS:.+]] = tensor.expand_shape %[[ROUNDED]] {{\[\[}}0], [1, 2]] {{.*}} : tensor<?x4xbf16> into tensor<?x2x2xbf16>
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[PAIRS]], %[[W]] : tensor<?x2x2xbf16>, tensor<2x2x2xbf16>) outs(%{{.*}} : tensor<?x2xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: bf16, %[[Y:.+]]: bf16, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[XF:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[YF:.+]] = arith.extf %[[Y]] : bf16 to f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[XF]], %[[YF]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @matmul(%a: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %b = arith.constant dense<[[1.00390625, 2.0], [1.01171875, -3.0], [0.5, 0.25], [7.0, 8.0]]> : tensor<4x2xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty(%n) : tensor<?x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x2xf32>) -> tensor<?x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x4xf32>, tensor<4x2xf32>) outs(%init : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// A padded convolution: pairs along the input channels, the input packed to
// [?, 2, 8, 8, 2] (element [n, c', y, x, p] = x[n, 2c' + p, y, x]) and then padded (the
// rows and columns only); the filter [3, 4, 1, 1] packed while compiling to [3, 2, 1, 1, 2].
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[F:.+]] = arith.constant dense<{{.*}}> : tensor<3x2x1x1x2xbf16>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : bf16
// CHECK: %[[PACKED:.+]] = linalg.generic {indexing_maps = [#[[PACK]], #[[ID5]]]{{.*}} ins(%arg0 : tensor<?x4x8x8xf32>) outs(%{{.*}} : tensor<?x2x8x8x2xbf16>)
// CHECK: %[[PADDED:.+]] = tensor.pad %[[PACKED]] low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0]
// CHECK: tensor.yield %[[ZERO]] : bf16
// CHECK: } : tensor<?x2x8x8x2xbf16> to tensor<?x2x10x10x2xbf16>
// CHECK: linalg.generic {indexing_maps = [#[[CX]], #[[CW]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]} ins(%[[PADDED]], %[[F]] : tensor<?x2x10x10x2xbf16>, tensor<3x2x1x1x2xbf16>)
func.func @conv(%x: tensor<?x4x8x8xf32>, %init: tensor<?x3x10x10xf32>) -> tensor<?x3x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<?x4x8x8xf32> to tensor<?x4x10x10xf32>
  %w = arith.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]], [[[5.0]], [[6.0]], [[7.0]], [[8.0]]], [[[9.0]], [[10.0]], [[11.0]], [[12.0]]]]> : tensor<3x4x1x1xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %w : tensor<?x4x10x10xf32>, tensor<3x4x1x1xf32>) outs(%init : tensor<?x3x10x10xf32>) -> tensor<?x3x10x10xf32>
  return %r : tensor<?x3x10x10xf32>
}

// Two activations (attention's scores times values): the second's pairs are along its rows,
// so it gets a packing generic ([8, 6] to [4, 6, 2]).
// CHECK-LABEL: func.func @activations
// CHECK: tensor.expand_shape {{.*}} : tensor<5x8xbf16> into tensor<5x4x2xbf16>
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<8x6xf32>) outs(%{{.*}} : tensor<4x6x2xbf16>)
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<5x4x2xbf16>, tensor<4x6x2xbf16>) outs(%arg2 : tensor<5x6xf32>)
func.func @activations(%a: tensor<5x8xf32>, %b: tensor<8x6xf32>, %init: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<5x8xf32>, tensor<8x6xf32>) outs(%init : tensor<5x6xf32>) -> tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

// An odd reduction (5): both inputs get a zero appended along it (6 = 3 pairs), and the
// weights-free product pairs them like an even one.
// CHECK-LABEL: func.func @odd
// CHECK: tensor.pad %arg0 low[0, 0] high[0, 1]
// CHECK: } : tensor<3x5xf32> to tensor<3x6xf32>
// CHECK: tensor.expand_shape {{.*}} : tensor<3x6xbf16> into tensor<3x3x2xbf16>
// CHECK: tensor.pad %arg1 low[0, 0] high[1, 0]
// CHECK: } : tensor<5x4xf32> to tensor<6x4xf32>
// CHECK: outs(%{{.*}} : tensor<3x4x2xbf16>)
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<3x3x2xbf16>, tensor<3x4x2xbf16>) outs(%arg2 : tensor<3x4xf32>)
func.func @odd(%a: tensor<3x5xf32>, %b: tensor<5x4xf32>, %c: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<3x5xf32>, tensor<5x4xf32>) outs(%c : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// An odd constant: the zero is part of the packed weights ([3, 2] to [2, 2, 2]).
// CHECK-LABEL: func.func @odd_weights
// CHECK: arith.constant dense<{{\[\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]], {{\[\[}}5.000000e+00, 0.000000e+00], [6.000000e+00, 0.000000e+00]]]> : tensor<2x2x2xbf16>
func.func @odd_weights(%a: tensor<4x3xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// Left alone: a reduction shorter than min-extent (2), a depthwise convolution (its
// reductions, the window's, are read as y + ky), float64, and a reduction whose extent is
// static in one input only (4 from the first, ? in the second).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: bf16
// CHECK: return
func.func @left_alone(%c: tensor<3x4xf32>, %d: tensor<3x2xf32>, %e: tensor<2x4xf32>,
                      %x: tensor<1x8x10x10xf32>, %w: tensor<8x3x3xf32>, %o: tensor<1x8x8x8xf32>,
                      %f: tensor<3x6xf64>, %g: tensor<6x4xf64>, %h: tensor<3x4xf64>,
                      %k: tensor<3x4xf32>, %dyn: tensor<?x4xf32>)
    -> (tensor<3x4xf32>, tensor<1x8x8x8xf32>, tensor<3x4xf64>, tensor<3x4xf32>) {
  %1 = linalg.matmul ins(%d, %e : tensor<3x2xf32>, tensor<2x4xf32>) outs(%c : tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %3 = linalg.matmul ins(%f, %g : tensor<3x6xf64>, tensor<6x4xf64>) outs(%h : tensor<3x4xf64>) -> tensor<3x4xf64>
  %4 = linalg.matmul ins(%k, %dyn : tensor<3x4xf32>, tensor<?x4xf32>) outs(%c : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %1, %2, %3, %4 : tensor<3x4xf32>, tensor<1x8x8x8xf32>, tensor<3x4xf64>, tensor<3x4xf32>
}
