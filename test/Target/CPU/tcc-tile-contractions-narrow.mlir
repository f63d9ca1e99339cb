// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32" --canonicalize --cse | FileCheck %s
// With 512-bit vectors, rows of at most 8 columns (a 7x7 map's output row) take 256-bit
// vectors: 7 of 8 lanes in use instead of 7 of 16. Longer rows keep 512-bit vectors. The
// register count stays the target's (32), so the tile may hold more than 16 vectors.

// CHECK-LABEL: func.func private @seven_wide
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector<16xf32>
// CHECK: vector.maskedstore {{.*}} vector<8xf32>
#x = affine_map<(o, y, x, c) -> (c, y, x)>
#w = affine_map<(o, y, x, c) -> (o, c)>
#out = affine_map<(o, y, x, c) -> (o, y, x)>
func.func private @seven_wide(%in: memref<64x7x7xf32>, %filter: memref<128x64xf32>, %result: memref<128x7x7xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<64x7x7xf32>, memref<128x64xf32>) outs(%result : memref<128x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// CHECK-LABEL: func.func private @fourteen_wide
// CHECK: vector.fma {{.*}} : vector<16xf32>
func.func private @fourteen_wide(%in: memref<64x14x14xf32>, %filter: memref<128x64xf32>, %result: memref<128x14x14xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<64x14x14xf32>, memref<128x64xf32>) outs(%result : memref<128x14x14xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// A 14x14 map as one run of 196 columns: three full blocks of 4 x 16 lanes, and the 4
// columns left take one 256-bit vector (a core that splits 512-bit FMAs in two does half
// the work for them), not a 512-bit one with 4 of 16 lanes in use.
// CHECK-LABEL: func.func private @tail_of_four
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: vector.maskedload {{.*}} vector<8xf32>
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK: vector.maskedstore {{.*}} vector<8xf32>
// CHECK-NOT: vector.maskedstore {{.*}} vector<16xf32>
#xr = affine_map<(o, p, c) -> (c, p)>
#wr = affine_map<(o, p, c) -> (o, c)>
#outr = affine_map<(o, p, c) -> (o, p)>
func.func private @tail_of_four(%in: memref<64x196xf32>, %filter: memref<128x64xf32>, %result: memref<128x196xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#xr, #wr, #outr], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<64x196xf32>, memref<128x64xf32>) outs(%result : memref<128x196xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// Rows that fit one vector (7 columns; 512 output channels) and no other parallel dim the
// input reads: tiles of 16 rows. With one vector per row, 8 rows would give 8 FMA chains,
// just the latency of two pipes at 4 cycles, and 16 leave slack for a late broadcast. 16
// accumulators, 16 broadcasts of the filter and one load of the input per reduction point.
// CHECK-LABEL: func.func private @sixteen_rows
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c32)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-16: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
func.func private @sixteen_rows(%in: memref<64x7xf32>, %filter: memref<512x64xf32>, %result: memref<512x7xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#xr, #wr, #outr], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<64x7xf32>, memref<512x64xf32>) outs(%result : memref<512x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// Rows that fit one vector with output rows y the input reads and the filter does not (a
// 7x7 map): a tile's vectors are 4 output rows (y, y + 1, ...), 6 output channels x 4 rows
// = 24 accumulators, each filter broadcast feeding 4 FMAs. Threads split channel tiles x
// row tiles; the last row tile has the 3 rows left (7 = 4 + 3).
// CHECK-LABEL: func.func private @stacked_rows
// CHECK: scf.parallel (%[[T:.*]], %[[S:.*]]) = (%c0, %c0) to (%c2, %c2)
// CHECK: %[[Y:.*]] = arith.muli %[[S]], %c4
// CHECK: %[[YEND:.*]] = arith.addi %[[Y]], %c4
// CHECK: %[[FULL:.*]] = arith.cmpi ule, %[[YEND]], %c7
// CHECK: scf.if %[[FULL]] {
// CHECK: %[[O:.*]] = arith.muli %[[T]], %c6
// CHECK: %[[MASK:.*]] = vector.constant_mask [7] : vector<8xi1>
// CHECK: scf.for %[[C:.*]] = %c0 to %c64 step %c1 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: %[[R0:.*]] = vector.maskedload %arg0[%[[C]], %[[Y]], %c0], %[[MASK]]
// CHECK: %[[Y1:.*]] = arith.addi %[[Y]], %c1
// CHECK: %[[R1:.*]] = vector.maskedload %arg0[%[[C]], %[[Y1]], %c0], %[[MASK]]
// CHECK: %[[R2:.*]] = vector.maskedload %arg0[%[[C]], %{{.*}}, %c0], %[[MASK]]
// CHECK: %[[R3:.*]] = vector.maskedload %arg0[%[[C]], %{{.*}}, %c0], %[[MASK]]
// CHECK: %[[F:.*]] = memref.load %arg1[%[[O]], %[[C]]]
// CHECK: %[[FB:.*]] = vector.broadcast %[[F]] : f32 to vector<8xf32>
// CHECK: vector.fma %[[FB]], %[[R0]]
// CHECK: vector.fma %[[FB]], %[[R1]]
// CHECK: vector.fma %[[FB]], %[[R2]]
// CHECK: vector.fma %[[FB]], %[[R3]]
// The output's values (no fill) are added after the sums.
// CHECK: vector.maskedload %arg2[%[[O]], %[[Y]], %c0], %[[MASK]]
// CHECK: vector.maskedload %arg2[%[[O]], %{{.*}}, %c0], %[[MASK]]
// CHECK: vector.maskedstore %arg2[%[[O]], %[[Y]], %c0], %[[MASK]]
// CHECK: } else {
// CHECK: scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
func.func private @stacked_rows(%in: memref<64x7x7xf32>, %filter: memref<12x64xf32>, %result: memref<12x7x7xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<64x7x7xf32>, memref<12x64xf32>) outs(%result : memref<12x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// A convolution vectorized along its output channels (tcc-channel-vector-convolutions): 49
// points as rows, the filter packed as [8 blocks, 2304, 16], stacked 4 blocks per tile.
// A stacked tile's share of the filter (4 x 16 x 2304 floats, 576 KiB) is more than L2's
// share, and every row tile reads it alike: the 2 stack tiles (threads split those alone)
// each run the reduction in 3 chunks of 768 with all 9 row tiles (8 of 6 points, one of 1)
// in each chunk, the accumulators going through the output between chunks. (Images, an
// outer dim, would loop inside the chunk too: conv-channel-vectors.test.)
// CHECK-LABEL: func.func private @stacked_chunks
// CHECK: scf.parallel (%[[S:.*]]) = (%c0) to (%c2) step (%c1) {
// CHECK: %[[BLOCK:.*]] = arith.muli %[[S]], %c4 : index
// CHECK: scf.for %[[CHUNK:.*]] = %c0 to %c3 step %c1 {
// CHECK: %[[BEGIN:.*]] = arith.muli %[[CHUNK]], %c768 : index
// CHECK: %[[END:.*]] = arith.addi %[[BEGIN]], %c768 : index
// CHECK: scf.for %[[TILE:.*]] = %c0 to %c9 step %c1 {
// CHECK: %[[ROW:.*]] = arith.muli %[[TILE]], %c6 : index
// CHECK: vector.load %arg2[%[[ROW]], %[[BLOCK]], %c0] : memref<49x8x16xf32>, vector<16xf32>
// CHECK: scf.for %[[K:.*]] = %[[BEGIN]] to %[[END]] step %c1 iter_args(
// CHECK: vector.load %arg1[%[[BLOCK]], %[[K]], %c0] : memref<8x2304x16xf32>, vector<16xf32>
// CHECK: %[[X:.*]] = memref.load %arg0[%[[K]], %[[ROW]]] : memref<2304x49xf32>
// CHECK: %[[XV:.*]] = vector.broadcast %[[X]] : f32 to vector<16xf32>
// CHECK: vector.fma %[[XV]]
#u = affine_map<(p, b, l, k) -> (k, p)>
#wp = affine_map<(p, b, l, k) -> (b, k, l)>
#o = affine_map<(p, b, l, k) -> (p, b, l)>
func.func private @stacked_chunks(%in: memref<2304x49xf32>, %filter: memref<8x2304x16xf32>, %result: memref<49x8x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#u, #wp, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%in, %filter : memref<2304x49xf32>, memref<8x2304x16xf32>) outs(%result : memref<49x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A convolution computed channels last (tcc-channel-vector-convolutions' chains): a 3x3
// window on a 14x14 map, 256 channels in and out as 16 blocks of 16, loops (n, y, x, block,
// lane, ky, kx, input block, input lane). The input is broadcast along its contiguous input
// lanes and a block's filter rows (2304 x 16 floats, 144 KiB) exceed L1, so every row tile
// streams its stack tile's filter rows from L2: the tile is the one of fewest row tiles,
// 8 x 2 (rows of 8 and 6 points), not 6 x 4 (6, 6 and 2, the last L2-bound). A stack
// tile's share of the filter (2 x 16 x 2304 floats, 288 KiB) is more than L2's share, and
// the outermost reduction dim, ky, has 3 steps: chunks count all of a chunk's reduction
// steps (768 for one ky row, 96 KiB), so the 8 stack tiles each run 3 chunks of one ky
// row with every output row and row tile in each.
// CHECK-LABEL: func.func private @channels_last_chunks
// CHECK: scf.parallel (%[[S:.*]]) = (%c0) to (%c8) step (%c1) {
// CHECK: %[[BLOCK:.*]] = arith.muli %[[S]], %c2 : index
// CHECK: scf.for %[[KY:.*]] = %c0 to %c3 step %c1 {
// CHECK: scf.for %{{.*}} = %c0 to %c14 step %c1 {
// CHECK: scf.for %[[T:.*]] = %c0 to %c2 step %c1 {
// CHECK: arith.muli %[[T]], %c8 : index
// CHECK: scf.for %[[K:.*]] = %[[KY]] to %{{.*}} step %c1 iter_args(
// CHECK: vector.load %arg1[%[[BLOCK]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %c0] : memref<16x3x3x16x16x16xf32>, vector<16xf32>
#cl_in = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y + ky, x + kx, cb, cl)>
#cl_w = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (b, ky, kx, cb, cl, l)>
#cl_out = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y, x, b, l)>
func.func private @channels_last_chunks(%in: memref<1x16x16x16x16xf32>, %filter: memref<16x3x3x16x16x16xf32>, %result: memref<1x14x14x16x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#cl_in, #cl_w, #cl_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%in, %filter : memref<1x16x16x16x16xf32>, memref<16x3x3x16x16x16xf32>) outs(%result : memref<1x14x14x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A pointwise product channels last, 128 input channels: a block's filter rows (128 x 16
// floats, 8 KiB) and those of 4 blocks (32 KiB) fit a core's L1 share, so no tile streams
// them from L2 and the tile is the one of most accumulators, 6 x 4 (rows of 6, 6 and 2).
// CHECK-LABEL: func.func private @channels_last_l1
// CHECK: scf.parallel
// CHECK-SAME: to (%c14, %c3, %c4)
// CHECK: arith.muli %{{.*}}, %c4 : index
// CHECK: arith.muli %{{.*}}, %c6 : index
#l1_in = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y + ky, x + kx, cb, cl)>
#l1_w = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (b, ky, kx, cb, cl, l)>
#l1_out = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y, x, b, l)>
func.func private @channels_last_l1(%in: memref<1x14x14x8x16xf32>, %filter: memref<16x1x1x8x16x16xf32>, %result: memref<1x14x14x16x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#l1_in, #l1_w, #l1_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%in, %filter : memref<1x14x14x8x16xf32>, memref<16x1x1x8x16x16xf32>) outs(%result : memref<1x14x14x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A 7x7 map channels last (ResNet's layer 4), 512 input and output channels: a row tile of
// 7 points x 2 blocks covers a whole output row, so i has a single row tile, but the 7
// output rows y (and the images) read the same stack tile's filter rows (2 blocks x 4608
// floats x 16, 576 KiB): they are readers as well, and the reduction runs in chunks of one
// ky row (192 KiB) with every y in each (the one row tile's loop folds away), 16 stack
// tiles split by threads. Without counting y, each (y, stack tile) streamed its 576 KiB.
// CHECK-LABEL: func.func private @channels_last_7_wide
// CHECK: scf.parallel (%[[S:.*]]) = (%c0) to (%c16) step (%c1) {
// CHECK: %[[BLOCK:.*]] = arith.muli %[[S]], %c2 : index
// CHECK: scf.for %[[KY:.*]] = %c0 to %c3 step %c1 {
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1 {
// CHECK-NOT: scf.for
// CHECK: scf.for %[[K:.*]] = %[[KY]] to %{{.*}} step %c1 iter_args(
// CHECK: vector.load %arg1[%[[BLOCK]], %[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %c0] : memref<32x3x3x32x16x16xf32>, vector<16xf32>
#w7_in = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y + ky, x + kx, cb, cl)>
#w7_w = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (b, ky, kx, cb, cl, l)>
#w7_out = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y, x, b, l)>
func.func private @channels_last_7_wide(%in: memref<1x9x9x32x16xf32>, %filter: memref<32x3x3x32x16x16xf32>, %result: memref<1x7x7x32x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#w7_in, #w7_w, #w7_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%in, %filter : memref<1x9x9x32x16xf32>, memref<32x3x3x32x16x16xf32>) outs(%result : memref<1x7x7x32x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A pointwise product on a 7x7 map, 2048 input channels into 512 (ResNet-50's layer 4): a
// stack tile's filter rows (2 blocks x 2048 x 16 floats, 256 KiB) fit L2, all 16 of them
// (4 MiB) do not. One chunk of the whole reduction: threads split the stack tiles and
// every output row y reads its stack tile's rows from L2, instead of threads splitting
// the rows and each row streaming the whole filter.
// CHECK-LABEL: func.func private @channels_last_one_chunk
// CHECK: scf.parallel (%[[S:.*]]) = (%c0) to (%c16) step (%c1) {
// CHECK: %[[BLOCK:.*]] = arith.muli %[[S]], %c2 : index
// CHECK: scf.for %{{.*}} = %c0 to %c7 step %c1 {
// CHECK: vector.load %arg1[%[[BLOCK]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c0] : memref<32x1x1x128x16x16xf32>, vector<16xf32>
#p7_in = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y + ky, x + kx, cb, cl)>
#p7_w = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (b, ky, kx, cb, cl, l)>
#p7_out = affine_map<(n, y, x, b, l, ky, kx, cb, cl) -> (n, y, x, b, l)>
func.func private @channels_last_one_chunk(%in: memref<1x7x7x128x16xf32>, %filter: memref<32x1x1x128x16x16xf32>, %result: memref<1x7x7x32x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#p7_in, #p7_w, #p7_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%in, %filter : memref<1x7x7x128x16xf32>, memref<32x1x1x128x16x16xf32>) outs(%result : memref<1x7x7x32x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
