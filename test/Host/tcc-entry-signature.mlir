// RUN: tcc-opt %s --split-input-file --tcc-entry-signature --verify-diagnostics | FileCheck %s
// @main gets the model ABI's signature: symbol values first, then raw byte buffers for the
// inputs (read through views whose extents come from the bind_shape maps) and the outputs
// (the results are materialized into views of them). Every dim of an input becomes
// arithmetic over the symbols; output extents are published by @output_shapes.

// CHECK: module attributes {kernel.output_symbols = [array<i32: -1, 0>, array<i32: 0>]}
// CHECK-LABEL: func.func @output_shapes
// CHECK-SAME: (%[[B:.*]]: index, %[[S:.*]]: index) -> (index, index, index)
// CHECK: %[[TWICE:.*]] = affine.apply #{{.*}}()[%[[S]]]
// CHECK: return %[[TWICE]], %[[B]], %[[B]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[BATCH:[a-z0-9]+]]: index {kernel.symbol = "batch"}, %[[SEQ:[a-z0-9]+]]: index {kernel.symbol = "seq"},
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xi8> {onnx.name = "x"}, %[[WIN:[a-z0-9]+]]: memref<?xi8> {onnx.name = "w"},
// CHECK-SAME: %[[Y:[a-z0-9]+]]: memref<?xi8> {onnx.name = "y"}, %[[Z:[a-z0-9]+]]: memref<?xi8> {onnx.name = "z"})
// CHECK-NOT: prim.bind_shape
// CHECK: %[[OUT:.*]] = memref.view %[[Y]][%{{.*}}][%{{.*}}, %[[BATCH]]] : memref<?xi8> to memref<?x?xf32>
// CHECK: %[[OUT2:.*]] = memref.view %[[Z]][%{{.*}}][%[[BATCH]]] : memref<?xi8> to memref<?xf32>
// CHECK: %[[IN:.*]] = memref.view %[[X]][%{{.*}}][%[[BATCH]], %[[SEQ]]] : memref<?xi8> to memref<?x?xf32>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[IN]] restrict : memref<?x?xf32>
// CHECK: %[[W:.*]] = bufferization.to_tensor
// CHECK: %[[TWO_S:.*]] = affine.apply #{{.*}}()[%[[SEQ]]]
// CHECK: tensor.empty(%[[TWO_S]], %[[BATCH]])
// CHECK: %[[C:.*]] = tensor.concat dim(1) %[[T]], %[[T]]
// CHECK: linalg.transpose ins(%[[C]]
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[OUT]]
// CHECK: bufferization.materialize_in_destination %[[W]] in restrict writable %[[OUT2]]
// CHECK: return{{$}}
prim.symbol @batch
prim.symbol @seq
func.func @main(%x: tensor<?x?xf32> {onnx.name = "x"}, %w: tensor<?xf32> {onnx.name = "w"})
    -> (tensor<?x?xf32> {onnx.name = "y"}, tensor<?xf32> {onnx.name = "z"}) {
  prim.bind_shape %x [@batch, @seq] affine_map<()[s0, s1] -> (s0, s1)> : tensor<?x?xf32>
  prim.bind_shape %w [@batch] affine_map<()[s0] -> (s0)> : tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %twice = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%d1]
  %e = tensor.empty(%twice, %d0) : tensor<?x?xf32>
  %c = tensor.concat dim(1) %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %t = linalg.transpose ins(%c : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) permutation = [1, 0]
  return %t, %w : tensor<?x?xf32>, tensor<?xf32>
}

// -----

// An output whose extent is read from tensor data cannot be sized before the run.
prim.symbol @n
// expected-error @+2 {{output 'y' dim 0: its extent depends on the data and has no known upper bound}}
// expected-note @+1 {{where the extent follows from an input's dims, give those dims a range (tcc --dim NAME=MIN:MAX), which bounds it}}
func.func @main(%x: tensor<?xi64> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}) {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0)> : tensor<?xi64>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %x[%c0] : tensor<?xi64>
  %m = arith.index_cast %v : i64 to index
  %e = tensor.empty(%m) : tensor<?xf32>
  return %e : tensor<?xf32>
}

// -----

// A dynamic input dim must be bound to symbols.
// expected-error @+1 {{input 'x' dim 0 is dynamic but bound to no symbol}}
func.func @main(%x: tensor<?xf32> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}) {
  return %x : tensor<?xf32>
}

// -----

// An input dim that is an expression of symbols could not be bound by the runtime.
prim.symbol @n
// expected-error @+1 {{input 'x' dim 0 is the expression s0 * 2 of symbols; input dims must be a symbol alone}}
func.func @main(%x: tensor<?xf32> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}) {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0 * 2)> : tensor<?xf32>
  return %x : tensor<?xf32>
}

// -----

