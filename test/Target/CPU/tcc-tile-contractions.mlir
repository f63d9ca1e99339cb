// RUN: tcc-opt %s --tcc-tile-contractions --canonicalize --cse | FileCheck %s
// Float contractions in kernels become register tiles of vector FMAs under a parallel
// loop over row tiles; the rest stays linalg.

// 12 rows x 16 columns, AVX2 vectors of 8: 6 rows x 2 vectors per tile, two tiles. No
// fill: the sums start from zero and the values in the output are added after them.
// CHECK-LABEL: func.func private @matmul
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c2) step (%c1)
// CHECK-NOT: vector.load %arg2
// CHECK: scf.for %[[K:.*]] = %c0 to %c64 step %c1 iter_args(%{{.*}} = %cst,
// CHECK: vector.load %arg1[%[[K]], %c0]
// CHECK: vector.load %arg1[%[[K]], %c8]
// CHECK: memref.load %arg0
// CHECK: vector.broadcast
// CHECK-COUNT-2: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-12: vector.load %arg2
// CHECK-COUNT-12: vector.store
// CHECK-NOT: linalg.matmul
func.func private @matmul(%a: memref<12x64xf32>, %b: memref<64x16xf32>, %c: memref<12x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.matmul ins(%a, %b : memref<12x64xf32>, memref<64x16xf32>) outs(%c : memref<12x16xf32>)
  return
}

// Dynamic rows and columns: full tiles, a switch over the rows left, and masked vectors
// for the columns left; the tile count is arithmetic on the rows (tcc-range-kernels
// passes it from the caller).
// CHECK-LABEL: func.func private @matmul_dynamic
// CHECK: %[[M:.*]] = memref.dim %arg0, %c0
// CHECK: %[[UP:.*]] = arith.addi %[[M]]
// CHECK: %[[TILES:.*]] = arith.divui %[[UP]]
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%[[TILES]]) step (%c1)
// CHECK: scf.if
// CHECK: vector.fma
// CHECK: vector.create_mask
// CHECK: vector.maskedload %arg1
// CHECK: vector.maskedstore %arg2
// CHECK: } else {
// CHECK: scf.index_switch
// CHECK: case 1 {
// CHECK-NOT: linalg.matmul
func.func private @matmul_dynamic(%a: memref<?x32xf32>, %b: memref<32x?xf32>, %c: memref<?x?xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.matmul ins(%a, %b : memref<?x32xf32>, memref<32x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// A strided convolution: output channels are the rows, output columns the vectors, read
// from the input row as 2 x 8 elements of which every other one is used.
// CHECK-LABEL: func.func private @conv_stride2
// CHECK: scf.parallel
// CHECK: vector.maskedload %arg0{{.*}} into vector<16xf32>
// CHECK: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK: vector.fma
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func private @conv_stride2(%x: memref<?x4x17x17xf32>, %w: memref<8x4x3x3xf32>, %y: memref<?x8x8x8xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<?x4x17x17xf32>, memref<8x4x3x3xf32>) outs(%y : memref<?x8x8x8xf32>)
  return
}

// Integer contractions, a reduction that is not a contraction, and functions that are not
// kernels stay as they are.
// CHECK-LABEL: func.func private @integer
// CHECK: linalg.matmul
func.func private @integer(%a: memref<4x8xi32>, %b: memref<8x16xi32>, %c: memref<4x16xi32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.matmul ins(%a, %b : memref<4x8xi32>, memref<8x16xi32>) outs(%c : memref<4x16xi32>)
  return
}
// CHECK-LABEL: func.func @not_a_kernel
// CHECK: linalg.matmul
func.func @not_a_kernel(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// Kernel formation's group (`epilogue = true`): the fill's value starts the accumulators (no
// store of zeros, no load of them) and bias + ReLU run on the registers before the one
// store; neither the fill nor the epilogue remains.
// CHECK-LABEL: func.func private @with_epilogue
// CHECK-NOT: linalg.
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-NOT: vector.load %arg0
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]
// CHECK: vector.fma
// CHECK: %[[B:.*]] = memref.load %arg3
// CHECK: %[[BV:.*]] = vector.broadcast %[[B]] : f32 to vector<8xf32>
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[BV]] : vector<8xf32>
// CHECK: %[[R:.*]] = arith.maximumf %[[S]], %[[ZERO]] : vector<8xf32>
// CHECK: vector.store %[[R]], %arg0
// CHECK-NOT: linalg.
#ea = affine_map<(i, j, k) -> (i, k)>
#eb = affine_map<(i, j, k) -> (k, j)>
#ec = affine_map<(i, j, k) -> (i, j)>
#eid = affine_map<(i, j) -> (i, j)>
#erow = affine_map<(i, j) -> (i)>
func.func private @with_epilogue(%out: memref<6x16xf32>, %a: memref<6x32xf32>, %b: memref<32x16xf32>, %bias: memref<6xf32>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<6x16xf32>)
  linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6x32xf32>, memref<32x16xf32>) outs(%out : memref<6x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#eid, #erow, #eid], iterator_types = ["parallel", "parallel"]}
      ins(%out, %bias : memref<6x16xf32>, memref<6xf32>) outs(%out : memref<6x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %o: f32):
    %0 = arith.addf %in, %in_0 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}

