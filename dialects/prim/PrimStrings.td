//===- PrimStrings.td - string tensors: text <-> numbers, case, membership -------------===//
//
// The string primitives are elementwise; ONNX's Cast to and from STRING, StringNormalizer
// (with prim.compact for the stopwords), Equal on strings, StringConcat and RegexFullMatch
// decompose onto them. Their lowered
// form is one `prim.runtime_call` per element: the runtime owns text formatting, parsing,
// Unicode case mapping and the bytes of the strings a run makes (model_abi.h).
//
//===----------------------------------------------------------------------------------===//

def Prim_StringTensor : RankedTensorOf<[Prim_StringType]>;

def Prim_FormatOp : Prim_ElementwiseOp<"format"> {
  let summary = "the text of each number (NumPy's str(): shortest round-trip digits)";
  let description = [{
    Integers in decimal, bools "True"/"False", floats as NumPy prints a scalar of their type:
    the fewest digits that read back to the same value, positional for 1e-4 <= |x| < 1e16
    ("0.5", "100.0"), else scientific ("1e-05"); "nan", "inf", "-inf".

    ```mlir
    %s = prim.format %x : tensor<3x4xf32> to tensor<3x4x!prim.string>
    ```
  }];
  let arguments = (ins Prim_NumericTensor:$operand);
  let results = (outs Prim_StringTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasVerifier = 1;
}

def Prim_ParseOp : Prim_ElementwiseOp<"parse"> {
  let summary = "the number each text spells (a text that is none is a run-time error)";
  let description = [{
    Decimal integers for integer results (range-checked), decimal or scientific floats and
    "NaN", "INF", "+INF", "-INF" (any case) for float results, rounded once to the result's
    type; "True"/"False"/"1"/"0" for i1. Surrounding white space is allowed.

    ```mlir
    %x = prim.parse %s : tensor<4x!prim.string> to tensor<4xf32>
    ```
  }];
  let arguments = (ins Prim_StringTensor:$operand);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasVerifier = 1;
}

def Prim_ChangeCaseOp : Prim_ElementwiseOp<"change_case", [SameOperandsAndResultType]> {
  let summary = "each text in upper or lower case (Unicode, code point by code point)";
  let arguments = (ins Prim_StringTensor:$operand, BoolAttr:$upper);
  let results = (outs Prim_StringTensor:$result);
  let assemblyFormat = "$operand `upper` `=` $upper attr-dict `:` type($result)";
}

def Prim_StringInOp : Prim_ElementwiseOp<"string_in", [InferTypeOpAdaptor]> {
  let summary = "whether each text is one of a constant set of texts";
  let description = [{
    With `ignore_case`, both sides compare in lower case (as `prim.change_case`).

    ```mlir
    %m = prim.string_in %s set = ["monday"] ignore_case = true : tensor<4x!prim.string>
    ```
  }];
  let arguments = (ins Prim_StringTensor:$operand, StrArrayAttr:$set, BoolAttr:$ignore_case);
  let results = (outs Prim_BoolTensor:$result);
  let assemblyFormat = [{
    $operand `set` `=` $set `ignore_case` `=` $ignore_case attr-dict `:` type($operand)
  }];
  let hasVerifier = 1;
}

def Prim_StringEqualOp : Prim_ElementwiseOp<"string_equal", [InferTypeOpAdaptor,
    AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "whether two texts hold the same bytes (Equal on strings)";
  let arguments = (ins Prim_StringTensor:$lhs, Prim_StringTensor:$rhs);
  let results = (outs Prim_BoolTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Prim_StringConcatOp : Prim_ElementwiseOp<"string_concat", [SameOperandsAndResultType]> {
  let summary = "the bytes of lhs followed by those of rhs (StringConcat)";
  let arguments = (ins Prim_StringTensor:$lhs, Prim_StringTensor:$rhs);
  let results = (outs Prim_StringTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Prim_StringMatchOp : Prim_ElementwiseOp<"string_match", [InferTypeOpAdaptor]> {
  let summary = "whether all of each text matches a constant RE2 pattern (RegexFullMatch)";
  let description = [{
    The runtime's engine accepts RE2's common syntax (classes, \d \s \w \b, groups,
    alternation, repetition, lazy quantifiers); flags, look-around, backreferences and
    \p{...} are a run-time error naming the construct.
  }];
  let arguments = (ins Prim_StringTensor:$operand, StrAttr:$pattern);
  let results = (outs Prim_BoolTensor:$result);
  let assemblyFormat = "$operand `pattern` `=` $pattern attr-dict `:` type($operand)";
}

def Prim_RuntimeCallOp : Prim_Op<"runtime_call", [Pure]> {
  let summary = "one call of a runtime string function on scalars (lowered string ops)";
  let description = [{
    The body of a lowered string primitive: `callee` is one of the import table's string
    functions (`string_format`, `string_parse`, `string_change_case`, `string_find`,
    `string_equal`, `string_concat`, `string_match`), `table` the address of the run's import table
    (`prim.run_context`), `elements` one element per operand of the string op (a string is
    an i128 in tcc_string's layout, data pointer in the low half).
    `dtype` is the number's tcc_dtype for format and parse, `flag` is `upper` for
    change_case and `ignore_case` for find, `set` the packed texts of find (each a
    little-endian int64 byte count, then its bytes) and `count` their number, or match's
    pattern and its byte count.
    It is Pure as far as the compiler is concerned: the strings it makes are values (a call
    may be merged with an equal one or dropped when unused, and then an unused parse
    reports no error).
  }];
  let arguments = (ins StrAttr:$callee, I64:$table, Variadic<AnyType>:$elements,
                       DefaultValuedAttr<I32Attr, "0">:$dtype,
                       DefaultValuedAttr<I32Attr, "0">:$flag,
                       DefaultValuedAttr<StrAttr, "\"\"">:$set,
                       DefaultValuedAttr<I64Attr, "0">:$count);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $callee `(` $table `,` $elements `)` attr-dict `:` type($elements) `->` type($result)
  }];
}

def Prim_RunContextOp : Prim_Op<"run_context", [Pure]> {
  let summary = "the address of the run's import table, as an i64 (host code of @main)";
  let description = [{
    Made by lowering for string primitives, which pass it to each `prim.runtime_call`;
    tcc-lower-runtime-calls replaces it with @main's import-table argument.
  }];
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict";
}
