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
  // expected-remark @below {{attention bias kept as a tensor: the bias depends on a function argument}}
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

// -----

// ONNX Attention (opset 23): the safe softmax (a row maximum of -inf counts as 0, a row sum
// of 0 as 1) and the rows whose mask is all -inf zeroed; the scale split between q and k
// (sqrt(sqrt(1/8)) each) becomes the op's: the inputs reach the kernel unscaled.
// CHECK-LABEL: func.func @onnx_attention
// CHECK-SAME: (%[[Q:.*]]: tensor<2x3x4x8xf32>, %[[K:.*]]: tensor<2x3x6x8xf32>, %[[V:.*]]: tensor<2x3x6x8xf32>
// CHECK: kernel.attention %[[Q]], %[[K]], %[[V]] bias(%{{.*}} : tensor<1x1x4x6xf32>) outs(%{{.*}} : tensor<2x3x4x8xf32>) {bias_dims = array<i64: 0, 1, 2, 3>, safe_softmax, scale = 0.353553355 : f32, zero_masked_rows}
// CHECK-NOT: prim.reduce
// CHECK-NOT: prim.mul
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @onnx_attention(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %v: tensor<2x3x6x8xf32>, %mask: tensor<4x6xf32>) -> tensor<2x3x4x8xf32> {
  %cst = arith.constant dense<0.000000e+00> : tensor<2x3x4x6xf32>
  %cst_0 = arith.constant dense<0xFF800000> : tensor<1x1x4xf32>
  %cst_1 = arith.constant dense<1.000000e+00> : tensor<2x3x4xf32>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<2x3x4xf32>
  %cst_3 = arith.constant dense<0xFF800000> : tensor<2x3x4xf32>
  %cst_4 = arith.constant dense<0.594603539> : tensor<2x3x6x8xf32>
  %cst_5 = arith.constant dense<0.594603539> : tensor<2x3x4x8xf32>
  %6 = prim.mul %q, %cst_5 : tensor<2x3x4x8xf32>
  %7 = prim.mul %k, %cst_4 : tensor<2x3x6x8xf32>
  %8 = prim.dot_general %6, %7 contracting = [3] x [3] batching = [0, 1] x [0, 1] : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>) -> tensor<2x3x4x6xf32>
  %9 = prim.reshape %mask : (tensor<4x6xf32>) -> tensor<1x1x4x6xf32>
  %10 = prim.broadcast_in_dim %9, dims = [0, 1, 2, 3] : (tensor<1x1x4x6xf32>) -> tensor<2x3x4x6xf32>
  %11 = prim.add %8, %10 : tensor<2x3x4x6xf32>
  %12 = prim.reduce max %11 dims = [3] : tensor<2x3x4x6xf32> -> tensor<2x3x4xf32>
  %13 = prim.compare eq, %12, %cst_3 : tensor<2x3x4xf32>
  %14 = prim.select %13, %cst_2, %12 : tensor<2x3x4xi1>, tensor<2x3x4xf32>
  %15 = prim.broadcast_in_dim %14, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4x6xf32>
  %16 = prim.sub %11, %15 : tensor<2x3x4x6xf32>
  %17 = prim.exp %16 : tensor<2x3x4x6xf32>
  %18 = prim.reduce sum %17 dims = [3] : tensor<2x3x4x6xf32> -> tensor<2x3x4xf32>
  %19 = prim.compare eq, %18, %cst_2 : tensor<2x3x4xf32>
  %20 = prim.select %19, %cst_1, %18 : tensor<2x3x4xi1>, tensor<2x3x4xf32>
  %21 = prim.broadcast_in_dim %20, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4x6xf32>
  %22 = prim.div %17, %21 : tensor<2x3x4x6xf32>
  %23 = prim.reduce max %9 dims = [3] : tensor<1x1x4x6xf32> -> tensor<1x1x4xf32>
  %24 = prim.compare eq, %23, %cst_0 : tensor<1x1x4xf32>
  %25 = prim.reshape %24 : (tensor<1x1x4xi1>) -> tensor<1x1x4x1xi1>
  %26 = prim.broadcast_in_dim %25, dims = [0, 1, 2, 3] : (tensor<1x1x4x1xi1>) -> tensor<2x3x4x6xi1>
  %27 = prim.select %26, %cst, %22 : tensor<2x3x4x6xi1>, tensor<2x3x4x6xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias depends on a function argument}}
  %28 = prim.dot_general %27, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x3x4x6xf32>, tensor<2x3x6x8xf32>) -> tensor<2x3x4x8xf32>
  return %28 : tensor<2x3x4x8xf32>
}

