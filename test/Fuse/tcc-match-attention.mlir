// RUN: tcc-opt %s --split-input-file --tcc-match-attention=explain=true --verify-diagnostics | FileCheck %s
// Decomposed attention blocks, as the exporters' graphs decompose, become kernel.attention;
// near misses stay as they are, with a remark saying why.

// The dynamo exporter's SDPA: keys transposed, an additive mask broadcast over batch and
// heads, NaN rows zeroed; identity broadcasts of the MatMul operands are looked through.
// CHECK-LABEL: func.func @dynamo
// CHECK-SAME: (%[[Q:.*]]: tensor<?x4x?x32xf32>, %[[K:.*]]: tensor<?x4x32x?xf32>, %[[V:.*]]: tensor<?x4x?x32xf32>, %[[M:.*]]: tensor<?x?xf32>
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: %[[O:.*]] = kernel.attention %[[Q]], %[[K]], %[[V]] bias(%[[M]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x4x?x32xf32>) {bias_dims = array<i64: 2, 3>, key_transposed, nan_to_zero, scale = 1.000000e+00 : f32}
// CHECK-NOT: prim.
// CHECK: return %[[O]]
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @dynamo(%q: tensor<?x4x?x32xf32>, %k: tensor<?x4x32x?xf32>, %v: tensor<?x4x?x32xf32>, %mask: tensor<?x?xf32>, %b: index, %s: index) -> tensor<?x4x?x32xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %qb = prim.broadcast_in_dim %q, dims = [0, 1, 2, 3] sizes(%b, %s) : (tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32>
  %scores = prim.dot_general %qb, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<?x4x?x32xf32>, tensor<?x4x32x?xf32>) -> tensor<?x4x?x?xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] sizes(%b, %s, %s) : (tensor<?x?xf32>) -> tensor<?x4x?x?xf32>
  %biased = prim.add %scores, %mb : tensor<?x4x?x?xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<?x4x?x?xf32> -> tensor<?x4x?xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] sizes(%b, %s, %s) : (tensor<?x4x?xf32>) -> tensor<?x4x?x?xf32>
  %centred = prim.sub %biased, %maxb : tensor<?x4x?x?xf32>
  %e = prim.exp %centred : tensor<?x4x?x?xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<?x4x?x?xf32> -> tensor<?x4x?xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] sizes(%b, %s, %s) : (tensor<?x4x?xf32>) -> tensor<?x4x?x?xf32>
  %p = prim.div %e, %sumb : tensor<?x4x?x?xf32>
  %nan = prim.is_nan %p : tensor<?x4x?x?xf32>
  %zb = prim.broadcast_in_dim %zero, dims = [] sizes(%b, %s, %s) : (tensor<f32>) -> tensor<?x4x?x?xf32>
  %p0 = prim.select %nan, %zb, %p : tensor<?x4x?x?xi1>, tensor<?x4x?x?xf32>
  %o = prim.dot_general %p0, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<?x4x?x?xf32>, tensor<?x4x?x32xf32>) -> tensor<?x4x?x32xf32>
  return %o : tensor<?x4x?x32xf32>
}

// -----

// The legacy exporter's form: keys not transposed, scores divided by sqrt(d), no mask.
// CHECK-LABEL: func.func @legacy
// CHECK: kernel.attention %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}} : tensor<2x8x16xf32>) {scale = 1.250000e-01 : f32}
// CHECK-SAME: tensor<2x8x64xf32>, tensor<2x16x64xf32>, tensor<2x16x16xf32> -> tensor<2x8x16xf32>
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @legacy(%q: tensor<2x8x64xf32>, %k: tensor<2x16x64xf32>, %v: tensor<2x16x16xf32>) -> tensor<2x8x16xf32> {
  %c = arith.constant dense<8.0> : tensor<f32>
  %scores = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x8x64xf32>, tensor<2x16x64xf32>) -> tensor<2x8x16xf32>
  %cb = prim.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x8x16xf32>
  %scaled = prim.div %scores, %cb : tensor<2x8x16xf32>
  %max = prim.reduce max %scaled dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %centred = prim.sub %scaled, %maxb : tensor<2x8x16xf32>
  %e = prim.exp %centred : tensor<2x8x16xf32>
  %sum = prim.reduce sum %e dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %p = prim.div %e, %sumb : tensor<2x8x16xf32>
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x16xf32>, tensor<2x16x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// The probabilities are also an output (attention weights returned): not fused.
// CHECK-LABEL: func.func @probabilities_returned
// CHECK-NOT: kernel.attention
// expected-remark @below {{attention: 0 of 1 blocks fused}}
func.func @probabilities_returned(%q: tensor<2x8x64xf32>, %k: tensor<2x16x64xf32>, %v: tensor<2x16x16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
  %scores = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x8x64xf32>, tensor<2x16x64xf32>) -> tensor<2x8x16xf32>
  %max = prim.reduce max %scores dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %centred = prim.sub %scores, %maxb : tensor<2x8x16xf32>
  %e = prim.exp %centred : tensor<2x8x16xf32>
  %sum = prim.reduce sum %e dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %p = prim.div %e, %sumb : tensor<2x8x16xf32>
  // expected-remark @below {{attention not fused: an intermediate (scores or probabilities) is also used outside the block}}
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x16xf32>, tensor<2x16x16xf32>) -> tensor<2x8x16xf32>
  return %o, %p : tensor<2x8x16xf32>, tensor<2x8x16xf32>
}

// -----

// Scores scaled by a tensor, not a scalar constant: not fused.
// CHECK-LABEL: func.func @tensor_scale
// CHECK-NOT: kernel.attention
// expected-remark @below {{attention: 0 of 1 blocks fused}}
func.func @tensor_scale(%q: tensor<2x8x64xf32>, %k: tensor<2x16x64xf32>, %v: tensor<2x16x16xf32>, %t: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %scores = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x8x64xf32>, tensor<2x16x64xf32>) -> tensor<2x8x16xf32>
  %scaled = prim.mul %scores, %t : tensor<2x8x16xf32>
  %max = prim.reduce max %scaled dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %centred = prim.sub %scaled, %maxb : tensor<2x8x16xf32>
  %e = prim.exp %centred : tensor<2x8x16xf32>
  %sum = prim.reduce sum %e dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %p = prim.div %e, %sumb : tensor<2x8x16xf32>
  // expected-remark @below {{attention not fused: the scores are multiplied by something other than a scalar constant}}
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x16xf32>, tensor<2x16x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
