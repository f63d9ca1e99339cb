// RUN: tcc-opt %s --tcc-test-evaluate | FileCheck %s
// Evaluation errors: each names the op and its location and says what went wrong.

prim.symbol @batch
prim.symbol @small {max = 2 : i64}

// CHECK: @gather_out_of_range error: prim.gather at {{.*}}errors.mlir:[[@LINE+4]]:8: index -1 at position 1 is out of range [0, 3)
func.func @gather_out_of_range() -> tensor<2xf32> {
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = arith.constant dense<[0, -1]> : tensor<2xi64>
  %0 = prim.gather %x[%i] axis = 0 : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// An ONNX node name (NameLoc) is the location.
// CHECK: @gather_named_location error: prim.gather at 'node_7': index 3 at position 0 is out of range [0, 3)
func.func @gather_named_location() -> tensor<1xf32> {
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = arith.constant dense<[3]> : tensor<1xi32>
  %0 = prim.gather %x[%i] axis = 0 : (tensor<3xf32>, tensor<1xi32>) -> tensor<1xf32> loc("node_7")
  return %0 : tensor<1xf32>
}

// CHECK: @check_failure error: prim.check at {{.*}}: input 'x' dim 0 (batch) must equal input 'y' dim 0
func.func @check_failure() -> index {
  %a = arith.constant 2 : index
  %b = arith.constant 3 : index
  %ok = arith.cmpi eq, %a, %b : index
  prim.check %ok, "input 'x' dim 0 (batch) must equal input 'y' dim 0"
  return %a : index
}

// CHECK: @bind_shape_inconsistent error: prim.bind_shape at {{.*}}: dim 0 is 3 but symbol @batch is already bound to 2
func.func @bind_shape_inconsistent() -> index {
  %x = arith.constant dense<0.0> : tensor<2x3xf32>
  %y = arith.constant dense<0.0> : tensor<3x3xf32>
  prim.bind_shape %x [@batch] affine_map<()[s0] -> (s0, 3)> : tensor<2x3xf32>
  prim.bind_shape %y [@batch] affine_map<()[s0] -> (s0, 3)> : tensor<3x3xf32>
  %c = arith.constant 0 : index
  return %c : index
}

// The verifier cannot check a constant against a dynamic dim; the evaluator does.
// CHECK: @bind_shape_constant error: prim.bind_shape at {{.*}}: dim 0 is 3 but the shape map says 4
func.func @bind_shape_constant() -> index {
  %n = arith.constant 3 : index
  %one = arith.constant dense<1.0> : tensor<1xf32>
  %x = prim.broadcast_in_dim %one, dims = [0] sizes(%n) : (tensor<1xf32>) -> tensor<?xf32>
  prim.bind_shape %x [@batch] affine_map<()[s0] -> (4)> : tensor<?xf32>
  return %n : index
}

// CHECK: @bind_shape_expression error: prim.bind_shape at {{.*}}: dim 1 is 5 but the shape map says s0 * 2 = 4
func.func @bind_shape_expression() -> index {
  %n = arith.constant 2 : index
  %m = arith.constant 5 : index
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  %x = prim.broadcast_in_dim %one, dims = [0, 1] sizes(%n, %m) : (tensor<1x1xf32>) -> tensor<?x?xf32>
  prim.bind_shape %x [@batch] affine_map<()[s0] -> (s0, s0 * 2)> : tensor<?x?xf32>
  return %n : index
}

// CHECK: @symbol_out_of_range error: prim.bind_shape at {{.*}}: symbol @small = 3 is outside its range: min 1, max 2, divisor 1
func.func @symbol_out_of_range() -> index {
  %x = arith.constant dense<0.0> : tensor<3xf32>
  prim.bind_shape %x [@small] affine_map<()[s0] -> (s0)> : tensor<3xf32>
  %c = arith.constant 0 : index
  return %c : index
}

// CHECK: @unsupported_op error: tensor.insert at {{.*}}: unsupported op
func.func @unsupported_op() -> tensor<2xf32> {
  %x = arith.constant dense<0.0> : tensor<2xf32>
  %v = arith.constant 1.0 : f32
  %c = arith.constant 0 : index
  %0 = tensor.insert %v into %x[%c] : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK: @unsupported_type error: arith.constant at {{.*}}: unsupported element type f8E4M3FN
func.func @unsupported_type() -> tensor<2xf8E4M3FN> {
  %0 = arith.constant dense<1.0> : tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}

// CHECK: @reshape_mismatch error: prim.reshape at {{.*}}: cannot reshape 2x3 (6 elements) to 5 (5 elements)
func.func @reshape_mismatch() -> tensor<?xf32> {
  %x = arith.constant dense<0.0> : tensor<2x3xf32>
  %n = arith.constant 5 : index
  %0 = prim.reshape %x sizes(%n) : (tensor<2x3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK: @slice_out_of_range error: prim.slice at {{.*}}: dim 0 reads from index 3 with 2 elements and stride 1, beyond the extent 4
func.func @slice_out_of_range() -> tensor<2xf32> {
  %x = arith.constant dense<0.0> : tensor<4xf32>
  %o = arith.constant 3 : index
  %0 = prim.slice %x [%o] [2] strides [1] : tensor<4xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK: @broadcast_mismatch error: prim.broadcast_in_dim at {{.*}}: operand dim 0 (3) cannot broadcast to result dim 0 (4)
func.func @broadcast_mismatch() -> tensor<?xf32> {
  %x = arith.constant dense<0.0> : tensor<3xf32>
  %n = arith.constant 4 : index
  %0 = prim.broadcast_in_dim %x, dims = [0] sizes(%n) : (tensor<3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK: @negative_size error: prim.iota at {{.*}}: dynamic size 0 is negative: -1
func.func @negative_size() -> tensor<?xi32> {
  %n = arith.constant -1 : index
  %0 = prim.iota dim = 0 sizes(%n) : tensor<?xi32>
  return %0 : tensor<?xi32>
}

// CHECK: @dot_mismatch error: prim.dot_general at {{.*}}: lhs dim 1 (3) and rhs dim 0 (2) must agree
func.func @dot_mismatch() -> tensor<?x?xf32> {
  %a = arith.constant dense<0.0> : tensor<2x3xf32>
  %b = arith.constant dense<0.0> : tensor<2x2xf32>
  %da = tensor.cast %a : tensor<2x3xf32> to tensor<?x?xf32>
  %db = tensor.cast %b : tensor<2x2xf32> to tensor<?x?xf32>
  %0 = prim.dot_general %da, %db contracting = [1] x [0] batching = [] x []
      : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK: @elementwise_mismatch error: prim.add at {{.*}}: operand 1 has shape 3 but operand 0 has shape 2
func.func @elementwise_mismatch() -> tensor<?xf32> {
  %a = arith.constant dense<0.0> : tensor<2xf32>
  %b = arith.constant dense<0.0> : tensor<3xf32>
  %da = tensor.cast %a : tensor<2xf32> to tensor<?xf32>
  %db = tensor.cast %b : tensor<3xf32> to tensor<?xf32>
  %0 = prim.add %da, %db : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK: @cast_mismatch error: tensor.cast at {{.*}}: result 0 is 3 of f32, expected tensor<4xf32>
func.func @cast_mismatch() -> tensor<4xf32> {
  %a = arith.constant dense<0.0> : tensor<3xf32>
  %d = tensor.cast %a : tensor<3xf32> to tensor<?xf32>
  %0 = tensor.cast %d : tensor<?xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// arith leaves these undefined; the evaluator refuses to invent a value.
// CHECK: @arith_division_by_zero error: arith.divsi at {{.*}}: division by zero
func.func @arith_division_by_zero() -> index {
  %a = arith.constant 7 : index
  %b = arith.constant 0 : index
  %0 = arith.divsi %a, %b : index
  return %0 : index
}

// CHECK: @arith_division_overflow error: arith.divsi at {{.*}}: signed division overflow
func.func @arith_division_overflow() -> i32 {
  %a = arith.constant -2147483648 : i32
  %b = arith.constant -1 : i32
  %0 = arith.divsi %a, %b : i32
  return %0 : i32
}

// CHECK: @extract_out_of_range error: tensor.extract at {{.*}}: index 2 of dim 0 is out of range [0, 2)
func.func @extract_out_of_range() -> f32 {
  %x = arith.constant dense<0.0> : tensor<2xf32>
  %c = arith.constant 2 : index
  %0 = tensor.extract %x[%c] : tensor<2xf32>
  return %0 : f32
}

// CHECK: @arg_reduce_empty error: prim.arg_reduce at {{.*}}: cannot take the arg of an empty dim 1
func.func @arg_reduce_empty() -> tensor<2xi64> {
  %x = arith.constant dense<> : tensor<2x0xf32>
  %0 = prim.arg_reduce argmax %x dim = 1 : tensor<2x0xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// CHECK: @missing_resource error: arith.constant at {{.*}}: dense_resource 'absent' has no data (its blob is missing or was released)
func.func @missing_resource() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<absent> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK: @short_resource error: arith.constant at {{.*}}: dense_resource 'short' holds 8 bytes, expected 16 for 4
func.func @short_resource() -> tensor<4xi32> {
  %0 = arith.constant dense_resource<short> : tensor<4xi32>
  return %0 : tensor<4xi32>
}

{-#
  dialect_resources: {
    builtin: {
      short: "0x040000000100000002000000"
    }
  }
#-}
