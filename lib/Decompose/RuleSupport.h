//===- RuleSupport.h - what decomposition rules share beyond the prim builder --*- C++ -*-===//
//
// Node-level helpers (attributes, broadcasting with checks, shape tensors, matmul and
// convolution builders) and, as functions of the node, the prim builder's operations
// (NodeRewriter::prim(), dialects/prim/PrimBuilder.h), which build prim code at the node.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_RULESUPPORT_H
#define TCC_LIB_DECOMPOSE_RULESUPPORT_H

#include "NodeRewriter.h"

#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace tcc::decompose {

/// Adds the note that suggests how to fix "input K must be a constant": exporters fold such
/// values when they are known; tcc does not take them at run time yet. Returns `diag`.
mlir::InFlightDiagnostic &noteConstantInput(mlir::InFlightDiagnostic &diag);

/// The type, rank and element type of a ranked tensor value.
inline mlir::RankedTensorType typeOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType());
}
inline int64_t rankOf(mlir::Value v) { return mlir::cast<mlir::RankedTensorType>(v.getType()).getRank(); }
inline mlir::Type elementOf(mlir::Value v) {
  return mlir::cast<mlir::RankedTensorType>(v.getType()).getElementType();
}

/// An INTS attribute with `count` entries each >= `minimum` (`fill` repeated when absent),
/// e.g. a window's strides; std::nullopt after an error naming the attribute.
std::optional<llvm::SmallVector<int64_t>> getSpatialInts(NodeRewriter &n, llvm::StringRef name,
                                                         int64_t count, int64_t fill,
                                                         int64_t minimum);

/// The element type of ONNX TensorProto data type `code` (Cast's `to`, EyeLike's `dtype`),
/// or null for types tcc does not support.
mlir::Type elementTypeOfOnnxCode(mlir::MLIRContext *ctx, int64_t code);

