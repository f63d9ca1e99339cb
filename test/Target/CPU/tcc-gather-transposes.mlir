// RUN: tcc-opt %s --split-input-file --tcc-gather-transposes="vector-bits=512" | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-gather-transposes="vector-bits=256" | FileCheck %s --check-prefix=AVX2

// Channel blocks back to NCHW ([n, y, x, cb, 16] -> [n, cb, 16, y, x], a chain's last
// copy): a block of 16 lanes is one side of 16 x 16 tiles. A parallel loop over (n, cb, y),
// then the output row (x) and the lanes in steps of 16 (13 and 16: one step each, the row's
// masked); per tile 16 masked vector loads of in[n, y, x, cb, l0..], one per x (rows past 13
// masked off at a clamped index), four rounds of 16 interleaving shuffles (the first pairs
// loads 0 and 8, lanes 0-7 of each), and 16 masked stores to out[n, cb, l, y, x0..], one per
// lane. No gather.
// CHECK-LABEL: func.func @blocks
// CHECK-DAG: %[[ROW:.*]] = memref.dim %arg1, %c4
// CHECK-DAG: %[[LANES:.*]] = memref.dim %arg1, %c2
// CHECK: scf.parallel (%[[N:.*]], %[[CB:.*]], %[[Y:.*]]) =
// CHECK: scf.for %[[X0:.*]] = %c0 to %[[ROW]] step %c16
// CHECK: scf.for %[[L0:.*]] = %c0 to %[[LANES]] step %c16
// CHECK: %[[V0:.*]] = vector.maskedload %arg0[%[[N]], %[[Y]], %{{.*}}, %[[CB]], %[[L0]]], %{{.*}}, %{{.*}} : memref<?x13x13x32x16xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-COUNT-7: vector.maskedload %arg0
// CHECK: %[[V8:.*]] = vector.maskedload %arg0
// CHECK-COUNT-7: vector.maskedload %arg0
// CHECK: vector.shuffle %[[V0]], %[[V8]] [0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23] : vector<16xf32>, vector<16xf32>
// CHECK: vector.shuffle %[[V0]], %[[V8]] [8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31] : vector<16xf32>, vector<16xf32>
// CHECK-COUNT-62: vector.shuffle
// CHECK: vector.maskedstore %arg1[%[[N]], %[[CB]], %{{.*}}, %[[Y]], %[[X0]]], %{{.*}}, %{{.*}} : memref<?x32x16x13x13xf32>, vector<16xi1>, vector<16xf32>
// CHECK-COUNT-15: vector.maskedstore %arg1
// CHECK-NOT: vector.gather
// CHECK-NOT: linalg.transpose
// AVX2-LABEL: func.func @blocks
// AVX2: linalg.transpose
func.func @blocks(%in: memref<?x13x13x32x16xf32>, %out: memref<?x32x16x13x13xf32>) {
  linalg.transpose ins(%in : memref<?x13x13x32x16xf32>) outs(%out : memref<?x32x16x13x13xf32>) permutation = [0, 3, 4, 1, 2]
  return
}

// -----

// A quantized chain's byte blocks back to NCHW: the same tiles of vector<16xi8>.
// CHECK-LABEL: func.func @byte_blocks
// CHECK: scf.parallel
// CHECK-COUNT-16: vector.maskedload %arg0[{{.*}}], {{.*}} : memref<?x56x56x6x16xi8>, vector<16xi1>, vector<16xi8> into vector<16xi8>
// CHECK-COUNT-64: vector.shuffle {{.*}} : vector<16xi8>, vector<16xi8>
// CHECK-COUNT-16: vector.maskedstore %arg1[{{.*}}], {{.*}} : memref<?x6x16x56x56xi8>, vector<16xi1>, vector<16xi8>
// CHECK-NOT: vector.gather
// CHECK-NOT: linalg.transpose
func.func @byte_blocks(%in: memref<?x56x56x6x16xi8>, %out: memref<?x6x16x56x56xi8>) {
  linalg.transpose ins(%in : memref<?x56x56x6x16xi8>) outs(%out : memref<?x6x16x56x56xi8>) permutation = [0, 3, 4, 1, 2]
  return
}

// -----

