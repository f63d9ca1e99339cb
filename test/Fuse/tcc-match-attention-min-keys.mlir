// RUN: tcc-opt %s --split-input-file --tcc-match-attention="explain=true min-keys=32" --verify-diagnostics | FileCheck %s
// min-keys (a target's --attention=auto threshold): a block with a static key count below it
// stays decomposed, with a remark; one with a dynamic key count is fused.

// CHECK-LABEL: func.func @few_keys
// CHECK-NOT: kernel.attention
// CHECK: prim.dot_general
// expected-remark @below {{attention: 0 of 1 blocks fused}}
func.func @few_keys(%q: tensor<2x8x64xf32>, %k: tensor<2x16x64xf32>, %v: tensor<2x16x16xf32>) -> tensor<2x8x16xf32> {
  %scores = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x8x64xf32>, tensor<2x16x64xf32>) -> tensor<2x8x16xf32>
  %max = prim.reduce max %scores dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %centred = prim.sub %scores, %maxb : tensor<2x8x16xf32>
  %e = prim.exp %centred : tensor<2x8x16xf32>
  %sum = prim.reduce sum %e dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %p = prim.div %e, %sumb : tensor<2x8x16xf32>
  // expected-remark @below {{attention not fused: 16 keys: the target fuses blocks of at least 32 keys by default}}
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x16xf32>, tensor<2x16x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_keys
// CHECK: kernel.attention
// expected-remark @below {{attention: 1 of 1 blocks fused}}
func.func @dynamic_keys(%q: tensor<2x8x64xf32>, %k: tensor<2x?x64xf32>, %v: tensor<2x?x16xf32>, %n: index) -> tensor<2x8x16xf32> {
  %scores = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x8x64xf32>, tensor<2x?x64xf32>) -> tensor<2x8x?xf32>
  %max = prim.reduce max %scores dims = [2] : tensor<2x8x?xf32> -> tensor<2x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1] sizes(%n) : (tensor<2x8xf32>) -> tensor<2x8x?xf32>
  %centred = prim.sub %scores, %maxb : tensor<2x8x?xf32>
  %e = prim.exp %centred : tensor<2x8x?xf32>
  %sum = prim.reduce sum %e dims = [2] : tensor<2x8x?xf32> -> tensor<2x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1] sizes(%n) : (tensor<2x8xf32>) -> tensor<2x8x?xf32>
  %p = prim.div %e, %sumb : tensor<2x8x?xf32>
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x?xf32>, tensor<2x?x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
