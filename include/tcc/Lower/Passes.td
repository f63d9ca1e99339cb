//===- Passes.td - the lowering stage: prim -> linalg on tensors -----------------------===//
#ifndef TCC_LOWER_PASSES
#define TCC_LOWER_PASSES

include "mlir/Pass/PassBase.td"

def LowerPrimToLinalg : Pass<"tcc-lower-prim-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower prim ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Every compute prim op becomes a linalg op on tensors (mostly `linalg.generic` with the
    op's indexing maps), with a `tensor.empty` destination; reshapes become
    `tensor.collapse_shape`/`expand_shape` views. The scalar semantics prim defines are kept
    exactly: integer division by zero, over-wide shifts and out-of-range float->int
    conversions are guarded by selects, never left as poison. `prim.dim` becomes
    `tensor.dim`; `prim.check`, `prim.symbol` and `prim.bind_shape` stay for the host code.

    ```mlir
    %r = prim.add %a, %b : tensor<4xf32>
    // becomes
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
         ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TCC_LOWER_PASSES
