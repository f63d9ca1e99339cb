//===- Passes.td - reverse-mode autodiff over prim ---------------------------------------===//
#ifndef TCC_AUTODIFF_PASSES
#define TCC_AUTODIFF_PASSES

include "mlir/Pass/PassBase.td"

def Autodiff : Pass<"tcc-autodiff", "mlir::ModuleOp"> {
  let summary = "Make @main compute gradients too: a joint forward + backward prim function";
  let description = [{
    Differentiates @main (prim, after decomposition) in reverse mode (lib/Autodiff): the
    result is one function that returns the forward outputs and then one gradient per
    differentiated value, named `grad.<name>` (`onnx.name` of the result). Without `loss`,
    every float output's cotangent becomes a new input `cotangent.<output>` (the function
    computes vector-Jacobian products); with `loss`, that output (which must have one
    element) is the scalar being minimized and its seed is 1.

    Differentiated initializers are marked `kernel.parameter`: the generated library keeps them
    in a writable buffer of the session (readable and writable by name through the runtime).
    With `learning-rate`, @main also returns `p - learning_rate * grad.p` for each of them,
    marked `kernel.update_of = "<name>"`; code generation writes these back into the
    parameter in place (a training step) instead of publishing them as outputs.

    `wrt` says what to differentiate with respect to: `inputs` (every float graph input),
    `params` (every float weight, i.e. every `arith.constant` from an ONNX initializer,
    located by its name), or a comma-separated list of input and initializer names.

    ```mlir
    func.func @main(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<4xf32> {onnx.name = "y"})
    // becomes, with wrt=inputs
    func.func @main(%x: tensor<4xf32> {onnx.name = "x"}, %ct: tensor<4xf32> {onnx.name = "cotangent.y"})
        -> (tensor<4xf32> {onnx.name = "y"}, tensor<4xf32> {onnx.name = "grad.x"})
    ```
  }];
  let options = [
    Option<"wrt", "wrt", "std::string", /*default=*/"\"params\"",
           "what to differentiate with respect to: inputs, params, or names (comma-separated)">,
    Option<"loss", "loss", "std::string", /*default=*/"\"\"",
           "the output to minimize (one element); empty: output cotangents become inputs">,
    Option<"learningRate", "learning-rate", "double", /*default=*/"0.0",
           "> 0: also one SGD step, p - learning_rate * grad.p, written back into each "
           "differentiated parameter (results marked kernel.update_of; needs wrt=params or names "
           "of initializers, and loss)">,
  ];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect", "::tcc::kernel::KernelDialect"];
}

def TestVjp : Pass<"tcc-test-vjp", "mlir::ModuleOp"> {
  let summary = "Check every function's VJP against central finite differences (for tests)";
  let description = [{
    For every function with float arguments and results: draws inputs uniformly from
    `tcc.test_range` (default [0.5, 1.5]) with a fixed seed, in the shapes of
    `tcc.test_shapes` for dynamic arguments, and a random cotangent per result; builds the VJP
    with tcc::autodiff::buildGradients; evaluates it with the reference evaluator; compares
    each gradient element with the central difference (f(x + h) - f(x - h)) / 2h of
    <results, cotangent> (h = 1e-6 in f64) and prints one line per function:
    `@name: ok|FAIL max_abs_error=... max_rel_error=...` (error relative to
    max(|gradient|, 1)). Intended for f64 functions; the module is unchanged.
  }];
  let options = [
    Option<"tolerance", "tolerance", "double", /*default=*/"1e-6",
           "the largest relative error that counts as ok">,
  ];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // TCC_AUTODIFF_PASSES
