// RUN: tcc-opt %s --split-input-file --tcc-tile-contractions="vector-bits=512 vector-registers=32" --canonicalize --cse | FileCheck %s
// A depthwise convolution has no row dim the filter reads and the input does not, so the
// rows are the output rows, read by the input (the vector operand): per filter tap, one
// broadcast of the tap and one vector load per output row, into 7 accumulators (one per
// output row of the 7x7 map) instead of one dependent FMA chain per row.

// CHECK-LABEL: func.func private @depthwise
// CHECK: scf.parallel (%[[C:[^)]*]]) =
// CHECK-NOT: vector.maskedload %arg2
// CHECK: scf.for %[[KH:[^ ]*]] =
// CHECK: scf.for %[[KW:[^ ]*]] =
// CHECK-COUNT-7: vector.maskedload %arg0
// CHECK: %[[TAP:.*]] = memref.load %arg1[%[[C]], %[[KH]], %[[KW]]]
// CHECK: %[[B:.*]] = vector.broadcast %[[TAP]] : f32 to vector<8xf32>
// CHECK-COUNT-7: vector.fma %[[B]]
// CHECK-NOT: memref.load %arg1
// CHECK: scf.yield
// The output's values (no fill) are added after the sums.
// CHECK-COUNT-7: vector.maskedload %arg2
// CHECK: vector.maskedstore %arg2
#x = affine_map<(c, h, w, kh, kw) -> (c, h + kh, w + kw)>
#f = affine_map<(c, h, w, kh, kw) -> (c, kh, kw)>
#o = affine_map<(c, h, w, kh, kw) -> (c, h, w)>
func.func private @depthwise(%in: memref<8x11x11xf32>, %filter: memref<8x5x5xf32>, %result: memref<8x7x7xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x, #f, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %filter : memref<8x11x11xf32>, memref<8x5x5xf32>) outs(%result : memref<8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// With stride 2 the input's vectors are gathered (two loads and a shuffle each): those stay
// one set per tile, so the rows stay 1.
// CHECK-LABEL: func.func private @depthwise_stride2
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK: memref.load %arg1
// CHECK: vector.fma
// CHECK-NOT: vector.fma
// CHECK: scf.yield
#x2 = affine_map<(c, h, w, kh, kw) -> (c, 2 * h + kh, 2 * w + kw)>
#f2 = affine_map<(c, h, w, kh, kw) -> (c, kh, kw)>
#o2 = affine_map<(c, h, w, kh, kw) -> (c, h, w)>
func.func private @depthwise_stride2(%in: memref<8x17x17xf32>, %filter: memref<8x5x5xf32>, %result: memref<8x7x7xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x2, #f2, #o2], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %filter : memref<8x17x17xf32>, memref<8x5x5xf32>) outs(%result : memref<8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A depthwise convolution on channel blocks ([n, y, x, cb, l], tcc-channel-vector-
// convolutions' chains): both operands read the lanes l, the input also the output's x.
// The input is the vector operand, one load per output point (the rows, along x); the
// filter's taps w[cb, ky, kx, :] are loaded as one vector per window point, shared by the
// rows, and each update multiplies the two vectors.
// CHECK-LABEL: func.func private @depthwise_blocks
// CHECK: scf.for %[[KH:[^ ]*]] =
// CHECK: scf.for %[[KW:[^ ]*]] =
// CHECK-COUNT-7: vector.load %arg0
// CHECK: %[[TAP:.*]] = vector.load %arg1[%{{.*}}, %[[KH]], %[[KW]], %{{.*}}] : memref<2x3x3x16xf32>, vector<16xf32>
// CHECK-COUNT-7: vector.fma %{{.*}}, %[[TAP]]
// CHECK-NOT: vector.broadcast
// CHECK: scf.yield
#bx = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y + ky, x + kx, cb, l)>
#bf = affine_map<(n, y, x, cb, l, ky, kx) -> (cb, ky, kx, l)>
#bo = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y, x, cb, l)>
func.func private @depthwise_blocks(%in: memref<1x9x9x2x16xf32>, %filter: memref<2x3x3x16xf32>, %result: memref<1x7x7x2x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%result : memref<1x7x7x2x16xf32>)
  linalg.generic {indexing_maps = [#bx, #bf, #bo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %filter : memref<1x9x9x2x16xf32>, memref<2x3x3x16xf32>) outs(%result : memref<1x7x7x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The same on a quantized activation's byte blocks (tcc-fuse-elementwise's byte-operands:
// the body converts the input): each row's vector is 16 bytes, zero-extended and converted
// to float as it is loaded; the filter's taps stay float vectors.
// CHECK-LABEL: func.func private @depthwise_byte_blocks
// CHECK: scf.for %[[KH:[^ ]*]] =
// CHECK: scf.for %[[KW:[^ ]*]] =
// CHECK: %[[Q:.*]] = vector.load %arg0{{.*}} : memref<1x9x9x2x16xi8>, vector<16xi8>
// CHECK-NEXT: %[[WIDE:.*]] = arith.extui %[[Q]] : vector<16xi8> to vector<16xi32>
// CHECK-NEXT: %[[X:.*]] = arith.sitofp %[[WIDE]] : vector<16xi32> to vector<16xf32>
// CHECK-COUNT-6: vector.load %arg0{{.*}} : memref<1x9x9x2x16xi8>, vector<16xi8>
// CHECK: %[[TAP:.*]] = vector.load %arg1[%{{.*}}, %[[KH]], %[[KW]], %{{.*}}] : memref<2x3x3x16xf32>, vector<16xf32>
// CHECK: vector.fma %[[X]], %[[TAP]]
// CHECK-COUNT-6: vector.fma %{{.*}}, %[[TAP]]
// CHECK: scf.yield
#bx = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y + ky, x + kx, cb, l)>
#bf = affine_map<(n, y, x, cb, l, ky, kx) -> (cb, ky, kx, l)>
#bo = affine_map<(n, y, x, cb, l, ky, kx) -> (n, y, x, cb, l)>
func.func private @depthwise_byte_blocks(%in: memref<1x9x9x2x16xi8>, %filter: memref<2x3x3x16xf32>, %result: memref<1x7x7x2x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%result : memref<1x7x7x2x16xf32>)
  linalg.generic {indexing_maps = [#bx, #bf, #bo], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %filter : memref<1x9x9x2x16xi8>, memref<2x3x3x16xf32>) outs(%result : memref<1x7x7x2x16xf32>) {
  ^bb0(%a: i8, %b: f32, %acc: f32):
    %x = arith.uitofp %a : i8 to f32
    %0 = arith.mulf %x, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A matrix product whose broadcast operand is int8 converted in the body (sitofp of its
// extsi): each broadcast element is loaded as a byte, sign-extended and converted once.
// CHECK-LABEL: func.func private @broadcast_signed_bytes
// CHECK: %[[A:.*]] = memref.load %arg0[{{.*}}] : memref<4x32xi8>
// CHECK: %[[WIDE:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK: %[[X:.*]] = arith.sitofp %[[WIDE]] : i32 to f32
// CHECK: %[[B:.*]] = vector.broadcast %[[X]] : f32 to vector<16xf32>
// CHECK: vector.fma %[[B]]
#ma = affine_map<(i, j, k) -> (i, k)>
#mb = affine_map<(i, j, k) -> (k, j)>
#mc = affine_map<(i, j, k) -> (i, j)>
func.func private @broadcast_signed_bytes(%a: memref<4x32xi8>, %b: memref<32x64xf32>, %c: memref<4x64xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x64xf32>)
  linalg.generic {indexing_maps = [#ma, #mb, #mc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x32xi8>, memref<32x64xf32>) outs(%c : memref<4x64xf32>) {
  ^bb0(%x: i8, %y: f32, %acc: f32):
    %w = arith.extsi %x : i8 to i32
    %f = arith.sitofp %w : i32 to f32
    %0 = arith.mulf %f, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
