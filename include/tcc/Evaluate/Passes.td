//===- Passes.td - passes of the prim reference evaluator ------------------------------===//
#ifndef TCC_EVALUATE_PASSES
#define TCC_EVALUATE_PASSES

include "mlir/Pass/PassBase.td"

def TestEvaluatePass : Pass<"tcc-test-evaluate", "mlir::ModuleOp"> {
  let summary = "Evaluate every argument-free function and print its results (for tests)";
  let description = [{
    Runs the prim reference evaluator (lib/Evaluate) on every `func.func` of the module that
    has a body and no arguments, and prints one line per result to stdout: the result's
    actual type (its type as written for a scalar result such as `index`) and its elements
    in nested brackets, one level per dim. Floats print with
    the fewest digits that read back to the same value, integers as integers and `i1` as
    `true`/`false`. An evaluation error prints `@<func> error: <message>` instead; the pass
    itself never fails, so lit tests can check error messages. The module is unchanged.

    ```mlir
    func.func @add() -> tensor<2xf32> {
      %a = arith.constant dense<[1.0, 2.5]> : tensor<2xf32>
      %r = prim.add %a, %a : tensor<2xf32>
      return %r : tensor<2xf32>
    }
    // prints
    // @add result 0: tensor<2xf32> = [2.0, 5.0]
    ```
  }];
}

#endif // TCC_EVALUATE_PASSES
