//===- OnnxOps.td - the generic `onnx` dialect -------------------------------------------===//
//
// The import dialect is deliberately tiny: one generic op per ONNX node. Knowledge about
// individual ONNX operators lives once, in the decomposition rules (lib/Decompose), never here.
//
//===-------------------------------------------------------------------------------------===//

#ifndef TCC_ONNX_OPS
#define TCC_ONNX_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Onnx_Dialect : Dialect {
  let name = "onnx";
  let cppNamespace = "::tcc::onnx";
  let summary = "ONNX graphs as imported, one generic op per node";
  let description = [{
    The `onnx` dialect holds a model exactly as the exporter wrote it: every node is an
    `onnx.node` carrying its op type, domain, opset version and attributes; initializers are
    `onnx.initializer` ops over resource blobs; absent optional inputs are `onnx.none`.
    Node results have the placeholder type `!onnx.value` until decomposition into `prim`
    determines their real tensor types (tcc does its own shape reasoning; exporter
    `value_info` is only a hint).
  }];
  let useDefaultTypePrinterParser = 1;
}

class Onnx_Op<string mnemonic, list<Trait> traits = []> : Op<Onnx_Dialect, mnemonic, traits>;

def Onnx_ValueType : TypeDef<Onnx_Dialect, "Value"> {
  let mnemonic = "value";
  let summary = "an ONNX value whose tensor type decomposition has not determined yet";
}

def Onnx_SequenceType : TypeDef<Onnx_Dialect, "Sequence"> {
  let mnemonic = "sequence";
  let summary = "an ONNX sequence: its elements (onnx.sequence) or packed (onnx.packed_sequence)";
}

def Onnx_OptionalType : TypeDef<Onnx_Dialect, "Optional"> {
  let mnemonic = "optional";
  let summary = "an ONNX optional whose presence is known only at run time (onnx.runtime_optional)";
}

