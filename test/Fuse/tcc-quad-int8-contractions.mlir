// RUN: tcc-opt %s --tcc-quad-int8-contractions --canonicalize --cse | FileCheck %s
// CPUs with AVX512-VNNI: int32 contractions of zero-extended bytes and constant weights in
// [-128, 127] read both as 4-byte quads along a reduction dim, the quad as the last index and
// the op's new last (reduction) dim, the bytes unsigned (extui) and the weights signed (extsi).

// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[PACK:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 4 + d4, d2, d3)>
// CHECK-DAG: #[[CX:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d4, d2 + d5, d3 + d6, d7)>
// CHECK-DAG: #[[CW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d4, d5, d6, d7)>

// A matrix product: the bytes' quads along their last dim are a view [?, 2, 4] of the bytes
// themselves; the weights [8, 2] packed to [2, 2, 4], element [k', n, q] = w[4k' + q, n].
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{\[\[\[}}1, 2, 3, 4], [-1, 0, 1, 2]], {{\[\[}}5, 6, 7, -128], [3, 4, 5, 127]]]> : tensor<2x2x4xi8>
// CHECK: %[[Q:.+]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] {{.*}} : tensor<?x8xi8> into tensor<?x2x4xi8>
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[Q]], %[[W]] : tensor<?x2x4xi8>, tensor<2x2x4xi8>) outs(%{{.*}} : tensor<?x2xi32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: i8, %[[Y:.+]]: i8, %[[ACC:.+]]: i32):
// CHECK-NEXT: %[[XI:.+]] = arith.extui %[[X]] : i8 to i32
// CHECK-NEXT: %[[YI:.+]] = arith.extsi %[[Y]] : i8 to i32
// CHECK-NEXT: %[[P:.+]] = arith.muli %[[XI]], %[[YI]] : i32
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT: linalg.yield %[[S]] : i32
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id5 = affine_map<(a, b, c, d, e) -> (a, b, c, d, e)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @matmul(%a: tensor<?x8xi8>) -> tensor<?x2xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x8xi8>
  %e = tensor.empty(%n) : tensor<?x8xi32>
  %u = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x8xi8>) outs(%e : tensor<?x8xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<?x8xi32>
  %b = arith.constant dense<[[1, -1], [2, 0], [3, 1], [4, 2], [5, 3], [6, 4], [7, 5], [-128, 127]]> : tensor<8x2xi32>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty(%n) : tensor<?x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<?x2xi32>) -> tensor<?x2xi32>
  %r = linalg.matmul ins(%u, %b : tensor<?x8xi32>, tensor<8x2xi32>) outs(%init : tensor<?x2xi32>) -> tensor<?x2xi32>
  return %r : tensor<?x2xi32>