/// The enumerator that string attribute `name` (default `fallback`) names among `choices`;
/// std::nullopt after an error that lists them.
template <typename E>
std::optional<E> getChoice(NodeRewriter &n, llvm::StringRef name, llvm::StringRef fallback,
                           llvm::ArrayRef<std::pair<llvm::StringRef, E>> choices) {
  std::string value = n.getString(name, fallback);
  if (n.hasFailed())
    return std::nullopt;
  for (const auto &[key, choice] : choices)
    if (key == value)
      return choice;
  auto diag = n.emitError() << "attribute '" << name << "' is \"" << value << "\", expected ";
  for (size_t i = 0; i < choices.size(); ++i)
    diag << (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") << choices[i].first;
  return std::nullopt;
}

/// numpy.matmul(a, b) (Contraction.cpp); null after an error.
mlir::Value buildMatMul(NodeRewriter &n, mlir::Value a, mlir::Value b);

/// convolution(x, w) with the node's Conv attributes: strides, pads or auto_pad, dilations,
/// group, kernel_shape (Convolution.cpp); null after an error.
mlir::Value buildConvolution(NodeRewriter &n, mlir::Value x, mlir::Value w);

/// average_pool(x) (float) with the node's AveragePool attributes: kernel_shape, strides,
/// pads or auto_pad, and count_include_pad, ceil_mode, dilations where the flags say the
/// node has them (Pooling.cpp); `kernelSizeDivisor`: with count_include_pad, windows that
/// ceil_mode extends past the padding divide by the kernel size too; null after an error.
mlir::Value buildAveragePool(NodeRewriter &n, mlir::Value x, bool countIncludePad, bool ceilMode,
                             bool dilations, bool kernelSizeDivisor = false);

/// `x` reduced over `dim` and broadcast back to x's shape (a keepdims reduction).
mlir::Value reduceKeep(NodeRewriter &n, prim::ReduceKind kind, mlir::Value x, int64_t dim);

/// `reduced` (x's shape without dim `dim`, any element type) broadcast back along `dim` to
/// x's shape.
mlir::Value restoreDim(NodeRewriter &n, mlir::Value reduced, mlir::Value x, int64_t dim);

/// Checks X (N x C x D1 ...) and W of a convolution: one rank >= 3, one element type, and
/// the `group` attribute >= 1 (returned). `filterLayout` describes W in the error.
std::optional<int64_t> checkConvolutionOperands(NodeRewriter &n, mlir::Value x, mlir::Value w,
                                                llvm::StringRef filterLayout);

/// A per-channel vector `v` (e.g. a bias) broadcast along dim 1 of `dims`; `what` names it
/// in errors. Null after an error.
mlir::Value broadcastChannels(NodeRewriter &n, mlir::Value v,
                              llvm::ArrayRef<mlir::OpFoldResult> dims, llvm::StringRef what);

/// The extents of `value` in terms of the function's inputs (see canonicalDim).
llvm::SmallVector<mlir::OpFoldResult> getDims(NodeRewriter &n, mlir::Value value);

/// `extent` as an index SSA value (materializing a constant if needed).
inline mlir::Value toIndex(NodeRewriter &n, mlir::OpFoldResult extent) {
  return n.prim().index(extent);
}

/// A tensor type with static extents where `dims` are constants and `?` elsewhere.
inline mlir::RankedTensorType getTensorType(llvm::ArrayRef<mlir::OpFoldResult> dims,
                                            mlir::Type elementType) {
  return prim::tensorType(dims, elementType);
}

/// The dynamic extents among `dims` as index values, in order (the `sizes(...)` operands).
inline llvm::SmallVector<mlir::Value>
getDynamicExtents(NodeRewriter &, llvm::ArrayRef<mlir::OpFoldResult> dims) {
  return prim::dynamicExtents(dims);
}

/// A 0-d constant of `elementType` holding `value` (rounded/truncated to the type).
inline mlir::Value scalarConstant(NodeRewriter &n, mlir::Type elementType, double value) {
  return n.prim().scalar(elementType, value);
}

/// A tensor shaped like `like` filled with `value`, of `elementType` (default: like's).
inline mlir::Value splatLike(NodeRewriter &n, mlir::Value like, double value,
                             mlir::Type elementType = {}) {
  return n.prim().splat(like, value, elementType);
}

/// A tensor of shape `dims` filled with the 0-d tensor `scalar`.
inline mlir::Value fill(NodeRewriter &n, mlir::Value scalar,
                        llvm::ArrayRef<mlir::OpFoldResult> dims) {
  return n.prim().fill(scalar, dims);
}

/// Numpy broadcasting of `value` to `dims` (right-aligned). Null after an error.
mlir::Value broadcastTo(NodeRewriter &n, mlir::Value value,
                        llvm::ArrayRef<mlir::OpFoldResult> dims,
                        const std::string &what = "the input");

/// Multidirectional (numpy) broadcasting of several tensors to one shape. Where a dynamic
/// extent meets a static one > 1 or another dynamic extent, they must be equal (a dynamic
/// dim is assumed >= 2 unless it is proven 1): a `prim.check` states it. Empty on error.
llvm::SmallVector<mlir::Value> broadcastAll(NodeRewriter &n, mlir::ValueRange values);

/// Whether an index value reads tensor elements (a graph input's value), not only dims and
/// constants.
bool readsTensorData(mlir::OpFoldResult value);

/// The one element of `value` (static shape, one element) as a scalar; null otherwise.
mlir::Value readScalar(NodeRewriter &n, mlir::Value value);

/// A `computed` module symbol (named after the node and `what`) whose value is `count`, an
/// index computed from input elements before the run (ComputedSymbols.cpp); returns the
/// `prim.data_symbol` that extents use.
mlir::Value computedSymbol(NodeRewriter &n, mlir::Value count, llvm::StringRef what);

/// computedSymbol's work outside a rule: a `computed` symbol of `module` named after `what`
/// (made an identifier, numbered if taken), and its `prim.data_symbol` of `count` at `b`.
mlir::Value createDataSymbol(mlir::OpBuilder &b, mlir::ModuleOp module, mlir::Location loc,
                             llvm::StringRef what, mlir::Value count);

/// Range's length from run-time start, limit and delta (scalars read from the tensors), as a
/// computed symbol; -1, outside the symbol's range, when delta is 0 or the count is not
/// finite (the run then fails naming the symbol).
mlir::FailureOr<mlir::Value> runtimeRangeCount(NodeRewriter &n, mlir::Value start,
                                               mlir::Value limit, mlir::Value delta);

/// `value` converted to `elementType` (no op when it already has it).
inline mlir::Value convert(NodeRewriter &n, mlir::Value value, mlir::Type elementType) {
  return n.prim().convert(value, elementType);
}

/// `value` reshaped to `dims` (no op when the type already matches).
inline mlir::Value reshape(NodeRewriter &n, mlir::Value value,
                           llvm::ArrayRef<mlir::OpFoldResult> dims) {
  return n.prim().reshape(value, dims);
}

/// True when two extents are equal at compile time (equal monomials).
using prim::sameExtent;

/// Emits `prim.check(lhs == rhs, message)` unless it folds to true; when both are constants
/// that differ, an error at the node instead (the node fails: see hasFailed).
void checkEqual(NodeRewriter &n, mlir::OpFoldResult lhs, mlir::OpFoldResult rhs,
                const llvm::Twine &message);

/// prim.gather of `indices` (integers) along `axis` of `table`, whose run-time range check
/// fails with "node '<name>' (<op type>): <what> out of range: each must be in [0, <extent>)"
/// (`extent` names the extent in the op's terms, e.g. "the batch of X").
mlir::Value gatherInRange(NodeRewriter &n, mlir::Value table, mlir::Value indices, int64_t axis,
                          llvm::StringRef what, llvm::StringRef extent);

/// The values of a constant integer tensor: an `arith.constant` of any rank, or a small
/// computation on constants alone (see evaluateConstantInts).
std::optional<llvm::SmallVector<int64_t>> getConstantInts(mlir::Value value);

/// The values of an integer tensor computed from constants alone by a small slice of prim,
/// arith and tensor ops (shape arithmetic on static shapes), run through the reference
/// evaluator; std::nullopt when the value is not of that kind (ConstantSlice.cpp).
std::optional<llvm::SmallVector<int64_t>> evaluateConstantInts(mlir::Value value);

/// The elements of a small 0-d or 1-d integer tensor as index values (constants as
/// attributes), looking through `tensor.from_elements`; std::nullopt when the tensor is not
/// of that kind. This is how shape tensors (Shape -> Gather -> Concat -> Reshape) become
/// index arithmetic.
std::optional<llvm::SmallVector<mlir::OpFoldResult>> getShapeElements(NodeRewriter &n,
                                                                      mlir::Value value);

/// A 1-d (or, with `scalar`, 0-d) tensor of `elementType` holding `elements`.
mlir::Value makeShapeTensor(NodeRewriter &n, llvm::ArrayRef<mlir::OpFoldResult> elements,
                            mlir::Type elementType, bool scalar = false);

/// True for the small 0-d/1-d integer tensors that getShapeElements understands.
bool isShapeTensor(mlir::Value value);

/// ONNX's negative axes count from the end: axis + rank if negative. Error if out of range.
std::optional<int64_t> normalizeAxis(NodeRewriter &n, int64_t axis, int64_t rank,
                                     llvm::StringRef what = "axis");

/// Builds OpTy (a prim binary elementwise op) over broadcast operands. Null on error.
template <typename OpTy>
mlir::Value buildBinary(NodeRewriter &n, mlir::Value lhs, mlir::Value rhs) {
  llvm::SmallVector<mlir::Value> operands = broadcastAll(n, {lhs, rhs});
  if (operands.empty())
    return nullptr;
  return n.getBuilder().createOrFold<OpTy>(n.getLoc(), operands[0], operands[1]);
}

/// An index extent as coefficient x product of factors (dims or other index values), when it
/// is a product; `factors` identify dims up to equality and are sorted.
using prim::asMonomial;
using prim::Monomial;

/// a / b when b's factors cancel out of a's exactly (e.g. (6 n) / n = 6); std::nullopt when
/// that cannot be shown at compile time.
inline std::optional<mlir::OpFoldResult> divideExactly(NodeRewriter &n, mlir::OpFoldResult a,
                                                       mlir::OpFoldResult b) {
  return n.prim().divideExactly(a, b);
}

/// Index arithmetic that folds constants (the prim builder's, at the node).
inline mlir::OpFoldResult addIndex(NodeRewriter &n, mlir::OpFoldResult a, mlir::OpFoldResult b) {
  return n.prim().addIndex(a, b);
}
inline mlir::OpFoldResult mulIndex(NodeRewriter &n, mlir::OpFoldResult a, mlir::OpFoldResult b) {
  return n.prim().mulIndex(a, b);
}
inline mlir::OpFoldResult product(NodeRewriter &n, llvm::ArrayRef<mlir::OpFoldResult> values) {
  return n.prim().product(values);
}
inline mlir::OpFoldResult subIndex(NodeRewriter &n, mlir::OpFoldResult a, mlir::OpFoldResult b) {
  return n.prim().subIndex(a, b);
}
inline mlir::OpFoldResult floorDivIndex(NodeRewriter &n, mlir::OpFoldResult a,
                                        mlir::OpFoldResult b) {
  return n.prim().floorDivIndex(a, b);
}
inline mlir::OpFoldResult ceilDivIndex(NodeRewriter &n, mlir::OpFoldResult a,
                                       mlir::OpFoldResult b) {
  return n.prim().ceilDivIndex(a, b);
}
inline mlir::OpFoldResult minIndex(NodeRewriter &n, mlir::OpFoldResult a, mlir::OpFoldResult b) {
  return n.prim().minIndex(a, b);
}
inline mlir::OpFoldResult maxIndex(NodeRewriter &n, mlir::OpFoldResult a, mlir::OpFoldResult b) {
  return n.prim().maxIndex(a, b);
}
/// (lhs `predicate` rhs) ? ifTrue : ifFalse, signed comparison.
inline mlir::OpFoldResult selectIndex(NodeRewriter &n, mlir::arith::CmpIPredicate predicate,
                                      mlir::OpFoldResult lhs, mlir::OpFoldResult rhs,
                                      mlir::OpFoldResult ifTrue, mlir::OpFoldResult ifFalse) {
  return n.prim().selectIndex(predicate, lhs, rhs, ifTrue, ifFalse);
}

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_RULESUPPORT_H
