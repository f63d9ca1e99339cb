// RUN: tcc-opt %s --tcc-vector-column-reductions="vector-bits=512" --canonicalize | FileCheck %s
// RUN: tcc-opt %s --tcc-vector-column-reductions | FileCheck %s --check-prefix=OFF

#in3 = affine_map<(n, r, c) -> (n, r, c)>
#out2 = affine_map<(n, r, c) -> (n, c)>
#vec = affine_map<(n, r, c) -> (c)>
#in4 = affine_map<(n, y, x, c) -> (n, y, x, c)>
#out4 = affine_map<(n, y, x, c) -> (n, c)>

// A global pooling of byte blocks collapsed to [n, 12544, 32] (EfficientNet-B0's first
// squeeze-excitation): out[n, c] += in[n, r, c] - 65. Parallel over n; the row's two vectors
// of 16 int32 loaded as accumulators, carried through the loop over r, each step two byte
// vectors extended, centered and added; stored once.
// CHECK-LABEL: func.func @byte_pool
// CHECK: scf.parallel (%[[N:.*]]) =
// CHECK-DAG: %[[A0:.*]] = vector.load %arg1[%[[N]], %c0{{.*}}] : memref<?x32xi32>, vector<16xi32>
// CHECK-DAG: %[[A1:.*]] = vector.load %arg1[%[[N]], %c16{{.*}}] : memref<?x32xi32>, vector<16xi32>
// CHECK: %[[R:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B0:.*]] = %[[A0]], %[[B1:.*]] = %[[A1]])
// CHECK: %[[X0:.*]] = vector.load %arg0[%[[N]], %[[I]], %{{.*}}] : memref<?x12544x32xi8>, vector<16xi8>
// CHECK: %[[W0:.*]] = arith.extui %[[X0]] : vector<16xi8> to vector<16xi32>
// CHECK: %[[C0:.*]] = arith.subi %[[W0]], %{{.*}} : vector<16xi32>
// CHECK: %[[S0:.*]] = arith.addi %[[B0]], %[[C0]] : vector<16xi32>
// CHECK: vector.load %arg0[%[[N]], %[[I]], %{{.*}}] : memref<?x12544x32xi8>, vector<16xi8>
// CHECK: %[[S1:.*]] = arith.addi %[[B1]], %{{.*}} : vector<16xi32>
// CHECK: scf.yield %[[S0]], %[[S1]]
// CHECK: vector.store %[[R]]#0, %arg1[%[[N]], %{{.*}}]
// CHECK: vector.store %[[R]]#1, %arg1[%[[N]], %{{.*}}]
// CHECK-NOT: linalg.generic
// Without a vector width the op stays.
// OFF-LABEL: func.func @byte_pool
// OFF: linalg.generic
func.func @byte_pool(%in: memref<?x12544x32xi8>, %out: memref<?x32xi32>) {
  %zp = arith.constant 65 : i32
  linalg.generic {indexing_maps = [#in3, #out2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%in : memref<?x12544x32xi8>) outs(%out : memref<?x32xi32>) {
  ^bb0(%x: i8, %o: i32):
    %0 = arith.extui %x : i8 to i32
    %1 = arith.subi %0, %zp : i32
    %2 = arith.addi %o, %1 : i32
    linalg.yield %2 : i32
  }
  return
}

// A float sum over two reduction dims (y, x) into 40 channels times a per-channel weight
// (an input that reads c alone): three vectors, the last masked to 8 lanes; the loops over
// y then x, in order, so each lane adds in the scalar loops' order.
// CHECK-LABEL: func.func @float_pool
// CHECK: scf.parallel (%[[N:.*]]) =
// CHECK: %[[MASK:.*]] = vector.constant_mask [8] : vector<16xi1>
// CHECK: vector.maskedload %arg2[%[[N]], %{{.*}}], %[[MASK]], %{{.*}} : memref<?x40xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: scf.for %[[Y:.*]] = {{.*}} iter_args
// CHECK: scf.for %[[X:.*]] = {{.*}} iter_args
// CHECK: %[[V:.*]] = vector.load %arg0[%[[N]], %[[Y]], %[[X]], %{{.*}}] : memref<?x7x7x40xf32>, vector<16xf32>
// CHECK: %[[W:.*]] = vector.load %arg1[%{{.*}}] : memref<40xf32>, vector<16xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[V]], %[[W]] : vector<16xf32>
// CHECK: arith.addf %{{.*}}, %[[P]] : vector<16xf32>
// CHECK: vector.maskedload %arg0[%[[N]], %[[Y]], %[[X]], %{{.*}}], %[[MASK]]
// CHECK: vector.maskedstore %arg2[%[[N]], %{{.*}}], %[[MASK]]
func.func @float_pool(%in: memref<?x7x7x40xf32>, %w: memref<40xf32>, %out: memref<?x40xf32>) {
  linalg.generic {indexing_maps = [#in4, affine_map<(n, y, x, c) -> (c)>, #out4], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%in, %w : memref<?x7x7x40xf32>, memref<40xf32>) outs(%out : memref<?x40xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %0 = arith.mulf %x, %s : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// A row of 1280 channels (80 vectors): chunks of 8 vectors, the chunk one more index of the
// parallel loop (10 of them); vector k of chunk h at column 128 h + 16 k.
// CHECK-LABEL: func.func @long_row
// CHECK: %[[CHUNKS:.*]] = arith.constant 10 : index
// CHECK: scf.parallel (%[[N:.*]], %[[H:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %[[CHUNKS]])
// CHECK: %[[BASE:.*]] = arith.muli %[[H]], %{{.*}} : index
// CHECK-COUNT-8: vector.load %arg1
// CHECK: scf.for
// CHECK-COUNT-8: arith.addf
// CHECK: scf.yield
// CHECK-COUNT-8: vector.store
func.func @long_row(%in: memref<?x49x1280xf32>, %out: memref<?x1280xf32>) {
  linalg.generic {indexing_maps = [#in3, #out2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%in : memref<?x49x1280xf32>) outs(%out : memref<?x1280xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %o, %x : f32
    linalg.yield %0 : f32
  }
  return
}

// Left alone: a row of 968 channels (more than 8 vectors, not whole ones); a dynamic row; a reduction
// innermost (a row reduction: tcc-order-loops' reassociated sums); 64-bit outputs.
// CHECK-LABEL: func.func @others
// CHECK-COUNT-4: linalg.generic
func.func @others(%a: memref<?x49x968xf32>, %b: memref<?x968xf32>, %c: memref<?x49x?xf32>, %d: memref<?x?xf32>, %e: memref<?x64xf32>, %f: memref<?xf32>, %g: memref<?x49x16xf64>, %h: memref<?x16xf64>) {
  linalg.generic {indexing_maps = [#in3, #out2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a : memref<?x49x968xf32>) outs(%b : memref<?x968xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %o, %x : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#in3, #out2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%c : memref<?x49x?xf32>) outs(%d : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %o, %x : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, r) -> (n, r)>, affine_map<(n, r) -> (n)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<?x64xf32>) outs(%f : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %o, %x : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#in3, #out2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%g : memref<?x49x16xf64>) outs(%h : memref<?x16xf64>) {
  ^bb0(%x: f64, %o: f64):
    %0 = arith.addf %o, %x : f64
    linalg.yield %0 : f64
  }
  return
}
