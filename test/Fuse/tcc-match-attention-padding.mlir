// RUN: tcc-opt %s --split-input-file --tcc-match-attention=explain=true --verify-diagnostics | FileCheck %s
// A bias whose rows along the queries are all the same (a padding mask broadcast over them)
// is rebuilt with extent 1 there (NarrowBias.cpp) and read as one row by the kernel.

// The dynamo exporter's padding mask (as bert_small's): the keys' flags broadcast over the
// query rows, and'ed with `row >= 0` (always true): read as one row [2, 1, 1, 8].
// CHECK-LABEL: func.func @padding
// CHECK: %[[ROW:.*]] = prim.broadcast_in_dim %{{.*}}, dims = [0, 1, 2, 3] : (tensor<2x1x1x8xi1>) -> tensor<2x1x1x8xi1>
// CHECK: %[[MASK:.*]] = prim.select %{{.*}} : tensor<2x1x1x8xi1>, tensor<2x1x1x8xf32>
// CHECK: kernel.attention %{{.*}}, %{{.*}}, %{{.*}} bias(%[[MASK]] : tensor<2x1x1x8xf32>) {{.*}}bias_dims = array<i64: 0, 1, 2, 3>
// CHECK-NOT: tensor<2x1x8x8xf32>
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @padding(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>, %flags: tensor<2x8xi1>) -> tensor<2x4x8x16xf32> {
  %keys = prim.reshape %flags : (tensor<2x8xi1>) -> tensor<2x1x1x8xi1>
  %keysb = prim.broadcast_in_dim %keys, dims = [0, 1, 2, 3] : (tensor<2x1x1x8xi1>) -> tensor<2x1x8x8xi1>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %minf = arith.constant dense<0xFF800000> : tensor<f32>
  %zb = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x1x8x8xf32>
  %mb0 = prim.broadcast_in_dim %minf, dims = [] : (tensor<f32>) -> tensor<2x1x8x8xf32>
  %i = prim.iota dim = 0 : tensor<8xi64>
  %ir = prim.reshape %i : (tensor<8xi64>) -> tensor<1x1x8x1xi64>
  %c = arith.constant dense<0> : tensor<i64>
  %cb = prim.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<1x1x8x1xi64>
  %valid = prim.compare ge, %ir, %cb : tensor<1x1x8x1xi64>
  %validb = prim.broadcast_in_dim %valid, dims = [0, 1, 2, 3] : (tensor<1x1x8x1xi1>) -> tensor<2x1x8x8xi1>
  %both = prim.and %validb, %keysb : tensor<2x1x8x8xi1>
  %mask = prim.select %both, %zb, %mb0 : tensor<2x1x8x8xi1>, tensor<2x1x8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [0, 1, 2, 3] : (tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias compares indices other than j - i with a constant}}
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// `row >= 1` depends on the row: the bias stays [2, 1, 8, 8].
// CHECK-LABEL: func.func @row_dependent
// CHECK: kernel.attention %{{.*}} bias(%{{.*}} : tensor<2x1x8x8xf32>)
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @row_dependent(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>, %flags: tensor<2x8xi1>) -> tensor<2x4x8x16xf32> {
  %keys = prim.reshape %flags : (tensor<2x8xi1>) -> tensor<2x1x1x8xi1>
  %keysb = prim.broadcast_in_dim %keys, dims = [0, 1, 2, 3] : (tensor<2x1x1x8xi1>) -> tensor<2x1x8x8xi1>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %minf = arith.constant dense<0xFF800000> : tensor<f32>
  %zb = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<2x1x8x8xf32>
  %mb0 = prim.broadcast_in_dim %minf, dims = [] : (tensor<f32>) -> tensor<2x1x8x8xf32>
  %i = prim.iota dim = 0 : tensor<8xi64>
  %ir = prim.reshape %i : (tensor<8xi64>) -> tensor<1x1x8x1xi64>
  %c = arith.constant dense<1> : tensor<i64>
  %cb = prim.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<1x1x8x1xi64>
  %valid = prim.compare ge, %ir, %cb : tensor<1x1x8x1xi64>
  %validb = prim.broadcast_in_dim %valid, dims = [0, 1, 2, 3] : (tensor<1x1x8x1xi1>) -> tensor<2x1x8x8xi1>
  %both = prim.and %validb, %keysb : tensor<2x1x8x8xi1>
  %mask = prim.select %both, %zb, %mb0 : tensor<2x1x8x8xi1>, tensor<2x1x8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [0, 1, 2, 3] : (tensor<2x1x8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias compares indices other than j - i with a constant}}
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}
