//===- PrimReductions.td - reductions, windows, contractions, scans --------------------===//

def Prim_ReduceOp : Prim_Op<"reduce", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "reduce the listed dims (removed from the result) with one combiner";
  let description = [{
    The reduction of no elements is the combiner's identity (sum 0, prod 1, max -inf or the
    smallest integer, min +inf or the largest, and all-ones, or 0, xor 0). max and min
    propagate NaN.
  }];
  let arguments = (ins Prim_ReduceKind:$kind, Prim_NumericTensor:$operand,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = [{
    $kind $operand `dims` `=` $dimensions attr-dict `:` type($operand) `->` type($result)
  }];
  let hasFolder = 1;
}

def Prim_ArgReduceOp : Prim_Op<"arg_reduce", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "index (i64) of the max or min along one dim (removed from the result)";
  let description = [{
    Ties go to the first index, or the last with `select_last_index`. NaN counts as larger
    than every number for argmax and smaller for argmin, so the first NaN wins.
  }];
  let arguments = (ins Prim_ArgReduceKind:$kind, Prim_NumericTensor:$operand, I64Attr:$dimension,
                       UnitAttr:$select_last_index);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = [{
    $kind $operand `dim` `=` $dimension attr-dict `:` type($operand) `->` type($result)
  }];
}

def Prim_SortOp : Prim_Op<"sort", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "stable sort along one dim: the sorted values and their source indices (i64)";
  let description = [{
    Ascending, or descending with `descending`; equal elements keep their order (the lower
    source index first) in both directions. NaN counts as larger than every number, as in
    prim.arg_reduce (last when ascending, first when descending); unsigned types compare
    unsigned. `indices[..., r, ...]` is the position along `dim` that `values[..., r, ...]`
    came from.
  }];
  let arguments = (ins Prim_NumericTensor:$operand, I64Attr:$dimension, UnitAttr:$descending);
  let results = (outs Prim_NumericTensor:$values, RankedTensorOf<[I64]>:$indices);
  let assemblyFormat = [{
    $operand `dim` `=` $dimension attr-dict `:` type($operand) `->` type($values) `,` type($indices)
  }];
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &builder,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      if (failed(::tcc::prim::reifyShapeOfOperand(getOperation(), 0, builder, shapes)))
        return ::mlir::failure();
      shapes.push_back(shapes.front());
      return ::mlir::success();
    }
  }];
}

def Prim_ReduceWindowOp : Prim_Op<"reduce_window", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "sliding-window reduction (pooling)";
  let description = [{
    The operand is padded with the combiner's identity (`padding_low`, `padding_high`), then
    each result element reduces the window `window_dimensions` (dilated by
    `window_dilations`) placed at `i * window_strides`:
    `out = floor((in + low + high - dilation * (window - 1) - 1) / stride) + 1`.
  }];
  let arguments = (ins Prim_ReduceKind:$kind, Prim_NumericTensor:$operand,
                       DenseI64ArrayAttr:$window_dimensions, DenseI64ArrayAttr:$window_strides,
                       DenseI64ArrayAttr:$window_dilations, DenseI64ArrayAttr:$padding_low,
                       DenseI64ArrayAttr:$padding_high);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = "$kind $operand attr-dict `:` type($operand) `->` type($result)";
}

def Prim_DotGeneralOp : Prim_Op<"dot_general", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "general contraction: result dims are batch, lhs free, rhs free";
  let description = [{
    `result[b..., i..., j...] = sum over k... of lhs[b, i, k] * rhs[b, j, k]` with the dims
    of each operand named by the attributes; free dims keep their order. Floating-point
    sums accumulate in at least f32.

    ```mlir
    %c = prim.dot_general %a, %b contracting = [1] x [0] batching = [] x []
         : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Prim_NumericTensor:$lhs, Prim_NumericTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions,
                       DenseI64ArrayAttr:$lhs_batching_dimensions,
                       DenseI64ArrayAttr:$rhs_batching_dimensions);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `contracting` `=` $lhs_contracting_dimensions `x` $rhs_contracting_dimensions
    `batching` `=` $lhs_batching_dimensions `x` $rhs_batching_dimensions attr-dict
    `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
}

def Prim_ConvolutionOp : Prim_Op<"convolution", [Pure, InferTypeOpAdaptor, Prim_Reify]> {
  let summary = "N-d grouped convolution, input N C spatial..., filter O (C/groups) spatial...";
  let description = [{
    The input is zero-padded by `padding_low`/`padding_high`; the filter is dilated by
    `dilations`; windows step by `strides`. With G = `feature_group_count`, output channel
    o reads input channels `[(o / (O/G)) * C/G, ...)`. Cross-correlation, as ONNX Conv.
    The result is N O spatial..., spatial extents as in `prim.reduce_window`.
  }];
  let arguments = (ins Prim_NumericTensor:$input, Prim_NumericTensor:$filter,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding_low,
                       DenseI64ArrayAttr:$padding_high, DenseI64ArrayAttr:$dilations,
                       I64Attr:$feature_group_count);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter attr-dict `:` `(` type($input) `,` type($filter) `)` `->` type($result)
  }];
}

def Prim_CumulativeOp : Prim_Op<"cumulative", [Pure, SameOperandsAndResultType, Prim_Reify]> {
  let summary = "running sum/prod/max/min along one dim";
  let description = [{
    `exclusive` shifts by one (the first element is the combiner's identity); `reverse`
    runs from the end of the dim.
  }];
  let arguments = (ins Prim_ReduceKind:$kind, Prim_NumericTensor:$operand, I64Attr:$dimension,
                       UnitAttr:$exclusive, UnitAttr:$reverse);
  let results = (outs Prim_NumericTensor:$result);
  let assemblyFormat = "$kind $operand `dim` `=` $dimension attr-dict `:` type($result)";
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::reifyResultShapes(::mlir::OpBuilder &builder,
        ::mlir::ReifiedRankedShapedTypeDims &shapes) {
      return ::tcc::prim::reifyShapeOfOperand(getOperation(), 0, builder, shapes);
    }
  }];
  let hasVerifier = 1;
}
