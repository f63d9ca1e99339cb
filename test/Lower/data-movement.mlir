// RUN: tcc-opt %s --tcc-lower-prim-to-linalg | FileCheck %s
// reshape, transpose, slice, pad, concatenate, reverse and gather -> tensor and linalg;
// scatter -> scf.for loops.

// CHECK-DAG: #[[$SLICE:.*]] = affine_map<(d0, d1) -> (d0 * 2 + 1, d1 + 2)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$REV:.*]] = affine_map<(d0, d1) -> (d0, -d1 + 4)>
// CHECK-DAG: #[[$ALL2:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$IDX:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Dims whose extents match group into one collapse or one expand.
// CHECK-LABEL: func.func @reshape_collapse
// CHECK: %[[R:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_collapse(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = prim.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @reshape_expand
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<6x4xf32> into tensor<2x3x2x2xf32>
func.func @reshape_expand(%x: tensor<6x4xf32>) -> tensor<2x3x2x2xf32> {
  %0 = prim.reshape %x : (tensor<6x4xf32>) -> tensor<2x3x2x2xf32>
  return %0 : tensor<2x3x2x2xf32>
}

// No common grouping: through a 1-D view.
// CHECK-LABEL: func.func @reshape_flat
// CHECK: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
func.func @reshape_flat(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = prim.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @reshape_rank0
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1, 1] : tensor<f32> into tensor<1x1x1xf32>
func.func @reshape_rank0(%x: tensor<1x1xf32>, %y: tensor<f32>) -> (tensor<f32>, tensor<1x1x1xf32>) {
  %0 = prim.reshape %x : (tensor<1x1xf32>) -> tensor<f32>
  %1 = prim.reshape %y : (tensor<f32>) -> tensor<1x1x1xf32>
  return %0, %1 : tensor<f32>, tensor<1x1x1xf32>
}