// -----

// A guarded maximum with an unguarded sum is not ONNX's safe softmax: left as it is.
// CHECK-LABEL: func.func @half_safe
// CHECK-NOT: kernel.attention
// expected-remark @below {{attention: 0 of 1 blocks fused}}
func.func @half_safe(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>, %v: tensor<2x6x8xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant dense<0.000000e+00> : tensor<2x4xf32>
  %minf = arith.constant dense<0xFF800000> : tensor<2x4xf32>
  %s = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x4x8xf32>, tensor<2x6x8xf32>) -> tensor<2x4x6xf32>
  %m = prim.reduce max %s dims = [2] : tensor<2x4x6xf32> -> tensor<2x4xf32>
  %dead = prim.compare eq, %m, %minf : tensor<2x4xf32>
  %m0 = prim.select %dead, %zero, %m : tensor<2x4xi1>, tensor<2x4xf32>
  %mb = prim.broadcast_in_dim %m0, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x6xf32>
  %c = prim.sub %s, %mb : tensor<2x4x6xf32>
  %e = prim.exp %c : tensor<2x4x6xf32>
  %l = prim.reduce sum %e dims = [2] : tensor<2x4x6xf32> -> tensor<2x4xf32>
  %lb = prim.broadcast_in_dim %l, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x6xf32>
  %p = prim.div %e, %lb : tensor<2x4x6xf32>
  // expected-remark @below {{attention not fused: the softmax guards its row maximum or its row sum, not both}}
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x4x6xf32>, tensor<2x6x8xf32>) -> tensor<2x4x8xf32>
  return %o : tensor<2x4x8xf32>
}

// -----

// ONNX Attention as its function expands (the `_expanded` graphs): the mask added as a
// lower-rank bias, the rows flagged by ReduceMax (keepdims: reduce, then reshape) == -inf and
// broadcast like the bias: kernel.attention with zero_masked_rows on that bias.
// CHECK-LABEL: func.func @expanded_mask
// CHECK: kernel.attention %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}} : tensor<4x6xf32>) outs(%{{.*}} : tensor<2x3x4x8xf32>) {bias_dims = array<i64: 2, 3>, scale = 5.000000e-01 : f32, zero_masked_rows}
// CHECK-NOT: prim.select
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @expanded_mask(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %v: tensor<2x3x6x8xf32>, %mask: tensor<4x6xf32>) -> tensor<2x3x4x8xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x3x4x6xf32>
  %minf = arith.constant dense<0xFF800000> : tensor<4x1xf32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %scores = prim.dot_general %q, %k contracting = [3] x [3] batching = [0, 1] x [0, 1] : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>) -> tensor<2x3x4x6xf32>
  %hb = prim.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<2x3x4x6xf32>
  %scaled = prim.mul %scores, %hb : tensor<2x3x4x6xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<4x6xf32>) -> tensor<2x3x4x6xf32>
  %biased = prim.add %scaled, %mb : tensor<2x3x4x6xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x3x4x6xf32> -> tensor<2x3x4xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4x6xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x3x4x6xf32>
  %e = prim.exp %centred : tensor<2x3x4x6xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x3x4x6xf32> -> tensor<2x3x4xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4x6xf32>
  %p = prim.div %e, %sumb : tensor<2x3x4x6xf32>
  %rowmax = prim.reduce max %mask dims = [1] : tensor<4x6xf32> -> tensor<4xf32>
  %kept = prim.reshape %rowmax : (tensor<4xf32>) -> tensor<4x1xf32>
  %masked = prim.compare eq, %kept, %minf : tensor<4x1xf32>
  %flags = prim.broadcast_in_dim %masked, dims = [2, 3] : (tensor<4x1xi1>) -> tensor<2x3x4x6xi1>
  %safe = prim.select %flags, %zero, %p : tensor<2x3x4x6xi1>, tensor<2x3x4x6xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias depends on a function argument}}
  %o = prim.dot_general %safe, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x3x4x6xf32>, tensor<2x3x6x8xf32>) -> tensor<2x3x4x8xf32>
  return %o : tensor<2x3x4x8xf32>
}

// -----

