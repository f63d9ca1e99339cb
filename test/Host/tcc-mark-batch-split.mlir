// RUN: tcc-opt %s --split-input-file --tcc-mark-batch-split | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-mark-batch-split="min-weight-reuse=1" | FileCheck %s --check-prefix=REUSE1
// A module is marked `kernel.batch_split = @symbol` only when every input and output leads with
// the symbol and every op keeps the images apart; and only when each weight element is used
// at least min-weight-reuse (32) times per image.

// A matrix product per image over 128 rows: each weight (8 + 8 bias) is used 64 times per
// image.
// CHECK-LABEL: {{^}}module attributes {kernel.batch_split = @n}
// REUSE1-LABEL: {{^}}module attributes {kernel.batch_split = @n}
prim.symbol @n
func.func @main(%x: tensor<?x128x4xf32>) -> tensor<?x128x2xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 128, 4)> : tensor<?x128x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x128x4xf32>
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %w2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x128x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128x2xf32>) -> tensor<?x128x2xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (k, j)>,
                       affine_map<(b, i, j, k) -> (b, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x128x4xf32>, tensor<4x2xf32>) outs(%f : tensor<?x128x2xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x128x2xf32>
  // A bias broadcast over the images and rows.
  %z = linalg.generic {
      indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (0, j)>,
                       affine_map<(b, i, j) -> (b, i, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y, %w2 : tensor<?x128x2xf32>, tensor<4x2xf32>) outs(%e : tensor<?x128x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x128x2xf32>
  return %z : tensor<?x128x2xf32>
}

// -----

// An MLP layer: each weight is used once per image; image by image would read the weights
// once per image instead of once per batch.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module attributes {kernel.batch_split = @n}
prim.symbol @n
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x2xf32>) -> tensor<?x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x2xf32>) outs(%f : tensor<?x2xf32>) -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}

// -----

// A sum over the images mixes them.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(b, j) -> (b, j)>, affine_map<(b, j) -> (j)>],
      iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(b, j) -> (b, j)>, affine_map<(b, j) -> (j)>,
                       affine_map<(b, j) -> (b, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<?x4xf32>, tensor<4xf32>) outs(%e2 : tensor<?x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// -----

// A reshape that merges the batch with another dim ([n, 2, 3] -> [2n, 3]) into an output:
// the output does not lead with the batch.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
func.func @main(%x: tensor<?x2x3xf32>) -> tensor<?x3xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 2, 3)> : tensor<?x2x3xf32>
  %y = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x2x3xf32> into tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// -----

// The image index read as data (linalg.index of the batch loop) differs per image.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(b, j) -> (b, j)>, affine_map<(b, j) -> (b, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %r = arith.addf %a, %fi : f32
    linalg.yield %r : f32
  } -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// -----

