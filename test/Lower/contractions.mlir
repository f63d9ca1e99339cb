// RUN: tcc-opt %s --tcc-lower-prim-to-linalg | FileCheck %s
// dot_general and convolution -> named linalg ops where the layout fits, else linalg.generic.

// CHECK-DAG: #[[$DOT_L:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$DOT_R:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2, d0)>
// CHECK-DAG: #[[$DOT_O:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[$VEC:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$CONV_IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
// CHECK-DAG: #[[$CONV_W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-DAG: #[[$CONV_OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[$PW_IN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d2, d3)>
// CHECK-DAG: #[[$PW_W:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4)>
// CHECK-DAG: #[[$PW_OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$DW_IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[$DW_W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>
// CHECK-DAG: #[[$DW_OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[INIT]] : tensor<4x16xf32>)
// CHECK-NEXT: return %[[R]]
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = prim.dot_general %a, %b contracting = [1] x [0] batching = [] x [] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// f16 operands accumulate in an f32 destination, rounded to f16 at the end.
// CHECK-LABEL: func.func @batch_matmul_f16
// CHECK-SAME: %[[A:.*]]: tensor<?x4x8xf16>, %[[B:.*]]: tensor<?x8x16xf16>
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4x8xf16>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4x16xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?x4x16xf32>)
// CHECK: %[[R:.*]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<?x4x8xf16>, tensor<?x8x16xf16>) outs(%[[INIT]] : tensor<?x4x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[R]] : tensor<?x4x16xf32>) outs(%{{.*}} : tensor<?x4x16xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @batch_matmul_f16(%a: tensor<?x4x8xf16>, %b: tensor<?x8x16xf16>) -> tensor<?x4x16xf16> {
  %0 = prim.dot_general %a, %b contracting = [2] x [1] batching = [0] x [0] : (tensor<?x4x8xf16>, tensor<?x8x16xf16>) -> tensor<?x4x16xf16>
  return %0 : tensor<?x4x16xf16>
}

// Other layouts: loops (batch, lhs free, rhs free, contracting), the last a reduction.
// CHECK-LABEL: func.func @dot_general
// CHECK: linalg.generic {indexing_maps = [#[[$DOT_L]], #[[$DOT_R]], #[[$DOT_O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<2x2x3xf32>, tensor<3x1x2xf32>) outs(%{{.*}} : tensor<2x2x1xf32>)
// CHECK-NEXT: ^bb0(%[[L:.*]]: f32, %[[R:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[L]], %[[R]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @dot_general(%l: tensor<2x2x3xf32>, %r: tensor<3x1x2xf32>) -> tensor<2x2x1xf32> {
  %0 = prim.dot_general %l, %r contracting = [2] x [0] batching = [0] x [2] : (tensor<2x2x3xf32>, tensor<3x1x2xf32>) -> tensor<2x2x1xf32>
  return %0 : tensor<2x2x1xf32>
}

