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

def FoldWeights : Pass<"tcc-fold-weights", "mlir::ModuleOp"> {
  let summary = "Compute weight-only prim ops at compile time with the reference evaluator";
  let description = [{
    The one weight evaluator: a pure `prim` op of @main whose operands are all constants
    (initializers, folded shapes) is run by lib/Evaluate and replaced by a constant (a
    resource blob beyond 256 elements), in program order, so chains of weight transforms
    (a transposed Gemm weight, BatchNorm scales multiplied into filters, dequantized
    weights) cost nothing at run time. Canonicalization folds only small tensors; this pass
    folds any size but never one that grows past 256 elements: an op whose result has more
    elements than its non-splat operands together and more than 256 (a large broadcast or
    iota) stays code, as does an op over `i1`, and results beyond 64M elements.

    An elementwise op whose operands are all broadcasts of constants (a quantized
    convolution's requantization scale `w_scale[c] * x_scale / y_scale`, each factor
    broadcast to the activation's shape, whose batch is dynamic) is computed on the union
    of the broadcasts' dims, folded, and broadcast after:
    `f(bcast(a, A), bcast(b, B)) = bcast(f(bcast(a, A in U), bcast(b, B in U)), U)` with
    `U = A u B`; the run time then reads a `[C]` constant instead of computing `f` per
    element (a vdivps per vector of every quantized convolution's epilogue before).
    An elementwise op over constants and static broadcasts of constants whose result is no
    larger than its largest constant operand (a depthwise filter minus its per-channel zero
    points, `w - bcast(zw)`, where the broadcast alone would grow) is folded with its
    broadcasts evaluated inside (EfficientNet-B0 QOperator: 15 run-time kernels fewer).

    First it puts constant contraction operands in the layout the contraction tiler reads
    contiguously: a `prim.dot_general` whose constant rhs has its last free dim (the
    result's fastest) anywhere but last gets a transpose of that rhs to (batch...,
    contracting..., free...), which is then folded.

    ```mlir
    %w = arith.constant dense_resource<w> : tensor<1000x1280xf32>
    %y = prim.dot_general %x, %w contracting = [1] x [1] batching = [] x [] : ...
    // becomes
    %wt = arith.constant dense_resource<folded> : tensor<1280x1000xf32>
    %y = prim.dot_general %x, %wt contracting = [1] x [0] batching = [] x [] : ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::func::FuncDialect"];
}

#endif // TCC_EVALUATE_PASSES