// What shape formulas and gathers leave: a pooling window over 1 x 1 (n + 0), an extent
// `n - 1 >= 0 ? n : 0` (n for every n >= 0), a check that all indices of every image are in
// range, a gather through tensor.extract at the image's own index, a padded map (not on the
// batch dim), a reshape through a shape tensor that keeps the batch leading, a slice of the
// whole batch.
// CHECK-LABEL: {{^}}module attributes {kernel.batch_split = @n}
// REUSE1-LABEL: {{^}}module attributes {kernel.batch_split = @n}
prim.symbol @n
func.func @main(%x: tensor<?x2x4xf32>, %ids: tensor<?x3xi64>) -> (tensor<?x2x3xf32>, tensor<?x6xf32>) {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 2, 4)> : tensor<?x2x4xf32>
  prim.bind_shape %ids [@n] affine_map<()[s0] -> (s0, 3)> : tensor<?x3xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c4_i64 = arith.constant 4 : i64
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x2x4xf32>
  %m1 = arith.subi %n, %c1 : index
  %pos = arith.cmpi sge, %m1, %c0 : index
  %n2 = arith.select %pos, %n, %c0 : index
  // all(ids < 4)
  %e0 = tensor.empty() : tensor<i1>
  %t = linalg.fill ins(%true : i1) outs(%e0 : tensor<i1>) -> tensor<i1>
  %ok = linalg.generic {
      indexing_maps = [affine_map<(b, j) -> (b, j)>, affine_map<(b, j) -> ()>],
      iterator_types = ["reduction", "reduction"]}
      ins(%ids : tensor<?x3xi64>) outs(%t : tensor<i1>) {
  ^bb0(%i: i64, %acc: i1):
    %lt = arith.cmpi ult, %i, %c4_i64 : i64
    %and = arith.andi %acc, %lt : i1
    linalg.yield %and : i1
  } -> tensor<i1>
  %okv = tensor.extract %ok[] : tensor<i1>
  prim.check %okv, "index out of range"
  // g[b, r, j] = x[b, r, ids[b, j]]
  %e1 = tensor.empty(%n2) : tensor<?x2x3xf32>
  %g = linalg.generic {
      indexing_maps = [affine_map<(b, r, j) -> (b, j)>, affine_map<(b, r, j) -> (b, r, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<?x3xi64>) outs(%e1 : tensor<?x2x3xf32>) {
  ^bb0(%i: i64, %o: f32):
    %b = linalg.index 0 : index
    %r = linalg.index 1 : index
    %k = arith.index_cast %i : i64 to index
    %v = tensor.extract %x[%b, %r, %k] : tensor<?x2x4xf32>
    linalg.yield %v : f32
  } -> tensor<?x2x3xf32>
  // max over a 1 x 1 x 2 window (the batch dim's window is one wide)
  %window = tensor.empty() : tensor<1x1x2xf32>
  %e2 = tensor.empty(%n2) : tensor<?x2x3xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
  %p = linalg.generic {
      indexing_maps = [affine_map<(b, r, j, wb, wr, wj) -> (b + wb, r + wr, j + wj)>,
                       affine_map<(b, r, j, wb, wr, wj) -> (wb, wr, wj)>,
                       affine_map<(b, r, j, wb, wr, wj) -> (b, r, j)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %window : tensor<?x2x4xf32>, tensor<1x1x2xf32>) outs(%f2 : tensor<?x2x3xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %mx = arith.maximumf %acc, %a : f32
    linalg.yield %mx : f32
  } -> tensor<?x2x3xf32>
  %sum = linalg.generic {
      indexing_maps = [affine_map<(b, r, j) -> (b, r, j)>, affine_map<(b, r, j) -> (b, r, j)>,
                       affine_map<(b, r, j) -> (b, r, j)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g, %p : tensor<?x2x3xf32>, tensor<?x2x3xf32>) outs(%e2 : tensor<?x2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x2x3xf32>
  %padded = tensor.pad %sum low[0, 1, 0] high[0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index):
    tensor.yield %zero : f32
  } : tensor<?x2x3xf32> to tensor<?x3x3xf32>
  %slice = tensor.extract_slice %padded[0, 1, 0] [%n, 2, 3] [1, 1, 1] : tensor<?x3x3xf32> to tensor<?x2x3xf32>
  %shape = tensor.from_elements %n, %c6 : tensor<2xindex>
  %flat = tensor.reshape %slice(%shape) : (tensor<?x2x3xf32>, tensor<2xindex>) -> tensor<?x6xf32>
  return %sum, %flat : tensor<?x2x3xf32>, tensor<?x6xf32>
}

// -----

// The extent `n - 1 >= 1 ? n : 0` is 0 at n = 1: not the batch extent, so the proof stops.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %m1 = arith.subi %n, %c1 : index
  %pos = arith.cmpi sge, %m1, %c1 : index
  %n2 = arith.select %pos, %n, %c0 : index
  %e = tensor.empty(%n2) : tensor<?x4xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(b, j) -> (b, j)>, affine_map<(b, j) -> (b, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// -----

// Inputs bound to different leading symbols, or a batch symbol that must be a multiple of 8:
// no split.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
prim.symbol @m
func.func @main(%x: tensor<?x4xf32>, %z: tensor<?x4xf32>) -> tensor<?x4xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  prim.bind_shape %z [@m] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  return %x : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n {divisor = 8 : i64}
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  return %x : tensor<?x4xf32>
}

// -----

// The batch folded with the heads for attention ([n, 4, 3] -> [4 n, 3]: image b is rows
// [4 b, 4 b + 4)), computed on, and unfolded by an extent that a Reshape's 0 / -1 formula
// leaves: `n == 0 ? 4 n : n` is n for every n, `m == -1` never holds (its branch, a
// division, is opaque and never taken), and the element-count check holds for every n.
// CHECK-LABEL: {{^}}module attributes {kernel.batch_split = @n}
// REUSE1-LABEL: {{^}}module attributes {kernel.batch_split = @n}
prim.symbol @n
func.func @main(%x: tensor<?x4x3xf32>) -> tensor<?x4x3xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4, 3)> : tensor<?x4x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %cm1 = arith.constant -1 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x3xf32>
  %folded = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x4x3xf32> into tensor<?x3xf32>
  %rows = tensor.dim %folded, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%rows) : tensor<?x3xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(r, j) -> (r, j)>, affine_map<(r, j) -> (r, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%folded : tensor<?x3xf32>) outs(%e : tensor<?x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    linalg.yield %t : f32
  } -> tensor<?x3xf32>
  %four_n = arith.muli %n, %c4 : index
  %is0 = arith.cmpi eq, %n, %c0 : index
  %m = arith.select %is0, %four_n, %n : index
  %isneg = arith.cmpi eq, %m, %cm1 : index
  %total = arith.muli %n, %c12 : index
  %per = arith.maxsi %total, %c1 : index
  %inferred = arith.floordivsi %total, %per : index
  %out = arith.select %isneg, %inferred, %m : index
  %count = arith.muli %out, %c12 : index
  %same = arith.cmpi eq, %count, %total : index
  prim.check %same, "the reshape target must have as many elements as the input"
  %z = tensor.expand_shape %y [[0, 1], [2]] output_shape [%out, 4, 3] : tensor<?x3xf32> into tensor<?x4x3xf32>
  return %z : tensor<?x4x3xf32>
}

