//===- PrimShapes.td - symbolic dims, dims and run-time checks -------------------------===//

def Prim_SymbolOp : Prim_Op<"symbol", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "a symbolic dim declared once per module, with its range";
  let description = [{
    ```mlir
    prim.symbol @batch {min = 1 : i64, max = 64 : i64}
    ```
    `min` and `max` bound the value (no `max`: unbounded); every value is a multiple of
    `divisor`. ONNX `dim_param` names become symbols; `tcc --dim` sets values and ranges.
    A `computed` symbol is bound by no input dim: its value is computed from the inputs'
    data before the run (`prim.data_symbol`; the extent of a Range with run-time bounds).
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DefaultValuedAttr<I64Attr, "1">:$min,
                       OptionalAttr<I64Attr>:$max, DefaultValuedAttr<I64Attr, "1">:$divisor,
                       UnitAttr:$computed);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
}

def Prim_BindShapeOp : Prim_Op<"bind_shape", [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "state a tensor's dims as affine expressions of module symbols";
  let description = [{
    ```mlir
    prim.bind_shape %ids [@batch, @seq] affine_map<()[s0, s1] -> (s0, s1)> : tensor<?x?xi64>
    ```
    The map has no dims, one symbol per listed symbol, and one result per tensor dim.
  }];
  let arguments = (ins AnyRankedTensor:$operand, FlatSymbolRefArrayAttr:$symbols,
                       AffineMapAttr:$shape);
  let assemblyFormat = "$operand $symbols $shape attr-dict `:` type($operand)";
  let hasVerifier = 1;
}

def Prim_DimOp : Prim_Op<"dim", [Pure]> {
  let summary = "the extent of one dim of a tensor, as an index";
  let arguments = (ins AnyRankedTensor:$operand, I64Attr:$index);
  let results = (outs Index:$result);
  let assemblyFormat = "$operand `,` $index attr-dict `:` type($operand)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizeMethod = 1;
  let description = [{
    Canonicalization moves a `prim.dim` to the earliest value that determines it: through
    the producer's `reifyResultShapes` (so dims of intermediates become dims of inputs), and,
    for a function argument bound by `prim.bind_shape`, to the first argument bound to the
    same symbol. Equal dims then become one SSA value and the checks between them fold away.
  }];
}

def Prim_DataSymbolOp : Prim_Op<"data_symbol", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a computed symbol's value: an extent known from the inputs' data";
  let description = [{
    ```mlir
    %n = prim.data_symbol @range_r(%count) : index
    ```
    `%count` is computed from input elements (scalars read with `tensor.extract`) and symbols
    alone; the result is the value of the module's `computed` symbol, which extents use like
    any symbol. tcc-entry-signature moves the computation into `@data_symbols`, which the
    runtime calls before sizing outputs and the workspace, so nothing is allocated during a
    run.
  }];
  let arguments = (ins FlatSymbolRefAttr:$symbol, Index:$value);
  let results = (outs Index:$result);
  let assemblyFormat = "$symbol `(` $value `)` attr-dict `:` type($result)";
}

def Prim_CheckOp : Prim_Op<"check"> {
  let summary = "a run-time assumption: a false condition makes the run return an error";
  let description = [{
    ```mlir
    prim.check %ok, "input 'x' dim 0 (batch) must equal input 'y' dim 0"
    ```
    The message names what was assumed; the host code returns it in the error status.
  }];
  let arguments = (ins I1:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict";
  let hasCanonicalizeMethod = 1;
}

def Prim_LoopOp : Prim_Op<"loop", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a loop over [0, count) carrying tensors from one iteration to the next";
  let description = [{
    The body's block takes the iteration number (`index`) and the carried values; its
    `prim.yield` gives the carried values of the next iteration, of the same types and the
    same extents (also where they are dynamic: checked at run time). The
    results are the carried values after the last iteration (the inits when count <= 0).
    It is how a time loop whose length is known only at run time (an RNN over a dynamic
    sequence, ONNX Loop with a run-time trip count) stays a loop: generated code runs the body's
    kernels once per iteration. Per-iteration outputs are carried buffers the body updates
    (e.g. with prim.scatter at the iteration's row).

    `exit_unless = k` names a carried `tensor<i1>` (ONNX Loop's run-time condition): the
    loop may stop before any iteration that starts with it false. The body must leave every
    carried value unchanged in such an iteration, so stopping changes no result; it is what
    lets a while loop (a trip count of INT64_MAX, or none) end.

    ```mlir
    %h = prim.loop %n carrying(%h0 : tensor<4xf32>) {
    ^bb0(%i: index, %prev: tensor<4xf32>):
      %next = prim.tanh %prev : tensor<4xf32>
      prim.yield %next : tensor<4xf32>
    } -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Index:$count, Variadic<AnyRankedTensor>:$inits,
                       OptionalAttr<I64Attr>:$exit_unless);
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$results, "::mlir::Value":$count,
                   "::mlir::ValueRange":$inits), [{
      build($_builder, $_state, results, count, inits, ::mlir::IntegerAttr());
    }]>
  ];
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $count (`carrying` `(` $inits^ `:` type($inits) `)`)? $body attr-dict (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

def Prim_ExitUnlessOp : Prim_Op<"exit_unless"> {
  let summary = "the lowered form of prim.loop's exit_unless: stop the enclosing loop when false";
  let description = [{
    First in the body of the scf.for a prim.loop with `exit_unless` lowers to, reading the
    carried condition. tcc-loop-exits turns that loop into an scf.while that tests it before
    every iteration (a loop without it runs every iteration, which changes nothing).
  }];
  let arguments = (ins I1:$condition);
  let assemblyFormat = "$condition attr-dict";
}

def Prim_YieldOp : Prim_Op<"yield", [Pure, Terminator, ReturnLike, HasParent<"LoopOp">]> {
  let summary = "the carried values of a prim.loop's next iteration";
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ::mlir::ValueRange()); }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}
