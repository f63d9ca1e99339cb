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

def SimplifyExtents : Pass<"tcc-simplify-extents", "mlir::ModuleOp"> {
  let summary = "Fold index arithmetic on extents that the symbols' ranges decide";
  let description = [{
    Shapes computed as tensors (Shape, Gather, Concat, Reshape's 0 and -1) decompose into
    index arithmetic whose selects guard cases that the symbols' declared ranges exclude.
    Every index value gets an interval: constants; a `prim.dim` or `tensor.dim` of an
    argument from its `prim.bind_shape` and the `prim.symbol` ranges (min, max), of any
    other dynamic dim [0, ∞); a `prim.data_symbol` from its symbol; then through addi,
    subi, muli, divisions, maxsi, minsi, select and index_cast. Then:
    - a `cmpi` that the intervals decide becomes a constant (and the selects on it fold);
    - `maxsi` / `minsi` where one side always wins becomes that side;
    - `floordivsi (x · y · c1), (y · c2)` with c2 dividing c1 and a divisor >= 1 becomes
      `x · (c1 / c2)` (Reshape's -1: the product of the dims over the others);
    - `prim.reshape` of a `tensor.from_elements` to a static shape becomes the elements in
      that shape (so that `tensor.extract` of it folds to the element).

    ```mlir
    prim.symbol @past {min = 1 : i64}
    %p = prim.dim %arg0, 0 : tensor<?xf32>       // bound to @past: [1, ∞)
    %s = arith.addi %p, %c1 : index               // [2, ∞)
    %z = arith.cmpi eq, %s, %c0 : index           // becomes false
    ```
  }];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KvCache : Pass<"tcc-kv-cache", "mlir::ModuleOp"> {
  let summary = "A decoder's past/present caches kept in the session and appended in place";
  let description = [{
    `tcc --kv-cache N`. Each graph output that is `Concat(input, new)` along a dim that is
    a symbol P alone (a decoding step's present = past + this step's keys or values) becomes
    a `kernel.parameter` of N positions along that dim (zeros, marked `kernel.cache`: the
    session keeps it, writable in place), named after the output. The step reads the
    cache's first P positions (`prim.slice`), writes its n new ones at [P, P + n)
    (`tensor.insert_slice`, returned as `kernel.update_of` the parameter) and reads the
    first P + n where it read the concatenation; a `prim.check` requires P + n <= N. P
    becomes an int64 scalar input named after the symbol, in place of the first cache
    input; the past inputs and present outputs leave the interface.
    Errors: no such output; caches along different symbols; another dynamic dim of a
    cache (the session's caches have a fixed size: give it with --dim); another input
    whose dims depend on P; an input already named as P.
  }];
  let options = [Option<"capacity", "capacity", "int64_t", "0",
                        "positions each cache holds (0: the pass does nothing)">];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DataExtents : Pass<"tcc-data-extents", "mlir::ModuleOp"> {
  let summary = "Extents read from the graph inputs' elements become computed symbols";
  let description = [{
    A Reshape, Expand, ConstantOfShape or Tile whose shape is a graph input (not a constant)
    decomposes into prim ops whose extents read that input's elements (`tensor.extract`):
    known only at run time, with no upper bound to size buffers by. Each such extent of
    @main's top level (the sizes of `prim.reshape`, `prim.broadcast_in_dim`, `prim.iota`
    and `prim.slice`) that is computed from graph inputs' elements, their dims and
    constants by scalar arithmetic alone becomes a `computed` module symbol (named after
    the node and the result dim) through `prim.data_symbol`, as Range's length does: the
    runtime computes it before the run, checks it against its range (>= 0) and sizes the
    outputs and the workspace by it. Extents computed from other values (the model's own
    intermediates) are left alone. Rounds repeat while dims of results that got symbols
    lead to more such extents.

    ```mlir
    %e = tensor.extract %shape[%c0] : tensor<2xi64>
    %n = arith.index_cast %e : i64 to index
    %r = prim.reshape %x sizes(%n) : (tensor<6xf32>) -> tensor<?x3xf32>
    // becomes
    %s = prim.data_symbol @Reshape_0_dim0(%n) : index
    %r = prim.reshape %x sizes(%s) : (tensor<6xf32>) -> tensor<?x3xf32>
    ```
  }];
  let dependentDialects = ["::tcc::prim::PrimDialect", "::mlir::arith::ArithDialect"];
}

#endif // TCC_DECOMPOSE_PASSES
