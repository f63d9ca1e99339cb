// RUN: tcc-opt %s --tcc-lower-prim-to-linalg | FileCheck %s
// Elementwise ops, broadcast_in_dim and iota -> linalg.generic; dim -> tensor.dim; checks stay.

// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$BCAST:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-DAG: #[[$ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @add
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<?x4xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<?x4xf32>, tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @add(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = prim.add %a, %b : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// x / 0 = 0 and INT_MIN / -1 = INT_MIN: divide by a safe divisor, then select.
// CHECK-LABEL: func.func @div_i32
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i32
// CHECK: %[[SAFE:.*]] = arith.select %[[IS0]], %[[ONE]], %[[Y]] : i32
// CHECK: %[[OVF:.*]] = arith.andi
// CHECK: %[[SAFE2:.*]] = arith.select %[[OVF]], %[[ONE]], %[[SAFE]] : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[X]], %[[SAFE2]] : i32
// CHECK: %[[R:.*]] = arith.select %[[IS0]], %[[ZERO]], %[[Q]] : i32
// CHECK: linalg.yield %[[R]] : i32
func.func @div_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = prim.div %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Shifts by >= the bit width give 0.
// CHECK-LABEL: func.func @shift_left
// CHECK: %[[W:.*]] = arith.constant 32 : i32
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %{{.*}}, %[[W]] : i32
// CHECK: %[[SH:.*]] = arith.shli
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: arith.select %[[FAR]], %[[Z]], %[[SH]] : i32
func.func @shift_left(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = prim.shift_left %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @compare_select
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4xi1>)
// CHECK: arith.cmpf olt
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]}
// CHECK-SAME: ins(%[[P]], %{{.*}}, %{{.*}} : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
// CHECK: arith.select
func.func @compare_select(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %p = prim.compare lt, %a, %b : tensor<4xf32>
  %0 = prim.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  return %0 : tensor<4xf32>
}

// float -> int truncates and saturates; NaN gives 0. To at most 16 bits the float is
// clamped to the target's range and converted exactly (max(NaN, -128) is -128: NaN is
// selected to 0 after the conversion).
// CHECK-LABEL: func.func @convert_f32_to_i8
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK: %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK: %[[C1:.*]] = arith.maxnumf %[[X]], %[[LO]] : f32
// CHECK: %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: %[[C2:.*]] = arith.minnumf %[[C1]], %[[HI]] : f32
// CHECK: %[[W:.*]] = arith.fptosi %[[C2]] : f32 to i32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: %[[S:.*]] = arith.select %[[NAN]], %[[Z]], %[[W]] : i32
// CHECK: arith.trunci %[[S]] : i32 to i8
func.func @convert_f32_to_i8(%a: tensor<4xf32>) -> tensor<4xi8> {
  %0 = prim.convert %a : tensor<4xf32> to tensor<4xi8>
  return %0 : tensor<4xi8>
}

// To 32 bits (bounds 2^31 not below the largest float under them): compares against exact
// powers of two, then selects.
// CHECK-LABEL: func.func @convert_f32_to_i32
// CHECK: %[[T:.*]] = arith.fptosi %{{.*}} : f32 to i32
// CHECK: %[[HI:.*]] = arith.cmpf oge, %{{.*}}, %{{.*}} : f32
// CHECK: %[[LO:.*]] = arith.cmpf ole, %{{.*}}, %{{.*}} : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno
// CHECK: %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK: %[[R1:.*]] = arith.select %[[HI]], %[[MAX]], %[[T]] : i32
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[R2:.*]] = arith.select %[[LO]], %[[MIN]], %[[R1]] : i32
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: arith.select %[[NAN]], %[[Z]], %[[R2]] : i32
func.func @convert_f32_to_i32(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = prim.convert %a : tensor<4xf32> to tensor<4xi32>
  return %0 : tensor<4xi32>
}