def Onnx_NodeOp : Onnx_Op<"node", [RecursiveMemoryEffects]> {
  let summary = "one ONNX node";
  let description = [{
    A node of the ONNX graph. `op_type`, `domain` (empty for the default domain) and
    `version` (the opset version the model imports for that domain) select the decomposition
    rule. `node_attrs` holds the node's attributes converted to MLIR attributes (INT -> i64,
    FLOAT -> f32, INTS -> array<i64>, FLOATS -> array<f32>, STRING -> string,
    TENSOR -> elements, TYPE_PROTO -> type). Graph-valued attributes are the regions, named
    by `subgraph_names` in order; their blocks' arguments are the subgraph inputs and they
    end in `onnx.yield`. The location is the ONNX node name.

    ```mlir
    %y = onnx.node "Conv" opset 20 (%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>}
         : (tensor<?x3x8x8xf32>, !onnx.value, !onnx.value) -> !onnx.value
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$op_type,
                       DefaultValuedStrAttr<StrAttr, "">:$domain, I64Attr:$version,
                       DictionaryAttr:$node_attrs, OptionalAttr<StrArrayAttr>:$subgraph_names);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region VariadicRegion<AnyRegion>:$subgraphs);
  let assemblyFormat = [{
    $op_type (`domain` $domain^)? `opset` $version `(` $inputs `)` $node_attrs
    (`subgraphs` $subgraph_names^)? ($subgraphs^)? attr-dict `:` functional-type($inputs, $outputs)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The attribute named `name`, or null when the node does not carry it.
    ::mlir::Attribute getNodeAttr(::llvm::StringRef name) { return getNodeAttrs().get(name); }
    /// The region of the graph attribute `name`, or null.
    ::mlir::Region *getSubgraph(::llvm::StringRef name);
    /// The ONNX node name (from the location), or "" when the node is unnamed.
    ::std::string getNodeName();
  }];
}

def Onnx_InitializerOp : Onnx_Op<"initializer", [Pure, ConstantLike]> {
  let summary = "a named graph initializer (a weight)";
  let description = [{
    A graph initializer. Large values are `dense_resource` blobs that point into the mmapped
    model or its external data files; small ones are dense attributes.

    ```mlir
    %w = onnx.initializer "conv1.weight" dense_resource<conv1.weight> : tensor<16x3x3x3xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$name $value attr-dict `:` type($result)";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Onnx_NoneOp : Onnx_Op<"none", [Pure]> {
  let summary = "an absent optional input";
  let results = (outs NoneType:$result);
  let assemblyFormat = "attr-dict";
}

def Onnx_SequenceOp : Onnx_Op<"sequence", [Pure]> {
  let summary = "an ONNX sequence value: its elements, in order (transient)";
  let description = [{
    tcc specializes sequences at compile time: a sequence is the list of its element
    tensors, whose length is known while compiling. The importer builds one for each
    sequence graph input (one function argument per element), and the sequence rules
    (SequenceConstruct, SequenceInsert, SequenceAt, ...) read and build them. None may be
    left when decomposition finishes: sequence graph outputs are flattened into one result
    per element.

    ```mlir
    %s = onnx.sequence(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.sequence
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$elements);
  let results = (outs Onnx_SequenceType:$result);
  let assemblyFormat = "`(` $elements `)` attr-dict `:` functional-type($elements, $result)";
}

def Onnx_PackedSequenceOp : Onnx_Op<"packed_sequence", [Pure]> {
  let summary = "a sequence known only at run time: its element shapes and elements (transient)";
  let description = [{
    A sequence whose length is known only when the model runs (a sequence graph input
    compiled without `--sequence-length`, SplitToSequence of a run-time count): `shapes`
    holds one row of extents per element ([count, rank], i64) and `data` the elements,
    flattened row-major and concatenated in order ([sum of their sizes]). Every element has
    the one element type and rank. The sequence rules read and build them; a sequence graph
    output is such a pair at the ABI (docs/control-flow.md). None may be left when
    decomposition finishes.

    ```mlir
    %s = onnx.packed_sequence(%shapes, %data) : (tensor<?x2xi64>, tensor<?xf32>) -> !onnx.sequence
    ```
  }];
  let arguments = (ins RankedTensorOf<[I64]>:$shapes, AnyRankedTensor:$data);
  let results = (outs Onnx_SequenceType:$result);
  let assemblyFormat = [{
    `(` $shapes `,` $data `)` attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def Onnx_RuntimeOptionalOp : Onnx_Op<"runtime_optional", [Pure]> {
  let summary = "an optional present or empty at run time: its flag and its value (transient)";
  let description = [{
    An ONNX optional whose presence is known only when the model runs (an optional graph
    input compiled without `--absent`/`--present`, an If whose branches disagree on it):
    `present` is a bool scalar and `value` the tensor or sequence it holds when present
    (when empty, `value` holds whatever the model computed in its place, zeros for an
    input, and must not be observed). OptionalHasElement reads the flag; OptionalGetElement
    checks it at run time. An optional graph output is such a pair at the ABI (the value's
    tensors, then NAME.present). None may be left when decomposition finishes.

    ```mlir
    %o = onnx.runtime_optional(%present, %x) : (tensor<i1>, tensor<?x4xf32>) -> !onnx.optional
    ```
  }];
  let arguments = (ins RankedTensorOf<[I1]>:$present, AnyType:$value);
  let results = (outs Onnx_OptionalType:$result);
  let assemblyFormat = [{
    `(` $present `,` $value `)` attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def Onnx_YieldOp : Onnx_Op<"yield", [Terminator]> {
  let summary = "the outputs of a graph or subgraph";
  let description = [{
    Ends the main graph (inside `func.func`) and every subgraph region. Decomposition turns
    the main graph's `onnx.yield` into `func.return`, reconciling the inferred types with the
    declared graph output types.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // TCC_ONNX_OPS