// A convolution of bytes padded with 7 (a zero point) over 6 channels: the channels are
// completed to 8 by zeros, packed to [1, 2, 5, 5, 4] and then padded with 7 (rows and columns
// only); the weights packed to [2, 2, 3, 3, 4] while compiling, channels 6 and 7 zero (the
// resource: per output channel 9 quads of 3s, then 9 of 3, 3, 0, 0).
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[F:.+]] = arith.constant dense_resource<int8_quads> : tensor<2x2x3x3x4xi8>
// CHECK-DAG: %[[Z8:.+]] = arith.constant 0 : i8
// CHECK-DAG: %[[SEVEN:.+]] = arith.constant 7 : i8
// CHECK: %[[C8:.+]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 2, 0, 0]
// CHECK: tensor.yield %[[Z8]] : i8
// CHECK: %[[PACKED:.+]] = linalg.generic {indexing_maps = [#[[PACK]], #{{.+}}]{{.*}} ins(%[[C8]] : tensor<1x8x5x5xi8>) outs(%{{.*}} : tensor<1x2x5x5x4xi8>)
// CHECK: %[[PADDED:.+]] = tensor.pad %[[PACKED]] low[0, 0, 1, 1, 0] high[0, 0, 1, 1, 0]
// CHECK: tensor.yield %[[SEVEN]] : i8
// CHECK: linalg.generic {indexing_maps = [#[[CX]], #[[CW]], #{{.+}}]{{.*}} ins(%[[PADDED]], %[[F]] : tensor<1x2x7x7x4xi8>, tensor<2x2x3x3x4xi8>)
// CHECK: arith.extui
// CHECK: arith.extsi
}
func.func @conv(%a: tensor<1x6x5x5xi8>) -> tensor<1x2x5x5xi32> {
  %pv = arith.constant 7 : i8
  %p = tensor.pad %a low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %pv : i8
  } : tensor<1x6x5x5xi8> to tensor<1x6x7x7xi8>
  %e = tensor.empty() : tensor<1x6x7x7xi32>
  %u = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x6x7x7xi8>) outs(%e : tensor<1x6x7x7xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<1x6x7x7xi32>
  %w = arith.constant dense<3> : tensor<2x6x3x3xi32>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<1x2x5x5xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<1x2x5x5xi32>) -> tensor<1x2x5x5xi32>
  %r = linalg.conv_2d_nchw_fchw ins(%u, %w : tensor<1x6x7x7xi32>, tensor<2x6x3x3xi32>) outs(%init : tensor<1x2x5x5xi32>) -> tensor<1x2x5x5xi32>
  return %r : tensor<1x2x5x5xi32>
}

// Weights outside [-128, 127] (200) do not fit int8: left alone.
// CHECK-LABEL: func.func @wide_weights
// CHECK-NOT: arith.extsi
// CHECK: linalg.matmul
func.func @wide_weights(%a: tensor<3x8xi8>) -> tensor<3x2xi32> {
  %e = tensor.empty() : tensor<3x8xi32>
  %u = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x8xi8>) outs(%e : tensor<3x8xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<3x8xi32>
  %b = arith.constant dense<200> : tensor<8x2xi32>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<3x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<3x2xi32>) -> tensor<3x2xi32>
  %r = linalg.matmul ins(%u, %b : tensor<3x8xi32>, tensor<8x2xi32>) outs(%init : tensor<3x2xi32>) -> tensor<3x2xi32>
  return %r : tensor<3x2xi32>
}