// NCHW bytes into channel blocks ([n, cb, 16, y, x] -> [n, y, x, cb, 16], a chain's first
// copy, here into a padded buffer's interior): the output's rows are the 16 lanes, the
// input's fastest dim (x, 56) the tiles' other side. Parallel over (n, y, cb), then the
// lanes and x in steps of 16; loads of in[n, cb, l, y, x0..] one per lane, stores of
// out[n, y, x, cb, l0..] one per x (56: the last tile's 8 x of 16 masked).
// CHECK-LABEL: func.func @to_byte_blocks
// CHECK: scf.parallel (%[[N:.*]], %[[Y:.*]], %[[CB:.*]]) =
// CHECK: scf.for %[[L0:.*]] = %c0 to %{{.*}} step %c16
// CHECK: scf.for %[[X0:.*]] = %c0 to %{{.*}} step %c16
// CHECK: vector.maskedload %arg0[%[[N]], %[[CB]], %{{.*}}, %[[Y]], %[[X0]]], %{{.*}}, %{{.*}} : memref<?x6x16x56x56xi8>, vector<16xi1>, vector<16xi8> into vector<16xi8>
// CHECK-COUNT-64: vector.shuffle
// CHECK: vector.maskedstore %[[VIEW:.*]][%[[N]], %[[Y]], %{{.*}}, %[[CB]], %[[L0]]], %{{.*}}, %{{.*}} : memref<?x56x56x6x16xi8, strided<[322944, 5568, 96, 16, 1], offset: 5664>>, vector<16xi1>, vector<16xi8>
// CHECK-NOT: linalg.transpose
func.func @to_byte_blocks(%in: memref<?x6x16x56x56xi8>, %out: memref<?x58x58x6x16xi8>, %n: index) {
  %interior = memref.subview %out[0, 1, 1, 0, 0] [%n, 56, 56, 6, 16] [1, 1, 1, 1, 1] : memref<?x58x58x6x16xi8> to memref<?x56x56x6x16xi8, strided<[322944, 5568, 96, 16, 1], offset: 5664>>
  linalg.transpose ins(%in : memref<?x6x16x56x56xi8>) outs(%interior : memref<?x56x56x6x16xi8, strided<[322944, 5568, 96, 16, 1], offset: 5664>>) permutation = [0, 3, 4, 1, 2]
  return
}

// -----

// Blocks of 8 lanes (neither fastest dim a tile's 16): gathers, each run of 16 outputs along
// the row (x) one masked gather (offsets of 32 x 8 elements) and one masked store, the 8
// lanes innermost.
// CHECK-LABEL: func.func @half_blocks
// CHECK-DAG: %[[OFFSETS:.*]] = arith.constant dense<[0, 256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560, 2816, 3072, 3328, 3584, 3840]> : vector<16xi32>
// CHECK: scf.parallel (%[[N:.*]], %[[CB:.*]], %[[Y:.*]]) =
// CHECK: scf.for %[[X0:.*]] = %c0 to %{{.*}} step %c16
// CHECK: %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// CHECK: scf.for %[[L:.*]] = %c0 to %{{.*}} step %c1
// CHECK: %[[V:.*]] = vector.gather %arg0[%[[N]], %[[Y]], %[[X0]], %[[CB]], %[[L]]] [%[[OFFSETS]]], %[[MASK]]
// CHECK: vector.maskedstore %arg1[%[[N]], %[[CB]], %[[L]], %[[Y]], %[[X0]]], %[[MASK]], %[[V]]
func.func @half_blocks(%in: memref<?x13x13x32x8xf32>, %out: memref<?x32x8x13x13xf32>) {
  linalg.transpose ins(%in : memref<?x13x13x32x8xf32>) outs(%out : memref<?x32x8x13x13xf32>) permutation = [0, 3, 4, 1, 2]
  return
}

// -----

// Left as they are: a channels-last product back to NCHW, whose input's fastest dim (960
// channels) is longer than a vector (that loop innermost scattered the stores over 960
// rows); a transpose that keeps the fastest dim (rows copied whole); 64-bit elements; a
// 2-D one (no dim left for the parallel loop: a training step's weight transposes).
// CHECK-LABEL: func.func @others
// CHECK-COUNT-4: linalg.transpose
// CHECK-NOT: vector.gather
func.func @others(%a: memref<1x7x7x960xf32>, %b: memref<1x960x7x7xf32>, %c: memref<4x8x16xf32>, %d: memref<8x4x16xf32>, %e: memref<2x13x16xf64>, %f: memref<2x16x13xf64>, %g: memref<13x16xf32>, %h: memref<16x13xf32>) {
  linalg.transpose ins(%a : memref<1x7x7x960xf32>) outs(%b : memref<1x960x7x7xf32>) permutation = [0, 3, 1, 2]
  linalg.transpose ins(%c : memref<4x8x16xf32>) outs(%d : memref<8x4x16xf32>) permutation = [1, 0, 2]
  linalg.transpose ins(%e : memref<2x13x16xf64>) outs(%f : memref<2x16x13xf64>) permutation = [0, 2, 1]
  linalg.transpose ins(%g : memref<13x16xf32>) outs(%h : memref<16x13xf32>) permutation = [1, 0]
  return
}
