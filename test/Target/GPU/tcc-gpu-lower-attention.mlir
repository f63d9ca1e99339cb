// RUN: tcc-opt %s --split-input-file --tcc-gpu-lower-attention --verify-diagnostics | FileCheck %s
// kernel.attention on a GPU: a warp of 32 lanes per query row (the lanes the innermost dim
// of the parallel loop), each lane walking every 32nd key with a running maximum, sum and
// one accumulator per value column (online softmax), the warp combining them with
// subgroup reductions; lane e mod 32 stores column e. No scores are stored.

// CHECK-LABEL: func.func @transposed_keys
// CHECK: scf.parallel (%[[B:.*]], %[[I:.*]], %[[LANE:.*]]) = (%c0{{.*}}, %c0{{.*}}, %c0{{.*}}) to (%{{.*}}, %{{.*}}, %c32)
// CHECK: %[[R:.*]]:6 = scf.for %[[J:.*]] = %[[LANE]] to %{{.*}} step %{{.*}} iter_args
// CHECK: memref.load %{{.*}}[%[[B]], %{{.*}}, %[[J]]] : memref<?x8x?xf32>
// CHECK: arith.cmpf ogt
// CHECK: math.exp
// CHECK: math.exp
// CHECK-COUNT-4: memref.load %{{.*}}[%[[B]], %[[J]], %{{.*}}] : memref<?x?x4xf32>
// CHECK: scf.yield
// CHECK: gpu.subgroup_reduce maximumf %[[R]]#0 uniform
// CHECK: gpu.subgroup_reduce add {{.*}} uniform
// CHECK-COUNT-4: gpu.subgroup_reduce add
// CHECK-NOT: kernel.attention
func.func @transposed_keys(%q: memref<?x?x8xf32>, %k: memref<?x8x?xf32>, %v: memref<?x?x4xf32>, %o: memref<?x?x4xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<?x?x4xf32>) {key_transposed, scale = 0.5 : f32} : memref<?x?x8xf32>, memref<?x8x?xf32>, memref<?x?x4xf32>
  return
}

// -----

// A bias broadcast over the batch, NaN rows zeroed: the bias read at [0, i, j].
// CHECK-LABEL: func.func @bias
// CHECK: memref.load %{{.*}}[%c0{{.*}}, %{{.*}}, %{{.*}}] : memref<1x8x?xf32>
// CHECK: arith.cmpf uno
func.func @bias(%q: memref<2x8x4xf32>, %k: memref<2x?x4xf32>, %v: memref<2x?x4xf32>, %bias: memref<1x8x?xf32>, %o: memref<2x8x4xf32>) {
  kernel.attention %q, %k, %v bias(%bias : memref<1x8x?xf32>) outs(%o : memref<2x8x4xf32>) {bias_dims = array<i64: 0, 1, 2>, nan_to_zero, scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x?x4xf32>, memref<2x?x4xf32>
  return
}

// -----

// A causal diagonal t = 1: row i's lanes walk keys [lane, min(N, i + 2)) only.
// CHECK-LABEL: func.func @causal
// CHECK: %[[LIMIT:.*]] = arith.addi %{{.*}}, %c2{{.*}} : index
// CHECK: %[[KEYS:.*]] = arith.minui %{{.*}}, %[[LIMIT]] : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[KEYS]] step %c32
func.func @causal(%q: memref<2x8x4xf32>, %k: memref<2x?x4xf32>, %v: memref<2x?x4xf32>, %o: memref<2x8x4xf32>) {
  kernel.attention %q, %k, %v outs(%o : memref<2x8x4xf32>) {causal = 1 : i64, scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x?x4xf32>, memref<2x?x4xf32>
  return
}

// -----

func.func @dynamic_width(%q: memref<2x8x4xf32>, %k: memref<2x8x4xf32>, %v: memref<2x8x?xf32>, %o: memref<2x8x?xf32>) {
  // expected-error @+1 {{must be on buffers with a static value depth of at most 128 when a GPU target lowers it}}
  kernel.attention %q, %k, %v outs(%o : memref<2x8x?xf32>) {scale = 1.0 : f32} : memref<2x8x4xf32>, memref<2x8x4xf32>, memref<2x8x?xf32>
  return
}
