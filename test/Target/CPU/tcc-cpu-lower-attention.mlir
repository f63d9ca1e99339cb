// RUN: tcc-opt %s --split-input-file --tcc-cpu-lower-attention=vector-bits=256 | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-cpu-lower-attention="vector-bits=512 vector-registers=32" | FileCheck %s --check-prefix=WIDE
// kernel.attention on buffers: an scf.parallel over the batch dims and blocks of 8 query
// rows; per block an 8 x N buffer of scores (never M x N) on the stack (restored after each
// block), or over 8192 keys (a second copy of the computation) the keys in chunks of 8192
// with an online softmax (below: @chunked); never memref.alloc; the scores of
// transposed keys as vectors of 8 keys with one FMA per row and depth step, the softmax on
// vectors (maxnumf, exp, masked tails), the values as vectors of 8 columns, rows past the
// end not stored. With 32 vector registers, two vectors of columns a step: 16 sums.

// CHECK-LABEL: func.func @transposed_keys
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %{{.*}}, %c8
// CHECK: scf.parallel (%[[B:.*]], %[[T:.*]]) = (%c0{{.*}}, %c0{{.*}}) to (%{{.*}}, %[[BLOCKS]])
// CHECK: %[[STACK:.*]] = llvm.intr.stacksave
// CHECK: %[[CHUNKED:.*]] = arith.cmpi ugt, %{{.*}}, %c8192
// CHECK: scf.if %[[CHUNKED]] {
// CHECK: memref.alloca() : memref<8x8192xf32>
// CHECK: } else {
// CHECK: %[[S:.*]] = memref.alloca(%{{.*}}) : memref<8x?xf32>
// CHECK: scf.for %{{.*}} step %c8
// CHECK: vector.create_mask
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: vector.maskedload %{{.*}} : memref<?x32x?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK-COUNT-8: vector.fma
// CHECK: vector.maskedstore %[[S]]
// CHECK: arith.maxnumf {{.*}} : vector<8xf32>
// CHECK: vector.reduction <maxnumf>
// CHECK: math.exp {{.*}} : vector<8xf32>
// CHECK: vector.reduction <add>
// CHECK: arith.divf
// CHECK: vector.maskedload %{{.*}} : memref<?x?x16xf32>
// CHECK-COUNT-8: vector.fma
// CHECK: scf.if
// CHECK: vector.maskedstore %{{.*}} : memref<?x?x16xf32>
// CHECK: llvm.intr.stackrestore %[[STACK]]
// CHECK-NOT: kernel.attention
// WIDE-LABEL: func.func @transposed_keys
// WIDE: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// WIDE-COUNT-2: vector.maskedload %{{.*}} : memref<?x32x?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// WIDE-COUNT-16: vector.fma
func.func @transposed_keys(%q: memref<?x?x32xf32>, %k: memref<?x32x?xf32>, %v: memref<?x?x16xf32>, %o: memref<?x?x16xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<?x?x16xf32>) {key_transposed, scale = 0.5 : f32} : memref<?x?x32xf32>, memref<?x32x?xf32>, memref<?x?x16xf32>
  return
}

// -----

