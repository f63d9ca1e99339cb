//===- Passes.td - the decomposition stage: onnx -> prim -------------------------------===//
#ifndef TCC_DECOMPOSE_PASSES
#define TCC_DECOMPOSE_PASSES

include "mlir/Pass/PassBase.td"

def DecomposeOnnx : Pass<"tcc-decompose-onnx", "mlir::ModuleOp"> {
  let summary = "Decompose every ONNX node into prim ops by the rule registry";
  let description = [{
    Visits the nodes of every function in order and replaces each `onnx.node` by the prim
    ops its rule builds. Rules are keyed by (domain, op type, since-version): a node at opset
    V uses the rule with the largest since-version <= V. Operands arrive with their real
    tensor types (their producers were decomposed first), so each rule is also the op's shape
    inference. Initializers become `arith.constant`; the final `onnx.yield` becomes
    `func.return` and the function's result types become the computed ones.

    A node without a rule, an opset the rule does not cover, or an attribute or type the rule
    does not accept is an error that names the node, its op type and opset, and what was
    expected.

    ```mlir
    %y = onnx.node "Relu" opset 20 (%x) {} : (tensor<4xf32>) -> !onnx.value
    // becomes
    %zero = arith.constant dense<0.0> : tensor<4xf32>
    %y = prim.max %x, %zero : tensor<4xf32>
    ```
  }];
  // Every dialect a rule builds ops of (math: the run-time count of a Range of floats).
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TCC_DECOMPOSE_PASSES
