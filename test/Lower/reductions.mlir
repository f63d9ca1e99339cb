// RUN: tcc-opt %s --tcc-lower-prim-to-linalg | FileCheck %s
// reduce, arg_reduce, reduce_window and cumulative -> linalg.generic (and scf.for).

// CHECK-DAG: #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$KEEP1:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$POOL_IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0 + d4, d1 + d5, d2 * 2 + d6, d3 * 2 + d7)>
// CHECK-DAG: #[[$POOL_WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d4, d5, d6, d7)>
// CHECK-DAG: #[[$POOL_OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$DIL_IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 + d2, d1 * 2 + d3 * 2)>
// CHECK-DAG: #[[$SCAN_IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$SCAN_OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>

// The destination starts as the identity; reduced dims are reduction iterators.
// CHECK-LABEL: func.func @reduce_sum
// CHECK-SAME: %[[X:.*]]: tensor<2x?x4xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<2x?x4xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<?xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID3]], #[[$KEEP1]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<2x?x4xf32>) outs(%[[INIT]] : tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @reduce_sum(%x: tensor<2x?x4xf32>) -> tensor<?xf32> {
  %0 = prim.reduce sum %x dims = [0, 2] : tensor<2x?x4xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @reduce_max_i32
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: linalg.fill ins(%[[MIN]] : i32)
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maxsi
func.func @reduce_max_i32(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  %0 = prim.reduce max %x dims = [1] : tensor<3x4xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// max propagates NaN (arith.maximumf) and starts from -inf.
// CHECK-LABEL: func.func @reduce_max_f32
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maximumf
func.func @reduce_max_f32(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %0 = prim.reduce max %x dims = [1] : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// f16 sums accumulate in f32 and are rounded once.
// CHECK-LABEL: func.func @reduce_sum_f16
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<3x4xf16>) outs(%[[INIT]] : tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[W]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>) outs(%{{.*}} : tensor<3xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @reduce_sum_f16(%x: tensor<3x4xf16>) -> tensor<3xf16> {
  %0 = prim.reduce sum %x dims = [1] : tensor<3x4xf16> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}

// arg_reduce: two destinations, (best value, its index), starting at (identity, 0).
// x replaces the best when it is strictly better (NaN beats numbers) or ties (both NaN,
// or equal) at a smaller index.
// CHECK-LABEL: func.func @argmax
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[BEST:.*]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.*}} : tensor<3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[INDEX:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%{{.*}} : tensor<3xi64>)
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROW]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: outs(%[[BEST]], %[[INDEX]] : tensor<3xf32>, tensor<3xi64>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[B:.*]]: f32, %[[BI:.*]]: i64):
// CHECK-NEXT: %[[KI:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[K:.*]] = arith.index_cast %[[KI]] : index to i64
// CHECK-NEXT: %[[XNAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[BNAN:.*]] = arith.cmpf uno, %[[B]], %[[B]] : f32
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[BNUM:.*]] = arith.xori %[[BNAN]], %[[TRUE]] : i1
// CHECK-NEXT: %[[NANWINS:.*]] = arith.andi %[[XNAN]], %[[BNUM]] : i1
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[X]], %[[B]] : f32
// CHECK-NEXT: %[[BETTER:.*]] = arith.ori %[[NANWINS]], %[[GT]] : i1
// CHECK-NEXT: %[[BOTHNAN:.*]] = arith.andi %[[XNAN]], %[[BNAN]] : i1
// CHECK-NEXT: %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[B]] : f32
// CHECK-NEXT: %[[TIE:.*]] = arith.ori %[[BOTHNAN]], %[[EQ]] : i1
// CHECK-NEXT: %[[FIRST:.*]] = arith.cmpi slt, %[[K]], %[[BI]] : i64
// CHECK-NEXT: %[[TIEWINS:.*]] = arith.andi %[[TIE]], %[[FIRST]] : i1
// CHECK-NEXT: %[[UPDATE:.*]] = arith.ori %[[BETTER]], %[[TIEWINS]] : i1
// CHECK-NEXT: %[[V:.*]] = arith.select %[[UPDATE]], %[[X]], %[[B]] : f32
// CHECK-NEXT: %[[I:.*]] = arith.select %[[UPDATE]], %[[K]], %[[BI]] : i64
// CHECK-NEXT: linalg.yield %[[V]], %[[I]] : f32, i64
// CHECK: return %[[R]]#1 : tensor<3xi64>
func.func @argmax(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  %0 = prim.arg_reduce argmax %x dim = 1 : tensor<3x4xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// select_last_index: ties go to the larger index.
// CHECK-LABEL: func.func @argmax_last
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i64
func.func @argmax_last(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  %0 = prim.arg_reduce argmax %x dim = 1 {select_last_index} : tensor<3x4xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// CHECK-LABEL: func.func @argmin_last_i32
// CHECK: %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK: linalg.fill ins(%[[MAX]] : i32)
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$COL]], #[[$COL]]], iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.index 0 : index
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i64
func.func @argmin_last_i32(%x: tensor<?x4xi32>) -> tensor<4xi64> {
  %0 = prim.arg_reduce argmin %x dim = 0 {select_last_index} : tensor<?x4xi32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// Pooling: the operand padded with the identity, then (out dims, window dims) with the
// window dims as reductions; a tensor.empty of the window's shape sizes them.
// CHECK-LABEL: func.func @maxpool
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NEG_INF]] : f32
// CHECK: } : tensor<1x2x5x5xf32> to tensor<1x2x7x7xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK: %[[W:.*]] = tensor.empty() : tensor<1x1x3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$POOL_IN]], #[[$POOL_WIN]], #[[$POOL_OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[P]], %[[W]] : tensor<1x2x7x7xf32>, tensor<1x1x3x3xf32>) outs(%[[INIT]] : tensor<1x2x3x3xf32>)
// CHECK: arith.maximumf
func.func @maxpool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %0 = prim.reduce_window max %x {padding_high = array<i64: 0, 0, 1, 1>, padding_low = array<i64: 0, 0, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// No padding: no tensor.pad. A dynamic output extent follows the window formula, 0 when
// the window does not fit; a window of 1 at stride 1 keeps its dim's extent itself (a
// pooling's batch), so later stages see the operand's value (and symbol).
// CHECK-LABEL: func.func @sumpool_dynamic
// CHECK-SAME: %[[X:.*]]: tensor<?x?xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[B:.*]] = tensor.dim %[[X]], %c0
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: %[[D:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[SPAN:.*]] = arith.subi %[[D]], %{{.*}} : index
// CHECK: %[[Q:.*]] = arith.divsi %[[SPAN]], %{{.*}} : index
// CHECK: %[[OUT:.*]] = arith.addi %[[Q]], %{{.*}} : index
// CHECK: %[[FITS:.*]] = arith.cmpi sge, %[[SPAN]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.select %[[FITS]], %[[OUT]], %{{.*}} : index
// CHECK: tensor.empty(%[[B]], %[[N]]) : tensor<?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$DIL_IN]],
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.addf
func.func @sumpool_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = prim.reduce_window sum %x {padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : tensor<?x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// cumulative: a loop over the scanned dim carrying (result, running value); each step
// combines the unit slice into the running value and stores it.
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: %[[X:.*]]: tensor<2x?xf32>
// CHECK: %[[RUNNING:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x1xf32>)
// CHECK: %[[RES:.*]] = tensor.empty(%{{.*}}) : tensor<2x?xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[X]]
// CHECK: %[[L:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[R:.*]] = %[[RES]], %[[A:.*]] = %[[RUNNING]]) -> (tensor<2x?xf32>, tensor<2x1xf32>)
// CHECK: %[[S:.*]] = tensor.extract_slice %[[X]][0, %[[K]]] [2, 1] [1, 1] : tensor<2x?xf32> to tensor<2x1xf32>
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2x1xf32>) outs(%[[A]] : tensor<2x1xf32>)
// CHECK: arith.addf
// CHECK: %[[STORED:.*]] = tensor.insert_slice %[[NEXT]] into %[[R]][0, %[[K]]] [2, 1] [1, 1]
// CHECK: scf.yield %[[STORED]], %[[NEXT]]
// CHECK: return %[[L]]#0
func.func @cumsum(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = prim.cumulative sum %x dim = 1 : tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// exclusive stores the running value before the update; reverse walks from the end.
// (300 steps: longer than the scans that become one reduction.)
// CHECK-LABEL: func.func @cumsum_exclusive_reverse
// CHECK: %[[C5:.*]] = arith.constant 300 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[LAST:.*]] = arith.subi %[[C5]], %[[C1]] : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C5]] step %[[C1]] iter_args(%[[R:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}})
// CHECK: %[[P:.*]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[%[[P]], 0] [1, 3] [1, 1]
// CHECK: %[[STORED:.*]] = tensor.insert_slice %[[A]] into %[[R]][%[[P]], 0] [1, 3] [1, 1]
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<1x3xi32>) outs(%[[A]] : tensor<1x3xi32>)
// CHECK: arith.addi
// CHECK: scf.yield %[[STORED]], %[[NEXT]]
func.func @cumsum_exclusive_reverse(%x: tensor<300x3xi32>) -> tensor<300x3xi32> {
  %0 = prim.cumulative sum %x dim = 0 {exclusive, reverse} : tensor<300x3xi32>
  return %0 : tensor<300x3xi32>
}

// A short static scan is one reduction per output over the scanned positions j, each
// combined only where it comes at or before the output's position i: y[b, i] = sum over j
// of (j <= i ? x[b, j] : 0), one kernel instead of a loop of 128 steps.
// CHECK-LABEL: func.func @cumsum_triangle
// CHECK-SAME: %[[X:.*]]: tensor<?x128xi64>
// CHECK-NOT: scf.for
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%{{.*}} : tensor<?x128xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[$SCAN_IN:.*]], #[[$SCAN_OUT:.*]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<?x128xi64>) outs(%[[INIT]] : tensor<?x128xi64>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i64, %[[ACC:.*]]: i64):
// CHECK-NEXT: %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[J:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi sle, %[[J]], %[[I]] : index
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[ACC]], %[[IN]] : i64
// CHECK-NEXT: %[[Y:.*]] = arith.select %[[KEEP]], %[[SUM]], %[[ACC]] : i64
// CHECK-NEXT: linalg.yield %[[Y]] : i64
// CHECK-NOT: scf.for
func.func @cumsum_triangle(%x: tensor<?x128xi64>) -> tensor<?x128xi64> {
  %0 = prim.cumulative sum %x dim = 1 : tensor<?x128xi64>
  return %0 : tensor<?x128xi64>
}