// -----

// Folded the other way round ([4, n, 3] -> [4 n, 3]: image b is not one block of rows).
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
func.func @main(%x: tensor<?x4x3xf32>) -> tensor<?x4x3xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4, 3)> : tensor<?x4x3xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x3xf32>
  %e = tensor.empty(%n) : tensor<4x?x3xf32>
  %t = linalg.transpose ins(%x : tensor<?x4x3xf32>) outs(%e : tensor<4x?x3xf32>) permutation = [1, 0, 2]
  %folded = tensor.collapse_shape %t [[0, 1], [2]] : tensor<4x?x3xf32> into tensor<?x3xf32>
  %z = tensor.expand_shape %folded [[0, 1], [2]] output_shape [%n, 4, 3] : tensor<?x3xf32> into tensor<?x4x3xf32>
  return %z : tensor<?x4x3xf32>
}

// -----

// A check that holds for some batch extents only (n >= 2) might fail for one image.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %big = arith.cmpi sge, %n, %c2 : index
  prim.check %big, "the batch is at least 2"
  return %x : tensor<?x4xf32>
}

// -----

// A slice written as a gather whose image index is clamped to the range it is in
// (max(min(b, n - 1), 0) = b): the image reads its own slice.
// CHECK-LABEL: {{^}}module attributes {kernel.batch_split = @n}
// REUSE1-LABEL: {{^}}module attributes {kernel.batch_split = @n}
prim.symbol @n
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %last = arith.subi %n, %c1 : index
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, j) -> (b, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x2xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %lo = arith.minsi %b, %last : index
    %in = arith.maxsi %lo, %c0 : index
    %k = arith.addi %j, %c2 : index
    %v = tensor.extract %x[%in, %k] : tensor<?x4xf32>
    linalg.yield %v : f32
  } -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}

// -----

// Clamped below the last image (min(b, n - 2)): the last image would read another's row.
// CHECK-LABEL: {{^}}module {{[{]$}}
// REUSE1-LABEL: {{^}}module {{[{]$}}
prim.symbol @n
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %last = arith.subi %n, %c2 : index
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, j) -> (b, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x2xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %j = linalg.index 1 : index
    %lo = arith.minsi %b, %last : index
    %v = tensor.extract %x[%lo, %j] : tensor<?x4xf32>
    linalg.yield %v : f32
  } -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
