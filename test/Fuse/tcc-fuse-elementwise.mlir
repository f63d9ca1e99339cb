// RUN: tcc-opt %s --split-input-file --tcc-fuse-elementwise | FileCheck %s

// Conv bias + Clip (ReLU6): the broadcast of the bias, the add, max and min become one
// generic that reads the bias through (n, c, h, w) -> (c).
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#channel = affine_map<(n, c, h, w) -> (c)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias_relu6
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[C]], #[[ID]]]
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @bias_relu6(%x: tensor<1x8x4x4xf32>, %bias: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %b = linalg.generic {indexing_maps = [#channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x8x4x4xf32> loc("broadcast")
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<1x8x4x4xf32> loc("conv")
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    %1 = arith.minimumf %0, %six : f32
    linalg.yield %1 : f32
  } -> tensor<1x8x4x4xf32> loc("clip")
  return %r : tensor<1x8x4x4xf32>
}

// -----

// An exp with two users stays a kernel of its own (fused, it would run twice per element).
#id = affine_map<(i) -> (i)>
// CHECK-LABEL: func.func @shared_exp
// CHECK: %[[E:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[E]]
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%[[E]]
// CHECK: arith.addf
func.func @shared_exp(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e0 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%e : tensor<16xf32>) outs(%e0 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%e : tensor<16xf32>) outs(%e0 : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// A sigmoid over channels read through a broadcast over pixels (squeeze-excitation) is not
// fused: it would run once per pixel instead of once per channel.
#channel2 = affine_map<(c, p) -> (c)>
#id2 = affine_map<(c, p) -> (c, p)>
#id1 = affine_map<(c) -> (c)>
// CHECK-LABEL: func.func @broadcast_consumer
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.yield
// CHECK: linalg.generic
// CHECK-NOT: math.exp
// CHECK: arith.mulf
func.func @broadcast_consumer(%s: tensor<8xf32>, %x: tensor<8x196xf32>) -> tensor<8x196xf32> {
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x196xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%s : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #channel2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %g : tensor<8x196xf32>, tensor<8xf32>) outs(%e2 : tensor<8x196xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<8x196xf32>
  return %r : tensor<8x196xf32>
}

// -----

// A contraction is never a consumer: the scale of its operand stays a separate generic,
// so the contraction keeps the form the tiler recognizes.
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id2b = affine_map<(i, k) -> (i, k)>
// CHECK-LABEL: func.func @contraction
// CHECK: %[[S:.*]] = linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%[[S]], %{{.*}} : tensor<4x8xf32>, tensor<8x16xf32>)
func.func @contraction(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %acc: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id2b, #id2b], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %two : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Clip's bounds as 0-d splat constants: they become scalar constants in the body (the
// kernel then knows them; the inputs go).
// CHECK-LABEL: func.func @clip_bounds
// CHECK-DAG: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<4x8xf32>)
// CHECK: arith.maximumf %{{.*}}, %[[LO]]
// CHECK: arith.minimumf %{{.*}}, %[[HI]]
func.func @clip_bounds(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %lo = arith.constant dense<0.0> : tensor<f32>
  %hi = arith.constant dense<6.0> : tensor<f32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %lo, %hi : tensor<4x8xf32>, tensor<f32>, tensor<f32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %l: f32, %h: f32, %o: f32):
    %m = arith.maximumf %a, %l : f32
    %n = arith.minimumf %m, %h : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// GPT-2's Conv1D: the matmul and its bias add on [B*S, N], a view as [B, S, N], then GELU.
// The view is folded into GELU (its loops collapsed to [B*S, N], the view moved after it),
// so the bias add has GELU as its one reader and the two merge: kernel formation then gives
// the matmul the whole of it as its epilogue.
// CHECK-LABEL: func.func @conv1d_gelu
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK: %[[ACT:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[MM]], %arg2 : tensor<?x64xf32>, tensor<64xf32>)
// CHECK: arith.addf
// CHECK: math.tanh
// CHECK: tensor.expand_shape %[[ACT]] {{\[}}[0, 1], [2]]
// CHECK-NOT: linalg.generic
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias1 = affine_map<(d0, d1) -> (d1)>
#all3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @conv1d_gelu(%x: tensor<?x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>, %batch: index) -> tensor<?x16x64xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x32xf32>
  %e = tensor.empty(%m) : tensor<?x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<?x32xf32>, tensor<32x64xf32>) outs(%f : tensor<?x64xf32>) -> tensor<?x64xf32>
  %biased = linalg.generic {indexing_maps = [#rows, #bias1, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x64xf32>, tensor<64xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%in: f32, %bb: f32, %out: f32):
    %0 = arith.addf %in, %bb : f32
    linalg.yield %0 : f32
  } -> tensor<?x64xf32>
  %v = tensor.expand_shape %biased [[0, 1], [2]] output_shape [%batch, 16, 64] : tensor<?x64xf32> into tensor<?x16x64xf32>
  %n = tensor.dim %v, %c0 : tensor<?x16x64xf32>
  %e3 = tensor.empty(%n) : tensor<?x16x64xf32>
  %gelu = linalg.generic {indexing_maps = [#all3, #all3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v : tensor<?x16x64xf32>) outs(%e3 : tensor<?x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    %1 = arith.mulf %in, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<?x16x64xf32>
  return %gelu : tensor<?x16x64xf32>
}

// -----

// A broadcast (a body that is its yield alone) is fused into every reader, even one whose
// body is past the 24 ops other shared producers may grow it to: it adds no op.
#id = affine_map<(i, j) -> (i, j)>
#scalar = affine_map<(i, j) -> ()>
// CHECK-LABEL: func.func @broadcast_into_long_body
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<f32>)
// CHECK-COUNT-25: arith.mulf
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<f32>)
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return %[[A]], %[[B]]
func.func @broadcast_into_long_body(%x: tensor<4x8xf32>, %s: tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.generic {indexing_maps = [#scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<f32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %long = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %a0 = arith.addf %in, %in : f32
    %a1 = arith.mulf %a0, %in_0 : f32
    %a2 = arith.mulf %a1, %in_0 : f32
    %a3 = arith.mulf %a2, %in_0 : f32
    %a4 = arith.mulf %a3, %in_0 : f32
    %a5 = arith.mulf %a4, %in_0 : f32
    %a6 = arith.mulf %a5, %in_0 : f32
    %a7 = arith.mulf %a6, %in_0 : f32
    %a8 = arith.mulf %a7, %in_0 : f32
    %a9 = arith.mulf %a8, %in_0 : f32
    %a10 = arith.mulf %a9, %in_0 : f32
    %a11 = arith.mulf %a10, %in_0 : f32
    %a12 = arith.mulf %a11, %in_0 : f32
    %a13 = arith.mulf %a12, %in_0 : f32
    %a14 = arith.mulf %a13, %in_0 : f32
    %a15 = arith.mulf %a14, %in_0 : f32
    %a16 = arith.mulf %a15, %in_0 : f32
    %a17 = arith.mulf %a16, %in_0 : f32
    %a18 = arith.mulf %a17, %in_0 : f32
    %a19 = arith.mulf %a18, %in_0 : f32
    %a20 = arith.mulf %a19, %in_0 : f32
    %a21 = arith.mulf %a20, %in_0 : f32
    %a22 = arith.mulf %a21, %in_0 : f32
    %a23 = arith.mulf %a22, %in_0 : f32
    %a24 = arith.mulf %a23, %in_0 : f32
    %a25 = arith.mulf %a24, %in_0 : f32
    linalg.yield %a25 : f32
  } -> tensor<4x8xf32>
  %short = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %long, %short : tensor<4x8xf32>, tensor<4x8xf32>
}
