//===- Subgraphs.h - what the control-flow and sequence rules share ------------*- C++ -*-===//
//
// tcc specializes control flow and sequences while compiling: a subgraph (If's branches,
// Loop's and Scan's bodies, SequenceMap's body) is inlined, its ops cloned before the node
// and decomposed in place; a sequence is an `onnx.sequence` of its element tensors, which
// the sequence rules read and build and which must be gone when decomposition finishes.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_SUBGRAPHS_H
#define TCC_LIB_DECOMPOSE_SUBGRAPHS_H

#include "NodeRewriter.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace tcc::decompose {

/// Decomposes `ops` (of a function's block) in order, as the pass does: initializers become
/// constants, nodes are replaced by their rules' prim ops (DecomposeOnnx.cpp).
mlir::LogicalResult decomposeOps(llvm::ArrayRef<mlir::Operation *> ops,
                                 NodeRewriter::DimCache *dimCache);

/// Inlines the one block of `region` (a graph attribute of the node) before the node: its
/// ops are cloned with the block arguments replaced by `arguments` and decomposed. Returns
/// the values the subgraph yields; failure after an error (DecomposeOnnx.cpp).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
inlineSubgraph(NodeRewriter &n, mlir::Region &region, mlir::ValueRange arguments);

/// The elements of `value` when it is a sequence (an `onnx.sequence`), else std::nullopt.
std::optional<llvm::SmallVector<mlir::Value>> getSequenceElements(mlir::Value value);

/// The elements of input `index`, which must be a sequence; std::nullopt after an error.
std::optional<llvm::SmallVector<mlir::Value>> getSequenceInput(NodeRewriter &n, unsigned index);

/// A sequence of `elements` (Sequence.cpp).
mlir::Value makeSequence(NodeRewriter &n, mlir::ValueRange elements);

/// An optional whose presence is known only at run time (`onnx.runtime_optional`): a bool
/// scalar tensor and the value (a tensor or a sequence).
struct RuntimeOptional {
  mlir::Value present, value;
};

/// The flag and value of `value` when it is an `onnx.runtime_optional`, else std::nullopt.
std::optional<RuntimeOptional> getRuntimeOptional(mlir::Value value);

/// An optional present where `present` (a bool scalar tensor) holds, holding `value`
/// (Optional.cpp).
mlir::Value makeRuntimeOptional(NodeRewriter &n, mlir::Value present, mlir::Value value);

/// The one integer (or bool, as 0/1) of a one-element tensor when it is known while
/// compiling (getConstantInts: constants, or small computations on them).
std::optional<int64_t> foldToInteger(mlir::Value value);

/// `x` with a new dim of extent 1 inserted at `axis` (0 <= axis <= rank).
mlir::Value unsqueezeAt(NodeRewriter &n, mlir::Value x, int64_t axis);

/// `values` (same shapes) stacked along a new dim `axis`; null after an error.
mlir::Value stack(NodeRewriter &n, mlir::ValueRange values, int64_t axis, llvm::StringRef what);

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_SUBGRAPHS_H
