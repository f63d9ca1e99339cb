// RUN: tcc-opt %s --split-input-file --tcc-gather-transposes="vector-bits=512" | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-gather-transposes="vector-bits=256" | FileCheck %s --check-prefix=AVX2

// Channel blocks back to NCHW ([n, y, x, cb, 16] -> [n, cb, 16, y, x], a chain's last
// copy): the output's rows (x) read the input with a stride of 32 x 16 elements. A parallel
// loop over (n, cb, y), then the row in steps of 16 (13: one masked step), then the 16
// lanes of the block innermost; each step one masked gather (offsets 0, 512, ..., 7680)
// from in[n, y, x0, cb, l] and one masked contiguous store to out[n, cb, l, y, x0].
// CHECK-LABEL: func.func @blocks
// CHECK-DAG: %[[OFFSETS:.*]] = arith.constant dense<[0, 512, 1024, 1536, 2048, 2560, 3072, 3584, 4096, 4608, 5120, 5632, 6144, 6656, 7168, 7680]> : vector<16xi32>
// CHECK-DAG: %[[ROW:.*]] = memref.dim %arg1, %c4
// CHECK-DAG: %[[LANES:.*]] = memref.dim %arg1, %c2
// CHECK: scf.parallel (%[[N:.*]], %[[CB:.*]], %[[Y:.*]]) =
// CHECK: scf.for %[[X0:.*]] = %c0 to %[[ROW]] step %c16
// CHECK: %[[LEFT:.*]] = arith.subi %[[ROW]], %[[X0]]
// CHECK: %[[COUNT:.*]] = arith.minsi %[[LEFT]], %c16
// CHECK: %[[MASK:.*]] = vector.create_mask %[[COUNT]] : vector<16xi1>
// CHECK: scf.for %[[L:.*]] = %c0 to %[[LANES]] step %c1
// CHECK: %[[V:.*]] = vector.gather %arg0[%[[N]], %[[Y]], %[[X0]], %[[CB]], %[[L]]] [%[[OFFSETS]]], %[[MASK]]
// CHECK: vector.maskedstore %arg1[%[[N]], %[[CB]], %[[L]], %[[Y]], %[[X0]]], %[[MASK]], %[[V]]
// CHECK-NOT: linalg.transpose
// AVX2-LABEL: func.func @blocks
// AVX2: linalg.transpose
func.func @blocks(%in: memref<?x13x13x32x16xf32>, %out: memref<?x32x16x13x13xf32>) {
  linalg.transpose ins(%in : memref<?x13x13x32x16xf32>) outs(%out : memref<?x32x16x13x13xf32>) permutation = [0, 3, 4, 1, 2]
  return
}

// -----

// A quantized chain's byte blocks back to NCHW: the same loops and 16 lanes (vector<16xi8>),
// offsets of 6 x 16 bytes.
// CHECK-LABEL: func.func @byte_blocks
// CHECK-DAG: %[[OFFSETS:.*]] = arith.constant dense<[0, 96, 192, 288, 384, 480, 576, 672, 768, 864, 960, 1056, 1152, 1248, 1344, 1440]> : vector<16xi32>
// CHECK: scf.parallel
// CHECK: vector.create_mask %{{.*}} : vector<16xi1>
// CHECK: %[[V:.*]] = vector.gather %arg0[{{.*}}] [%[[OFFSETS]]], {{.*}} : memref<?x56x56x6x16xi8>, vector<16xi32>, vector<16xi1>, vector<16xi8> into vector<16xi8>
// CHECK: vector.maskedstore %arg1[{{.*}}], %{{.*}}, %[[V]] : memref<?x6x16x56x56xi8>, vector<16xi1>, vector<16xi8>
// CHECK-NOT: linalg.transpose
func.func @byte_blocks(%in: memref<?x56x56x6x16xi8>, %out: memref<?x6x16x56x56xi8>) {
  linalg.transpose ins(%in : memref<?x56x56x6x16xi8>) outs(%out : memref<?x6x16x56x56xi8>) permutation = [0, 3, 4, 1, 2]
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
