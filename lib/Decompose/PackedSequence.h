//===- PackedSequence.h - sequences whose length is known only at run time ----*- C++ -*-===//
//
// The rules for `onnx.packed_sequence` values (PackedSequence.cpp): a sequence graph input
// compiled without --sequence-length, SplitToSequence into a run-time count of pieces, and
// every sequence graph output (docs/control-flow.md).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_PACKEDSEQUENCE_H
#define TCC_LIB_DECOMPOSE_PACKEDSEQUENCE_H

#include "RuleSupport.h"
#include "Subgraphs.h"

#include "dialects/prim/PrimBuilder.h"

namespace tcc::decompose {

/// A sequence as two tensors: shapes [count, rank] (i64), one row of extents per element,
/// and data [size], the elements flattened and concatenated.
struct PackedSequence {
  mlir::Value shapes, data;
};

/// The parts of `value` when it is an `onnx.packed_sequence`, else std::nullopt.
std::optional<PackedSequence> getPackedSequence(mlir::Value value);

/// An `onnx.packed_sequence` of the two parts.
mlir::Value makePackedSequence(NodeRewriter &n, mlir::Value shapes, mlir::Value data);

/// `elements` packed; each is a rank-`rank` tensor of `element` (see findMismatch).
PackedSequence packElements(prim::PrimBuilder &p, mlir::ValueRange elements, mlir::Type element,
                            int64_t rank);

/// The first of `elements` that is not a rank-`rank` tensor of `element`.
std::optional<size_t> findMismatch(mlir::ValueRange elements, mlir::Type element, int64_t rank);

/// Input `index` as a packed sequence (a list is packed; an empty list takes its element
/// type and rank from `like`, or is an error without it). std::nullopt after an error.
std::optional<PackedSequence> getPackedInput(NodeRewriter &n, unsigned index,
                                             mlir::Value like = {});

// The sequence rules on packed sequences; positions are inputs read at run time, checked
// to lie in the sequence.
mlir::LogicalResult packedLength(NodeRewriter &n, const PackedSequence &s);
mlir::LogicalResult packedAt(NodeRewriter &n, const PackedSequence &s);
mlir::LogicalResult packedInsert(NodeRewriter &n, const PackedSequence &s, mlir::Value x);
mlir::LogicalResult packedErase(NodeRewriter &n, const PackedSequence &s);
mlir::LogicalResult packedConcat(NodeRewriter &n, const PackedSequence &s, int64_t axis,
                                 bool newAxis);
/// SplitToSequence of `x` along `axis` into pieces of `lengths` ([count] i64, summing to the
/// axis' extent: the caller checks), the axis dropped unless `keepDims`.
mlir::LogicalResult packedSplit(NodeRewriter &n, mlir::Value x, int64_t axis, mlir::Value lengths,
                                bool keepDims);

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_PACKEDSEQUENCE_H