// An operand extent of 1 stretched to a larger extent reads index 0.
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: %[[A:.*]]: tensor<1x4xf32>, %[[N:.*]]: index
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$BCAST]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]] : tensor<1x4xf32>) outs(%[[E]] : tensor<?x3x4xf32>)
func.func @broadcast(%a: tensor<1x4xf32>, %n: index) -> tensor<?x3x4xf32> {
  %0 = prim.broadcast_in_dim %a, dims = [0, 2] sizes(%n) : (tensor<1x4xf32>) -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}

// CHECK-LABEL: func.func @iota
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: arith.sitofp %[[I64]] : i64 to f32
func.func @iota() -> tensor<2x3xf32> {
  %0 = prim.iota dim = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @dim_check
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<?x4xf32>
// CHECK: %[[DA:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[DB:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[DA]], %[[DB]] : index
// CHECK: prim.check %[[OK]], "a and b must agree"
func.func @dim_check(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> index {
  %0 = prim.dim %a, 0 : tensor<?x4xf32>
  %1 = prim.dim %b, 0 : tensor<?x4xf32>
  %ok = arith.cmpi eq, %0, %1 : index
  prim.check %ok, "a and b must agree"
  return %0 : index
}

// Unsigned elements: the generic computes on signless tensors, joined to the unsigned ones
// by casts (removed by tcc-signless-types); the operations are the unsigned ones.
// CHECK-LABEL: func.func @max_ui8
// CHECK-SAME: %[[A:.*]]: tensor<?x4xui8>, %[[B:.*]]: tensor<?x4xui8>
// CHECK-DAG: %[[SA:.*]] = builtin.unrealized_conversion_cast %[[A]] : tensor<?x4xui8> to tensor<?x4xi8>
// CHECK-DAG: %[[SB:.*]] = builtin.unrealized_conversion_cast %[[B]] : tensor<?x4xui8> to tensor<?x4xi8>
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x4xi8>
// CHECK: %[[M:.*]] = linalg.generic
// CHECK-SAME: ins(%[[SA]], %[[SB]] : tensor<?x4xi8>, tensor<?x4xi8>) outs(%[[E]] : tensor<?x4xi8>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT: arith.maxui %[[X]], %[[Y]] : i8
// CHECK: %[[R:.*]] = builtin.unrealized_conversion_cast %[[M]] : tensor<?x4xi8> to tensor<?x4xui8>
// CHECK: return %[[R]] : tensor<?x4xui8>
func.func @max_ui8(%a: tensor<?x4xui8>, %b: tensor<?x4xui8>) -> tensor<?x4xui8> {
  %0 = prim.max %a, %b : tensor<?x4xui8>
  return %0 : tensor<?x4xui8>
}

// |x| = x and sign(x) = x != 0 ? 1 : 0 for unsigned x.
// CHECK-LABEL: func.func @abs_sign_ui16
// CHECK: ^bb0(%[[X:.*]]: i16, %{{.*}}: i16):
// CHECK-NEXT: linalg.yield %[[X]] : i16
// CHECK: ^bb0(%[[X:.*]]: i16, %{{.*}}: i16):
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i16
// CHECK: %[[ONE:.*]] = arith.constant 1 : i16
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[X]], %[[ZERO]] : i16
// CHECK: %[[S:.*]] = arith.select %[[NZ]], %[[ONE]], %[[X]] : i16
// CHECK-NEXT: linalg.yield %[[S]] : i16
func.func @abs_sign_ui16(%a: tensor<4xui16>) -> (tensor<4xui16>, tensor<4xui16>) {
  %0 = prim.abs %a : tensor<4xui16>
  %1 = prim.sign %a : tensor<4xui16>
  return %0, %1 : tensor<4xui16>, tensor<4xui16>
}

// An unsigned exponent is never negative: math.ipowi on both zero-extended to twice the
// width, truncated.
// CHECK-LABEL: func.func @pow_ui32
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[WX:.*]] = arith.extui %[[X]] : i32 to i64
// CHECK-NEXT: %[[WY:.*]] = arith.extui %[[Y]] : i32 to i64
// CHECK-NEXT: %[[P:.*]] = math.ipowi %[[WX]], %[[WY]] : i64
// CHECK-NEXT: %[[R:.*]] = arith.trunci %[[P]] : i64 to i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @pow_ui32(%a: tensor<4xui32>, %b: tensor<4xui32>) -> tensor<4xui32> {
  %0 = prim.pow %a, %b : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// Saturation to [0, 255]: max(x, 0) (NaN -> 0), min(., 255), fptosi to i32, truncated;
