//===- FlexAttention.cpp - the rule for FlexAttention (ai.onnx.preview, opset 1) -------===//
//
// Scaled dot-product attention whose scores and probabilities pass through user graphs
// (score_mod, prob_mod), which are inlined where they apply. Rounding follows ONNX's
// reference: Q and K are scaled and multiplied in their own type, the softmax and the
// product with V run in softmax_precision (default f32 for f16/bf16 inputs, else the input
// type), and Y is converted back to V's type.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"
#include "Subgraphs.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// Runs the graph attribute `name` (one input, one output) on `x` when the node has it;
/// the result is converted to x's type. Null after an error.
Value applyMod(NodeRewriter &n, StringRef name, Value x) {
  Region *graph = n.getNode().getSubgraph(name);
  if (!graph)
    return x;
  auto results = inlineSubgraph(n, *graph, {x});
  if (failed(results))
    return nullptr;
  if (results->size() != 1) {
    n.emitError() << "graph attribute '" << name << "' has " << results->size()
                  << " outputs, expected 1";
    return nullptr;
  }
  Value y = results->front();
  auto type = dyn_cast<RankedTensorType>(y.getType());
  if (!type || !isa<FloatType>(type.getElementType())) {
    n.emitError() << "graph attribute '" << name << "' yields " << y.getType()
                  << ", expected a floating-point tensor";
    return nullptr;
  }
  Value converted = convert(n, y, elementOf(x));
  return broadcastTo(n, converted, getDims(n, x), "the output of " + name.str());
}

// flex_attention(Q, K, V) = prob_mod(softmax(score_mod((Q s)(K s)^T))) V with
// s = sqrt(scale) (scale default 1 / sqrt(E)); kv head h serves q heads h g .. h g + g - 1
// (g = Hq / Hkv); scores round to Q's type, then compute in softmax_precision.
LogicalResult flexAttention(NodeRewriter &n) {
  Value q = n.getFloatInput(0), k = n.getFloatInput(1), v = n.getFloatInput(2);
  std::optional<int64_t> precision = n.getOptionalInt("softmax_precision");
  std::optional<double> scaleAttr;
  if (n.hasAttr("scale"))
    scaleAttr = n.getFloat("scale", 0.0f);
  if (!q || !k || !v || n.hasFailed())
    return failure();
  if (rankOf(q) != 4 || rankOf(k) != 4 || rankOf(v) != 4)
    return n.emitError() << "Q, K and V have types " << q.getType() << ", " << k.getType()
                         << " and " << v.getType()
                         << ", expected 4-D [batch, heads, sequence, head_size]";
  Type t = elementOf(q);
  if (elementOf(k) != t || elementOf(v) != t)
    return n.emitError() << "Q, K and V have element types " << t << ", " << elementOf(k)
                         << " and " << elementOf(v) << ", expected one type";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type compute = t.getIntOrFloatBitWidth() < 32 ? Type(b.getF32Type()) : t;
  if (precision) {
    compute = elementTypeOfOnnxCode(n.getContext(), *precision);
    if (!compute || !isa<FloatType>(compute))
      return n.emitError() << "attribute 'softmax_precision' is " << *precision
                           << ", expected a floating-point type (1, 10, 11 or 16)";
  }
  SmallVector<OpFoldResult> qDims = getDims(n, q), kDims = getDims(n, k), vDims = getDims(n, v);
  auto qHeads = getConstantIntValue(qDims[1]), kvHeads = getConstantIntValue(kDims[1]);
  auto headSize = getConstantIntValue(qDims[3]);
  if (!qHeads || !kvHeads || !headSize || *qHeads % *kvHeads != 0)
    return n.emitError() << "Q and K have types " << q.getType() << " and " << k.getType()
                         << ", expected static heads and head size, Q's heads a multiple of K's";
  checkEqual(n, kDims[0], qDims[0], "K's batch must be Q's");
  checkEqual(n, vDims[0], qDims[0], "V's batch must be Q's");
  checkEqual(n, kDims[3], qDims[3], "K's head size must be Q's");
  checkEqual(n, vDims[1], kDims[1], "V's heads must be K's");
  checkEqual(n, vDims[2], kDims[2], "V's sequence length must be K's");
  if (n.hasFailed())
    return failure();
  int64_t group = *qHeads / *kvHeads;

  // sqrt(scale) is computed in f32 and rounded to T; Q s and K s round to T.
  double scale = scaleAttr ? *scaleAttr : 1.0 / std::sqrt(static_cast<double>(*headSize));
  Value s = scalarConstant(n, t, std::sqrt(static_cast<float>(scale)));
  Value qs = prim::MulOp::create(b, loc, q, fill(n, s, qDims));
  Value ks = prim::MulOp::create(b, loc, k, fill(n, s, kDims));
  // The product accumulates in at least f32 and rounds to T.
  Type accumulate = t.getIntOrFloatBitWidth() < 32 ? Type(b.getF32Type()) : t;
  Value qg = reshape(n, convert(n, qs, accumulate),
                     {qDims[0], b.getIndexAttr(*kvHeads), b.getIndexAttr(group), qDims[2],
                      qDims[3]});
  Value scores = prim::DotGeneralOp::create(b, loc, qg, convert(n, ks, accumulate),
                                            ArrayRef<int64_t>{4}, ArrayRef<int64_t>{3},
                                            ArrayRef<int64_t>{0, 1}, ArrayRef<int64_t>{0, 1});
  SmallVector<OpFoldResult> scoreDims = {qDims[0], qDims[1], qDims[2], kDims[2]};
  scores = convert(n, convert(n, reshape(n, scores, scoreDims), t), compute);
  if (!(scores = applyMod(n, "score_mod", scores)))
    return failure();

  // softmax over the keys: e^(x - max) / sum.
  SmallVector<int64_t> kept = {0, 1, 2};
  auto expand = [&](Value reduced) -> Value {
    return prim::BroadcastInDimOp::create(b, loc, cast<RankedTensorType>(scores.getType()),
                                          reduced, getDynamicExtents(n, scoreDims),
                                          b.getDenseI64ArrayAttr(kept));
  };
  Value max = prim::ReduceOp::create(b, loc, prim::ReduceKind::Max, scores, ArrayRef<int64_t>{3});
  Value e = prim::ExpOp::create(b, loc, prim::SubOp::create(b, loc, scores, expand(max)));
  Value sum = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, e, ArrayRef<int64_t>{3});
  Value probs = prim::DivOp::create(b, loc, e, expand(sum));
  if (!(probs = applyMod(n, "prob_mod", probs)))
    return failure();

  Value pg = reshape(n, probs, {qDims[0], b.getIndexAttr(*kvHeads), b.getIndexAttr(group),
                                qDims[2], kDims[2]});
  Value y = prim::DotGeneralOp::create(b, loc, pg, convert(n, v, compute), ArrayRef<int64_t>{4},
                                       ArrayRef<int64_t>{2}, ArrayRef<int64_t>{0, 1},
                                       ArrayRef<int64_t>{0, 1});
  y = reshape(n, y, {qDims[0], qDims[1], qDims[2], vDims[3]});
  return n.setResults(convert(n, y, t));
}

} // namespace

void tcc::decompose::registerFlexAttentionRules(RuleRegistry &r) {
  r.add("ai.onnx.preview", "FlexAttention", 1, flexAttention);
}
