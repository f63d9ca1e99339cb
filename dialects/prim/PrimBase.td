//===- PrimBase.td - the `prim` dialect and its enums ---------------------------------===//
#ifndef TCC_PRIM_BASE
#define TCC_PRIM_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Prim_Dialect : Dialect {
  let name = "prim";
  let cppNamespace = "::tcc::prim";
  let summary = "the closed set of primitives every ONNX op decomposes into";
  let description = [{
    `prim` is tcc's PrimTorch: a small, closed, documented set of primitives (docs/prims.md).
    Every op has precise semantics, a verifier, type inference where its result type follows
    from its operands, `ReifyRankedShapedTypeOpInterface` so that host code can compute every
    result size, folding, and an entry in the reference evaluator (lib/Evaluate).

    Types are builtin ranked tensors; `?` marks a dynamic dim. Elementwise ops take operands
    of one shape: broadcasting is explicit (`prim.broadcast_in_dim`). Ops whose result
    extents do not follow from their operands take the dynamic extents as `index` operands.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::tensor::TensorDialect"];
  let hasConstantMaterializer = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// On an scf.for that lowering made of a recurrence (prim's loops): every iteration
    /// argument keeps the extents of its init, so a dim of one is the init's dim
    /// (lib/Host/InvariantLoops.h folds them, and such a loop stays host code).
    static constexpr ::llvm::StringLiteral kInvariantExtentsAttrName = "prim.invariant_extents";
    /// On a prim.gather over a flattened operand (GatherElements, GatherND): what its
    /// run-time range check says when an index is out of range, in the ONNX op's terms.
    static constexpr ::llvm::StringLiteral kIndexErrorAttrName = "prim.index_error";
  }];
}

class Prim_Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::tcc::prim";
}

def Prim_CompareDirection : Prim_Enum<"CompareDirection", "comparison direction", [
  I32EnumAttrCase<"Eq", 0, "eq">, I32EnumAttrCase<"Ne", 1, "ne">, I32EnumAttrCase<"Lt", 2, "lt">,
  I32EnumAttrCase<"Le", 3, "le">, I32EnumAttrCase<"Gt", 4, "gt">, I32EnumAttrCase<"Ge", 5, "ge">]>;

def Prim_ReduceKind : Prim_Enum<"ReduceKind", "reduction combiner", [
  I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Prod", 1, "prod">, I32EnumAttrCase<"Max", 2, "max">,
  I32EnumAttrCase<"Min", 3, "min">, I32EnumAttrCase<"And", 4, "and">, I32EnumAttrCase<"Or", 5, "or">,
  I32EnumAttrCase<"Xor", 6, "xor">]>;

def Prim_ArgReduceKind : Prim_Enum<"ArgReduceKind", "arg reduction", [
  I32EnumAttrCase<"Argmax", 0, "argmax">, I32EnumAttrCase<"Argmin", 1, "argmin">]>;

def Prim_StringType : TypeDef<Prim_Dialect, "String"> {
  let mnemonic = "string";
  let summary = "an element of an ONNX string tensor";
  let description = [{
    A byte string (UTF-8 by convention). Tensors of strings only move (data movement ops,
    select, compact) or meet the string primitives (`prim.format`, `prim.parse`,
    `prim.change_case`, `prim.string_in`, `prim.string_equal`, `prim.string_concat`,
    `prim.string_match`). Lowering gives each element the runtime's
    `tcc_string` layout, `{const char *data, int64_t size}`, as an `i128`.
  }];
}

#endif // TCC_PRIM_BASE
