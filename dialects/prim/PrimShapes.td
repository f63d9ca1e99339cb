//===- PrimShapes.td - symbolic dims, dims and run-time checks -------------------------===//

def Prim_SymbolOp : Prim_Op<"symbol", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "a symbolic dim declared once per module, with its range";
  let description = [{
    ```mlir
    prim.symbol @batch {min = 1 : i64, max = 64 : i64}
    ```
    `min` and `max` bound the value (no `max`: unbounded); every value is a multiple of
    `divisor`. ONNX `dim_param` names become symbols; `tcc --dim` sets values and ranges.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DefaultValuedAttr<I64Attr, "1">:$min,
                       OptionalAttr<I64Attr>:$max, DefaultValuedAttr<I64Attr, "1">:$divisor);
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
