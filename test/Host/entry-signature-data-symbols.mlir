// RUN: tcc-opt %s --split-input-file --tcc-entry-signature --verify-diagnostics | FileCheck %s
// Computed symbols (prim.data_symbol): tcc-entry-signature moves their computation into
// @data_symbols(symbols..., inputs...) and gives @main the symbol as an argument like any.

// CHECK-LABEL: func.func @data_symbols
// CHECK-SAME: (%[[N:.*]]: index, %[[C:.*]]: index, %[[LIMIT:.*]]: memref<?xi8>, %{{.*}}: memref<?xi8>) -> index
// CHECK: %[[V:.*]] = memref.view %[[LIMIT]]
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[V]]
// CHECK: %[[X:.*]] = tensor.extract %[[T]][] : tensor<i64>
// CHECK: %[[I:.*]] = arith.index_cast %[[X]] : i64 to index
// CHECK: return %[[I]] : index
// CHECK-LABEL: func.func @output_shapes
// CHECK-SAME: (%{{.*}}: index, %[[C2:.*]]: index) -> index
// CHECK: return %[[C2]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: index {kernel.symbol = "n"}, %[[COUNT:.*]]: index {kernel.symbol = "count"}
// CHECK-NOT: prim.data_symbol
// CHECK: tensor.empty(%[[COUNT]])
module {
  prim.symbol @n
  prim.symbol @count {computed, min = 0 : i64}
  func.func @main(%limit: tensor<i64> {onnx.name = "limit"}, %x: tensor<?xf32> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}) {
    prim.bind_shape %x [@n] affine_map<()[s0] -> (s0)> : tensor<?xf32>
    %l = tensor.extract %limit[] : tensor<i64>
    %i = arith.index_cast %l : i64 to index
    %c = prim.data_symbol @count(%i) : index
    %e = tensor.empty(%c) : tensor<?xf32>
    return %e : tensor<?xf32>
  }
}

// -----

// Arithmetic on one-element tensors (a 0-d linalg.generic, as ONNX's Sub or Cast on scalars
// lower) becomes scalar code: the generic's body with its arguments bound to the elements.
// CHECK-LABEL: func.func @data_symbols
// CHECK-SAME: (%{{.*}}: index, %[[L:.*]]: memref<?xi8>) -> index
// CHECK: %[[T:.*]] = bufferization.to_tensor
// CHECK: %[[X:.*]] = tensor.extract %[[T]][] : tensor<i64>
// CHECK: %[[Y:.*]] = arith.addi %[[X]], %{{.*}} : i64
// CHECK: %[[I:.*]] = arith.index_cast %[[Y]] : i64 to index
// CHECK: return %[[I]] : index
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @output_shapes
module {
  prim.symbol @count {computed, min = 0 : i64}
  func.func @main(%limit: tensor<i64> {onnx.name = "limit"}) -> (tensor<?xf32> {onnx.name = "y"}) {
    %two = arith.constant 2 : i64
    %e0 = tensor.empty() : tensor<i64>
    %plus = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
        ins(%limit : tensor<i64>) outs(%e0 : tensor<i64>) {
      ^bb0(%a: i64, %o: i64):
        %s = arith.addi %a, %two : i64
        linalg.yield %s : i64
    } -> tensor<i64>
    %l = tensor.extract %plus[] : tensor<i64>
    %i = arith.index_cast %l : i64 to index
    %c = prim.data_symbol @count(%i) : index
    %e = tensor.empty(%c) : tensor<?xf32>
    return %e : tensor<?xf32>
  }
}

// -----

// A length computed by anything but scalar arithmetic on input elements is refused.
module {
  prim.symbol @n
  prim.symbol @count {computed, min = 0 : i64}
  func.func @main(%x: tensor<?xi64> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}) {
    prim.bind_shape %x [@n] affine_map<()[s0] -> (s0)> : tensor<?xi64>
    %e0 = tensor.empty() : tensor<i64>
    %r = linalg.reduce ins(%x : tensor<?xi64>) outs(%e0 : tensor<i64>) dimensions = [0]
      (%a: i64, %b: i64) { %m = arith.maxsi %a, %b : i64
                           linalg.yield %m : i64 }
    %l = tensor.extract %r[] : tensor<i64>
    %i = arith.index_cast %l : i64 to index
    // expected-error @+1 {{the extent named by symbol 'count' is computed at run time from 'linalg.reduce'; tcc computes such extents (Range's length) only from graph inputs' elements and scalar arithmetic on them}}
    %c = prim.data_symbol @count(%i) : index
    %e = tensor.empty(%c) : tensor<?xf32>
    return %e : tensor<?xf32>
  }
}
