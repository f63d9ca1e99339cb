//===- PrimDataMovement.td - data movement primitives ---------------------------------===//
//
// Ops whose result extents do not follow from their operands take the dynamic extents of
// their result as `index` operands, one per `?` in the result type, in order.
//
//===----------------------------------------------------------------------------------===//

class Prim_ExtentsOp<string mnemonic, list<Trait> traits = []>
    : Prim_Op<mnemonic, traits # [Pure, Prim_Reify]> {
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &builder,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return ::tcc::prim::reifyShapeFromExtents(getResult().getType(), getDynamicSizes(),
                                                builder, shapes);
    }
  }];
  let hasVerifier = 1;
}

def Prim_BroadcastInDimOp : Prim_ExtentsOp<"broadcast_in_dim"> {
  let summary = "broadcast: operand dim i becomes result dim broadcast_dimensions[i]";
  let description = [{
    `result[j...] = operand[k...]` where `k[i] = operand_dim(i) == 1 ? 0 : j[dims[i]]`.
    `broadcast_dimensions` is strictly increasing; each operand dim is 1 or equal to the
    result dim it maps to.

    ```mlir
    %r = prim.broadcast_in_dim %x, dims = [1] sizes(%n) : (tensor<4xf32>) -> tensor<?x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, Variadic<Index>:$dynamic_sizes,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions (`sizes` `(` $dynamic_sizes^ `)`)? attr-dict
    `:` `(` type($operand) `)` `->` type($result)
  }];
  let hasFolder = 1;
}

def Prim_ReshapeOp : Prim_ExtentsOp<"reshape"> {
  let summary = "row-major reshape to a result with the same number of elements";
  let arguments = (ins AnyRankedTensor:$operand, Variadic<Index>:$dynamic_sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand (`sizes` `(` $dynamic_sizes^ `)`)? attr-dict `:` `(` type($operand) `)` `->` type($result)
  }];
  let hasFolder = 1;
}

def Prim_IotaOp : Prim_ExtentsOp<"iota"> {
  let summary = "result[i...] = i[dimension]";
  let arguments = (ins Variadic<Index>:$dynamic_sizes, I64Attr:$dimension);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = [{
    `dim` `=` $dimension (`sizes` `(` $dynamic_sizes^ `)`)? attr-dict `:` type($result)
  }];
}

def Prim_TransposeOp : Prim_Op<"transpose", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "result dim i is operand dim permutation[i]";
  let arguments = (ins AnyRankedTensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand `,` $permutation attr-dict `:` type($operand) `->` type($result)";
  let hasFolder = 1;
}

def Prim_SliceOp : Prim_Op<"slice", [Pure, AttrSizedOperandSegments, Prim_Reify]> {
  let summary = "result[i...] = operand[offsets + i * strides]";
  let description = [{
    Offsets and sizes are static or dynamic (`index` operands, like `tensor.extract_slice`);
    strides are static and positive. Every element read must be inside the operand: the
    decomposition clamps ONNX's out-of-range starts and ends, and kernels check.

    ```mlir
    %r = prim.slice %x [0, %o] [2, 4] strides [1, 2] : tensor<4x?xf32> -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, Variadic<Index>:$offsets,
                       Variadic<Index>:$sizes, DenseI64ArrayAttr:$static_offsets,
                       DenseI64ArrayAttr:$static_sizes, DenseI64ArrayAttr:$static_strides);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand custom<DynamicIndexList>($offsets, $static_offsets)
    custom<DynamicIndexList>($sizes, $static_sizes) `strides` $static_strides attr-dict
    `:` type($operand) `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$operand, "::llvm::ArrayRef<::mlir::OpFoldResult>":$offsets,
                   "::llvm::ArrayRef<::mlir::OpFoldResult>":$sizes,
                   "::llvm::ArrayRef<int64_t>":$strides)>
  ];
  let extraClassDeclaration = [{
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedOffsets();
    ::llvm::SmallVector<::mlir::OpFoldResult> getMixedSizes();
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Prim_PadOp : Prim_Op<"pad", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "pad each dim with low[i] and high[i] copies of the 0-d padding value";
  let arguments = (ins AnyRankedTensor:$operand, AnyRankedTensor:$padding_value,
                       DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `low` $low `high` $high attr-dict
    `:` `(` type($operand) `,` type($padding_value) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Prim_ConcatenateOp : Prim_Op<"concatenate", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "join operands along one dim; all other dims agree";
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I64Attr:$dimension);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $inputs `dim` `=` $dimension attr-dict `:` functional-type($inputs, $result)
  }];
  let hasFolder = 1;
}

def Prim_ScatterOp : Prim_Op<"scatter", [Pure, Prim_Reify,
    AllTypesMatch<["operand", "result"]>, AllElementTypesMatch<["operand", "updates"]>]> {
  let summary = "operand with the slices at index tuples replaced by, or combined with, updates";
  let description = [{
    `indices` has shape `B... x K` with a static K, 1 <= K <= rank(operand): each row
    `indices[b..., :]` is the index tuple t of a slice `operand[t, ...]` (of shape
    `operand.shape[K:]`); `updates` has shape `B... x operand.shape[K:]`. In the row-major
    order of b, `result[t, ...] = updates[b, ...]`, or with `combine` (sum, prod, max, min)
    `result[t, ...] = combine(result[t, ...], updates[b, ...])`: a later row writing the same
    place wins, or accumulates in that order. A row whose tuple has an entry outside
    `[0, extent)` is skipped (decompositions wrap ONNX's negative indices first), so no
    index ever reaches memory out of bounds.

    ```mlir
    %r = prim.scatter %data[%indices], %updates combine = sum
        : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, Prim_IntTensor:$indices,
                       AnyRankedTensor:$updates, OptionalAttr<Prim_ReduceKind>:$combine);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `[` $indices `]` `,` $updates (`combine` `=` $combine^)? attr-dict
    `:` `(` type($operand) `,` type($indices) `,` type($updates) `)` `->` type($result)
  }];
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &builder,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return ::tcc::prim::reifyShapeOfOperand(getOperation(), 0, builder, shapes);
    }
  }];
  let hasVerifier = 1;
}