// Without a mask the expanded graph flags the rows of a constant bias of zeros: no row is
// wholly masked, so the select is dropped (no zero_masked_rows).
// CHECK-LABEL: func.func @expanded_constant_mask
// CHECK: kernel.attention
// CHECK-NOT: zero_masked_rows
// CHECK-NOT: prim.select
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @expanded_constant_mask(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %v: tensor<2x3x6x8xf32>) -> tensor<2x3x4x8xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x3x4x6xf32>
  %zeros = arith.constant dense<0.0> : tensor<4x6xf32>
  %minf = arith.constant dense<0xFF800000> : tensor<4x1xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [3] batching = [0, 1] x [0, 1] : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>) -> tensor<2x3x4x6xf32>
  %max = prim.reduce max %scores dims = [3] : tensor<2x3x4x6xf32> -> tensor<2x3x4xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4x6xf32>
  %centred = prim.sub %scores, %maxb : tensor<2x3x4x6xf32>
  %e = prim.exp %centred : tensor<2x3x4x6xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x3x4x6xf32> -> tensor<2x3x4xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4x6xf32>
  %p = prim.div %e, %sumb : tensor<2x3x4x6xf32>
  %rowmax = prim.reduce max %zeros dims = [1] : tensor<4x6xf32> -> tensor<4xf32>
  %kept = prim.reshape %rowmax : (tensor<4xf32>) -> tensor<4x1xf32>
  %masked = prim.compare eq, %kept, %minf : tensor<4x1xf32>
  %flags = prim.broadcast_in_dim %masked, dims = [2, 3] : (tensor<4x1xi1>) -> tensor<2x3x4x6xi1>
  %safe = prim.select %flags, %zero, %p : tensor<2x3x4x6xi1>, tensor<2x3x4x6xf32>
  %o = prim.dot_general %safe, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x3x4x6xf32>, tensor<2x3x6x8xf32>) -> tensor<2x3x4x8xf32>
  return %o : tensor<2x3x4x8xf32>
}

// -----

