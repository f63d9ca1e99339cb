// RUN: tcc-opt %s --split-input-file --verify-diagnostics
// Verifier errors of prim ops: each states what was expected and what was found.

func.func @bitwise_reduce_of_floats(%x: tensor<2xf32>) {
  // expected-error @+2 {{reduce and needs integer elements, got 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = prim.reduce and %x dims = [0] : tensor<2xf32> -> tensor<f32>
  return
}

// -----

func.func @bad_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation dim 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = prim.transpose %x, [0, 2] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'prim.transpose' op failed to infer returned types}}
  %0 = prim.transpose %x, [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_mismatch(%x: tensor<3xf32>) {
  // expected-error @+1 {{operand dim 0 (3) cannot broadcast to result dim 1 (4)}}
  %0 = prim.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @missing_extent(%x: tensor<3xf32>) {
  // expected-error @+1 {{expected 1 dynamic sizes for result type 'tensor<?x3xf32>', got 0}}
  %0 = prim.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<?x3xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{operand has 6 elements but the result has 8}}
  %0 = prim.reshape %x : (tensor<2x3xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @slice_out_of_bounds(%x: tensor<4xf32>) {
  // expected-error @+1 {{dim 0 reads up to index 5 of an extent of 4}}
  %0 = prim.slice %x [1] [3] strides [2] : tensor<4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x3x3x3xf32>) {
  // expected-error @+2 {{input has 4 channels, expected filter channels (3) x groups (1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = prim.convolution %x, %w {dilations = array<i64: 1, 1>, feature_group_count = 1 : i64, padding_high = array<i64: 0, 0>, padding_low = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @dot_mismatch(%a: tensor<4x8xf32>, %b: tensor<7x16xf32>) {
  // expected-error @+2 {{lhs dim 1 (8) and rhs dim 0 (7) must agree}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = prim.dot_general %a, %b contracting = [1] x [0] batching = [] x [] : (tensor<4x8xf32>, tensor<7x16xf32>) -> tensor<4x16xf32>
  return
}

// -----

prim.symbol @n
func.func @bind_rank(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{expected 2 map results, got 1}}
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0)> : tensor<?x4xf32>
  return
}

// -----

func.func @bind_unknown_symbol(%x: tensor<?xf32>) {
  // expected-error @+1 {{refers to @nope, which is not a prim.symbol}}
  prim.bind_shape %x [@nope] affine_map<()[s0] -> (s0)> : tensor<?xf32>
  return
}

// -----

// expected-error @+1 {{max (1) is below min (4)}}
prim.symbol @bad {min = 4 : i64, max = 1 : i64}

// -----

func.func @scatter_tuple_too_long(%x: tensor<2x3xf32>, %i: tensor<4x3xi64>, %u: tensor<4xf32>) {
  // expected-error @+1 {{the last dim of indices (the index tuple length) must be static and in [1, 2], got 3}}
  %0 = prim.scatter %x[%i], %u : (tensor<2x3xf32>, tensor<4x3xi64>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @scatter_updates_shape(%x: tensor<2x3xf32>, %i: tensor<4x1xi64>, %u: tensor<4x2xf32>) {
  // expected-error @+1 {{updates dim 1 is 2, expected 3}}
  %0 = prim.scatter %x[%i], %u : (tensor<2x3xf32>, tensor<4x1xi64>, tensor<4x2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @scatter_combine(%x: tensor<2x3xi32>, %i: tensor<4x2xi64>, %u: tensor<4xi32>) {
  // expected-error @+1 {{combine must be sum, prod, max or min}}
  %0 = prim.scatter %x[%i], %u combine = xor : (tensor<2x3xi32>, tensor<4x2xi64>, tensor<4xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @sort_dim(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = prim.sort %x dim = 2 : tensor<2x3xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  return
}

// -----

func.func @compact_mask_length(%x: tensor<4x3xf32>, %m: tensor<3xi1>) {
  // expected-error @+1 {{mask has 3 entries, expected 4 (the operand's extent along dim 0)}}
  %0 = prim.compact %x, %m dim = 0 : (tensor<4x3xf32>, tensor<3xi1>) -> tensor<?x3xf32>
  return
}

// -----

func.func @compact_result_type(%x: tensor<4x3xf32>, %m: tensor<3xi1>) {
  // expected-error @+1 {{result type must be 'tensor<4x?xf32>' (the operand's, with dim 1 dynamic), got 'tensor<4x3xf32>'}}
  %0 = prim.compact %x, %m dim = 1 : (tensor<4x3xf32>, tensor<3xi1>) -> tensor<4x3xf32>
  return
}

// -----

func.func @loop_types(%n: index, %x: tensor<4xf32>) {
  // expected-error @+1 {{the body must yield the types of the carried values}}
  %0 = prim.loop %n carrying(%x : tensor<4xf32>) {
  ^bb0(%i: index, %h: tensor<4xf32>):
    %c = arith.constant dense<0.0> : tensor<2xf32>
    prim.yield %c : tensor<2xf32>
  } -> tensor<4xf32>
  return
}

// -----

// prim.invariant_extents marks an scf.for, with no value.
func.func @invariant_extents_on_function() attributes {prim.invariant_extents} {
  // expected-error @-1 {{'prim.invariant_extents' is only valid on an scf.for, not on 'func.func'}}
  return
}

// -----

func.func @invariant_extents_value(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'prim.invariant_extents' expects no value, got 1 : i64}}
  scf.for %i = %c0 to %n step %c1 {
  } {prim.invariant_extents = 1}
  return
}

// -----

// expected-error @+1 {{unknown attribute 'prim.fast' of the prim dialect}}
func.func @unknown_attribute() attributes {prim.fast} {
  return
}
