// RUN: tcc-opt %s --tcc-approximate-math | FileCheck %s
// No math library: transcendental ops become polynomials; instructions stay.

// CHECK-LABEL: func.func @math
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.sinh
// CHECK: math.sqrt
func.func @math(%x: f32) -> (f32, f32, f32, f32, f32) {
  %0 = math.exp %x : f32
  %1 = math.tanh %x : f32
  %2 = math.erf %x : f32
  %3 = math.sinh %x : f32
  %4 = math.sqrt %x : f32
  return %0, %1, %2, %3, %4 : f32, f32, f32, f32, f32
}

// f64 has no polynomial approximation upstream: it is computed in f32.
// CHECK-LABEL: func.func @math_f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK-NOT: math.exp
// CHECK: arith.extf %{{.*}} : f32 to f64
func.func @math_f64(%x: f64) -> f64 {
  %0 = math.exp %x : f64
  return %0 : f64
}

// fma stays one op (one rounding; the sigmoid's exponent rounding relies on it).
// CHECK-LABEL: func.func @fused
// CHECK: %[[F:.*]] = math.fma %arg0, %arg1, %arg2 : vector<16xf32>
// CHECK-NEXT: return %[[F]]
func.func @fused(%a: vector<16xf32>, %b: vector<16xf32>, %c: vector<16xf32>) -> vector<16xf32> {
  %0 = math.fma %a, %b, %c : vector<16xf32>
  return %0 : vector<16xf32>
}

// max/min with a constant that is not NaN: one compare and select (one vmaxps/vminps),
// keeping a NaN x. With a variable other side, the general op stays.
// CHECK-LABEL: func.func @clip
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[SIX:.*]] = arith.constant dense<6.000000e+00> : vector<16xf32>
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %arg0, %[[ZERO]] : vector<16xf32>
// CHECK: %[[LOW:.*]] = arith.select %[[BELOW]], %[[ZERO]], %arg0
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[LOW]], %[[SIX]] : vector<16xf32>
// CHECK: %[[HIGH:.*]] = arith.select %[[ABOVE]], %[[SIX]], %[[LOW]]
// CHECK: arith.maximumf %[[HIGH]], %arg1
func.func @clip(%x: vector<16xf32>, %y: vector<16xf32>) -> vector<16xf32> {
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %six = arith.constant dense<6.0> : vector<16xf32>
  %0 = arith.maximumf %x, %zero : vector<16xf32>
  %1 = arith.minimumf %0, %six : vector<16xf32>
  %2 = arith.maximumf %1, %y : vector<16xf32>
  return %2 : vector<16xf32>
}

// powf with a constant base: each powf of the input gets the signed expansion once, and the
// power of |x| it creates is left for the exp/log expansion, even where |x| folds to a
// constant (matching it again was a rewrite loop that never ended).
// CHECK-LABEL: func.func @pow_constant_base
// CHECK-NOT: math.powf
// CHECK: return
func.func @pow_constant_base(%y: f32) -> (f32, f32) {
  %negative = arith.constant -2.0 : f32
  %positive = arith.constant 3.0 : f32
  %a = math.powf %negative, %y : f32
  %b = math.powf %positive, %y : f32
  return %a, %b : f32, f32
}
