// RUN: tcc-opt %s --tcc-match-attention="explain=true depth-multiple=4" --verify-diagnostics | FileCheck %s
// depth-multiple (Vulkan without subgroups: its kernel's depths in runs of 4): a block whose
// query depth is not a static multiple stays decomposed, with a remark saying why.

// CHECK-LABEL: func.func @depth_six
// CHECK-NOT: kernel.attention
// expected-remark @below {{attention: 0 of 1 blocks fused}}
func.func @depth_six(%q: tensor<2x8x6xf32>, %k: tensor<2x16x6xf32>, %v: tensor<2x16x16xf32>) -> tensor<2x8x16xf32> {
  %scores = prim.dot_general %q, %k contracting = [2] x [2] batching = [0] x [0] : (tensor<2x8x6xf32>, tensor<2x16x6xf32>) -> tensor<2x8x16xf32>
  %max = prim.reduce max %scores dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %maxb = prim.broadcast_in_dim %max, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %centred = prim.sub %scores, %maxb : tensor<2x8x16xf32>
  %e = prim.exp %centred : tensor<2x8x16xf32>
  %sum = prim.reduce sum %e dims = [2] : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %sumb = prim.broadcast_in_dim %sum, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x16xf32>
  %p = prim.div %e, %sumb : tensor<2x8x16xf32>
  // expected-remark @below {{attention not fused: the target's attention kernel takes static query and value depths that are multiples of 4}}
  %o = prim.dot_general %p, %v contracting = [2] x [1] batching = [0] x [0] : (tensor<2x8x16xf32>, tensor<2x16x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
