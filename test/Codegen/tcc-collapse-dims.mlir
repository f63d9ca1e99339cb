// RUN: tcc-opt %s --split-input-file --tcc-collapse-dims --cse | FileCheck %s

// Bias + activation over 1x672x14x14: h and w merge into one 196-long innermost loop; the
// bias, which reads neither, keeps its map on the channel.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func private @bias
// CHECK: %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<1x672x14x14xf32> into memref<1x672x196xf32>
// CHECK: %[[Y:.*]] = memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[C]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %arg1 : memref<1x672x196xf32>, memref<672xf32>) outs(%[[Y]] : memref<1x672x196xf32>)
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#channel = affine_map<(n, c, h, w) -> (c)>
func.func private @bias(%x: memref<1x672x14x14xf32>, %b: memref<672xf32>, %y: memref<1x672x14x14xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#id, #channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : memref<1x672x14x14xf32>, memref<672xf32>) outs(%y : memref<1x672x14x14xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A transposed operand reads (w, h): nothing merges. Neither does a strided buffer, nor a
// map with a constant or an offset (a slice).
// CHECK-LABEL: func.func private @transposed
// CHECK-NOT: collapse_shape
// CHECK: iterator_types = ["parallel", "parallel"]
// CHECK-LABEL: func.func private @slice
// CHECK-NOT: collapse_shape
// CHECK: iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-LABEL: func.func private @strided
// CHECK-NOT: collapse_shape
// CHECK: iterator_types = ["parallel", "parallel"]
#id2 = affine_map<(h, w) -> (h, w)>
#t2 = affine_map<(h, w) -> (w, h)>
func.func private @transposed(%x: memref<8x8xf32>, %y: memref<8x8xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}
#offset = affine_map<(a, b, c) -> (a + 1, b, c)>
#id3 = affine_map<(a, b, c) -> (a, b, c)>
func.func private @slice(%x: memref<2x3x4xf32>, %y: memref<1x3x4xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#offset, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x3x4xf32>) outs(%y : memref<1x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}
func.func private @strided(%x: memref<8x8xf32, strided<[10, 1]>>, %y: memref<8x8xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32, strided<[10, 1]>>) outs(%y : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

// A reduction over h and w (global average pooling's sum): n and c merge, and h and w;
// never a parallel dim with a reduction dim.
// CHECK-LABEL: func.func private @pool
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : memref<8x8x7x7xf32> into memref<64x49xf32>
// CHECK: iterator_types = ["parallel", "reduction"]
#in4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#out4 = affine_map<(n, c, h, w) -> (n, c)>
func.func private @pool(%x: memref<8x8x7x7xf32>, %y: memref<8x8xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#in4, #out4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : memref<8x8x7x7xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %out, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A kernel with an epilogue (a 1x1 convolution as a generic, then bias + ReLU in place):
// both merge the pixels, so the views of the output are the same and the tiler can keep
// the epilogue in registers.
// CHECK-LABEL: func.func private @conv_epilogue
// CHECK: linalg.fill
// CHECK: %[[O:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<1x16x7x7xf32> into memref<1x16x49xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} outs(%[[O]]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]{{.*}} ins(%[[O]], %arg3 : memref<1x16x49xf32>, memref<16xf32>) outs(%[[O]]
#cin = affine_map<(n, o, h, w, c) -> (n, c, h, w)>
#cw = affine_map<(n, o, h, w, c) -> (o, c)>
#cout = affine_map<(n, o, h, w, c) -> (n, o, h, w)>
#eid = affine_map<(n, o, h, w) -> (n, o, h, w)>
#ebias = affine_map<(n, o, h, w) -> (o)>
func.func private @conv_epilogue(%out: memref<1x16x7x7xf32>, %x: memref<1x8x7x7xf32>, %w: memref<16x8xf32>, %b: memref<16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = contraction, epilogue = true>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x16x7x7xf32>)
  linalg.generic {indexing_maps = [#cin, #cw, #cout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<1x8x7x7xf32>, memref<16x8xf32>) outs(%out : memref<1x16x7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %acc: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#eid, #ebias, #eid], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %b : memref<1x16x7x7xf32>, memref<16xf32>) outs(%out : memref<1x16x7x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %o: f32):
    %0 = arith.addf %in, %in_0 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A kernel that only fills a buffer (a padded buffer's border value) fills it as one flat
// run: threads split it whatever its leading extent (a batch of 1).
// CHECK-LABEL: func.func private @fill_only
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2, 3]] : memref<?x96x114x114xf32> into memref<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[FLAT]] : memref<?xf32>)
func.func private @fill_only(%padded: memref<?x96x114x114xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%padded : memref<?x96x114x114xf32>)
  return
}

// -----

// A squeeze-excitation scale: [n, 672, 1, 1] read with constant 0s on its unit dims over a
// 14x14 map. It is read as [n, 672] by (n, c); then n and c merge (both operands read
// them one after the other) and so do y and x, into one 196-long innermost loop.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NC:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func private @channel_scale
// CHECK: %[[S:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : memref<?x672x1x1xi32> into memref<?x672xi32>
// CHECK: %[[S2:.*]] = memref.collapse_shape %[[S]] {{\[}}[0, 1]] : memref<?x672xi32> into memref<?xi32>
// CHECK: %[[X:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1], [2, 3]] : memref<?x672x14x14xi32> into memref<?x196xi32>
// CHECK: linalg.generic {indexing_maps = [#[[NC]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[S2]], %[[X]] : memref<?xi32>, memref<?x196xi32>)
#scale = affine_map<(n, c, h, w) -> (n, c, 0, 0)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func private @channel_scale(%s: memref<?x672x1x1xi32>, %x: memref<?x672x14x14xi32>, %y: memref<?x672x14x14xi32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#scale, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %x : memref<?x672x1x1xi32>, memref<?x672x14x14xi32>) outs(%y : memref<?x672x14x14xi32>) {
  ^bb0(%in: i32, %in_0: i32, %out: i32):
    %0 = arith.muli %in, %in_0 : i32
    linalg.yield %0 : i32
  }
  return
}

// -----

// Leading unit dims join the first kept dim; a constant on a dim that is not 1 long keeps
// the map: nothing merges there.
// CHECK-DAG: #[[C2:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ZERO:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func private @leading_unit
// CHECK: %[[L:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2]] : memref<1x1x8xf32> into memref<8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[C2]], {{.*}} ins(%[[L]], %arg1
// CHECK-LABEL: func.func private @not_unit
// CHECK-NOT: collapse_shape
// CHECK: linalg.generic {indexing_maps = [#[[ZERO]],
#lead = affine_map<(c, x) -> (0, 0, c)>
#id2b = affine_map<(c, x) -> (c, x)>
func.func private @leading_unit(%s: memref<1x1x8xf32>, %x: memref<8x16xf32>, %y: memref<8x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#lead, #id2b, #id2b], iterator_types = ["parallel", "parallel"]}
      ins(%s, %x : memref<1x1x8xf32>, memref<8x16xf32>) outs(%y : memref<8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    linalg.yield %0 : f32
  }
  return
}
#first = affine_map<(c, x) -> (c, 0)>
func.func private @not_unit(%s: memref<8x2xf32>, %x: memref<8x16xf32>, %y: memref<8x16xf32>) attributes {kernel.kernel = #kernel.kernel<kind = generic>} {
  linalg.generic {indexing_maps = [#first, #id2b, #id2b], iterator_types = ["parallel", "parallel"]}
      ins(%s, %x : memref<8x2xf32>, memref<8x16xf32>) outs(%y : memref<8x16xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    linalg.yield %0 : f32
  }
  return
}