// Channels in blocks (tcc-channel-vector-convolutions' chains): bytes [n, y, x, cb, cl] of 8
// blocks of 4 channels. The quads are taken along cl, the bytes' last dim, though cb is
// longer: a view of the bytes (expand_shape), no packing copy.
// CHECK-LABEL: func.func @blocks
// CHECK-NOT: linalg.generic
// CHECK: %[[VIEW:.+]] = tensor.expand_shape %arg0 {{\[}}[0], [1], [2], [3], [4, 5]] output_shape [1, 3, 3, 8, 1, 4] : tensor<1x3x3x8x4xi8> into tensor<1x3x3x8x1x4xi8>
// CHECK: linalg.generic {{.*}} ins(%[[VIEW]], %{{.+}} : tensor<1x3x3x8x1x4xi8>, tensor<1x8x1x4x4xi8>)
// CHECK: arith.extui
// CHECK: arith.extsi
#blockin = affine_map<(n, y, x, b, l, cb, cl) -> (n, y, x, cb, cl)>
#blockw = affine_map<(n, y, x, b, l, cb, cl) -> (b, cb, cl, l)>
#blockout = affine_map<(n, y, x, b, l, cb, cl) -> (n, y, x, b, l)>
func.func @blocks(%a: tensor<1x3x3x8x4xi8>) -> tensor<1x3x3x1x4xi32> {
  %e = tensor.empty() : tensor<1x3x3x8x4xi32>
  %u = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x3x3x8x4xi8>) outs(%e : tensor<1x3x3x8x4xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<1x3x3x8x4xi32>
  %w = arith.constant dense<2> : tensor<1x8x4x4xi32>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<1x3x3x1x4xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<1x3x3x1x4xi32>) -> tensor<1x3x3x1x4xi32>
  %r = linalg.generic {indexing_maps = [#blockin, #blockw, #blockout], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%u, %w : tensor<1x3x3x8x4xi32>, tensor<1x8x4x4xi32>) outs(%init : tensor<1x3x3x1x4xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<1x3x3x1x4xi32>
  return %r : tensor<1x3x3x1x4xi32>
}

// Two run-time operands (attention's P V after tcc-integer-contractions): bytes p without a
// zero point, v with 130, a dynamic reduction extent. p is the uint8 side (a view of it,
// padded at run time with (-k) mod 4 zeros); v is read as int8 with its sign bits flipped,
// v ^ 0x80 = v - 128, so v - 130 = sext(v ^ 0x80) - 2 and the product needs one correction:
// out = quads(p, v ^ 0x80) - 2 * sum_k p.
// CHECK-LABEL: func.func @activations
// CHECK: %[[A:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<?x?xi8>)
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%[[A]] : tensor<?x?xi32>) outs(%{{.+}} : tensor<?xi32>)
// CHECK: %[[REST:.+]] = arith.remui
// CHECK: %[[HIGH:.+]] = arith.remui
// CHECK: %[[P:.+]] = tensor.pad %arg0 low[0, 0] high[0, %[[HIGH]]]
// CHECK: %[[PQ:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1, 2]] {{.*}} : tensor<?x?xi8> into tensor<?x?x4xi8>
// CHECK: %[[FLIP:.+]] = linalg.generic {{.*}} ins(%arg1 : tensor<?x8xi8>)
// CHECK: arith.xori %{{.+}}, %c-128_i8 : i8
// CHECK: %[[VQ:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<?x8x4xi8>)
// CHECK: %[[Q:.+]] = linalg.generic {{.*}} ins(%[[PQ]], %[[VQ]] : tensor<?x?x4xi8>, tensor<?x8x4xi8>)
// CHECK: arith.extui
// CHECK: arith.extsi
// CHECK: %[[OUT:.+]] = linalg.generic {{.*}} ins(%[[Q]], %[[SUM]] : tensor<?x8xi32>, tensor<?xi32>)
// CHECK: %[[C:.+]] = arith.muli %{{.+}}, %c2_i32 : i32
// CHECK: arith.subi %{{.+}}, %[[C]] : i32
// CHECK: return %[[OUT]]
func.func @activations(%p: tensor<?x?xi8>, %v: tensor<?x8xi8>) -> tensor<?x8xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %p, %c0 : tensor<?x?xi8>
  %k = tensor.dim %p, %c1 : tensor<?x?xi8>
  %ep = tensor.empty(%m, %k) : tensor<?x?xi32>
  %a = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<?x?xi8>) outs(%ep : tensor<?x?xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extui %in : i8 to i32
    linalg.yield %x : i32
  } -> tensor<?x?xi32>
  %ev = tensor.empty(%k) : tensor<?x8xi32>
  %zp = arith.constant 130 : i32
  %b = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<?x8xi8>) outs(%ev : tensor<?x8xi32>) {
  ^bb0(%in: i8, %out: i32):
    %x = arith.extui %in : i8 to i32
    %y = arith.subi %x, %zp : i32
    linalg.yield %y : i32
  } -> tensor<?x8xi32>
  %zero = arith.constant 0 : i32
  %empty = tensor.empty(%m) : tensor<?x8xi32>
  %init = linalg.fill ins(%zero : i32) outs(%empty : tensor<?x8xi32>) -> tensor<?x8xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xi32>, tensor<?x8xi32>) outs(%init : tensor<?x8xi32>) -> tensor<?x8xi32>
  return %r : tensor<?x8xi32>
}

// The conv's packed weights (the module's resources, printed last).
// CHECK: int8_quads: "0x01000000030303030303030303030303030303030303030303030303030303030303030303030303030300000303000003030000030300000303000003030000030300000303000003030000030303030303030303030303030303030303030303030303030303030303030303030303030300000303000003030000030300000303000003030000030300000303000003030000"