// exclusive and reverse: positions strictly after the output's.
// CHECK-LABEL: func.func @cumsum_triangle_exclusive_reverse
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: arith.cmpi sgt, %[[J]], %[[I]] : index
// CHECK: arith.mulf
func.func @cumsum_triangle_exclusive_reverse(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %0 = prim.cumulative prod %x dim = 0 {exclusive, reverse} : tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// f16 products run in f32; each stored slice is rounded to f16.
// CHECK-LABEL: func.func @cumprod_f16
// CHECK: scf.for {{.*}} -> (tensor<?xf16>, tensor<1xf32>)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tensor.insert_slice %{{.*}} : tensor<1xf16> into tensor<?xf16>
func.func @cumprod_f16(%x: tensor<?xf16>) -> tensor<?xf16> {
  %0 = prim.cumulative prod %x dim = 0 : tensor<?xf16>
  return %0 : tensor<?xf16>
}

// Unsigned: the best value starts at 0 (the unsigned minimum) and compares unsigned.
// CHECK-LABEL: func.func @argmax_ui8
// CHECK-SAME: %[[X:.*]]: tensor<3x4xui8>
// CHECK: %[[SX:.*]] = builtin.unrealized_conversion_cast %[[X]] : tensor<3x4xui8> to tensor<3x4xi8>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK: %[[BEST:.*]] = linalg.fill ins(%[[ZERO]] : i8) outs(%{{.*}} : tensor<3xi8>)
// CHECK: linalg.generic {{.*}} ins(%[[SX]] : tensor<3x4xi8>) outs(%[[BEST]], %{{.*}} : tensor<3xi8>, tensor<3xi64>)
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i8
func.func @argmax_ui8(%x: tensor<3x4xui8>) -> tensor<3xi64> {
  %0 = prim.arg_reduce argmax %x dim = 1 : tensor<3x4xui8> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// Unsigned min starts at the unsigned maximum and compares unsigned; the result is cast
// back to the unsigned tensor.
// CHECK-LABEL: func.func @reduce_min_ui32
// CHECK: %[[MAX:.*]] = arith.constant -1 : i32
// CHECK: linalg.fill ins(%[[MAX]] : i32)
// CHECK: arith.minui
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : tensor<3xi32> to tensor<3xui32>
func.func @reduce_min_ui32(%x: tensor<3x4xui32>) -> tensor<3xui32> {
  %0 = prim.reduce min %x dims = [1] : tensor<3x4xui32> -> tensor<3xui32>
  return %0 : tensor<3xui32>
}

// sort: each element's rank counts the elements that sort before it (a reduction over a
// second copy of the sorted dim), then values and source indices are scattered to ranks.
// CHECK-LABEL: func.func @sort
// CHECK: %[[COUNT:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.cmpf ogt
// CHECK: arith.extui
// CHECK: linalg.generic {{.*}}ins(%[[COUNT]] : tensor<2x5xi64>)
// CHECK: scf.for
// CHECK: scf.for
func.func @sort(%x: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xi64>) {
  %0:2 = prim.sort %x dim = 1 {descending} : tensor<2x5xf32> -> tensor<2x5xf32>, tensor<2x5xi64>
  return %0#0, %0#1 : tensor<2x5xf32>, tensor<2x5xi64>
}
