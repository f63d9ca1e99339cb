//===- Contraction.cpp - rules for MatMul and Gemm -----------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

/// numpy matmul: 1-d operands are promoted (and the added dim removed afterwards); the
/// batch dims broadcast; result[..., i, j] = sum_k a[..., i, k] b[..., k, j].
Value tcc::decompose::buildMatMul(NodeRewriter &n, Value a, Value b) {
  OpBuilder &bld = n.getBuilder();
  Type ea = cast<RankedTensorType>(a.getType()).getElementType();
  Type eb = cast<RankedTensorType>(b.getType()).getElementType();
  if (ea != eb) {
    n.emitError() << "inputs have element types " << ea << " and " << eb
                  << ", expected one type";
    return nullptr;
  }
  int64_t ra = rankOf(a), rb = rankOf(b);
  if (ra == 0 || rb == 0) {
    n.emitError() << "inputs must have rank >= 1, got " << ra << " and " << rb;
    return nullptr;
  }
  SmallVector<OpFoldResult> da = getDims(n, a), db = getDims(n, b);
  if (ra == 1) {
    da.insert(da.begin(), bld.getIndexAttr(1));
    a = reshape(n, a, da);
  }
  if (rb == 1) {
    db.push_back(bld.getIndexAttr(1));
    b = reshape(n, b, db);
  }
  int64_t na = da.size(), nb = db.size();
  checkEqual(n, da[na - 1], db[nb - 2], "the contracted dims of A and B must agree");
  if (n.hasFailed())
    return nullptr;
  Value result;
  if (nb == 2) {
    // A plain weight matrix: contract without broadcasting it over A's batch dims.
    result = prim::DotGeneralOp::create(bld, n.getLoc(), a, b, ArrayRef<int64_t>{na - 1},
                                        ArrayRef<int64_t>{0}, ArrayRef<int64_t>{},
                                        ArrayRef<int64_t>{});
  } else {
    // Broadcast the batch dims of both to one shape.
    int64_t batch = std::max(na, nb) - 2;
    SmallVector<OpFoldResult> batchA(da.begin(), da.end() - 2), batchB(db.begin(), db.end() - 2);
    SmallVector<OpFoldResult> batchDims;
    for (int64_t d = 0; d < batch; ++d) {
      int64_t ia = d - (batch - static_cast<int64_t>(batchA.size()));
      int64_t ib = d - (batch - static_cast<int64_t>(batchB.size()));
      OpFoldResult x = ia >= 0 ? batchA[ia] : OpFoldResult(bld.getIndexAttr(1));
      OpFoldResult y = ib >= 0 ? batchB[ib] : OpFoldResult(bld.getIndexAttr(1));
      if (getConstantIntValue(x) == 1)
        batchDims.push_back(y);
      else if (getConstantIntValue(y) == 1)
        batchDims.push_back(x);
      else {
        checkEqual(n, x, y, "the batch dims of A and B must broadcast");
        batchDims.push_back(getConstantIntValue(x) ? x : y);
      }
    }
    if (n.hasFailed())
      return nullptr;
    SmallVector<OpFoldResult> fullA(batchDims), fullB(batchDims);
    fullA.append({da[na - 2], da[na - 1]});
    fullB.append({db[nb - 2], db[nb - 1]});
    a = broadcastTo(n, a, fullA);
    b = broadcastTo(n, b, fullB);
    if (!a || !b)
      return nullptr;
    SmallVector<int64_t> batchIds;
    for (int64_t d = 0; d < batch; ++d)
      batchIds.push_back(d);
    result = prim::DotGeneralOp::create(bld, n.getLoc(), a, b, ArrayRef<int64_t>{batch + 1},
                                        ArrayRef<int64_t>{batch}, batchIds, batchIds);
  }
  if (ra == 1 || rb == 1) {
    SmallVector<OpFoldResult> dims = getDims(n, result);
    int64_t r = dims.size();
    if (rb == 1)
      dims.erase(dims.begin() + r - 1);
    if (ra == 1)
      dims.erase(dims.begin() + (rb == 1 ? r - 2 : r - 2));
    result = reshape(n, result, dims);
  }
  return result;
}

namespace {

// matmul(a, b) as numpy.matmul
LogicalResult matmulRule(NodeRewriter &n) {
  Value a = n.getInput(0), b = n.getInput(1);
  if (!a || !b)
    return failure();
  Value r = buildMatMul(n, a, b);
  return r ? n.setResults(r) : failure();
}

// gemm(A, B, C) = alpha A' B' + beta C, A' = transA ? A^T : A, B' likewise
LogicalResult gemm(NodeRewriter &n) {
  Value a = n.getInput(0), b = n.getInput(1);
  if (!a || !b)
    return failure();
  if (rankOf(a) != 2 || rankOf(b) != 2)
    return n.emitError() << "A and B must be 2-d, got " << a.getType() << " and " << b.getType();
  OpBuilder &bld = n.getBuilder();
  float alpha = n.getFloat("alpha", 1.0f), beta = n.getFloat("beta", 1.0f);
  bool transA = n.getInt("transA", 0), transB = n.getInt("transB", 0);
  Type element = cast<RankedTensorType>(a.getType()).getElementType();
  if (cast<RankedTensorType>(b.getType()).getElementType() != element)
    return n.emitError() << "A and B have different element types";
  auto dimsA = getDims(n, a), dimsB = getDims(n, b);
  checkEqual(n, dimsA[transA ? 0 : 1], dimsB[transB ? 1 : 0],
             "the contracted dims of A and B must agree");
  if (n.hasFailed())
    return failure();
  Value y = prim::DotGeneralOp::create(bld, n.getLoc(), a, b, ArrayRef<int64_t>{transA ? 0 : 1},
                                       ArrayRef<int64_t>{transB ? 1 : 0}, ArrayRef<int64_t>{},
                                       ArrayRef<int64_t>{});
  if (alpha != 1.0f)
    y = prim::MulOp::create(bld, n.getLoc(), y, splatLike(n, y, alpha));
  if (Value c = n.getOptionalInput(2)) {
    if (cast<RankedTensorType>(c.getType()).getElementType() != element)
      return n.emitError() << "C has element type "
                           << cast<RankedTensorType>(c.getType()).getElementType()
                           << ", expected " << element;
    c = broadcastTo(n, c, getDims(n, y));
    if (!c)
      return failure();
    if (beta != 1.0f)
      c = prim::MulOp::create(bld, n.getLoc(), c, splatLike(n, c, beta));
    y = prim::AddOp::create(bld, n.getLoc(), y, c);
  }
  return n.setResults(y);
}

} // namespace

void tcc::decompose::registerContractionRules(RuleRegistry &r) {
  r.add("", "MatMul", 1, matmulRule);
  r.add("", "Gemm", 6, gemm); // C broadcast with broadcast=1: numpy's rule covers it
  r.add("", "Gemm", 7, gemm);
}