// Keys not transposed, of a static depth: the query rows' vectors loaded once, then per
// key its vector, a multiply-add per row and a sum across the lanes; a bias broadcast over
// the batch whose last dim is the keys' is loaded as vectors; NaN rows zeroed.
// CHECK-LABEL: func.func @bias_rows
// CHECK-COUNT-4: vector.maskedload %{{.*}} : memref<2x8x4xf32>
// CHECK: scf.for
// CHECK: vector.maskedload %{{.*}} : memref<2x?x4xf32>
// CHECK-COUNT-4: vector.fma
// CHECK: vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<8xf32> into f32
// CHECK: vector.maskedload %{{.*}} : memref<1x8x?xf32>
// CHECK: arith.cmpf uno
// CHECK: scf.if
func.func @bias_rows(%q: memref<2x8x4xf32>, %k: memref<2x?x4xf32>, %v: memref<2x?x4xf32>, %bias: memref<1x8x?xf32>, %o: memref<2x8x4xf32>) {
  kernel.attention %q, %k, %v bias(%bias : memref<1x8x?xf32>) outs(%o : memref<2x8x4xf32>) {bias_dims = array<i64: 0, 1, 2>, nan_to_zero, scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x?x4xf32>, memref<2x?x4xf32>
  return
}

// -----

// ONNX Attention's semantics: safe_softmax takes a row maximum of -inf as 0; with
// zero_masked_rows a second pass takes the NaN-propagating maximum of the row's bias, and a
// row whose bias is all -inf has its probabilities cleared and its factor 0.
// CHECK-LABEL: func.func @safe_masked
// CHECK: vector.reduction <maxnumf>
// CHECK: arith.cmpf oeq, %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.select
// CHECK: vector.reduction <add>
// CHECK: arith.maximumf
// CHECK: vector.reduction <maximumf>
// CHECK: arith.cmpf oeq
// CHECK: arith.ori
// CHECK: scf.if
func.func @safe_masked(%q: memref<2x8x4xf32>, %k: memref<2x?x4xf32>, %v: memref<2x?x4xf32>, %bias: memref<1x8x?xf32>, %o: memref<2x8x4xf32>) {
  kernel.attention %q, %k, %v bias(%bias : memref<1x8x?xf32>) outs(%o : memref<2x8x4xf32>) {bias_dims = array<i64: 0, 1, 2>, safe_softmax, zero_masked_rows, scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x?x4xf32>, memref<2x?x4xf32>
  return
}

// -----

// A softcap: the scaled scores capped, c · tanh(s / c), before they are stored.
// CHECK-LABEL: func.func @softcap
// CHECK: %[[OVER:.*]] = arith.divf %{{.*}}, %[[C:.*]] : f32
// CHECK: %[[T:.*]] = math.tanh %[[OVER]] : f32
// CHECK: %[[CAPPED:.*]] = arith.mulf %[[C]], %[[T]] : f32
// CHECK: memref.store %[[CAPPED]]
func.func @softcap(%q: memref<2x8x4xf32>, %k: memref<2x8x4xf32>, %v: memref<2x8x4xf32>, %o: memref<2x8x4xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 0.5 : f32, softcap = 5.0 : f32} : memref<2x8x4xf32>, memref<2x8x4xf32>, memref<2x8x4xf32>
  return
}

// -----

// Keys not transposed, of a dynamic depth: a sum over the depth per key (reassociable, for
// LLVM's vectorizer).
// CHECK-LABEL: func.func @dynamic_depth
// CHECK: arith.addf {{.*}} fastmath<reassoc> : f32
func.func @dynamic_depth(%q: memref<2x8x?xf32>, %k: memref<2x?x?xf32>, %v: memref<2x?x4xf32>, %o: memref<2x8x4xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {scale = 1.0 : f32} : memref<2x8x?xf32>, memref<2x?x?xf32>, memref<2x?x4xf32>
  return
}

// -----

// Grouped-query attention while decoding: 4 query heads read 2 key and value heads (head
// h reads h / 2), one query row. The loop runs over the key heads; the 2 query heads of one
// take turns as the rows (a 2 x N score buffer), sharing every key and value loaded.
// CHECK-LABEL: func.func @grouped_decode
// CHECK: scf.parallel (%{{.*}}, %[[KH:.*]], %{{.*}}) =
// CHECK: %[[TWICE:.*]] = arith.muli %[[KH]], %c2
// CHECK: %[[QH:.*]] = arith.addi %[[TWICE]], %{{.*}} : index
// CHECK: memref.alloca(%{{.*}}) : memref<2x?xf32>
// CHECK: vector.maskedload %{{.*}}[%{{.*}}, %[[QH]], %{{.*}}, %{{.*}}]{{.*}} : memref<?x4x1x32xf32>
// CHECK: vector.maskedload %{{.*}}[%{{.*}}, %[[KH]], %{{.*}}, %{{.*}}]{{.*}} : memref<?x2x?x32xf32>
// CHECK-COUNT-2: vector.fma
// CHECK: vector.reduction <add>
// CHECK: vector.maskedload %{{.*}}[%{{.*}}, %[[KH]], %{{.*}}, %{{.*}}]{{.*}} : memref<?x2x?x32xf32>
func.func @grouped_decode(%q: memref<?x4x1x32xf32>, %k: memref<?x2x?x32xf32>, %v: memref<?x2x?x32xf32>, %o: memref<?x4x1x32xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<?x4x1x32xf32>) {scale = 0.25 : f32} : memref<?x4x1x32xf32>, memref<?x2x?x32xf32>, memref<?x2x?x32xf32>
  return
}

// -----

// A cache read in place (keys(%n)): the scores buffer and the key loops cover n keys, not
// the cache's 64.
// CHECK-LABEL: func.func @cached_keys
// CHECK-SAME: %[[N:[a-z0-9]+]]: index
// CHECK: memref.alloca(%[[N]]) : memref<1x?xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %c1
func.func @cached_keys(%q: memref<1x2x1x8xf32>, %k: memref<1x2x64x8xf32>, %v: memref<1x2x64x8xf32>, %n: index, %o: memref<1x2x1x8xf32>) {
  kernel.attention %q, %k, %v keys(%n) outs(%o : memref<1x2x1x8xf32>) {scale = 1.0 : f32} : memref<1x2x1x8xf32>, memref<1x2x64x8xf32>, memref<1x2x64x8xf32>
  return
}

