//===- LinearAlgebra.cpp - rules for Det ---------------------------------------------===//
//
// Det is an LU factorization with partial pivoting, unrolled over the (static) matrix size n:
// step k works on the trailing (n-k) x (n-k) block S of every matrix of the batch at once,
// picks the row with the largest |S[i, 0]| by prim.arg_reduce, swaps it with row 0 by
// selects against a one-hot row mask, and eliminates column 0 below it.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// The LU elimination over a batch of matrices [B, m, m].
struct Elimination {
  NodeRewriter &n;
  OpFoldResult batch;

  OpBuilder &b() { return n.getBuilder(); }
  Location loc() { return n.getLoc(); }

  Value slice(Value v, ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
    SmallVector<OpFoldResult> o = {b().getIndexAttr(0)}, s = {batch};
    for (auto [offset, size] : llvm::zip(offsets, sizes)) {
      o.push_back(b().getIndexAttr(offset));
      s.push_back(b().getIndexAttr(size));
    }
    return b().createOrFold<prim::SliceOp>(loc(), v, o, s, SmallVector<int64_t>(o.size(), 1));
  }
  SmallVector<OpFoldResult> shape(ArrayRef<int64_t> dims) {
    SmallVector<OpFoldResult> result = {batch};
    for (int64_t d : dims)
      result.push_back(b().getIndexAttr(d));
    return result;
  }
  /// `v` (dims [B, rest...]) broadcast to [B, dims...] with its dims at `mapping`.
  Value broadcast(Value v, ArrayRef<int64_t> dims, ArrayRef<int64_t> mapping) {
    SmallVector<OpFoldResult> to = shape(dims);
    return prim::BroadcastInDimOp::create(b(), loc(), getTensorType(to, elementOf(v)), v,
                                          getDynamicExtents(n, to),
                                          b().getDenseI64ArrayAttr(mapping));
  }
};

// det(A) = (-1)^swaps * prod_k U[k, k], for P A = L U (Gaussian elimination with partial
// pivoting: at step k the row of max |A[i, k]|, i >= k, becomes the pivot row and
// A[i, j] -= A[i, k] / A[k, k] * A[k, j] for i, j > k). A zero pivot column gives det 0.
LogicalResult det(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  auto type = cast<RankedTensorType>(x.getType());
  if (rank < 2)
    return n.emitError() << "expected a tensor of rank >= 2 (..., M, M), got " << type;
  int64_t size = type.getDimSize(rank - 1);
  if (ShapedType::isDynamic(size) || type.isDynamicDim(rank - 2))
    return n.emitError() << "the matrix size must be static (the elimination is unrolled over "
                            "it), got "
                         << type;
  if (type.getDimSize(rank - 2) != size)
    return n.emitError() << "expected square matrices (..., M, M), got " << type;

  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type element = elementOf(x);
  // Narrow floats are factored in f32.
  Type work = element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<OpFoldResult> batchDims(dims.begin(), dims.end() - 2);
  Elimination e{n, product(n, batchDims)};
  Value s = reshape(n, convert(n, x, work), e.shape({size, size}));
  Value det = fill(n, scalarConstant(n, work, 1.0), {e.batch});
  Value zero = fill(n, scalarConstant(n, work, 0.0), {e.batch});
  Value one = fill(n, scalarConstant(n, work, 1.0), {e.batch});
  for (int64_t m = size; m >= 1; --m) {
    // p[b] = argmax_i |S[b, i, 0]|
    Value column = reshape(n, e.slice(s, {0, 0}, {m, 1}), e.shape({m}));
    Value p = prim::ArgReduceOp::create(b, loc, prim::ArgReduceKind::Argmax,
                                        prim::AbsOp::create(b, loc, column), 1);
    SmallVector<OpFoldResult> blockDims = e.shape({m, m});
    Value rows = prim::IotaOp::create(b, loc, getTensorType(blockDims, b.getI64Type()),
                                      getDynamicExtents(n, blockDims), 1);
    Value isPivotRow = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, rows,
                                               e.broadcast(p, {m, m}, {0}));
    Value isFirstRow = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, rows,
                                               splatLike(n, rows, 0.0));
    // pivotRow[b, j] = S[b, p[b], j]; the swap puts it first and row 0 at p.
    Value pivotRow = prim::ReduceOp::create(
        b, loc, prim::ReduceKind::Sum,
        prim::SelectOp::create(b, loc, isPivotRow, s, splatLike(n, s, 0.0)),
        b.getDenseI64ArrayAttr({1}));
    Value firstRow = reshape(n, e.slice(s, {0, 0}, {1, m}), e.shape({m}));
    Value swapped = prim::SelectOp::create(
        b, loc, isFirstRow, e.broadcast(pivotRow, {m, m}, {0, 2}),
        prim::SelectOp::create(b, loc, isPivotRow, e.broadcast(firstRow, {m, m}, {0, 2}), s));
    Value pivot = reshape(n, e.slice(pivotRow, {0}, {1}), {e.batch});
    det = prim::MulOp::create(b, loc, det, pivot);
    Value swappedRows = prim::CompareOp::create(b, loc, prim::CompareDirection::Ne, p,
                                                splatLike(n, p, 0.0));
    det = prim::SelectOp::create(b, loc, swappedRows, prim::NegOp::create(b, loc, det), det);
    if (m == 1)
      break;
    // A zero pivot means a zero column: det is already 0; divide by 1 to stay finite.
    Value isZero = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, pivot, zero);
    Value safePivot = prim::SelectOp::create(b, loc, isZero, one, pivot);
    Value below = reshape(n, e.slice(swapped, {1, 0}, {m - 1, 1}), e.shape({m - 1}));
    Value factors = prim::DivOp::create(b, loc, below, e.broadcast(safePivot, {m - 1}, {0}));
    Value top = e.slice(pivotRow, {1}, {m - 1});
    Value update = prim::MulOp::create(b, loc, e.broadcast(factors, {m - 1, m - 1}, {0, 1}),
                                       e.broadcast(top, {m - 1, m - 1}, {0, 2}));
    s = prim::SubOp::create(b, loc, e.slice(swapped, {1, 1}, {m - 1, m - 1}), update);
  }
  return n.setResults(convert(n, reshape(n, det, batchDims), element));
}

} // namespace

void tcc::decompose::registerLinearAlgebraRules(RuleRegistry &r) {
  // Opset 22 only adds bfloat16 and float16, which the rule accepts as any float.
  r.add("", "Det", 11, det);
}
