//===- ContractionVjp.cpp - VJP rules of dot_general and convolution -------------------===//
#include "VjpRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

namespace {

using Cts = ArrayRef<Value>;
using Out = MutableArrayRef<Value>;

/// The cotangent of one dot_general operand. With y[B, F_a, F_o] = sum_K a[B, F_a, K]
/// o[B, F_o, K] (B batch, F free, K contracting dims of each operand):
///   da[B, F_a, K] = sum_{F_o} g[B, F_a, F_o] o[B, F_o, K]
/// = dot_general(g, o) contracting g's F_o dims with o's free dims, batching B; its result
/// [B, F_a, K (in o's dim order)] is transposed into a's layout.
Value operandCotangent(VjpBuilder &b, Value g, Value a, Value other, ArrayRef<int64_t> aBatch,
                       ArrayRef<int64_t> aContract, ArrayRef<int64_t> otherBatch,
                       ArrayRef<int64_t> otherContract, bool aIsLhs) {
  int64_t aRank = VjpBuilder::typeOf(a).getRank(), oRank = VjpBuilder::typeOf(other).getRank();
  auto freeDims = [](int64_t rank, ArrayRef<int64_t> batch, ArrayRef<int64_t> contract) {
    SmallVector<int64_t> free;
    for (int64_t i = 0; i < rank; ++i)
      if (!llvm::is_contained(batch, i) && !llvm::is_contained(contract, i))
        free.push_back(i);
    return free;
  };
  SmallVector<int64_t> aFree = freeDims(aRank, aBatch, aContract);
  SmallVector<int64_t> oFree = freeDims(oRank, otherBatch, otherContract);
  int64_t nb = aBatch.size();
  // g dims: [0, nb) batch, then lhs free, then rhs free.
  SmallVector<int64_t> gBatch, gContract;
  for (int64_t i = 0; i < nb; ++i)
    gBatch.push_back(i);
  int64_t lhsFree = aIsLhs ? aFree.size() : oFree.size();
  int64_t start = aIsLhs ? nb + lhsFree : nb; // g's dims that belong to `other`
  for (size_t i = 0; i < oFree.size(); ++i)
    gContract.push_back(start + i);
  Value r = prim::DotGeneralOp::create(b.b, b.loc, g, other, gContract, oFree, gBatch,
                                       SmallVector<int64_t>(otherBatch));
  // r dims: batch (aBatch order), a's free dims (in order), then other's contracting dims in
  // increasing order of other's dims, each paired with a contracting dim of a.
  SmallVector<int64_t> source(aBatch);
  llvm::append_range(source, aFree);
  SmallVector<int64_t> oContractSorted(otherContract);
  llvm::sort(oContractSorted);
  for (int64_t od : oContractSorted) {
    int64_t k = llvm::find(otherContract, od) - otherContract.begin();
    source.push_back(aContract[k]);
  }
  SmallVector<int64_t> perm(aRank);
  for (auto [position, dim] : llvm::enumerate(source))
    perm[dim] = position;
  bool identity = llvm::all_of(llvm::enumerate(perm), [](auto p) {
    return static_cast<int64_t>(p.index()) == p.value();
  });
  Value result = identity ? r : prim::TransposeOp::create(b.b, b.loc, r, perm).getResult();
  return b.convert(result, VjpBuilder::typeOf(a).getElementType());
}

// dot_general: da = g . o (contract over o's free dims), do = g . a (over a's free dims)
LogicalResult dotGeneralRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto dot = cast<prim::DotGeneralOp>(op);
  Value lhs = dot.getLhs(), rhs = dot.getRhs();
  d[0] = operandCotangent(b, g[0], lhs, rhs, dot.getLhsBatchingDimensions(),
                          dot.getLhsContractingDimensions(), dot.getRhsBatchingDimensions(),
                          dot.getRhsContractingDimensions(), /*aIsLhs=*/true);
  d[1] = operandCotangent(b, g[0], rhs, lhs, dot.getRhsBatchingDimensions(),
                          dot.getRhsContractingDimensions(), dot.getLhsBatchingDimensions(),
                          dot.getLhsContractingDimensions(), /*aIsLhs=*/false);
  return success();
}

} // namespace

void tcc::autodiff::registerContractionVjps(VjpRegistry &r) {
  r.add("prim.dot_general", dotGeneralRule);
}
