// RUN: not tcc-opt %s --split-input-file --tcc-decompose-onnx 2>&1 | FileCheck %s
// Each user-facing decomposition error, as the user sees it: it names the node, its op type
// and opset, and what was expected.

module {
  func.func @unknown_op(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: error: node 'n0' (FancyOp, opset 17): tcc has no decomposition rule for op type 'FancyOp' in domain ai.onnx; tcc supports {{[0-9]+}} ops of that domain (`tcc --list-ops` lists them, docs/ops.md explains them)
    %0 = onnx.node "FancyOp" opset 17 (%arg0) {} : (tensor<4xf32>) -> !onnx.value loc("n0"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// A domain with few ops lists them; one with many (com.microsoft has more than 24) says how
// to list them.
module {
  func.func @unknown_training_op(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: error: node 'n3' (Fancy, domain ai.onnx.preview.training, opset 1): tcc has no decomposition rule for op type 'Fancy' in domain ai.onnx.preview.training; the 4 supported ops of that domain are: Adagrad, Adam, Gradient, Momentum
    %0 = onnx.node "Fancy" domain "ai.onnx.preview.training" opset 1 (%arg0) {} : (tensor<4xf32>) -> !onnx.value loc("n3"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unknown_contrib_op(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: error: node 'n2' (Fancy, domain com.microsoft, opset 1): tcc has no decomposition rule for op type 'Fancy' in domain com.microsoft; tcc supports {{[0-9]+}} ops of that domain (`tcc --list-ops` lists them, docs/ops.md explains them)
    %0 = onnx.node "Fancy" domain "com.microsoft" opset 1 (%arg0) {} : (tensor<4xf32>) -> !onnx.value loc("n2"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @unknown_domain(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: error: node 'n1' (Foo, domain com.example, opset 1): tcc has no decomposition rule for op type 'Foo' in domain com.example; tcc supports no op of that domain
    %0 = onnx.node "Foo" domain "com.example" opset 1 (%arg0) {} : (tensor<4xf32>) -> !onnx.value loc("n1"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @old_opset(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: error: node 'g' (Gelu, opset 17): tcc supports Gelu at opsets 20 to 28
    %0 = onnx.node "Gelu" opset 17 (%arg0) {} : (tensor<4xf32>) -> !onnx.value loc("g"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bad_broadcast(%arg0: tensor<3xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: error: node 'add' (Add, opset 17): inputs cannot broadcast: extents 3 and 4 in dim 0 of the broadcast shape
    %0 = onnx.node "Add" opset 17 (%arg0, %arg1) {} : (tensor<3xf32>, tensor<4xf32>) -> !onnx.value loc("add"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @float_only(%arg0: tensor<4xi32>) -> tensor<4xi32> {
    // CHECK: error: node 'e' (Exp, opset 17): input 0 has element type 'i32', expected a floating-point type
    %0 = onnx.node "Exp" opset 17 (%arg0) {} : (tensor<4xi32>) -> !onnx.value loc("e"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

module {
  func.func @bad_attribute(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    // CHECK: error: node 's' (Softmax, opset 17): attribute 'axis' must be an INT, got "last"
    %0 = onnx.node "Softmax" opset 17 (%arg0) {axis = "last"} : (tensor<2x4xf32>) -> !onnx.value loc("s"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// CHECK: error: the model imports opset 30 of domain ai.onnx; tcc supports opsets 1 to 28
// CHECK: note: convert it with onnx.version_converter.convert_version(model, 28), or re-export it at that opset
module attributes {onnx.opset_import = {ai.onnx = 30 : i64}} {
  func.func @too_new(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    onnx.yield %arg0 : tensor<4xf32>
  }
}

// -----

module {
  func.func @output_mismatch(%arg0: tensor<4xf32>) -> tensor<4x1xf32> {
    %0 = onnx.node "Relu" opset 17 (%arg0) {} : (tensor<4xf32>) -> !onnx.value
    // CHECK: error: graph output '' is declared as 'tensor<4x1xf32>' but computes 'tensor<4xf32>'
    onnx.yield %0 : !onnx.value
  }
}

// -----

// Opsets after 22 are accepted: a version whose signature did not change uses the older
// rule; one that did (Cast 24 added round_mode) has its own registration.
module attributes {onnx.opset_import = {ai.onnx = 24 : i64}} {
  func.func @cast24(%arg0: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK-NOT: error: node 'c'
    %0 = onnx.node "Cast" opset 24 (%arg0) {to = 7 : i64} : (tensor<2xf32>) -> !onnx.value loc("c"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}

// -----

// One whose signature did not change (Relu 14 -> unchanged at 28: no new version) and Abs at
// opset 26 use their rules.
module attributes {onnx.opset_import = {ai.onnx = 26 : i64}} {
  func.func @abs26(%arg0: tensor<2xf32>) -> tensor<*xf32> {
    // CHECK-NOT: error: node 'a'
    %0 = onnx.node "Abs" opset 26 (%arg0) {} : (tensor<2xf32>) -> !onnx.value loc("a"("m.onnx":0:0))
    onnx.yield %0 : !onnx.value
  }
}
