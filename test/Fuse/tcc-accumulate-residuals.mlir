// RUN: tcc-opt %s --split-input-file --tcc-accumulate-residuals | FileCheck %s
// A contraction from a zero fill whose epilogue adds a residual r at the output's own point
// starts from r instead: c' = r + sum_k a b, y = f(c' + bias). Bufferization then
// accumulates in r's buffer.

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// CHECK-LABEL: func.func @residual
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x16xf32>, %[[X:.*]]: tensor<4x16xf32>, %[[BIAS:.*]]: tensor<16xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x16xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[R]] : tensor<4x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[BIAS]] : tensor<4x16xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[IN_B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[ADD:.*]] = arith.addf %[[IN]], %[[IN_B]] : f32
// CHECK-NEXT: arith.maximumf %[[ADD]], %{{.*}} : f32
func.func @residual(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %x: tensor<4x16xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  // r: a linalg op's result (the previous block's output)
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sum = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum, %bias, %r : tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %c: f32, %res: f32, %o: f32):
    %t = arith.addf %s, %c : f32
    %u = arith.addf %t, %res : f32
    %m = arith.maximumf %u, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// The downsample's raw product is the residual, with a bias of its own:
// (c + b) + (r + b') -> (c' + b) + b'. The contraction moves after r's producer.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// CHECK-LABEL: func.func @downsample
// CHECK: %[[SHORTCUT:.*]] = linalg.generic {{.*}} ins(%arg2, %arg1
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[SHORTCUT]] : tensor<4x16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %arg3, %arg3 : tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[B1:.*]]: f32, %[[B2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[IN]], %[[B1]] : f32
// CHECK-NEXT: %[[U:.*]] = arith.addf %[[T]], %[[B2]] : f32
// CHECK-NEXT: arith.maximumf %[[U]]
func.func @downsample(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %x: tensor<4x8xf32>, %bias: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sum = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %shortcut = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum, %bias, %shortcut, %bias : tensor<4x16xf32>, tensor<16xf32>, tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %c: f32, %res: f32, %c2: f32, %o: f32):
    %t = arith.addf %s, %c : f32
    %t2 = arith.addf %res, %c2 : f32
    %u = arith.addf %t, %t2 : f32
    %m = arith.maximumf %u, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// Not taken: r is an input of the function (its buffer is the caller's), r is read after
// the epilogue, r is padded (kernel formation writes its producer into the padded buffer),
// the fill is not zero, c is read twice, r is broadcast.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// CHECK-LABEL: func.func @not_taken
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32)
// CHECK: %[[ONE:.*]] = linalg.fill ins(%{{.*}} : f32)
// CHECK: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ZERO]] :
// CHECK: ins(%{{.*}}, %arg2 : tensor<4x16xf32>, tensor<4x16xf32>)
// CHECK: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ZERO]] :
// CHECK: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ZERO]] :
// CHECK: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ONE]] :
// CHECK: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ZERO]] :
// CHECK: ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[ZERO]] :
// CHECK: return
func.func @not_taken(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %x: tensor<4x16xf32>, %v: tensor<16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<6x18xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %fill1 = linalg.fill ins(%one : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.maximumf %p, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  // An input of the function.
  %s1 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s1, %x : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %res: f32, %o: f32):
    %u = arith.addf %s, %res : f32
    linalg.yield %u : f32
  } -> tensor<4x16xf32>
  // Read after the epilogue (by the next one).
  %s2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s2, %r : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %res: f32, %o: f32):
    %u = arith.addf %s, %res : f32
    linalg.yield %u : f32
  } -> tensor<4x16xf32>
  %after = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  // Padded.
  %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.maximumf %p, %one : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %padded = tensor.pad %r3 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x16xf32> to tensor<6x18xf32>
  %s3 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s3, %r3 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %res: f32, %o: f32):
    %u = arith.addf %s, %res : f32
    linalg.yield %u : f32
  } -> tensor<4x16xf32>
  // A fill of one.
  %r4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.minimumf %p, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %s4 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill1 : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s4, %r4 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %res: f32, %o: f32):
    %u = arith.addf %s, %res : f32
    linalg.yield %u : f32
  } -> tensor<4x16xf32>
  // c read twice: (c + r) * c.
  %r5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.negf %p : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %s5 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y5 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s5, %r5 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %res: f32, %o: f32):
    %u = arith.addf %s, %res : f32
    %w = arith.mulf %u, %s : f32
    linalg.yield %w : f32
  } -> tensor<4x16xf32>
  // r broadcast along the rows.
  %s6 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%fill : tensor<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y6 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s6, %v : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%s: f32, %res: f32, %o: f32):
    %u = arith.addf %s, %res : f32
    linalg.yield %u : f32
  } -> tensor<4x16xf32>
  return %y1, %y2, %after, %padded, %y4, %y5, %y6 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<6x18xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}