// A table of tcc-cpu-lookup-tables in the epilogue (the accumulators requantized to a byte,
// then a function of the byte read from a constant table): one gather of 8 entries a vector,
// at the bytes' i32 lanes; the index_cast to index is not emitted.
// CHECK-LABEL: func.func private @table_epilogue
// CHECK: %[[TABLE:.*]] = memref.get_global @table_epilogue_table_0 : memref<256xf32>
// CHECK: vector.fma
// CHECK: %[[BYTES:.*]] = arith.fptoui %{{.*}} : vector<8xf32> to vector<8xi8>
// CHECK: %[[LANES:.*]] = arith.extui %[[BYTES]] : vector<8xi8> to vector<8xi32>
// CHECK-NOT: arith.index_cast
// CHECK: %[[Y:.*]] = vector.gather %[[TABLE]][%{{.*}}] [%[[LANES]]], %{{.*}}, %{{.*}} : memref<256xf32>, vector<8xi32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: vector.store %[[Y]], %arg0
memref.global "private" constant @table_epilogue_table_0 : memref<256xf32> = dense<1.0>
func.func private @table_epilogue(%out: memref<6x16xf32>, %a: memref<6x32xf32>, %b: memref<32x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %table = memref.get_global @table_epilogue_table_0 : memref<256xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<6x16xf32>)
  linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6x32xf32>, memref<32x16xf32>) outs(%out : memref<6x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#eid, #eid], iterator_types = ["parallel", "parallel"]}
      ins(%out : memref<6x16xf32>) outs(%out : memref<6x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.fptoui %in : f32 to i8
    %1 = arith.extui %0 : i8 to i32
    %2 = arith.index_cast %1 : i32 to index
    %3 = memref.load %table[%2] : memref<256xf32>
    linalg.yield %3 : f32
  }
  return
}

// An i1 epilogue operand along the vector dim (attention's causal mask): in memory each
// element is a byte, but a vector load of i1 reads packed bits. The bytes are loaded from the
// buffer's address (masked: 6 columns of 8 lanes, nothing past the end is touched) and
// compared with 0.
// CHECK-LABEL: func.func private @bool_epilogue
// CHECK-NOT: vector.load {{.*}} : memref<6x6xi1>
// CHECK-NOT: vector.maskedload {{.*}} : memref<6x6xi1>
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg3 : memref<6x6xi1>
// CHECK: %[[PTR:.*]] = llvm.inttoptr
// CHECK: %[[BYTES:.*]] = llvm.intr.masked.load %[[PTR]], %[[MASK:.*]], %{{.*}} {alignment = 1 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi8>) -> vector<8xi8>
// CHECK: %[[KEEP:.*]] = arith.cmpi ne, %[[BYTES]], %{{.*}} : vector<8xi8>
// CHECK: arith.select %[[KEEP]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: vector.maskedstore %arg0[%c0, %c0], %[[MASK]]
func.func private @bool_epilogue(%out: memref<6x6xf32>, %a: memref<6x8xf32>, %b: memref<8x6xf32>, %keep: memref<6x6xi1>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<6x6xf32>)
  linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6x8xf32>, memref<8x6xf32>) outs(%out : memref<6x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#eid, #eid, #eid], iterator_types = ["parallel", "parallel"]}
      ins(%out, %keep : memref<6x6xf32>, memref<6x6xi1>) outs(%out : memref<6x6xf32>) {
  ^bb0(%in: f32, %k: i1, %o: f32):
    %0 = arith.select %k, %in, %ninf : f32
    linalg.yield %0 : f32
  }
  return
}

