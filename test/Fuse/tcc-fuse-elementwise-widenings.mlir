// RUN: tcc-opt %s --split-input-file --tcc-fuse-elementwise | FileCheck %s

// A requantized activation q (bytes) widened to q - z (int32) and read by a pooling's sum and
// a scale multiply (a squeeze-excitation): the widening is copied for the second reader, so
// the requantization stores bytes and each reader extends and subtracts z itself.
#id = affine_map<(n, c, y) -> (n, c, y)>
#nc = affine_map<(n, c, y) -> (n, c)>
// CHECK-LABEL: func.func @pooled_and_scaled
// CHECK: %[[Q:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x32x64xf32>) outs(%{{.*}} : tensor<2x32x64xi8>)
// CHECK: arith.fptoui
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[Q]] : tensor<2x32x64xi8>)
// CHECK: arith.extui
// CHECK: arith.subi
// CHECK: linalg.generic {{.*}} ins(%[[Q]], %arg1 : tensor<2x32x64xi8>, tensor<2x32xi32>)
// CHECK: arith.extui
// CHECK: arith.subi
// CHECK: arith.muli
func.func @pooled_and_scaled(%x: tensor<2x32x64xf32>, %s: tensor<2x32xi32>) -> (tensor<2x32xi32>, tensor<2x32x64xi32>) {
  %eb = tensor.empty() : tensor<2x32x64xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x32x64xf32>) outs(%eb : tensor<2x32x64xi8>) {
  ^bb0(%a: f32, %o: i8):
    %c = arith.constant 9.0 : f32
    %m = arith.mulf %a, %c : f32
    %r = arith.fptoui %m : f32 to i8
    linalg.yield %r : i8
  } -> tensor<2x32x64xi8>
  %ei = tensor.empty() : tensor<2x32x64xi32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<2x32x64xi8>) outs(%ei : tensor<2x32x64xi32>) {
  ^bb0(%a: i8, %o: i32):
    %e = arith.extui %a : i8 to i32
    linalg.yield %e : i32
  } -> tensor<2x32x64xi32>
  %z = arith.constant dense<3> : tensor<2x32x64xi32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w, %z : tensor<2x32x64xi32>, tensor<2x32x64xi32>) outs(%ei : tensor<2x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %e = arith.subi %a, %b : i32
    linalg.yield %e : i32
  } -> tensor<2x32x64xi32>
  %zero = arith.constant 0 : i32
  %es = tensor.empty() : tensor<2x32xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%es : tensor<2x32xi32>) -> tensor<2x32xi32>
  %sum = linalg.generic {indexing_maps = [#id, #nc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%d : tensor<2x32x64xi32>) outs(%acc : tensor<2x32xi32>) {
  ^bb0(%a: i32, %o: i32):
    %e = arith.addi %o, %a : i32
    linalg.yield %e : i32
  } -> tensor<2x32xi32>
  %scaled = linalg.generic {indexing_maps = [#id, #nc, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%d, %s : tensor<2x32x64xi32>, tensor<2x32xi32>) outs(%ei : tensor<2x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %e = arith.muli %a, %b : i32
    linalg.yield %e : i32
  } -> tensor<2x32x64xi32>
  return %sum, %scaled : tensor<2x32xi32>, tensor<2x32x64xi32>
}

// -----

// The same widening read by a contraction too: stored once, as int32, for all readers (a
// copy for the contraction would store the wide values again).
#id = affine_map<(n, c, y) -> (n, c, y)>
#a = affine_map<(n, c, y, k) -> (n, c, k)>
#b = affine_map<(n, c, y, k) -> (k, y)>
#o = affine_map<(n, c, y, k) -> (n, c, y)>
// CHECK-LABEL: func.func @read_by_contraction
// CHECK: %[[D:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x32x64xf32>) outs(%{{.*}} : tensor<2x32x64xi32>)
// CHECK: arith.fptoui
// CHECK: arith.extui
// CHECK: linalg.generic {{.*}} ins(%[[D]], %arg1 : tensor<2x32x64xi32>, tensor<64x64xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[D]] : tensor<2x32x64xi32>)
func.func @read_by_contraction(%x: tensor<2x32x64xf32>, %m: tensor<64x64xi32>) -> (tensor<2x32x64xi32>, tensor<2x32x64xi32>) {
  %eb = tensor.empty() : tensor<2x32x64xi8>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x32x64xf32>) outs(%eb : tensor<2x32x64xi8>) {
  ^bb0(%a: f32, %o: i8):
    %r = arith.fptoui %a : f32 to i8
    linalg.yield %r : i8
  } -> tensor<2x32x64xi8>
  %ei = tensor.empty() : tensor<2x32x64xi32>
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<2x32x64xi8>) outs(%ei : tensor<2x32x64xi32>) {
  ^bb0(%a: i8, %o: i32):
    %e = arith.extui %a : i8 to i32
    linalg.yield %e : i32
  } -> tensor<2x32x64xi32>
  %zero = arith.constant 0 : i32
  %acc = linalg.fill ins(%zero : i32) outs(%ei : tensor<2x32x64xi32>) -> tensor<2x32x64xi32>
  %p = linalg.generic {indexing_maps = [#a, #b, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %m : tensor<2x32x64xi32>, tensor<64x64xi32>) outs(%acc : tensor<2x32x64xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %e = arith.muli %a, %b : i32
    %s = arith.addi %o, %e : i32
    linalg.yield %s : i32
  } -> tensor<2x32x64xi32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x32x64xi32>) outs(%ei : tensor<2x32x64xi32>) {
  ^bb0(%a: i32, %o: i32):
    %e = arith.muli %a, %a : i32
    linalg.yield %e : i32
  } -> tensor<2x32x64xi32>
  return %p, %n : tensor<2x32x64xi32>, tensor<2x32x64xi32>
}
