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

    Unsigned element types (`uiN`) decide the scalar semantics (unsigned compares, division,
    extension, conversions, identities), but computing linalg ops are built on signless
    tensors, joined to the unsigned ones around them by `builtin.unrealized_conversion_cast`;
    `tcc-signless-types` then removes the unsigned types altogether.

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
                           "::mlir::scf::SCFDialect", "::mlir::LLVM::LLVMDialect"];
}

def SignlessTypes : Pass<"tcc-signless-types", "mlir::ModuleOp"> {
  let summary = "Rewrite unsigned integer types to the signless types of the same width";
  let description = [{
    Code generation (arith, linalg, memref -> LLVM) works on signless integers only. Runs
    after `tcc-lower-prim-to-linalg`, whose patterns have already chosen the unsigned
    operations from prim's types, so the signedness is no longer needed: every `uiN` type
    (and `siN`, which prim does not use) becomes `iN` across the module, in result and block argument types, function
    signatures and attributes (constants keep their bits: dense and resource elements are
    reinterpreted). `builtin.unrealized_conversion_cast` ops that then cast a type to
    itself are removed. The model interface was recorded before lowering, so the compiled
    model still reports the unsigned dtypes.

    ```mlir
    func.func @main(%a: tensor<4xui8>) -> tensor<4xui8> {
      %c = arith.constant dense<200> : tensor<4xui8>
      %x = builtin.unrealized_conversion_cast %a : tensor<4xui8> to tensor<4xi8>
      %y = builtin.unrealized_conversion_cast %c : tensor<4xui8> to tensor<4xi8>
      %e = tensor.empty() : tensor<4xi8>
      %m = linalg.generic {...} ins(%x, %y : tensor<4xi8>, tensor<4xi8>)
           outs(%e : tensor<4xi8>) {
      ^bb0(%p: i8, %q: i8, %o: i8):
        %r = arith.maxui %p, %q : i8
        linalg.yield %r : i8
      } -> tensor<4xi8>
      %r = builtin.unrealized_conversion_cast %m : tensor<4xi8> to tensor<4xui8>
      return %r : tensor<4xui8>
    }
    // becomes
    func.func @main(%a: tensor<4xi8>) -> tensor<4xi8> {
      %c = arith.constant dense<-56> : tensor<4xi8>
      %e = tensor.empty() : tensor<4xi8>
      %m = linalg.generic {...} ins(%a, %c : tensor<4xi8>, tensor<4xi8>) ... // as before
      return %m : tensor<4xi8>
    }
    ```
  }];
}

#endif // TCC_LOWER_PASSES