// unsigned -> float with uitofp, -> wider with extui.
// CHECK-LABEL: func.func @convert_unsigned
// CHECK: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[C1:.*]] = arith.maxnumf %{{.*}}, %[[LO]] : f32
// CHECK: %[[HI:.*]] = arith.constant 2.550000e+02 : f32
// CHECK: %[[C2:.*]] = arith.minnumf %[[C1]], %[[HI]] : f32
// CHECK: %[[W:.*]] = arith.fptosi %[[C2]] : f32 to i32
// CHECK-NOT: arith.cmpf
// CHECK: arith.trunci %[[W]] : i32 to i8
// CHECK: %[[SU:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<4xi8> to tensor<4xui8>
// CHECK: %[[SS:.*]] = builtin.unrealized_conversion_cast %[[SU]] : tensor<4xui8> to tensor<4xi8>
// CHECK: linalg.generic {{.*}} ins(%[[SS]] : tensor<4xi8>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK: arith.extui %{{.*}} : i8 to i32
func.func @convert_unsigned(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = prim.convert %a : tensor<4xf32> to tensor<4xui8>
  %1 = prim.convert %0 : tensor<4xui8> to tensor<4xf32>
  %2 = prim.convert %0 : tensor<4xui8> to tensor<4xi32>
  return %1, %2 : tensor<4xf32>, tensor<4xi32>
}

// A splat constant operand becomes a scalar in the body, not a tensor the kernel reads.
// CHECK-LABEL: func.func @splat_operand
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0 : tensor<2x3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.maximumf %{{.*}}, %[[ZERO]] : f32
func.func @splat_operand(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x3xf32>
  %0 = prim.max %x, %zero : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// float32 sigmoid: m / (1 + e^z) with z = max(-|x|, -87.33) (sign bit set, then clamped),
// e^z = 2^k e^r by the rounding constant's bits and a polynomial of fmas, m = e^z for x < 0
// and 1 otherwise; the division is a reciprocal estimate (arcp). float64 keeps 1 / (1 + e^-x).
// CHECK-LABEL: func.func @logistic
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: %[[NEG:.*]] = arith.ori %[[BITS]], %{{.*}} : i32
// CHECK: %[[Z0:.*]] = arith.bitcast %[[NEG]] : i32 to f32
// CHECK: %[[LOW:.*]] = arith.cmpf olt, %[[Z0]], %{{.*}} : f32
// CHECK: %[[Z:.*]] = arith.select %[[LOW]], %{{.*}}, %[[Z0]] : f32
// CHECK: %[[T:.*]] = math.fma %[[Z]], %{{.*}}, %{{.*}} : f32
// CHECK: math.fma
// CHECK: %[[SHIFTED:.*]] = arith.shli %{{.*}}, %{{.*}} : i32
// CHECK: %[[SCALE:.*]] = arith.bitcast %[[SHIFTED]] : i32 to f32
// CHECK: %[[E:.*]] = arith.mulf %{{.*}}, %[[SCALE]] : f32
// CHECK: %[[NEGATIVE:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : f32
// CHECK: %[[M:.*]] = arith.select %[[NEGATIVE]], %[[E]], %{{.*}} : f32
// CHECK: %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// CHECK: arith.divf %[[M]], %[[D]] fastmath<ninf,arcp> : f32
// CHECK-LABEL: func.func @logistic_f64
// CHECK: math.exp
// CHECK: arith.divf
func.func @logistic(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = prim.logistic %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @logistic_f64(%x: tensor<8xf64>) -> tensor<8xf64> {
  %0 = prim.logistic %x : tensor<8xf64>
  return %0 : tensor<8xf64>
}

// tanh and erf are odd: the approximation's result takes x's sign (f(-0) = -0).
// CHECK-LABEL: func.func @odd
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK: math.copysign %[[T]], %[[X]] : f32
func.func @odd(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = prim.tanh %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}