def Prim_CompactOp : Prim_Op<"compact", [Pure]> {
  let summary = "the slices along one dim whose mask entry is true, in order (data-dependent extent)";
  let description = [{
    `mask` is a 1-D i1 tensor as long as `operand` is along `dim`. The result keeps the
    slices `operand[..., i, ...]` with `mask[i]` true, in increasing `i`; its extent along
    `dim` is the number of true entries, known only from the data (always dynamic in the
    type). It is the one primitive with a data-dependent result shape: NonZero, Compress,
    Unique and TopK with a run-time K decompose onto it. Generated code writes the kept
    slices into a buffer of the operand's size (the capacity) and reports the count.

    ```mlir
    %r = prim.compact %x, %mask dim = 0 : (tensor<5x3xf32>, tensor<5xi1>) -> tensor<?x3xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, RankedTensorOf<[I1]>:$mask, I64Attr:$dimension);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `,` $mask `dim` `=` $dimension attr-dict `:` `(` type($operand) `,` type($mask) `)`
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Prim_ReverseOp : Prim_Op<"reverse", [Pure, SameOperandsAndResultType, Prim_Reify]> {
  let summary = "reverse the order of elements along each listed dim";
  let arguments = (ins AnyRankedTensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)";
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &builder,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return ::tcc::prim::reifyShapeOfOperand(getOperation(), 0, builder, shapes);
    }
  }];
  let hasVerifier = 1;
}

def Prim_GatherOp : Prim_Op<"gather", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "take along one axis: result = operand[..., indices[j...], ...]";
  let description = [{
    The result shape is `operand.shape[:axis] + indices.shape + operand.shape[axis+1:]`.
    Indices are integers in `[0, operand.shape[axis])`; ONNX's negative indices are wrapped
    by the decomposition and an index out of range is a run-time error.
  }];
  let arguments = (ins AnyRankedTensor:$operand, Prim_IntTensor:$indices, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `[` $indices `]` `axis` `=` $axis attr-dict
    `:` `(` type($operand) `,` type($indices) `)` `->` type($result)
  }];
}