// Integers accumulate in their own type (they wrap).
// CHECK-LABEL: func.func @dot_vector_i32
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.*}} : tensor<i32>)
// CHECK: linalg.generic {indexing_maps = [#[[$VEC]], #[[$VEC]], #[[$SCALAR]]], iterator_types = ["reduction"]}
// CHECK-SAME: outs(%[[INIT]] : tensor<i32>)
// CHECK: arith.muli
// CHECK: arith.addi
func.func @dot_vector_i32(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<i32> {
  %0 = prim.dot_general %a, %b contracting = [0] x [0] batching = [] x [] : (tensor<8xi32>, tensor<8xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// One group, 2-D: the input zero-padded, then linalg.conv_2d_nchw_fchw.
// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: %[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<6x3x3x3xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[Z]] : f32
// CHECK: } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x4x4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[P]], %[[W]] : tensor<1x3x10x10xf32>, tensor<6x3x3x3xf32>) outs(%[[INIT]] : tensor<1x6x4x4xf32>)
func.func @conv2d(%img: tensor<1x3x8x8xf32>, %w: tensor<6x3x3x3xf32>) -> tensor<1x6x4x4xf32> {
  %0 = prim.convolution %img, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x4x4xf32>
  return %0 : tensor<1x6x4x4xf32>
}

// 1-D, f16: no padding, f32 accumulation.
// CHECK-LABEL: func.func @conv1d_f16
// CHECK-NOT: tensor.pad
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
// CHECK-SAME: outs(%{{.*}} : tensor<1x4x2xf32>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @conv1d_f16(%x: tensor<1x2x8xf16>, %w: tensor<4x2x3xf16>) -> tensor<1x4x2xf16> {
  %0 = prim.convolution %x, %w {dilations = array<i64: 2>, feature_group_count = 1 : i64, padding_high = array<i64: 0>, padding_low = array<i64: 0>, strides = array<i64: 2>} : (tensor<1x2x8xf16>, tensor<4x2x3xf16>) -> tensor<1x4x2xf16>
  return %0 : tensor<1x4x2xf16>
}

// Groups: channels split by expand_shape (input [N, G, C/G, ...], filter [G, O/G, C/G, ...]),
// a generic over (n, g, o, y, x, c, ky, kx), then the output collapsed back to [N, O, ...].
// CHECK-LABEL: func.func @conv_grouped
// CHECK-SAME: %[[X:.*]]: tensor<?x4x8x8xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [%{{.*}}, 2, 2, 8, 8] : tensor<?x4x8x8xf32> into tensor<?x2x2x8x8xf32>
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x2x3x6x6xf32>)
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[$CONV_IN]], #[[$CONV_W]], #[[$CONV_OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[XG]], %[[WG]] : tensor<?x2x2x8x8xf32>, tensor<2x3x2x3x3xf32>) outs(%[[INIT]] : tensor<?x2x3x6x6xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<?x2x3x6x6xf32> into tensor<?x6x6x6xf32>
func.func @conv_grouped(%img: tensor<?x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<?x6x6x6xf32> {
  %0 = prim.convolution %img, %w {dilations = array<i64: 1, 1>, feature_group_count = 2 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<?x6x6x6xf32>
  return %0 : tensor<?x6x6x6xf32>
}

// A 1x1 convolution (unit strides, no padding, one group) is a matrix product per image:
// loops (n, o, h, w, c), the filter as [O, C]; the pixels are plain dims for tcc-collapse-dims.
// CHECK-LABEL: func.func @conv_pointwise
// CHECK: %[[M:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<8x4x1x1xf32> into tensor<8x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$PW_IN]], #[[$PW_W]], #[[$PW_OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %[[M]] : tensor<?x4x7x7xf32>, tensor<8x4xf32>)
func.func @conv_pointwise(%img: tensor<?x4x7x7xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<?x8x7x7xf32> {
  %0 = prim.convolution %img, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x4x7x7xf32>, tensor<8x4x1x1xf32>) -> tensor<?x8x7x7xf32>
  return %0 : tensor<?x8x7x7xf32>
}

// A depthwise convolution (one channel per group) reads the input channel it writes: loops
// (n, o, y, x, ky, kx), the filter as [O, KY, KX]; no regrouping reshapes around it.
// CHECK-LABEL: func.func @conv_depthwise
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: %[[T:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<6x1x3x3xf32> into tensor<6x3x3xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$DW_IN]], #[[$DW_W]], #[[$DW_OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[P]], %[[T]] : tensor<1x6x10x10xf32>, tensor<6x3x3xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK: return %[[R]]
func.func @conv_depthwise(%img: tensor<1x6x8x8xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x4x4xf32> {
  %0 = prim.convolution %img, %w {dilations = array<i64: 1, 1>, feature_group_count = 6 : i64, padding_high = array<i64: 1, 1>, padding_low = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x6x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x4x4xf32>
  return %0 : tensor<1x6x4x4xf32>
}