// ONNX Attention's softcap: c · tanh(s / c) of the scaled products, before the bias.
// CHECK-LABEL: func.func @softcap
// CHECK: kernel.attention {{.*}} {scale = 1.250000e-01 : f32, softcap = 3.000000e+00 : f32}
// CHECK-NOT: prim.tanh
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @softcap(%q: tensor<2x8x64xf32>, %k: tensor<2x16x64xf32>, %v: tensor<2x16x16xf32>) -> tensor<2x8x16xf32> {
  %c = arith.constant dense<8.0> : tensor<f32>
  %cap = arith.constant dense<3.0> : tensor<2x8x16xf32>
  %scores = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x8x64xf32>, tensor<2x16x64xf32>) -> tensor<2x8x16xf32>
  %cb = prim.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<2x8x16xf32>
  %scaled = prim.div %scores, %cb : tensor<2x8x16xf32>
  %over = prim.div %scaled, %cap : tensor<2x8x16xf32>
  %t = prim.tanh %over : tensor<2x8x16xf32>
  %capped = prim.mul %t, %cap : tensor<2x8x16xf32>
  %max = prim.reduce max %capped dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %centred = prim.sub %capped, %maxb : tensor<2x8x16xf32>
  %e = prim.exp %centred : tensor<2x8x16xf32>
  %sum = prim.reduce sum %e dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %p = prim.div %e, %sumb : tensor<2x8x16xf32>
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x16xf32>, tensor<2x16x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// The dynamo exporter's grouped-query attention (a decoding step: one query row): the
// scale split between queries and keys as sqrt(scale) each, keys transposed by merging
// batch and heads, and each key and value head repeated twice in a row (Expand, Reshape).
// All of it folds into the op: scale 0.5 · 0.5, keys in rows, 2 key heads for 4 query heads.
prim.symbol @b
prim.symbol @s
// CHECK-LABEL: func.func @dynamo_grouped
// CHECK-SAME: (%[[Q:.*]]: tensor<?x4x1x32xf32>, %[[K:.*]]: tensor<?x2x?x32xf32>, %[[V:.*]]: tensor<?x2x?x32xf32>)
// CHECK: %[[O:.*]] = kernel.attention %[[Q]], %[[K]], %[[V]] outs(%{{.*}} : tensor<?x4x1x32xf32>) {scale = 2.500000e-01 : f32} : tensor<?x4x1x32xf32>, tensor<?x2x?x32xf32>, tensor<?x2x?x32xf32> -> tensor<?x4x1x32xf32>
// CHECK-NOT: prim.
// CHECK: return %[[O]]
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @dynamo_grouped(%q: tensor<?x4x1x32xf32>, %k: tensor<?x2x?x32xf32>, %v: tensor<?x2x?x32xf32>) -> tensor<?x4x1x32xf32> {
  prim.bind_shape %q [@b] affine_map<()[s0] -> (s0, 4, 1, 32)> : tensor<?x4x1x32xf32>
  prim.bind_shape %k [@b, @s] affine_map<()[s0, s1] -> (s0, 2, s1, 32)> : tensor<?x2x?x32xf32>
  prim.bind_shape %v [@b, @s] affine_map<()[s0, s1] -> (s0, 2, s1, 32)> : tensor<?x2x?x32xf32>
  %b = prim.dim %q, 0 : tensor<?x4x1x32xf32>
  %s = prim.dim %k, 2 : tensor<?x2x?x32xf32>
  %c4 = arith.constant 4 : index
  %b4 = arith.muli %b, %c4 : index
  %half = arith.constant dense<0.5> : tensor<1xf32>
  %hq = prim.broadcast_in_dim %half, dims = [3] sizes(%b) : (tensor<1xf32>) -> tensor<?x4x1x32xf32>
  %qs = prim.mul %q, %hq : tensor<?x4x1x32xf32>
  %k5 = prim.reshape %k sizes(%b, %s) : (tensor<?x2x?x32xf32>) -> tensor<?x2x1x?x32xf32>
  %kr = prim.broadcast_in_dim %k5, dims = [0, 1, 2, 3, 4] sizes(%b, %s) : (tensor<?x2x1x?x32xf32>) -> tensor<?x2x2x?x32xf32>
  %k4 = prim.reshape %kr sizes(%b, %s) : (tensor<?x2x2x?x32xf32>) -> tensor<?x4x?x32xf32>
  %k3 = prim.reshape %k4 sizes(%b4, %s) : (tensor<?x4x?x32xf32>) -> tensor<?x?x32xf32>
  %kt = prim.transpose %k3, [0, 2, 1] : tensor<?x?x32xf32> -> tensor<?x32x?xf32>
  %kt4 = prim.reshape %kt sizes(%b, %s) : (tensor<?x32x?xf32>) -> tensor<?x4x32x?xf32>
  %hk = prim.broadcast_in_dim %half, dims = [3] sizes(%b, %s) : (tensor<1xf32>) -> tensor<?x4x32x?xf32>
  %ks = prim.mul %kt4, %hk : tensor<?x4x32x?xf32>
  %v5 = prim.reshape %v sizes(%b, %s) : (tensor<?x2x?x32xf32>) -> tensor<?x2x1x?x32xf32>
  %vr = prim.broadcast_in_dim %v5, dims = [0, 1, 2, 3, 4] sizes(%b, %s) : (tensor<?x2x1x?x32xf32>) -> tensor<?x2x2x?x32xf32>
  %v4 = prim.reshape %vr sizes(%b, %s) : (tensor<?x2x2x?x32xf32>) -> tensor<?x4x?x32xf32>
  %scores = prim.dot_general %qs, %ks contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<?x4x1x32xf32>, tensor<?x4x32x?xf32>) -> tensor<?x4x1x?xf32>
  %max = prim.reduce max %scores dims = [3] : tensor<?x4x1x?xf32> -> tensor<?x4x1xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] sizes(%b, %s) : (tensor<?x4x1xf32>) -> tensor<?x4x1x?xf32>
  %centred = prim.sub %scores, %maxb : tensor<?x4x1x?xf32>
  %e = prim.exp %centred : tensor<?x4x1x?xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<?x4x1x?xf32> -> tensor<?x4x1xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] sizes(%b, %s) : (tensor<?x4x1xf32>) -> tensor<?x4x1x?xf32>
  %p = prim.div %e, %sumb : tensor<?x4x1x?xf32>
  %o = prim.dot_general %p, %v4 contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<?x4x1x?xf32>, tensor<?x4x?x32xf32>) -> tensor<?x4x1x32xf32>
  return %o : tensor<?x4x1x32xf32>
}

// -----

// Heads repeated as a whole (a tile: query head h reads key head h mod 2), not each in a
// row: not grouped-query attention's order, so the repeated keys stay an operand.
prim.symbol @b
prim.symbol @s
// CHECK-LABEL: func.func @tiled_heads
// CHECK: %[[KR:.*]] = prim.reshape %{{.*}} : (tensor<2x2x2x8x16xf32>) -> tensor<2x4x8x16xf32>
// CHECK: kernel.attention %{{.*}}, %[[KR]], %{{.*}} outs(%{{.*}} : tensor<2x4x8x16xf32>) {scale = 1.000000e+00 : f32} : tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @tiled_heads(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %k5 = prim.reshape %k : (tensor<2x2x8x16xf32>) -> tensor<2x1x2x8x16xf32>
  %kr = prim.broadcast_in_dim %k5, dims = [0, 1, 2, 3, 4] : (tensor<2x1x2x8x16xf32>) -> tensor<2x2x2x8x16xf32>
  %k4 = prim.reshape %kr : (tensor<2x2x2x8x16xf32>) -> tensor<2x4x8x16xf32>
  %scores = prim.dot_general %q, %k4 contracting = [3] x [3] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x8xf32>
  %max = prim.reduce max %scores dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %scores, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// Keys and values that are the first n positions of fixed-size caches (tcc --kv-cache):
