// RUN: tcc-opt %s --tcc-simplify-extents | FileCheck %s
// Index arithmetic on extents folds where the symbols' ranges decide it.

prim.symbol @batch
prim.symbol @past {max = 2048 : i64}
prim.symbol @n {min = 0 : i64}

// Reshape's -1 and 0 as the dynamo exporter's Shape/Concat/Reshape decompose: the shape
// tensor's element is the extent again, `== -1` and `== 0` are false (past >= 1, so
// past + 1 >= 2), and the product over the other dims divided by them is what is left.
// CHECK-LABEL: func.func @reshape_extents
// CHECK-SAME: (%[[X:.*]]: tensor<?x2x?x32xf32>)
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[B:.*]] = prim.dim %[[X]], 0
// CHECK-DAG: %[[P:.*]] = prim.dim %[[X]], 2
// CHECK: %[[S:.*]] = arith.addi %[[P]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.index_cast %[[S]] : index to i64
// CHECK: %[[E:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK: %[[B2:.*]] = arith.muli %[[B]], %[[C2]] : index
// CHECK: return %[[E]], %[[E]], %[[B2]], %false, %true
func.func @reshape_extents(%x: tensor<?x2x?x32xf32>) -> (index, index, index, i1, i1) {
  prim.bind_shape %x [@batch, @past] affine_map<()[s0, s1] -> (s0, 2, s1, 32)> : tensor<?x2x?x32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c-1 = arith.constant -1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %b = prim.dim %x, 0 : tensor<?x2x?x32xf32>
  %p = prim.dim %x, 2 : tensor<?x2x?x32xf32>
  %s = arith.addi %p, %c1 : index
  %i = arith.index_cast %s : index to i64
  %elements = tensor.from_elements %i : tensor<i64>
  %shape = prim.reshape %elements : (tensor<i64>) -> tensor<1xi64>
  %e = tensor.extract %shape[%c0] : tensor<1xi64>
  %extent = arith.index_cast %e : i64 to index
  // 0 copies the input's dim, -1 is inferred: neither can happen here.
  %zero = arith.cmpi eq, %extent, %c0 : index
  %copied = arith.select %zero, %c32, %extent : index
  %minus = arith.cmpi eq, %copied, %c-1 : index
  %inferred = arith.select %minus, %c1, %copied : index
  // [b, 2, s, 32] -> [-1, s, 32]: b · 2 · s · 32 / max(s · 32, 1).
  %all = arith.muli %b, %c64 : index
  %all2 = arith.muli %all, %s : index
  %rest = arith.muli %s, %c32 : index
  %guard = arith.maxsi %rest, %c1 : index
  %first = arith.floordivsi %all2, %guard : index
  // An upper bound decides too: past + 1 <= 2049 < 4096.
  %c4096 = arith.constant 4096 : index
  %big = arith.cmpi sge, %s, %c4096 : index
  %ok = arith.cmpi sge, %b, %c1 : index
  return %inferred, %copied, %first, %big, %ok : index, index, index, i1, i1
}

// Near misses stay: a symbol that may be 0, a divisor that is not a factor, an unbound dim.
// CHECK-LABEL: func.func @undecided
// CHECK: arith.cmpi eq
// CHECK: arith.floordivsi
// CHECK: arith.cmpi sgt
func.func @undecided(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (i1, index, i1) {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0)> : tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = prim.dim %x, 0 : tensor<?xf32>
  %m = prim.dim %y, 0 : tensor<?xf32>
  %empty = arith.cmpi eq, %n, %c0 : index
  %n3 = arith.muli %n, %c3 : index
  %m1 = arith.maxsi %m, %c3 : index
  %q = arith.floordivsi %n3, %m1 : index
  %more = arith.cmpi sgt, %m, %c3 : index
  return %empty, %q, %more : i1, index, i1
}