// A large vector operand (256 x 768 floats, 768 KiB): threads split column panels (192
// columns: whole 24-column register blocks, four panels), and each panel is used by every
// row tile in turn, so it is read from memory once.
// CHECK-LABEL: func.func private @panels
// CHECK: scf.parallel (%[[P:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: %[[FIRST:.*]] = arith.muli %[[P]], %c192
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %[[J:.*]] = %c0 to %c192 step %c24
// CHECK: arith.addi %[[FIRST]], %[[J]]
#pa = affine_map<(i, j, k) -> (i, k)>
#pb = affine_map<(i, j, k) -> (k, j)>
#pc = affine_map<(i, j, k) -> (i, j)>
func.func private @panels(%a: memref<12x256xf32>, %b: memref<256x768xf32>, %c: memref<12x768xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x256xf32>, memref<256x768xf32>) outs(%c : memref<12x768xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// A max-pooling window (3x3, stride 2, one input read, a window-shape operand unused):
// accumulators start from the fill's -inf in registers and take the max of strided vector
// loads (16 elements, every second kept); the fill is gone. The max is `acc > x ? acc : x`
// (one vmaxps, which yields x when either is NaN) with a NaN accumulator kept, so NaN
// propagates from any window point.
// CHECK-LABEL: func.func private @max_pool
// CHECK-NOT: linalg.
// CHECK: %[[NEG:.*]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK: vector.maskedload %arg1{{.*}} : memref<1x4x9x9xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: %[[X:.*]] = vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14]
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[ACC:.*]], %[[X]] : vector<8xf32>
// CHECK: %[[PICK:.*]] = arith.select %[[GT]], %[[ACC]], %[[X]]
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[ACC]], %[[ACC]] : vector<8xf32>
// CHECK: arith.select %[[NAN]], %[[ACC]], %[[PICK]]
// CHECK-NOT: arith.maximumf
// CHECK: vector.maskedstore %arg2
#pin = affine_map<(n, c, y, x, ky, kx) -> (n, c, y * 2 + ky, x * 2 + kx)>
#pwin = affine_map<(n, c, y, x, ky, kx) -> (ky, kx)>
#pout = affine_map<(n, c, y, x, ky, kx) -> (n, c, y, x)>
func.func private @max_pool(%window: memref<3x3xf32>, %x: memref<1x4x9x9xf32>, %y: memref<1x4x4x4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %neg = arith.constant 0xFF800000 : f32
  linalg.fill ins(%neg : f32) outs(%y : memref<1x4x4x4xf32>)
  linalg.generic {indexing_maps = [#pin, #pwin, #pout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : memref<1x4x9x9xf32>, memref<3x3xf32>) outs(%y : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %w: f32, %acc: f32):
    %0 = arith.maximumf %acc, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// A classifier's matrix-vector product (1 x 512 . 512 x 1000, 2 MB of weights): one row,
// so threads can only split columns. No panel width of whole register blocks divides 1000:
// four panels of 256 columns, the last one 232 wide (min(256, 1000 - first)).
// CHECK-LABEL: func.func private @partial_panels
// CHECK: scf.parallel (%[[P:.*]]) = (%c0) to (%c4) step (%c1)
// CHECK: %[[FIRST:.*]] = arith.muli %[[P]], %c256
// CHECK: %[[LEFT:.*]] = arith.subi %c1000, %[[FIRST]]
// CHECK: arith.minsi %[[LEFT]], %c256
func.func private @partial_panels(%a: memref<1x512xf32>, %b: memref<512x1000xf32>, %c: memref<1x1000xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1x512xf32>, memref<512x1000xf32>) outs(%c : memref<1x1000xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}


// A panel larger than a core's L2 share (1024 x 256 floats, 1 MiB) read by two row tiles:
// the reduction goes in chunks of 256 (256 KiB of the panel each), every row tile in one
// chunk before the next. Between chunks the accumulators go through %out: the fill's zero
// starts the first chunk, the others load what the last one stored; the epilogue (bias +
// ReLU) runs after the last chunk only.
// CHECK-LABEL: func.func private @reduction_chunks
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: scf.parallel (%[[P:.*]]) = (%c0) to (%c2) step (%c1)
// CHECK: scf.for %[[C:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[BEGIN:.*]] = arith.muli %[[C]], %c256
// CHECK: %[[END:.*]] = arith.addi %[[BEGIN]], %c256
// CHECK: %[[FIRSTC:.*]] = arith.cmpi eq, %[[C]], %c0
// CHECK: %[[LASTC:.*]] = arith.cmpi eq, %[[C]], %c3
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK: %[[OLD:.*]] = vector.load %arg0
// CHECK: arith.select %[[FIRSTC]], %[[ZERO]], %[[OLD]] : vector<8xf32>
// CHECK: scf.for %[[K:.*]] = %[[BEGIN]] to %[[END]] step %c1 iter_args
// CHECK: vector.load %arg2[%[[K]],
// CHECK: vector.fma
// CHECK: scf.if %[[LASTC]] {
// CHECK: vector.load %arg3
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: vector.store {{.*}}, %arg0
// CHECK: } else {
// CHECK-NOT: arith.addf
// CHECK: vector.store {{.*}}, %arg0
// CHECK-NOT: linalg.
#ca = affine_map<(i, j, k) -> (i, k)>
#cb = affine_map<(i, j, k) -> (k, j)>
#cc = affine_map<(i, j, k) -> (i, j)>
#cid = affine_map<(i, j) -> (i, j)>
#ccol = affine_map<(i, j) -> (j)>
func.func private @reduction_chunks(%out: memref<12x512xf32>, %a: memref<12x1024xf32>, %b: memref<1024x512xf32>, %bias: memref<512xf32>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<12x512xf32>)
  linalg.generic {indexing_maps = [#ca, #cb, #cc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x1024xf32>, memref<1024x512xf32>) outs(%out : memref<12x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#cid, #ccol, #cid], iterator_types = ["parallel", "parallel"]}
      ins(%out, %bias : memref<12x512xf32>, memref<512xf32>) outs(%out : memref<12x512xf32>) {
  ^bb0(%in: f32, %c: f32, %o: f32):
    %0 = arith.addf %in, %c : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}

// One row tile (the classifier's single row): the panel is read once anyway, so there are
// no chunks, whatever the panel's size.
// CHECK-LABEL: func.func private @one_row_tile
// CHECK: scf.parallel
// CHECK-NOT: arith.select
// CHECK: scf.for %{{.*}} = %c0 to %c1024 step %c1 iter_args
func.func private @one_row_tile(%a: memref<1x1024xf32>, %b: memref<1024x512xf32>, %c: memref<1x512xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#ca, #cb, #cc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<1x1024xf32>, memref<1024x512xf32>) outs(%c : memref<1x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// Panels with many row tiles (200 rows: 50 tiles of 4; four panels of 192 columns): threads
// get work items of one panel and one group of row tiles, panel-major (4 panels x 4 groups
// of 13 tiles, the last 11), so that any thread count shares them evenly.
// CHECK-LABEL: func.func private @row_groups
// CHECK: scf.parallel (%[[W:.*]]) = (%c0) to (%c16) step (%c1)
// CHECK: %[[G:.*]] = arith.remui %[[W]], %c4
// CHECK: %[[P:.*]] = arith.divui %[[W]], %c4
// CHECK: arith.muli %[[P]], %c192
// CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %c13
// CHECK: %[[NEXT:.*]] = arith.addi %[[FIRST]], %c13
// CHECK: %[[END:.*]] = arith.minui %[[NEXT]], %c50
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[END]] step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c24
func.func private @row_groups(%a: memref<200x256xf32>, %b: memref<256x768xf32>, %c: memref<200x768xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#pa, #pb, #pc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<200x256xf32>, memref<256x768xf32>) outs(%c : memref<200x768xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