// the op reads the caches in place, n keys of them.
// CHECK-LABEL: func.func @cached
// CHECK-SAME: (%[[Q:.*]]: tensor<1x2x1x8xf32>, %[[CK:.*]]: tensor<1x2x16x8xf32>, %[[CV:.*]]: tensor<1x2x16x8xf32>, %[[N:.*]]: index)
// CHECK: kernel.attention %[[Q]], %[[CK]], %[[CV]] keys(%[[N]]) outs(%{{.*}} : tensor<1x2x1x8xf32>) {scale = 1.000000e+00 : f32} : tensor<1x2x1x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x1x8xf32>
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @cached(%q: tensor<1x2x1x8xf32>, %ck: tensor<1x2x16x8xf32>, %cv: tensor<1x2x16x8xf32>, %n: index) -> tensor<1x2x1x8xf32> {
  %k = prim.slice %ck [0, 0, 0, 0] [1, 2, %n, 8] strides [1, 1, 1, 1] : tensor<1x2x16x8xf32> -> tensor<1x2x?x8xf32>
  %v = prim.slice %cv [0, 0, 0, 0] [1, 2, %n, 8] strides [1, 1, 1, 1] : tensor<1x2x16x8xf32> -> tensor<1x2x?x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [3] batching = [0, 1] x [0, 1] : (tensor<1x2x1x8xf32>, tensor<1x2x?x8xf32>) -> tensor<1x2x1x?xf32>
  %max = prim.reduce max %scores dims = [3] : tensor<1x2x1x?xf32> -> tensor<1x2x1xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] sizes(%n) : (tensor<1x2x1xf32>) -> tensor<1x2x1x?xf32>
  %centred = prim.sub %scores, %maxb : tensor<1x2x1x?xf32>
  %e = prim.exp %centred : tensor<1x2x1x?xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<1x2x1x?xf32> -> tensor<1x2x1xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] sizes(%n) : (tensor<1x2x1xf32>) -> tensor<1x2x1x?xf32>
  %p = prim.div %e, %sumb : tensor<1x2x1x?xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<1x2x1x?xf32>, tensor<1x2x?x8xf32>) -> tensor<1x2x1x8xf32>
  return %o : tensor<1x2x1x8xf32>
}

// -----

// Keys and values sliced to different counts: left as operands (the slices stay).
// CHECK-LABEL: func.func @cached_mismatch
// CHECK: kernel.attention %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}} : tensor<1x2x1x8xf32>) {scale = 1.000000e+00 : f32} : tensor<1x2x1x8xf32>, tensor<1x2x?x8xf32>, tensor<1x2x?x8xf32>
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @cached_mismatch(%q: tensor<1x2x1x8xf32>, %ck: tensor<1x2x16x8xf32>, %cv: tensor<1x2x16x8xf32>, %n: index, %m: index) -> tensor<1x2x1x8xf32> {
  %k = prim.slice %ck [0, 0, 0, 0] [1, 2, %n, 8] strides [1, 1, 1, 1] : tensor<1x2x16x8xf32> -> tensor<1x2x?x8xf32>
  %v = prim.slice %cv [0, 0, 0, 0] [1, 2, %m, 8] strides [1, 1, 1, 1] : tensor<1x2x16x8xf32> -> tensor<1x2x?x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [3] batching = [0, 1] x [0, 1] : (tensor<1x2x1x8xf32>, tensor<1x2x?x8xf32>) -> tensor<1x2x1x?xf32>
  %max = prim.reduce max %scores dims = [3] : tensor<1x2x1x?xf32> -> tensor<1x2x1xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] sizes(%n) : (tensor<1x2x1xf32>) -> tensor<1x2x1x?xf32>
  %centred = prim.sub %scores, %maxb : tensor<1x2x1x?xf32>
  %e = prim.exp %centred : tensor<1x2x1x?xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<1x2x1x?xf32> -> tensor<1x2x1xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] sizes(%n) : (tensor<1x2x1xf32>) -> tensor<1x2x1x?xf32>
  %p = prim.div %e, %sumb : tensor<1x2x1x?xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<1x2x1x?xf32>, tensor<1x2x?x8xf32>) -> tensor<1x2x1x8xf32>
  return %o : tensor<1x2x1x8xf32>
}