// A dynamic result extent that is an operand dim groups like a static one.
// CHECK-LABEL: func.func @reshape_dynamic
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<?x4x8xf32> into tensor<?x32xf32>
// CHECK-NOT: expand_shape
func.func @reshape_dynamic(%x: tensor<?x4x8xf32>) -> tensor<?x32xf32> {
  %n = prim.dim %x, 0 : tensor<?x4x8xf32>
  %0 = prim.reshape %x sizes(%n) : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// The dim is followed through elementwise producers.
// CHECK-LABEL: func.func @reshape_dynamic_through_elementwise
// CHECK: %[[E:.*]] = linalg.generic
// CHECK: tensor.expand_shape %[[E]] {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 2, 16] : tensor<?x32xf32> into tensor<?x2x16xf32>
func.func @reshape_dynamic_through_elementwise(%x: tensor<?x32xf32>) -> tensor<?x2x16xf32> {
  %n = prim.dim %x, 0 : tensor<?x32xf32>
  %e = prim.exp %x : tensor<?x32xf32>
  %0 = prim.reshape %e sizes(%n) : (tensor<?x32xf32>) -> tensor<?x2x16xf32>
  return %0 : tensor<?x2x16xf32>
}

// CHECK-LABEL: func.func @reshape_dynamic_flat
// CHECK-SAME: %[[X:.*]]: tensor<?x4xf32>, %[[N:.*]]: index
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [2, %[[N]]] : tensor<?xf32> into tensor<2x?xf32>
func.func @reshape_dynamic_flat(%x: tensor<?x4xf32>, %n: index) -> tensor<2x?xf32> {
  %0 = prim.reshape %x sizes(%n) : (tensor<?x4xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// Two dynamic extents in one group: tensor.reshape with a shape tensor.
// CHECK-LABEL: func.func @reshape_two_dynamic
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>, %[[A:.*]]: index, %[[B:.*]]: index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[S:.*]] = tensor.from_elements %[[A]], %[[B]], %[[C2]] : tensor<3xindex>
// CHECK: tensor.reshape %[[X]](%[[S]]) : (tensor<?x3xf32>, tensor<3xindex>) -> tensor<?x?x2xf32>
func.func @reshape_two_dynamic(%x: tensor<?x3xf32>, %a: index, %b: index) -> tensor<?x?x2xf32> {
  %0 = prim.reshape %x sizes(%a, %b) : (tensor<?x3xf32>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: %[[X:.*]]: tensor<?x4x5xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %[[C0]]
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<5x?x4xf32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<?x4x5xf32>) outs(%[[E]] : tensor<5x?x4xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<?x4x5xf32>) -> tensor<5x?x4xf32> {
  %0 = prim.transpose %x, [2, 0, 1] : tensor<?x4x5xf32> -> tensor<5x?x4xf32>
  return %0 : tensor<5x?x4xf32>
}

// Static offsets and strides: a copy through an affine map into a fresh tensor.
// CHECK-LABEL: func.func @slice_static
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$SLICE]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.*}} : tensor<8x10xf32>) outs(%[[E]] : tensor<3x4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @slice_static(%x: tensor<8x10xf32>) -> tensor<3x4xf32> {
  %0 = prim.slice %x [1, 2] [3, 4] strides [2, 1] : tensor<8x10xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// [0, size) of a larger extent would be a plain dim in the map, which linalg would take as
// the loop bound; such slices read with tensor.extract (no clamp: the offsets are static).
// CHECK-LABEL: func.func @slice_prefix
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK-NOT: minsi
// CHECK: tensor.extract %{{.*}}[%[[I]], %[[J]]] : tensor<8x10xf32>
func.func @slice_prefix(%x: tensor<8x10xf32>) -> tensor<3x10xf32> {
  %0 = prim.slice %x [0, 0] [3, 10] strides [1, 1] : tensor<8x10xf32> -> tensor<3x10xf32>
  return %0 : tensor<3x10xf32>
}

// A dynamic offset: the position is clamped into [0, extent - 1].
// CHECK-LABEL: func.func @slice_dynamic
// CHECK-SAME: %[[X:.*]]: tensor<4x?xf32>, %[[O:.*]]: index, %[[N:.*]]: index
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<2x?xf32>
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<4x?xf32>
// CHECK: %[[LAST:.*]] = arith.subi %[[D]], %{{.*}} : index
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<2x?xf32>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[S:.*]] = arith.muli %[[J]], %[[C2]] : index
// CHECK: %[[P:.*]] = arith.addi %[[O]], %[[S]] : index
// CHECK: %[[HI:.*]] = arith.minsi %[[P]], %[[LAST]] : index
// CHECK: %[[LO:.*]] = arith.maxsi %[[HI]], %{{.*}} : index
// CHECK: tensor.extract %[[X]][%[[I]], %[[LO]]] : tensor<4x?xf32>
func.func @slice_dynamic(%x: tensor<4x?xf32>, %o: index, %n: index) -> tensor<2x?xf32> {
  %0 = prim.slice %x [0, %o] [2, %n] strides [1, 2] : tensor<4x?xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// CHECK-LABEL: func.func @pad
// CHECK-SAME: %[[X:.*]]: tensor<2x?xf32>, %[[P:.*]]: tensor<f32>
// CHECK: %[[V:.*]] = tensor.extract %[[P]][] : tensor<f32>
// CHECK: tensor.pad %[[X]] low[1, 0] high[0, 2]
// CHECK: tensor.yield %[[V]] : f32
// CHECK: } : tensor<2x?xf32> to tensor<3x?xf32>
func.func @pad(%x: tensor<2x?xf32>, %p: tensor<f32>) -> tensor<3x?xf32> {
  %0 = prim.pad %x, %p low [1, 0] high [0, 2] : (tensor<2x?xf32>, tensor<f32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @concat
// CHECK-SAME: %[[A:.*]]: tensor<2x?xf32>, %[[B:.*]]: tensor<3x?xf32>
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<5x?xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, %{{.*}}] [1, 1] : tensor<2x?xf32> into tensor<5x?xf32>
// CHECK: tensor.insert_slice %[[B]] into %[[R]][2, 0] [3, %{{.*}}] [1, 1] : tensor<3x?xf32> into tensor<5x?xf32>
func.func @concat(%a: tensor<2x?xf32>, %b: tensor<3x?xf32>) -> tensor<5x?xf32> {
  %0 = prim.concatenate %a, %b dim = 0 : (tensor<2x?xf32>, tensor<3x?xf32>) -> tensor<5x?xf32>
  return %0 : tensor<5x?xf32>
}

// The concatenated extent is the sum of the inputs' extents; the offsets are running sums.
// CHECK-LABEL: func.func @concat_dynamic
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<3x4xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}}
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[T:.*]] = arith.addi %[[N]], %[[C3]] : index
// CHECK: %[[E:.*]] = tensor.empty(%[[T]]) : tensor<?x4xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0]
// CHECK: tensor.insert_slice %[[B]] into %[[R]][%[[N]], 0] [3, 4] [1, 1]
func.func @concat_dynamic(%a: tensor<?x4xf32>, %b: tensor<3x4xf32>) -> tensor<?x4xf32> {
  %0 = prim.concatenate %a, %b dim = 0 : (tensor<?x4xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @reverse
// CHECK: linalg.generic {indexing_maps = [#[[$REV]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
func.func @reverse(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = prim.reverse %x, dims = [1] : tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// A dynamic reversed extent: read at (extent - 1 - i) with tensor.extract.
// CHECK-LABEL: func.func @reverse_dynamic
// CHECK-SAME: %[[X:.*]]: tensor<?x5xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]]
// CHECK: %[[LAST0:.*]] = arith.subi %[[D]], %{{.*}} : index
// CHECK: %[[LAST1:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[RI:.*]] = arith.subi %[[LAST0]], %[[I]] : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[RJ:.*]] = arith.subi %[[LAST1]], %[[J]] : index
// CHECK: tensor.extract %[[X]][%[[RI]], %[[RJ]]] : tensor<?x5xf32>
func.func @reverse_dynamic(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = prim.reverse %x, dims = [0, 1] : tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// gather: an and-reduction checks every index against the extent (negative indices are
// huge unsigned), then the read position is clamped into [0, extent - 1].
// CHECK-LABEL: func.func @gather
// CHECK-SAME: %[[X:.*]]: tensor<6x4xf32>, %[[I:.*]]: tensor<2x3xi64>
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[E64:.*]] = arith.index_cast %[[C6]] : index to i64
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[TRUE]] : i1) outs(%{{.*}} : tensor<i1>)
// CHECK: %[[ALL:.*]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ALL2]]], iterator_types = ["reduction", "reduction"]}
// CHECK-SAME: ins(%[[I]] : tensor<2x3xi64>) outs(%[[INIT]] : tensor<i1>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: i64, %[[ACC:.*]]: i1):
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[V]], %[[E64]] : i64
// CHECK-NEXT: %[[AND:.*]] = arith.andi %[[ACC]], %[[IN]] : i1
// CHECK-NEXT: linalg.yield %[[AND]] : i1
// CHECK: %[[OK:.*]] = tensor.extract %[[ALL]][] : tensor<i1>
// CHECK: prim.check %[[OK]], "gather index out of range: indices must be in [0, 6) for axis 0"
// CHECK: %[[LAST:.*]] = arith.subi %[[C6]], %{{.*}} : index
// CHECK: linalg.generic {indexing_maps = [#[[$IDX]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[I]] : tensor<2x3xi64>)
// CHECK-NEXT: ^bb0(%[[W:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[K:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[K]], %[[LAST]] : index
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[HI]], %[[Z]] : index
// CHECK-NEXT: %[[COL:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[R:.*]] = tensor.extract %[[X]][%[[LO]], %[[COL]]] : tensor<6x4xf32>
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @gather(%x: tensor<6x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %0 = prim.gather %x[%i] axis = 0 : (tensor<6x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// i32 indices are sign-extended for the check; the message names the node.
// CHECK-LABEL: func.func @gather_dynamic
// CHECK-SAME: %[[X:.*]]: tensor<3x?xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<3x?xf32>
// CHECK: arith.index_cast %[[D]] : index to i64
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: prim.check %{{.*}}, "node 'g' (Gather): gather index out of range: indices must be in [0, the extent of axis 1) for axis 1"
// CHECK: arith.subi %[[D]], %{{.*}} : index
// CHECK: arith.index_cast %{{.*}} : i32 to index
// CHECK: tensor.extract %[[X]]
func.func @gather_dynamic(%x: tensor<3x?xf32>, %i: tensor<5xi32>) -> tensor<3x5xf32> {
  %0 = prim.gather %x[%i] axis = 1 : (tensor<3x?xf32>, tensor<5xi32>) -> tensor<3x5xf32> loc("g")
  return %0 : tensor<3x5xf32>
}

// Constant indices known to be in range need no check; the read is still clamped.
// CHECK-LABEL: func.func @gather_constant
// CHECK-NOT: prim.check
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: tensor.extract
func.func @gather_constant(%x: tensor<6x4xf32>) -> tensor<2x4xf32> {
  %i = arith.constant dense<[0, 5]> : tensor<2xi64>
  %0 = prim.gather %x[%i] axis = 0 : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// scatter: a loop over the index rows carrying the result; a row in range runs a loop over
// its slice's elements (here 2 per row) that combines and inserts.
// CHECK-LABEL: func.func @scatter
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<3x2xf32>, %[[I:[a-z0-9]+]]: tensor<4x1xi64>, %[[U:[a-z0-9]+]]: tensor<4x2xf32>
// CHECK: %[[COPY:.*]] = linalg.copy ins(%[[X]] : tensor<3x2xf32>)
// CHECK: %[[R:.*]] = scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[COPY]])
// CHECK: %[[RAW:.*]] = tensor.extract %[[I]][%{{.*}}, %{{.*}}] : tensor<4x1xi64>
// CHECK: %[[T:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: arith.cmpi ult, %[[T]], %{{.*}} : index
// CHECK: scf.if
// CHECK: scf.for %{{.*}} iter_args(%[[INNER:.*]] = %[[ACC]])
// CHECK: %[[NEW:.*]] = tensor.extract %[[U]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[INNER]]
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[NEW]] : f32
// CHECK: tensor.insert %[[SUM]] into %[[INNER]]
// CHECK: else
// CHECK: scf.yield %[[ACC]]
// CHECK: return %[[R]]
func.func @scatter(%x: tensor<3x2xf32>, %i: tensor<4x1xi64>, %u: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %0 = prim.scatter %x[%i], %u combine = sum : (tensor<3x2xf32>, tensor<4x1xi64>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// Empty pieces read and write nothing: an empty slice at the end of a dim is an empty
// tensor, and an empty concatenate input adds no insert_slice.
// CHECK-LABEL: func.func @empty_pieces
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x8xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [2, 8] [1, 1]
// CHECK-NOT: tensor.insert_slice
// CHECK: return %[[R]]
func.func @empty_pieces(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = prim.slice %x [0, 8] [2, 0] strides [1, 1] : tensor<2x8xf32> -> tensor<2x0xf32>
  %1 = prim.concatenate %x, %0 dim = 1 : (tensor<2x8xf32>, tensor<2x0xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// compact: a loop over the dim that copies the kept slices to the front of a buffer of the
// operand's size and counts them; the result is the first `count` slices.
// CHECK-LABEL: func.func @compact
// CHECK: %[[FULL:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<i64>)
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[FULL]], %[[N:.*]] = %[[ZERO]])
// CHECK: %[[KEEP:.*]] = tensor.extract %{{.*}}[%[[I]]] : tensor<4xi1>
// CHECK: scf.if %[[KEEP]]
// CHECK: tensor.extract_slice %{{.*}}[%[[I]], 0] [1, 3] [1, 1]
// CHECK: tensor.insert_slice
// CHECK: %[[COUNT:.*]] = tensor.extract %[[LOOP]]#1[] : tensor<i64>
// CHECK: %[[CAST:.*]] = arith.index_cast %[[COUNT]] : i64 to index
// CHECK: %[[K:.*]] = arith.minui %[[CAST]], %{{.*}} : index
// CHECK: tensor.extract_slice %[[LOOP]]#0[0, 0] [%[[K]], 3] [1, 1] : tensor<4x3xf32> to tensor<?x3xf32>
func.func @compact(%x: tensor<4x3xf32>, %m: tensor<4xi1>) -> tensor<?x3xf32> {
  %0 = prim.compact %x, %m dim = 0 : (tensor<4x3xf32>, tensor<4xi1>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
