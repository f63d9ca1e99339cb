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
