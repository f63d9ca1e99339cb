// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// The user-facing errors of the indexing rules (lib/Decompose/Indexing.cpp): each names the
// node, its op type and opset, and what was expected.

module {
  func.func @gather_float_indices(%d: tensor<3xf32>, %i: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Gather, opset 13): input 1 has type 'tensor<2xf32>', expected an integer index tensor
    %0 = onnx.node "Gather" opset 13 (%d, %i) {} : (tensor<3xf32>, tensor<2xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gather_bool_indices(%d: tensor<3x2xf32>, %i: tensor<2xi1>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (GatherElements, opset 13): input 1 has type 'tensor<2xi1>', expected an integer index tensor
    %0 = onnx.node "GatherElements" opset 13 (%d, %i) {} : (tensor<3x2xf32>, tensor<2xi1>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gather_shape_range(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
    %i = arith.constant dense<[0, 3]> : tensor<2xi64>
    %s = onnx.node "Shape" opset 13 (%x) {} : (tensor<2x3x4xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    // CHECK: error: node 'g' (Gather, opset 13): index 3 is out of range for a dim of extent 3
    %0 = onnx.node "Gather" opset 13 (%s, %i) {} : (!onnx.value, tensor<2xi64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gather_axis(%d: tensor<3x2xf32>, %i: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (Gather, opset 13): axis -3 is out of range for rank 2
    %0 = onnx.node "Gather" opset 13 (%d, %i) {axis = -3 : i64} : (tensor<3x2xf32>, tensor<2xi64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gather_elements_rank(%d: tensor<3x2xf32>, %i: tensor<2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (GatherElements, opset 13): indices have rank 1, expected the data's rank 2
    %0 = onnx.node "GatherElements" opset 13 (%d, %i) {} : (tensor<3x2xf32>, tensor<2xi64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gather_nd_rank(%d: tensor<3x2xf32>, %i: tensor<i64>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (GatherND, opset 13): indices must have rank >= 1
    %0 = onnx.node "GatherND" opset 13 (%d, %i) {} : (tensor<3x2xf32>, tensor<i64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gather_nd_depth(%d: tensor<3x2xf32>, %i: tensor<2x?xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (GatherND, opset 13): the last dim of the indices must be static, got 'tensor<2x?xi64>'
    %0 = onnx.node "GatherND" opset 13 (%d, %i) {} : (tensor<3x2xf32>, tensor<2x?xi64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @gather_nd_batch(%d: tensor<3x2xf32>, %i: tensor<3x2xi64>) -> tensor<*xf32> {
    // CHECK: error: node 'g' (GatherND, opset 13): batch_dims 1 with index depth 2 does not fit data of rank 2
    %0 = onnx.node "GatherND" opset 13 (%d, %i) {batch_dims = 1 : i64} : (tensor<3x2xf32>, tensor<3x2xi64>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_nd_reduction(%d: tensor<4xf32>, %i: tensor<1x1xi64>, %u: tensor<1xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterND, opset 18): attribute 'reduction' must be none, add, mul, max or min, got "sub"
    %0 = onnx.node "ScatterND" opset 18 (%d, %i, %u) {reduction = "sub"} : (tensor<4xf32>, tensor<1x1xi64>, tensor<1xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_elements_bool(%d: tensor<4xi1>, %i: tensor<1xi64>, %u: tensor<1xi1>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterElements, opset 18): reduction 'add' on bool data is not supported
    %0 = onnx.node "ScatterElements" opset 18 (%d, %i, %u) {reduction = "add"} : (tensor<4xi1>, tensor<1xi64>, tensor<1xi1>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_nd_depth(%d: tensor<4x4xf32>, %i: tensor<2x3xi64>, %u: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterND, opset 18): indices have type 'tensor<2x3xi64>', expected rank >= 1 and a static last dim in [1, 2]
    %0 = onnx.node "ScatterND" opset 18 (%d, %i, %u) {} : (tensor<4x4xf32>, tensor<2x3xi64>, tensor<2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_nd_element(%d: tensor<4xf32>, %i: tensor<1x1xi64>, %u: tensor<1xf16>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterND, opset 18): updates have element type 'f16', expected the data's 'f32'
    %0 = onnx.node "ScatterND" opset 18 (%d, %i, %u) {} : (tensor<4xf32>, tensor<1x1xi64>, tensor<1xf16>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_nd_updates_rank(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterND, opset 18): updates have rank 1, expected 2 (indices.shape[:-1] + data.shape[1:])
    %0 = onnx.node "ScatterND" opset 18 (%d, %i, %u) {} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_nd_updates_dim(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterND, opset 18): updates dim 1 is 4, expected 3
    %0 = onnx.node "ScatterND" opset 18 (%d, %i, %u) {} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_elements_rank(%d: tensor<4x3xf32>, %i: tensor<2xi64>, %u: tensor<2x3xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterElements, opset 18): indices and updates must have the data's rank 2, got 1 and 2
    %0 = onnx.node "ScatterElements" opset 18 (%d, %i, %u) {} : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_elements_element(%d: tensor<4xf32>, %i: tensor<1xi64>, %u: tensor<1xi32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (ScatterElements, opset 18): updates have element type 'i32', expected the data's 'f32'
    %0 = onnx.node "ScatterElements" opset 18 (%d, %i, %u) {} : (tensor<4xf32>, tensor<1xi64>, tensor<1xi32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @scatter_elements_dim(%d: tensor<4x3xf32>, %i: tensor<2x2xi64>, %u: tensor<3x2xf32>) -> tensor<*xf32> {
    // CHECK: error: node 's' (Scatter, opset 9): updates dim 0 is 3, expected the indices' 2
    %0 = onnx.node "Scatter" opset 9 (%d, %i, %u) {} : (tensor<4x3xf32>, tensor<2x2xi64>, tensor<3x2xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @top_k_runtime_k(%x: tensor<5xf32>, %k: tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'k' (TopK, opset 11): K must hold one integer, got 'tensor<2xi64>'
    %0:2 = onnx.node "TopK" opset 11 (%x, %k) {} : (tensor<5xf32>, tensor<2xi64>) -> (!onnx.value, !onnx.value) loc("k"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @top_k_missing_k(%x: tensor<5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    // CHECK: error: node 'k' (TopK, opset 1): k must be a non-negative integer
    %0:2 = onnx.node "TopK" opset 1 (%x) {} : (tensor<5xf32>) -> (!onnx.value, !onnx.value) loc("k"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @top_k_negative(%x: tensor<5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %k = arith.constant dense<[-1]> : tensor<1xi64>
    // CHECK: error: node 'k' (TopK, opset 11): k must be a non-negative integer
    %0:2 = onnx.node "TopK" opset 11 (%x, %k) {} : (tensor<5xf32>, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("k"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @top_k_too_large(%x: tensor<3x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
    %k = arith.constant dense<[4]> : tensor<1xi64>
    // CHECK: error: node 'k' (TopK, opset 11): k (4) is larger than the extent 3 of axis 0
    %0:2 = onnx.node "TopK" opset 11 (%x, %k) {axis = 0 : i64} : (tensor<3x5xf32>, tensor<1xi64>) -> (!onnx.value, !onnx.value) loc("k"("m.onnx":0:0))
    onnx.yield %0#0, %0#1 : !onnx.value, !onnx.value
  }
}

// -----

module {
  func.func @cumsum_axis_input(%x: tensor<4xf32>, %a: tensor<?xi64>) -> tensor<*xf32> {
    // An axis read at run time must still be one value.
    // CHECK: error: node 'c' (CumSum, opset 14): input 1 (axis) must be an integer scalar (one element), got 'tensor<?xi64>'
    %0 = onnx.node "CumSum" opset 14 (%x, %a) {} : (tensor<4xf32>, tensor<?xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @cumprod_axis_count(%x: tensor<4x4xf32>) -> tensor<*xf32> {
    %a = arith.constant dense<[0, 1]> : tensor<2xi64>
    // CHECK: error: node 'c' (CumProd, opset 26): input 1 (axis) must be an integer scalar (one element), got 'tensor<2xi64>'
    %0 = onnx.node "CumProd" opset 26 (%x, %a) {} : (tensor<4x4xf32>, tensor<2xi64>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @trilu_rank(%x: tensor<4xf32>) -> tensor<*xf32> {
    // CHECK: error: node 't' (Trilu, opset 14): expected rank >= 2, got 1
    %0 = onnx.node "Trilu" opset 14 (%x) {} : (tensor<4xf32>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @trilu_k(%x: tensor<4x4xf32>, %k: tensor<?xi64>) -> tensor<*xf32> {
    // k read at run time must still be one value.
    // CHECK: error: node 't' (Trilu, opset 14): input 1 (k) must be an int64 scalar (one element), got 'tensor<?xi64>'
    %0 = onnx.node "Trilu" opset 14 (%x, %k) {} : (tensor<4x4xf32>, tensor<?xi64>) -> !onnx.value loc("t"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
