//===- RotaryEmbedding.cpp - the rule for RotaryEmbedding (opset 23) -----------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// `x` sliced along its last dim: [begin, begin + stride * count) with `stride`.
Value lastDimSlice(NodeRewriter &n, Value x, int64_t begin, int64_t count, int64_t stride) {
  OpBuilder &b = n.getBuilder();
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes = getDims(n, x);
  offsets.back() = b.getIndexAttr(begin);
  sizes.back() = b.getIndexAttr(count);
  SmallVector<int64_t> strides(rank, 1);
  strides.back() = stride;
  return b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes, strides);
}

// rotary(x) on [B, S, H, D] (4-D inputs [B, H, S, D] are transposed, 3-D [B, S, H*D]
// reshaped): with c, s = cos/sin_cache[position_ids] (or the caches themselves) of shape
// [B, S, R/2] and the first R = rotary_embedding_dim (default D) features split into
// x1, x2 (halves, or even/odd with `interleaved`):
//   real = c x1 - s x2, imag = s x1 + c x2, put back in place; features R.. unchanged
LogicalResult rotaryEmbedding(NodeRewriter &n) {
  Value x = n.getFloatInput(0), cosCache = n.getFloatInput(1), sinCache = n.getFloatInput(2);
  Value positions = n.getOptionalInput(3);
  if (!x || !cosCache || !sinCache || n.hasFailed())
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t rank = rankOf(x);
  if (rank != 3 && rank != 4)
    return n.emitError() << "X has rank " << rank << ", expected 3 ([B, S, hidden]) or 4 "
                         << "([B, num_heads, S, head_size])";
  SmallVector<OpFoldResult> xDims = getDims(n, x);
  Value work = x;
  if (rank == 4) {
    work = prim::TransposeOp::create(b, loc, work, ArrayRef<int64_t>{0, 2, 1, 3});
  } else {
    int64_t heads = n.getInt("num_heads", 0);
    if (heads <= 0)
      return n.emitError() << "a 3-D X needs the attribute num_heads (> 0)";
    auto hidden = getConstantIntValue(xDims[2]);
    if (!hidden || *hidden % heads != 0)
      return n.emitError() << "the hidden size must be static and a multiple of num_heads ("
                           << heads << ")";
    work = reshape(n, work, {xDims[0], xDims[1], b.getIndexAttr(heads),
                             b.getIndexAttr(*hidden / heads)});
  }
  SmallVector<OpFoldResult> dims = getDims(n, work); // [B, S, H, D]
  auto headSize = getConstantIntValue(dims[3]);
  if (!headSize)
    return n.emitError() << "the head size must be static";
  int64_t rotary = n.getInt("rotary_embedding_dim", 0);
  if (rotary == 0)
    rotary = *headSize;
  if (rotary < 2 || rotary % 2 || rotary > *headSize)
    return n.emitError() << "rotary_embedding_dim " << rotary
                         << " must be even and at most the head size " << *headSize;
  int64_t half = rotary / 2;

  // c, s: [B, S, R/2] -> [B, S, 1, R/2] broadcast over heads.
  auto table = [&](Value cache, StringRef what) -> Value {
    Value t = cache;
    if (positions) {
      if (rankOf(cache) != 2) {
        n.emitError() << what << " must be 2-D ([max_position, R/2]) with position_ids";
        return nullptr;
      }
      // position_ids index the cache's rows (in range by the operator's contract; prim.gather
      // checks at run time, and a run with one outside fails).
      t = gatherInRange(n, cache, convert(n, positions, b.getI64Type()), 0, "position_ids",
                        ("the rows of " + what).str());
    } else if (rankOf(cache) != 3) {
      n.emitError() << what << " must be 3-D ([B, S, R/2]) without position_ids";
      return nullptr;
    }
    if (auto last = getConstantIntValue(getDims(n, t)[2]); !last || *last != half) {
      n.emitError() << what << " has " << (last ? std::to_string(*last) : std::string("?"))
                    << " features, expected rotary_embedding_dim / 2 = " << half;
      return nullptr;
    }
    SmallVector<OpFoldResult> quarter = {dims[0], dims[1], dims[2], b.getIndexAttr(half)};
    return prim::BroadcastInDimOp::create(
        b, loc, getTensorType(quarter, elementOf(x)), convert(n, t, elementOf(x)),
        getDynamicExtents(n, quarter), b.getDenseI64ArrayAttr({0, 1, 3}));
  };
  Value c = table(cosCache, "cos_cache"), s = table(sinCache, "sin_cache");
  if (!c || !s)
    return failure();
  bool interleaved = n.getInt("interleaved", 0) != 0;
  Value x1 = interleaved ? lastDimSlice(n, work, 0, half, 2) : lastDimSlice(n, work, 0, half, 1);
  Value x2 = interleaved ? lastDimSlice(n, work, 1, half, 2) : lastDimSlice(n, work, half, half, 1);
  auto mul = [&](Value p, Value q) { return prim::MulOp::create(b, loc, p, q).getResult(); };
  Value real = prim::SubOp::create(b, loc, mul(c, x1), mul(s, x2));
  Value imag = prim::AddOp::create(b, loc, mul(s, x1), mul(c, x2));
  Value rotated;
  if (interleaved) {
    // [.., R/2] pairs -> [.., R/2, 2] -> [.., R]
    SmallVector<OpFoldResult> pairDims = {dims[0], dims[1], dims[2], b.getIndexAttr(half),
                                          b.getIndexAttr(1)};
    Value pairs = prim::ConcatenateOp::create(
        b, loc, ValueRange{reshape(n, real, pairDims), reshape(n, imag, pairDims)}, 4);
    rotated = reshape(n, pairs, {dims[0], dims[1], dims[2], b.getIndexAttr(rotary)});
  } else {
    rotated = prim::ConcatenateOp::create(b, loc, ValueRange{real, imag}, 3);
  }
  Value y = rotated;
  if (rotary < *headSize)
    y = prim::ConcatenateOp::create(
        b, loc, ValueRange{rotated, lastDimSlice(n, work, rotary, *headSize - rotary, 1)}, 3);
  if (rank == 4)
    y = prim::TransposeOp::create(b, loc, y, ArrayRef<int64_t>{0, 2, 1, 3});
  else
    y = reshape(n, y, xDims);
  return n.setResults(y);
}

} // namespace

void tcc::decompose::registerRotaryEmbeddingRules(RuleRegistry &r) {
  r.add("", "RotaryEmbedding", 23, rotaryEmbedding);
}
