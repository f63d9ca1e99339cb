// RUN: tcc-opt %s --split-input-file --canonicalize --cse --canonicalize | FileCheck %s
// Folders and canonicalizations of prim ops.

// Small integer constants fold (shape arithmetic); identities disappear.
// CHECK-LABEL: func @fold_shape_arithmetic
// CHECK: %[[C:.*]] = arith.constant dense<[7, 10]> : tensor<2xi64>
// CHECK: return %[[C]], %arg0
func.func @fold_shape_arithmetic(%x: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
  %a = arith.constant dense<[3, 4]> : tensor<2xi64>
  %b = arith.constant dense<[4, 6]> : tensor<2xi64>
  %one = arith.constant dense<1> : tensor<2xi64>
  %s = prim.add %a, %b : tensor<2xi64>
  %m = prim.mul %x, %one : tensor<2xi64>
  return %s, %m : tensor<2xi64>, tensor<2xi64>
}

// -----

// Integer division by zero is defined by prim: 0. INT_MIN / -1 wraps.
// CHECK-LABEL: func @fold_division
// CHECK: arith.constant dense<[0, -128]> : tensor<2xi8>
func.func @fold_division() -> tensor<2xi8> {
  %a = arith.constant dense<[5, -128]> : tensor<2xi8>
  %b = arith.constant dense<[0, -1]> : tensor<2xi8>
  %q = prim.div %a, %b : tensor<2xi8>
  return %q : tensor<2xi8>
}

// -----

// x + 0.0 is not x for floats (-0.0 + 0.0 = +0.0): it stays.
// CHECK-LABEL: func @no_float_add_zero
// CHECK: prim.add
func.func @no_float_add_zero(%x: tensor<2xf32>) -> tensor<2xf32> {
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %r = prim.add %x, %z : tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Dims of intermediates move to the inputs (through reifyResultShapes), and dims of
// arguments bound to one symbol become one value, so the check between them folds away.
// CHECK-LABEL: func @dims_through_symbols
// CHECK-NOT: prim.check
// CHECK: %[[D:.*]] = prim.dim %arg0, 0
// CHECK: return %[[D]], %[[D]]
prim.symbol @batch
func.func @dims_through_symbols(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> (index, index) {
  prim.bind_shape %a [@batch] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  prim.bind_shape %b [@batch] affine_map<()[s0] -> (s0, 4)> : tensor<?x4xf32>
  %e = prim.exp %b : tensor<?x4xf32>
  %t = prim.transpose %e, [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
  %d0 = prim.dim %a, 0 : tensor<?x4xf32>
  %d1 = prim.dim %t, 1 : tensor<4x?xf32>
  %eq = arith.cmpi eq, %d0, %d1 : index
  prim.check %eq, "batch dims agree"
  return %d0, %d1 : index, index
}

// -----

// A false check stays: it is a run-time error.
// CHECK-LABEL: func @false_check_stays
// CHECK: prim.check %false, "always fails"
func.func @false_check_stays() {
  %f = arith.constant false
  prim.check %f, "always fails"
  return
}

// -----

// CHECK-LABEL: func @identities
// CHECK-NOT: prim.transpose
// CHECK-NOT: prim.reshape
// CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<3x4xf32>
// CHECK: return %arg0, %[[C]]
func.func @identities(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %t = prim.transpose %x, [0, 1] : tensor<3x4xf32> -> tensor<3x4xf32>
  %r = prim.reshape %t : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = arith.constant dense<2.0> : tensor<f32>
  %b = prim.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
  return %r, %b : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// A transpose of a transpose is one transpose (result dim i = z's dim q[p[i]]), or none
// when the two are inverses (the channel blocks' [0, 3, 4, 1, 2] twice).
// CHECK-LABEL: func @transposes
// CHECK: %[[T:.*]] = prim.transpose %arg0, [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NOT: prim.transpose
// CHECK: return %[[T]], %arg1
func.func @transposes(%x: tensor<2x3x4xf32>, %z: tensor<1x7x7x2x16xf32>) -> (tensor<4x2x3xf32>, tensor<1x7x7x2x16xf32>) {
  %a = prim.transpose %x, [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %b = prim.transpose %a, [2, 1, 0] : tensor<3x2x4xf32> -> tensor<4x2x3xf32>
  %c = prim.transpose %z, [0, 3, 4, 1, 2] : tensor<1x7x7x2x16xf32> -> tensor<1x2x16x7x7xf32>
  %d = prim.transpose %c, [0, 3, 4, 1, 2] : tensor<1x2x16x7x7xf32> -> tensor<1x7x7x2x16xf32>
  return %b, %d : tensor<4x2x3xf32>, tensor<1x7x7x2x16xf32>
}
