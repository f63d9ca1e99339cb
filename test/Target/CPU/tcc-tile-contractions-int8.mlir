// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32" --canonicalize --cse | FileCheck %s
// Contractions of int8 quads (tcc-quad-int8-contractions, CPUs with AVX512-VNNI): the same
// register tiles over int32 accumulators, each reduction point one vpdpbusd per accumulator
// (llvm.x86.avx512.vpdpbusd.512: uint8 quads in its first source, int8 in its second): the
// vector operand's 16 quads for 16 columns in one 64-byte load, the scalar operand's quad
// broadcast as one 32-bit word to every lane. Column tails mask four bytes per column.

// A convolution over quads of input channels: the activation (uint8) is the vector operand,
// 56-wide rows of four vectors (the last masked to 8 columns: 32 bytes); the filter's quad
// (int8) is broadcast.
// CHECK-LABEL: func.func private @conv
// CHECK: scf.for
// CHECK: %[[V0:.+]] = vector.load %arg0[{{.*}}, %c0] : memref<?x8x58x58x4xi8>, vector<64xi8>
// CHECK: %[[MASK:.+]] = vector.constant_mask [32] : vector<64xi1>
// CHECK: %[[V3:.+]] = vector.maskedload %arg0[{{.*}}, %c0], %[[MASK]], %{{.*}} : memref<?x8x58x58x4xi8>, vector<64xi1>, vector<64xi8> into vector<64xi8>
// CHECK: %[[QUAD:.+]] = vector.load %arg1[{{.*}}, %c0] : memref<16x8x3x3x4xi8>, vector<4xi8>
// CHECK: %[[WORD:.+]] = vector.bitcast %[[QUAD]] : vector<4xi8> to vector<1xi32>
// CHECK: %[[WORDS:.+]] = vector.broadcast %[[WORD]] : vector<1xi32> to vector<16xi32>
// CHECK: %[[QUADS:.+]] = vector.bitcast %[[WORDS]] : vector<16xi32> to vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[V0]], %[[QUADS]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[V3]], %[[QUADS]])
// CHECK-NOT: arith.muli
#x = affine_map<(n, o, y, x, c, ky, kx, q) -> (n, c, y + ky, x + kx, q)>
#w = affine_map<(n, o, y, x, c, ky, kx, q) -> (o, c, ky, kx, q)>
#out = affine_map<(n, o, y, x, c, ky, kx, q) -> (n, o, y, x)>
func.func private @conv(%in: memref<?x8x58x58x4xi8>, %filter: memref<16x8x3x3x4xi8>, %result: memref<?x16x56x56xi32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%in, %filter : memref<?x8x58x58x4xi8>, memref<16x8x3x3x4xi8>) outs(%result : memref<?x16x56x56xi32>) {
  ^bb0(%a: i8, %b: i8, %acc: i32):
    %0 = arith.extui %a : i8 to i32
    %1 = arith.extsi %b : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// A matrix product ([m, k', q] x [k', n, q]): the weights (int8) are the vector operand, the
// activation's quad (uint8) is broadcast and goes first.
// CHECK-LABEL: func.func private @matmul
// CHECK: %[[B0:.+]] = vector.load %arg1[%{{.*}}, %c0, %c0] : memref<32x40x4xi8>, vector<64xi8>
// CHECK: %[[A:.+]] = vector.load %arg0[%{{.*}}, %{{.*}}, %c0] : memref<?x32x4xi8>, vector<4xi8>
// CHECK: %[[AW:.+]] = vector.bitcast %[[A]] : vector<4xi8> to vector<1xi32>
// CHECK: %[[AB:.+]] = vector.broadcast %[[AW]] : vector<1xi32> to vector<16xi32>
// CHECK: %[[AQ:.+]] = vector.bitcast %[[AB]] : vector<16xi32> to vector<64xi8>
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%{{.*}}, %[[AQ]], %[[B0]])
#a = affine_map<(m, n, k, q) -> (m, k, q)>
#b = affine_map<(m, n, k, q) -> (k, n, q)>
#c = affine_map<(m, n, k, q) -> (m, n)>
func.func private @matmul(%a: memref<?x32x4xi8>, %b: memref<32x40x4xi8>, %c: memref<?x40xi32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<?x32x4xi8>, memref<32x40x4xi8>) outs(%c : memref<?x40xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %0 = arith.extui %x : i8 to i32
    %1 = arith.extsi %y : i8 to i32
    %2 = arith.muli %0, %1 : i32
    %3 = arith.addi %acc, %2 : i32
    linalg.yield %3 : i32
  }
  return
}

// A quantized max pooling on blocks of 16 channels of bytes (3x3, stride 2, [n, y, x, cb,
// 16]): the window plan takes integer max and min as well as float ones, here unsigned
// (arith.maxui, vpmaxub), on vectors along the block's 16 lanes (half-width vectors: the
// 16 lanes fill at most half of 512 bits' 64); the fill's 0 starts the accumulators.
// CHECK-LABEL: func.func private @max_pool_bytes
// CHECK-NOT: linalg.
// CHECK: vector.maskedload %arg1{{.*}} : memref<1x9x9x1x16xi8>, vector<32xi1>, vector<32xi8> into vector<32xi8>
// CHECK: arith.maxui %{{.*}}, %{{.*}} : vector<32xi8>
// CHECK: vector.maskedstore %arg2
#bin = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y * 2 + ky, x * 2 + kx, cb, l)>
#bwin = affine_map<(n, y, x, cb, l, ky, kx) -> (ky, kx)>
#bout = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y, x, cb, l)>
func.func private @max_pool_bytes(%window: memref<3x3xi8>, %x: memref<1x9x9x1x16xi8>, %y: memref<1x4x4x1x16xi8>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zero = arith.constant 0 : i8
  linalg.fill ins(%zero : i8) outs(%y : memref<1x4x4x1x16xi8>)
  linalg.generic {indexing_maps = [#bin, #bwin, #bout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : memref<1x9x9x1x16xi8>, memref<3x3xi8>) outs(%y : memref<1x4x4x1x16xi8>) {
  ^bb0(%in: i8, %w: i8, %acc: i8):
    %0 = arith.maxui %acc, %in : i8
    linalg.yield %0 : i8
  }
  return
}

// A signed min pooling of int8 rows (NCHW, stride 1, 2x2): 64 lanes along x.
// CHECK-LABEL: func.func private @min_pool_signed
// CHECK-NOT: linalg.
// CHECK: arith.minsi %{{.*}}, %{{.*}} : vector<64xi8>
func.func private @min_pool_signed(%window: memref<2x2xi8>, %x: memref<1x2x5x65xi8>, %y: memref<1x2x4x64xi8>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %big = arith.constant 127 : i8
  linalg.fill ins(%big : i8) outs(%y : memref<1x2x4x64xi8>)
  linalg.generic {indexing_maps = [affine_map<(n, c, y, x, ky, kx) -> (n, c, y + ky, x + kx)>, affine_map<(n, c, y, x, ky, kx) -> (ky, kx)>, affine_map<(n, c, y, x, ky, kx) -> (n, c, y, x)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %window : memref<1x2x5x65xi8>, memref<2x2xi8>) outs(%y : memref<1x2x4x64xi8>) {
  ^bb0(%in: i8, %w: i8, %acc: i8):
    %0 = arith.minsi %acc, %in : i8
    linalg.yield %0 : i8
  }
  return
}
