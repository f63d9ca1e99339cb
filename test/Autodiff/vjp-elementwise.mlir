// RUN: tcc-opt %s --tcc-test-vjp | FileCheck %s
// RUN: tcc-opt %s --tcc-test-vjp=tolerance=0.1 | FileCheck %s --check-prefix=LOOSE
// Every elementwise VJP rule against central finite differences in f64 (relative error
// <= 1e-6 of max(|gradient|, 1)); inputs uniform in [0.5, 1.5] unless tcc.test_range says.

// CHECK-DAG: @unary: ok
func.func @unary(%x: tensor<3x4xf64>) -> (tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) {
  %0 = prim.neg %x : tensor<3x4xf64>
  %1 = prim.abs %x : tensor<3x4xf64>
  %2 = prim.exp %x : tensor<3x4xf64>
  %3 = prim.log %x : tensor<3x4xf64>
  %4 = prim.sqrt %x : tensor<3x4xf64>
  %5 = prim.rsqrt %x : tensor<3x4xf64>
  %6 = prim.erf %x : tensor<3x4xf64>
  %7 = prim.logistic %x : tensor<3x4xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>
}

// CHECK-DAG: @trig: ok
func.func @trig(%x: tensor<5xf64>) -> (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>) attributes {tcc.test_range = [0.1, 0.9]} {
  %0 = prim.sin %x : tensor<5xf64>
  %1 = prim.cos %x : tensor<5xf64>
  %2 = prim.tan %x : tensor<5xf64>
  %3 = prim.asin %x : tensor<5xf64>
  %4 = prim.acos %x : tensor<5xf64>
  %5 = prim.atan %x : tensor<5xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>
}

// CHECK-DAG: @hyperbolic: ok
func.func @hyperbolic(%x: tensor<5xf64>) -> (tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>) attributes {tcc.test_range = [0.1, 0.9]} {
  %0 = prim.sinh %x : tensor<5xf64>
  %1 = prim.cosh %x : tensor<5xf64>
  %2 = prim.tanh %x : tensor<5xf64>
  %3 = prim.asinh %x : tensor<5xf64>
  %4 = prim.atanh %x : tensor<5xf64>
  return %0, %1, %2, %3, %4 : tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>, tensor<5xf64>
}

// CHECK-DAG: @acosh: ok
func.func @acosh(%x: tensor<5xf64>) -> tensor<5xf64> attributes {tcc.test_range = [1.5, 3.0]} {
  %0 = prim.acosh %x : tensor<5xf64>
  return %0 : tensor<5xf64>
}

// Piecewise-constant ops have zero gradients (off the jumps).
// CHECK-DAG: @steps: ok
func.func @steps(%x: tensor<6xf64>) -> (tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>) attributes {tcc.test_range = [0.1, 0.4]} {
  %0 = prim.floor %x : tensor<6xf64>
  %1 = prim.ceil %x : tensor<6xf64>
  %2 = prim.round_even %x : tensor<6xf64>
  %3 = prim.sign %x : tensor<6xf64>
  return %0, %1, %2, %3 : tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>
}

// CHECK-DAG: @binary: ok
func.func @binary(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %0 = prim.add %a, %b : tensor<2x3xf64>
  %1 = prim.sub %a, %b : tensor<2x3xf64>
  %2 = prim.mul %a, %b : tensor<2x3xf64>
  %3 = prim.div %a, %b : tensor<2x3xf64>
  %4 = prim.pow %a, %b : tensor<2x3xf64>
  %5 = prim.max %a, %b : tensor<2x3xf64>
  %6 = prim.min %a, %b : tensor<2x3xf64>
  %7 = prim.atan2 %a, %b : tensor<2x3xf64>
  %8 = prim.rem %a, %b : tensor<2x3xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}

// select and clamp; the bool operand gets no gradient.
// CHECK-DAG: @select_clamp: ok
func.func @select_clamp(%a: tensor<8xf64>, %b: tensor<8xf64>, %lo: tensor<8xf64>, %hi: tensor<8xf64>) -> (tensor<8xf64>, tensor<8xf64>) {
  %p = prim.compare gt, %a, %b : tensor<8xf64>
  %0 = prim.select %p, %a, %b : tensor<8xi1>, tensor<8xf64>
  %h = prim.add %hi, %lo : tensor<8xf64>
  %1 = prim.clamp %lo, %a, %h : tensor<8xf64>
  return %0, %1 : tensor<8xf64>, tensor<8xf64>
}

// convert through f32: the differences are only as exact as f32 rounding allows
// (about 6e-8 / 2h), hence the second run with a loose tolerance.
// LOOSE: @convert: ok
func.func @convert(%a: tensor<8xf64>) -> tensor<8xf64> {
  %f = prim.convert %a : tensor<8xf64> to tensor<8xf32>
  %0 = prim.convert %f : tensor<8xf32> to tensor<8xf64>
  return %0 : tensor<8xf64>
}