// -----

// A causal diagonal t = 2: each of the 8 rows reads min(N, i + 3) keys; the block's loops
// stop at the largest (the last row's), and each row's scores past its own limit are -inf.
// CHECK-LABEL: func.func @causal
// CHECK-COUNT-8: arith.minui %{{.*}}, %{{.*}} : index
// CHECK-COUNT-6: arith.maxui
// CHECK: %[[BLOCK:.*]] = arith.maxui
// CHECK: arith.cmpi ugt, %[[BLOCK]], %c8192
// CHECK: memref.alloca(%[[BLOCK]]) : memref<8x?xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[BLOCK]]
// CHECK: vector.create_mask
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NOT: memref<8x8xf32>
func.func @causal(%q: memref<2x8x4xf32>, %k: memref<2x4x?xf32>, %v: memref<2x?x4xf32>, %o: memref<2x8x4xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {causal = 2 : i64, key_transposed, scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x4x?xf32>, memref<2x?x4xf32>
  return
}

// -----

// Over 8192 keys (one decoding row): chunks of 8192 keys (their scores in one stack buffer,
// each key's index the chunk's start plus its offset), per row a running maximum m, sum l
// and factor α = exp(m - o) (0 while m is -inf) in a 4 x rows buffer, the products with the
// values accumulated in a rows x E buffer as acc · α + Σ p v; after the last chunk
// out = acc / l, rows past the last not stored. No heap.
// CHECK-LABEL: func.func @chunked
// CHECK-NOT: memref.alloc(
// CHECK: scf.if
// CHECK: %[[SCORES:.*]] = memref.alloca() : memref<1x8192xf32>
// CHECK: %[[STATE:.*]] = memref.alloca() : memref<4x1xf32>
// CHECK: %[[ACC:.*]] = memref.alloca(%{{.*}}) : memref<1x?xf32>
// CHECK: scf.for %[[CHUNK:.*]] = %{{.*}} to %[[N:.*]] step %c8192
// CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %[[CHUNK]]
// CHECK: %[[COUNT:.*]] = arith.minui %c8192{{.*}}, %[[LEFT]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[COUNT]]
// CHECK: %[[KEY:.*]] = arith.addi %[[CHUNK]], %[[J]]
// CHECK: vector.maskedload %{{.*}}[%{{.*}}, %{{.*}}, %[[KEY]], %{{.*}}]
// CHECK: vector.fma
// CHECK: memref.store %{{.*}}, %[[SCORES]]
// CHECK: %[[M:.*]] = memref.load %[[STATE]][%c0{{.*}}, %c0{{.*}}]
// CHECK: %[[MAX:.*]] = arith.maxnumf %[[M]], %{{.*}} : f32
// CHECK: %[[DEAD:.*]] = arith.cmpf oeq, %[[MAX]]
// CHECK: %[[OFFSET:.*]] = arith.select %[[DEAD]], %{{.*}}, %[[MAX]] : f32
// CHECK: %[[WAS:.*]] = arith.cmpf oeq, %[[M]]
// CHECK: %[[DIFF:.*]] = arith.subf %[[M]], %[[OFFSET]] : f32
// CHECK: %[[EXP:.*]] = math.exp %[[DIFF]] : f32
// CHECK: %[[ALPHA:.*]] = arith.select %[[WAS]], %{{.*}}, %[[EXP]] : f32
// CHECK: memref.store %[[ALPHA]], %[[STATE]][%c2
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: memref.load %[[SCORES]]
// CHECK: vector.fma
// CHECK: vector.maskedload %[[ACC]]
// CHECK: vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: vector.maskedstore %[[ACC]]
// CHECK: scf.if
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: vector.maskedload %[[ACC]]
// CHECK: vector.maskedstore %{{.*}} : memref<1x2x1x8xf32>
// CHECK: } else {
// CHECK: memref.alloca(%{{.*}}) : memref<1x?xf32>
// CHECK-NOT: memref.alloc(
func.func @chunked(%q: memref<1x2x1x16xf32>, %k: memref<1x2x?x16xf32>, %v: memref<1x2x?x8xf32>, %o: memref<1x2x1x8xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<1x2x1x8xf32>) {scale = 0.25 : f32} : memref<1x2x1x16xf32>, memref<1x2x?x16xf32>, memref<1x2x?x8xf32>
  return
}
