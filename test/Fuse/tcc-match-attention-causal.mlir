// RUN: tcc-opt %s --split-input-file --tcc-match-attention=explain=true --verify-diagnostics | FileCheck %s
// A bias that tcc-match-attention proves to be a causal mask (0 where key j <= i + t, at most
// -1e30 elsewhere, t >= 0, computed from iotas) becomes kernel.attention's `causal = t`;
// anything else stays a bias tensor, with a remark saying why.

// The dynamo exporter's causal mask (Trilu of ones, Equal 0, Where finfo.min): computed from
// the indices, the [M x N] bias and its ops gone.
// CHECK-LABEL: func.func @dynamo_trilu
// CHECK: kernel.attention %{{.*}}, %{{.*}}, %{{.*}} outs(%{{.*}} : tensor<2x4x8x16xf32>) {causal = 0 : i64, key_transposed, scale = 1.000000e+00 : f32}
// CHECK-NOT: prim.
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @dynamo_trilu(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i = prim.iota dim = 0 : tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %d = prim.sub %j, %i : tensor<8x8xi64>
  %zero_i = arith.constant dense<0> : tensor<i64>
  %zi = prim.broadcast_in_dim %zero_i, dims = [] : (tensor<i64>) -> tensor<8x8xi64>
  %tri = prim.compare le, %d, %zi : tensor<8x8xi64>
  %one = arith.constant dense<1.0> : tensor<f32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %min = arith.constant dense<-3.40282347E+38> : tensor<f32>
  %ob = prim.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %zb = prim.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %minb = prim.broadcast_in_dim %min, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %ones = prim.select %tri, %ob, %zb : tensor<8x8xi1>, tensor<8x8xf32>
  %masked = prim.compare eq, %ones, %zb : tensor<8x8xf32>
  %mask = prim.select %masked, %minb, %zb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// i >= j, a select of 0 and -inf: the same diagonal.
// CHECK-LABEL: func.func @mirrored
// CHECK: kernel.attention
// CHECK-SAME: causal = 0 : i64
// CHECK-NOT: bias(
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @mirrored(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i = prim.iota dim = 0 : tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %pred = prim.compare ge, %i, %j : tensor<8x8xi64>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<0xFF800000> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// j < i + 3: key j <= i + 2 (a diagonal above the main one, as with cached keys).
// CHECK-LABEL: func.func @offset_lt
// CHECK: kernel.attention
// CHECK-SAME: causal = 2 : i64
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @offset_lt(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i = prim.iota dim = 0 : tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %three = arith.constant dense<3> : tensor<i64>
  %t = prim.broadcast_in_dim %three, dims = [] : (tensor<i64>) -> tensor<8x8xi64>
  %it = prim.add %i, %t : tensor<8x8xi64>
  %pred = prim.compare lt, %j, %it : tensor<8x8xi64>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<0xFF800000> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// not(j > i), as a boolean mask's inversion writes it.
// CHECK-LABEL: func.func @negated
// CHECK: kernel.attention
// CHECK-SAME: causal = 0 : i64
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @negated(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i = prim.iota dim = 0 : tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %after = prim.compare gt, %j, %i : tensor<8x8xi64>
  %pred = prim.not %after : tensor<8x8xi1>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<0xFF800000> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// j < i: row 0 has no key (its softmax is NaN with -inf, uniform with finfo.min): kept.
// CHECK-LABEL: func.func @first_row_masked
// CHECK: kernel.attention %{{.*}} bias(%{{.*}} : tensor<8x8xf32>)
// CHECK-NOT: causal
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @first_row_masked(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i = prim.iota dim = 0 : tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %pred = prim.compare lt, %j, %i : tensor<8x8xi64>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<0xFF800000> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  // expected-remark @below {{attention bias kept as a tensor: the diagonal leaves the first query rows without keys}}
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// -100 above the diagonal does not remove the keys: kept.
// CHECK-LABEL: func.func @weak_mask
// CHECK: kernel.attention %{{.*}} bias(
// CHECK-NOT: causal
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @weak_mask(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i = prim.iota dim = 0 : tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %pred = prim.compare le, %j, %i : tensor<8x8xi64>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<-100.0> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias is not 0 on one side of its diagonal and -inf (at most -1e30) on the other}}
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// j <= 2i is not a diagonal: kept.
// CHECK-LABEL: func.func @scaled_index
// CHECK: kernel.attention %{{.*}} bias(
// CHECK-NOT: causal
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @scaled_index(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i = prim.iota dim = 0 : tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %i2 = prim.add %i, %i : tensor<8x8xi64>
  %pred = prim.compare le, %j, %i2 : tensor<8x8xi64>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<0xFF800000> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias's indices are scaled or its constants are beyond 2^30}}
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// A diagonal that moves with the head (i + h): kept.
// CHECK-LABEL: func.func @batch_index
// CHECK: kernel.attention %{{.*}} bias(
// CHECK-NOT: causal
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @batch_index(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %h = prim.iota dim = 0 : tensor<4x8x8xi64>
  %i = prim.iota dim = 1 : tensor<4x8x8xi64>
  %j = prim.iota dim = 2 : tensor<4x8x8xi64>
  %ih = prim.add %i, %h : tensor<4x8x8xi64>
  %pred = prim.compare le, %j, %ih : tensor<4x8x8xi64>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<0xFF800000> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<4x8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<4x8x8xi1>, tensor<4x8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [1, 2, 3] : (tensor<4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias depends on the index of a batch dim}}
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// ONNX Attention's function-expanded is_causal: iotas reshaped to [M, 1] and [1, N], i < j
// masked, the mask added to zeros.
// CHECK-LABEL: func.func @expanded_onnx
// CHECK: kernel.attention
// CHECK-SAME: causal = 0 : i64
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @expanded_onnx(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i1 = prim.iota dim = 0 : tensor<8xi64>
  %i = prim.reshape %i1 : (tensor<8xi64>) -> tensor<8x1xi64>
  %j1 = prim.iota dim = 0 : tensor<8xi64>
  %j = prim.reshape %j1 : (tensor<8xi64>) -> tensor<1x8xi64>
  %ib = prim.broadcast_in_dim %i, dims = [0, 1] : (tensor<8x1xi64>) -> tensor<8x8xi64>
  %jb = prim.broadcast_in_dim %j, dims = [0, 1] : (tensor<1x8xi64>) -> tensor<8x8xi64>
  %after = prim.compare lt, %ib, %jb : tensor<8x8xi64>
  %minf = arith.constant dense<0xFF800000> : tensor<8x8xf32>
  %zeros = arith.constant dense<0.0> : tensor<8x8xf32>
  %sel = prim.select %after, %minf, %zeros : tensor<8x8xi1>, tensor<8x8xf32>
  %mask = prim.add %zeros, %sel : tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}

// -----

// A reshape of two dims that are not 1 (it could move elements): kept.
// CHECK-LABEL: func.func @transposing_reshape
// CHECK: kernel.attention %{{.*}} bias(
// CHECK-NOT: causal
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @transposing_reshape(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>, %v: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %i1 = prim.iota dim = 0 : tensor<4x16xi64>
  %i = prim.reshape %i1 : (tensor<4x16xi64>) -> tensor<8x8xi64>
  %j = prim.iota dim = 1 : tensor<8x8xi64>
  %pred = prim.compare le, %j, %i : tensor<8x8xi64>
  %in = arith.constant dense<0.0> : tensor<f32>
  %out = arith.constant dense<0xFF800000> : tensor<f32>
  %inb = prim.broadcast_in_dim %in, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %outb = prim.broadcast_in_dim %out, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
  %mask = prim.select %pred, %inb, %outb : tensor<8x8xi1>, tensor<8x8xf32>
  %scores = prim.dot_general %q, %k contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x16xf32>, tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32>
  %mb = prim.broadcast_in_dim %mask, dims = [2, 3] : (tensor<8x8xf32>) -> tensor<2x4x8x8xf32>
  %biased = prim.add %scores, %mb : tensor<2x4x8x8xf32>
  %max = prim.reduce max %biased dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %centred = prim.sub %biased, %maxb : tensor<2x4x8x8xf32>
  %e = prim.exp %centred : tensor<2x4x8x8xf32>
  %sum = prim.reduce sum %e dims = [3] : tensor<2x4x8x8xf32> -> tensor<2x4x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
  %p = prim.div %e, %sumb : tensor<2x4x8x8xf32>
  // expected-remark @below {{attention bias kept as a tensor: the bias reshapes more than unit dims}}
  %o = prim.dot_general %p, %v contracting = [3] x [2] batching = [0, 1] x [0, 1] : (tensor<2x4x8x8xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return %o : tensor<2x4x8x16xf32>
}
