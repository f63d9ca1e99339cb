// RUN: tcc-opt %s --split-input-file --tcc-signless-types | FileCheck %s
// RUN: tcc-opt %s --split-input-file --tcc-lower-prim-to-linalg --tcc-signless-types | FileCheck %s --check-prefix=PIPE
// Every unsigned integer type becomes the signless type of its width; constants keep their
// bits; casts that become casts of a type to itself disappear.

// The function type, block arguments, constants, tensor.empty and the casts around the
// compute op: all signless, the casts gone.
// CHECK-LABEL: func.func @max(
// CHECK-SAME: %[[A:.*]]: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[0, 127, -128, -1]> : tensor<4xi8>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4xi8>
// CHECK-NEXT: %[[M:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[C]] : tensor<4xi8>, tensor<4xi8>) outs(%[[E]] : tensor<4xi8>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: %[[R:.*]] = arith.maxui %[[X]], %[[Y]] : i8
// CHECK-NEXT: linalg.yield %[[R]] : i8
// CHECK: return %[[M]] : tensor<4xi8>
// CHECK-NOT: unrealized_conversion_cast
#id = affine_map<(d0) -> (d0)>
func.func @max(%a: tensor<4xui8>) -> tensor<4xui8> {
  %c = arith.constant dense<[0, 127, 128, 255]> : tensor<4xui8>
  %x = builtin.unrealized_conversion_cast %a : tensor<4xui8> to tensor<4xi8>
  %y = builtin.unrealized_conversion_cast %c : tensor<4xui8> to tensor<4xi8>
  %e = tensor.empty() : tensor<4xi8>
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
       ins(%x, %y : tensor<4xi8>, tensor<4xi8>) outs(%e : tensor<4xi8>) {
  ^bb0(%p: i8, %q: i8, %o: i8):
    %r = arith.maxui %p, %q : i8
    linalg.yield %r : i8
  } -> tensor<4xi8>
  %r = builtin.unrealized_conversion_cast %m : tensor<4xi8> to tensor<4xui8>
  return %r : tensor<4xui8>
}

// -----

// Data movement left on unsigned tensors: a splat, a transpose (its block arguments) and a
// tensor.pad whose region yields an unsigned scalar.
// CHECK-LABEL: func.func @move(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xi16>, %[[V:.*]]: tensor<i16>) -> (tensor<3x2xi16>, tensor<4x5xi16>, tensor<2xi64>)
// CHECK: arith.constant dense<-1> : tensor<2xi64>
// CHECK: tensor.empty() : tensor<3x2xi16>
// CHECK: linalg.transpose ins(%[[A]] : tensor<2x3xi16>) outs(%{{.*}} : tensor<3x2xi16>) permutation = [1, 0]
// CHECK: %[[P:.*]] = tensor.extract %[[V]][] : tensor<i16>
// CHECK: tensor.pad %[[A]] low[1, 1] high[1, 1]
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: tensor.yield %[[P]] : i16
// CHECK-NEXT: } : tensor<2x3xi16> to tensor<4x5xi16>
func.func @move(%a: tensor<2x3xui16>, %v: tensor<ui16>) -> (tensor<3x2xui16>, tensor<4x5xui16>, tensor<2xui64>) {
  %s = arith.constant dense<18446744073709551615> : tensor<2xui64>
  %e = tensor.empty() : tensor<3x2xui16>
  %t = linalg.transpose ins(%a : tensor<2x3xui16>) outs(%e : tensor<3x2xui16>) permutation = [1, 0]
  %p = tensor.extract %v[] : tensor<ui16>
  %padded = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %p : ui16
  } : tensor<2x3xui16> to tensor<4x5xui16>
  return %t, %padded, %s : tensor<3x2xui16>, tensor<4x5xui16>, tensor<2xui64>
}

// -----

// Resource constants (weights) keep their blob under the signless type.
// CHECK-LABEL: func.func @weights
// CHECK: arith.constant dense_resource<blob> : tensor<2xi32>
// CHECK: return %{{.*}} : tensor<2xi32>
func.func @weights() -> tensor<2xui32> {
  %w = arith.constant dense_resource<blob> : tensor<2xui32>
  return %w : tensor<2xui32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x0400000001000000FFFFFFFF"
    }
  }
#-}

// -----

// Explicitly signed types become signless too; i1 and floats stay; a cast that changes
// more than signedness stays.
// CHECK-LABEL: func.func @others(
// CHECK-SAME: %{{.*}}: tensor<2xi8>, %{{.*}}: tensor<2xi1>, %[[F:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[C:.*]] = builtin.unrealized_conversion_cast %[[F]] : tensor<2xf32> to tensor<2xi32>
// CHECK-NEXT: return %[[C]] : tensor<2xi32>
func.func @others(%a: tensor<2xsi8>, %b: tensor<2xi1>, %f: tensor<2xf32>) -> tensor<2xi32> {
  %c = builtin.unrealized_conversion_cast %f : tensor<2xf32> to tensor<2xui32>
  %d = builtin.unrealized_conversion_cast %c : tensor<2xui32> to tensor<2xi32>
  return %d : tensor<2xi32>
}

// -----

// After tcc-lower-prim-to-linalg: the unsigned operations were chosen from prim's types,
// and nothing unsigned is left.
// PIPE-LABEL: func.func @prim_unsigned(
// PIPE-SAME: %[[A:.*]]: tensor<4xi32>, %[[B:.*]]: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xi64>, tensor<i32>)
// PIPE-NOT: ui32
// PIPE-NOT: unrealized_conversion_cast
// PIPE: arith.divui
// PIPE: arith.cmpi ult
// PIPE: arith.extui %{{.*}} : i32 to i64
// PIPE: arith.constant -1 : i32
// PIPE: linalg.fill
// PIPE: arith.minui
// PIPE-NOT: ui32
// PIPE-NOT: unrealized_conversion_cast
// PIPE: return
func.func @prim_unsigned(%a: tensor<4xui32>, %b: tensor<4xui32>) -> (tensor<4xui32>, tensor<4xi1>, tensor<4xi64>, tensor<ui32>) {
  %q = prim.div %a, %b : tensor<4xui32>
  %l = prim.compare lt, %a, %b : tensor<4xui32>
  %w = prim.convert %a : tensor<4xui32> to tensor<4xi64>
  %m = prim.reduce min %a dims = [0] : tensor<4xui32> -> tensor<ui32>
  return %q, %l, %w, %m : tensor<4xui32>, tensor<4xi1>, tensor<4xi64>, tensor<ui32>
}