// A data-dependent output (prim.compact's lowering: the first min(count, n) slices of a
// buffer of the operand's size): @output_shapes publishes the upper bound (n),
// kernel.output_symbols marks the dim -2, the output view is made at the end with the actual
// count, and @main reports it through tcc_report_output_extent(output, dim, extent).
// CHECK: module attributes {kernel.output_symbols = [array<i32: -2, -1>]}
// CHECK: func.func private @tcc_report_output_extent(index, index, index)
// CHECK-LABEL: func.func @output_shapes
// CHECK-SAME: (%[[N:.*]]: index) -> (index, index)
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: return %[[N]], %[[C3]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: index {kernel.symbol = "n"}, %{{.*}}: memref<?xi8> {onnx.name = "x"}, %[[Y:.*]]: memref<?xi8> {onnx.name = "y"})
// CHECK: %[[LOOP:.*]]:2 = scf.for
// CHECK: %[[COUNT:.*]] = tensor.extract %[[LOOP]]#1[]
// CHECK: %[[CAST:.*]] = arith.index_cast %[[COUNT]]
// CHECK: %[[K:.*]] = arith.minui %[[CAST]]
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[LOOP]]#0[0, 0] [%[[K]], 3] [1, 1]
// CHECK: %[[VIEW:.*]] = memref.view %[[Y]][%{{.*}}][%[[K]]] : memref<?xi8> to memref<?x3xf32>
// CHECK: bufferization.materialize_in_destination %[[SLICE]] in restrict writable %[[VIEW]]
// CHECK: call @tcc_report_output_extent(%{{.*}}, %{{.*}}, %[[K]]) : (index, index, index) -> ()
prim.symbol @n
func.func @main(%x: tensor<?x3xf32> {onnx.name = "x"}) -> (tensor<?x3xf32> {onnx.name = "y"}) {
  prim.bind_shape %x [@n] affine_map<()[s0] -> (s0, 3)> : tensor<?x3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %full0 = tensor.empty(%n) : tensor<?x3xf32>
  %zero = arith.constant dense<0> : tensor<i64>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%full = %full0, %count = %zero)
      -> (tensor<?x3xf32>, tensor<i64>) {
    %c = tensor.extract %count[] : tensor<i64>
    %at = arith.index_cast %c : i64 to index
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<?x3xf32> to tensor<1x3xf32>
    %stored = tensor.insert_slice %row into %full[%at, 0] [1, 3] [1, 1] : tensor<1x3xf32> into tensor<?x3xf32>
    %one = arith.constant 1 : i64
    %next = arith.addi %c, %one : i64
    %counted = tensor.insert %next into %count[] : tensor<i64>
    scf.yield %stored, %counted : tensor<?x3xf32>, tensor<i64>
  }
  %kept = tensor.extract %r#1[] : tensor<i64>
  %count = arith.index_cast %kept : i64 to index
  %k = arith.minui %count, %n : index
  %y = tensor.extract_slice %r#0[0, 0] [%k, 3] [1, 1] : tensor<?x3xf32> to tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// -----

// Parameters (arguments marked kernel.parameter by tcc-autodiff) become views of one raw
// buffer, the last argument, 64-byte aligned in order; their initial values and offsets go
// to kernel.parameters. A result marked kernel.update_of is written over its parameter instead of
// being an output.
// CHECK: module attributes {kernel.output_symbols = [array<i32: -1>], kernel.parameters = [{name = "w", offset = 0 : i64, value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>}, {name = "v", offset = 64 : i64, value = dense<5.000000e-01> : tensor<2xf32>}], kernel.parameters_size = 128 : i64}
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: memref<?xi8> {onnx.name = "x"}, %[[OUT:.*]]: memref<?xi8> {onnx.name = "y"}, %[[P:.*]]: memref<?xi8> {kernel.parameters})
// CHECK: %[[W:.*]] = memref.view %[[P]][%c0{{.*}}][] : memref<?xi8> to memref<3xf32>
// CHECK: bufferization.to_tensor %[[W]] restrict
// CHECK: %[[WNEW:.*]] = memref.view %[[P]][%c0{{.*}}][] : memref<?xi8> to memref<3xf32>
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %[[WNEW]]
func.func @main(%x: tensor<3xf32> {onnx.name = "x"},
                %w: tensor<3xf32> {onnx.name = "w", kernel.parameter = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>},
                %v: tensor<2xf32> {onnx.name = "v", kernel.parameter = dense<0.5> : tensor<2xf32>})
    -> (tensor<3xf32> {onnx.name = "y"}, tensor<3xf32> {onnx.name = "update.w", kernel.update_of = "w"}) {
  %y = prim.mul %x, %w : tensor<3xf32>
  %n = prim.sub %w, %x : tensor<3xf32>
  return %y, %n : tensor<3xf32>, tensor<3xf32>
}
