// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32" --canonicalize --cse | FileCheck %s
// RUN: tcc-opt %s --tcc-tile-contractions="vector-bits=512 vector-registers=32" --canonicalize --convert-vector-to-llvm="enable-x86vector" | FileCheck %s --check-prefix=LLVM
// Contractions of bf16 pairs (tcc-pair-bf16-contractions, --precision=bf16): the same register
// tiles, each reduction point one vdpbf16ps per accumulator (x86vector.avx512.dot): the
// vector operand's 16 pairs for 16 columns in one 32 x bf16 load, the scalar operand's pair
// broadcast as one 32-bit word to every lane. Column tails mask two bf16 per column; a
// strided read loads the pairs it spans and picks every stride-th 32-bit word.

// A convolution over pairs of input channels: 56-wide rows of four vectors (the last
// masked to 8 columns: 16 bf16).
// CHECK-LABEL: func.func private @conv
// CHECK: scf.for
// CHECK: %[[V0:.+]] = vector.load %arg0[{{.*}}, %c0] : memref<?x8x58x58x2xbf16>, vector<32xbf16>
// CHECK: %[[MASK:.+]] = vector.constant_mask [16] : vector<32xi1>
// CHECK: %[[V3:.+]] = vector.maskedload %arg0[{{.*}}, %c0], %[[MASK]], %{{.*}} : memref<?x8x58x58x2xbf16>, vector<32xi1>, vector<32xbf16> into vector<32xbf16>
// CHECK: %[[PAIR:.+]] = vector.load %arg1[{{.*}}, %c0] : memref<16x8x3x3x2xbf16>, vector<2xbf16>
// CHECK: %[[WORD:.+]] = vector.bitcast %[[PAIR]] : vector<2xbf16> to vector<1xi32>
// CHECK: %[[WORDS:.+]] = vector.broadcast %[[WORD]] : vector<1xi32> to vector<16xi32>
// CHECK: %[[PAIRS:.+]] = vector.bitcast %[[WORDS]] : vector<16xi32> to vector<32xbf16>
// CHECK: x86vector.avx512.dot %{{.*}}, %[[PAIRS]], %[[V0]] : vector<32xbf16> -> vector<16xf32>
// CHECK: x86vector.avx512.dot %{{.*}}, %[[PAIRS]], %[[V3]] : vector<32xbf16> -> vector<16xf32>
// CHECK-NOT: vector.fma
// LLVM-LABEL: func.func private @conv
// LLVM: llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"({{.*}}) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
#x = affine_map<(n, o, y, x, c, ky, kx, p) -> (n, c, y + ky, x + kx, p)>
#w = affine_map<(n, o, y, x, c, ky, kx, p) -> (o, c, ky, kx, p)>
#out = affine_map<(n, o, y, x, c, ky, kx, p) -> (n, o, y, x)>
func.func private @conv(%in: memref<?x8x58x58x2xbf16>, %filter: memref<16x8x3x3x2xbf16>, %result: memref<?x16x56x56xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#x, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%in, %filter : memref<?x8x58x58x2xbf16>, memref<16x8x3x3x2xbf16>) outs(%result : memref<?x16x56x56xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.extf %b : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// A matrix product of packed pairs ([m, k', p] x [k', n, p]).
// CHECK-LABEL: func.func private @matmul
// CHECK: vector.load %arg1[%{{.*}}, %c0, %c0] : memref<32x40x2xbf16>, vector<32xbf16>
// CHECK: x86vector.avx512.dot
#a = affine_map<(m, n, k, p) -> (m, k, p)>
#b = affine_map<(m, n, k, p) -> (k, n, p)>
#c = affine_map<(m, n, k, p) -> (m, n)>
func.func private @matmul(%a: memref<?x32x2xbf16>, %b: memref<32x40x2xbf16>, %c: memref<?x40xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<?x32x2xbf16>, memref<32x40x2xbf16>) outs(%c : memref<?x40xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// Windows with stride 2: 62 bf16 (31 pairs) for 16 columns, every other word picked; the
// 12-column tail 46 bf16.
// CHECK-LABEL: func.func private @strided
// CHECK: %[[FULL:.+]] = vector.constant_mask [62] : vector<64xi1>
// CHECK: %[[WIDE:.+]] = vector.maskedload %arg0[{{.*}}], %[[FULL]], %{{.*}} : memref<4x57x57x2xbf16>, vector<64xi1>, vector<64xbf16> into vector<64xbf16>
// CHECK: %[[W32:.+]] = vector.bitcast %[[WIDE]] : vector<64xbf16> to vector<32xi32>
// CHECK: %[[PICK:.+]] = vector.shuffle %[[W32]], %[[W32]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30]
// CHECK: %[[USED:.+]] = vector.bitcast %[[PICK]] : vector<16xi32> to vector<32xbf16>
// CHECK: vector.constant_mask [46] : vector<64xi1>
// CHECK: x86vector.avx512.dot %{{.*}}, %{{.*}}, %[[USED]]
#sx = affine_map<(o, y, x, c, ky, kx, p) -> (c, 2 * y + ky, 2 * x + kx, p)>
#sw = affine_map<(o, y, x, c, ky, kx, p) -> (o, c, ky, kx, p)>
#sout = affine_map<(o, y, x, c, ky, kx, p) -> (o, y, x)>
func.func private @strided(%in: memref<4x57x57x2xbf16>, %filter: memref<8x4x3x3x2xbf16>, %result: memref<8x28x28xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#sx, #sw, #sout], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
      ins(%in, %filter : memref<4x57x57x2xbf16>, memref<8x4x3x3x2xbf16>) outs(%result : memref<8x28x28xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.extf %b : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}
