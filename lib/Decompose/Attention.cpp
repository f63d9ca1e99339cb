//===- Attention.cpp - the rule for Attention (opsets 23 to 25) ----------------------===//
//
// Scaled dot-product attention as two dot_generals around a masked softmax. Grouped-query
// attention does not repeat K and V: Q's heads are viewed as [kv_heads, group] and the
// group becomes a free dim of both contractions. f16 and bf16 inputs are computed in f32
// (ONNX's reference computes in f64) and the outputs converted back.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <limits>
#include <sstream>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

Value compare(NodeRewriter &n, prim::CompareDirection d, Value a, Value b) {
  return prim::CompareOp::create(n.getBuilder(), n.getLoc(), d, a, b);
}
Value select(NodeRewriter &n, Value p, Value t, Value f) {
  return prim::SelectOp::create(n.getBuilder(), n.getLoc(), p, t, f);
}

/// Extents that must agree: an error when both are constants and differ, else a run-time
/// check. `what` names the first, `expected` the second.
bool requireEqual(NodeRewriter &n, OpFoldResult actual, OpFoldResult expected,
                  const std::string &what, const std::string &expectedWhat) {
  auto a = getConstantIntValue(actual), e = getConstantIntValue(expected);
  if (a && e && *a != *e) {
    n.emitError() << what << " is " << *a << ", expected " << *e << " (" << expectedWhat << ")";
    return false;
  }
  checkEqual(n, actual, expected, what + " must equal " + expectedWhat);
  return true;
}

/// `whole` / `part` for an extent that must divide exactly (a hidden size by the heads);
/// `what` and `partWhat` name them in errors.
std::optional<OpFoldResult> divideExtent(NodeRewriter &n, OpFoldResult whole, OpFoldResult part,
                                         const std::string &what, const std::string &partWhat) {
  auto w = getConstantIntValue(whole), p = getConstantIntValue(part);
  if (w && p) {
    if (*w % *p != 0) {
      n.emitError() << what << " is " << *w << ", expected a multiple of " << *p << " ("
                    << partWhat << ")";
      return std::nullopt;
    }
    return OpFoldResult(n.getBuilder().getIndexAttr(*w / *p));
  }
  if (auto exact = divideExactly(n, whole, part))
    return *exact;
  OpFoldResult quotient = floorDivIndex(n, whole, part);
  checkEqual(n, mulIndex(n, quotient, part), whole, what + " must be a multiple of " + partWhat);
  return quotient;
}

/// A float attribute as written in errors ("-0.5", not "-5.000000e-01").
std::string describe(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

/// A 3-D [B, S, heads * D] input viewed as [B, heads, S, D]; `headsAttr` names the heads.
Value splitHeads(NodeRewriter &n, Value x, int64_t heads, const std::string &what,
                 const std::string &headsAttr) {
  SmallVector<OpFoldResult> dims = getDims(n, x);
  OpBuilder &b = n.getBuilder();
  auto headSize =
      divideExtent(n, dims[2], b.getIndexAttr(heads), "the hidden size of " + what, headsAttr);
  if (!headSize)
    return nullptr;
  Value split = reshape(n, x, {dims[0], dims[1], b.getIndexAttr(heads), *headSize});
  return b.createOrFold<prim::TransposeOp>(n.getLoc(), split, ArrayRef<int64_t>{0, 2, 1, 3});
}

/// An index extent as a 0-d i64 tensor filled to `dims`.
Value fillExtent(NodeRewriter &n, OpFoldResult extent, ArrayRef<OpFoldResult> dims) {
  Type i64 = n.getBuilder().getI64Type();
  if (auto c = getConstantIntValue(extent))
    return fill(n, scalarConstant(n, i64, static_cast<double>(*c)), dims);
  return fill(n, makeShapeTensor(n, {extent}, i64, /*scalar=*/true), dims);
}

/// A per-batch vector [B] broadcast along dim 0 of `dims`.
Value perBatch(NodeRewriter &n, Value v, ArrayRef<OpFoldResult> dims) {
  return prim::BroadcastInDimOp::create(n.getBuilder(), n.getLoc(),
                                        getTensorType(dims, elementOf(v)), v,
                                        getDynamicExtents(n, dims),
                                        n.getBuilder().getDenseI64ArrayAttr({0}));
}

/// 0 where `allowed`, -inf elsewhere, of `element`.
Value additive(NodeRewriter &n, Value allowed, Type element) {
  return select(n, allowed, splatLike(n, allowed, 0.0, element),
                splatLike(n, allowed, kNegInf, element));
}

/// Softmax over the last dim with the row max subtracted. A row that is all -inf takes 0 as
/// its max and a zero sum becomes 1, so it gives zeros rather than NaN (as ONNX's reference).
Value safeSoftmax(NodeRewriter &n, Value x) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t last = rankOf(x) - 1;
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < last; ++d)
    kept.push_back(d);
  auto expand = [&](Value reduced) -> Value {
    SmallVector<OpFoldResult> dims = getDims(n, x);
    return prim::BroadcastInDimOp::create(b, loc, cast<RankedTensorType>(x.getType()), reduced,
                                          getDynamicExtents(n, dims),
                                          b.getDenseI64ArrayAttr(kept));
  };
  Value max = prim::ReduceOp::create(b, loc, prim::ReduceKind::Max, x, ArrayRef<int64_t>{last});
  max = select(n, compare(n, prim::CompareDirection::Eq, max, splatLike(n, max, kNegInf)),
               splatLike(n, max, 0.0), max);
  Value e = prim::ExpOp::create(b, loc, prim::SubOp::create(b, loc, x, expand(max)));
  Value sum = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, e, ArrayRef<int64_t>{last});
  sum = select(n, compare(n, prim::CompareDirection::Eq, sum, splatLike(n, sum, 0.0)),
               splatLike(n, sum, 1.0), sum);
  return prim::DivOp::create(b, loc, e, expand(sum));
}

/// What the bias is built from; the extents are those of the scores [B, Hq, S, T].
struct BiasParts {
  Value mask;   ///< attn_mask, or null
  Value nonpad; ///< nonpad_kv_seqlen as i64 [B], or null
  bool causal = false;
  int64_t left = -1, right = -1; ///< the opset-25 window (-1: unbounded)
  OpFoldResult past;             ///< past_sequence_length (0 without past_key)
  SmallVector<OpFoldResult> scores;
};

/// attn_mask as an additive rank-4 term of `element`: bool False -> -inf, numbers added;
/// a last dim shorter than T is padded with -inf.
Value maskTerm(NodeRewriter &n, Value mask, ArrayRef<OpFoldResult> scores, Type element) {
  OpBuilder &b = n.getBuilder();
  int64_t rank = rankOf(mask);
  if (rank < 1 || rank > 4) {
    n.emitError() << "attn_mask has type " << mask.getType()
                  << ", expected rank 1 to 4 (broadcastable to [batch, q_heads, q_sequence, "
                     "total_sequence])";
    return nullptr;
  }
  SmallVector<OpFoldResult> dims = getDims(n, mask);
  for (int64_t d = 0; d + 1 < rank; ++d) {
    auto from = getConstantIntValue(dims[d]), to = getConstantIntValue(scores[4 - rank + d]);
    if (from && to && *from != 1 && *from != *to) {
      n.emitError() << "attn_mask has type " << mask.getType() << ", expected dim " << d
                    << " to be 1 or " << *to << " (broadcastable to [batch, q_heads, "
                    << "q_sequence, total_sequence])";
      return nullptr;
    }
  }
  Value term =
      elementOf(mask).isInteger(1) ? additive(n, mask, element) : convert(n, mask, element);
  OpFoldResult total = scores[3], last = dims.back();
  if (!sameExtent(last, total)) {
    auto l = getConstantIntValue(last), t = getConstantIntValue(total);
    if (l && t && *l > *t) {
      n.emitError() << "attn_mask's last dim is " << *l
                    << ", expected at most the total sequence length " << *t;
      return nullptr;
    }
    if (!l || !t) {
      Value fits = b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::sle,
                                                 toIndex(n, last), toIndex(n, total));
      prim::CheckOp::create(b, n.getLoc(), fits,
                            b.getStringAttr("node '" + n.getNode().getNodeName() +
                                            "' (Attention): attn_mask's last dim must be at "
                                            "most the total sequence length"));
    }
    SmallVector<OpFoldResult> padDims(dims);
    padDims.back() = subIndex(n, total, last);
    Value pad = fill(n, scalarConstant(n, element, kNegInf), padDims);
    term = prim::ConcatenateOp::create(b, n.getLoc(), ValueRange{term, pad}, rank - 1);
    dims.back() = total;
  }
  SmallVector<OpFoldResult> four(4 - rank, b.getIndexAttr(1));
  llvm::append_range(four, dims);
  return reshape(n, term, four);
}

/// Which keys each query may see by position, as an additive term [1 or B, 1, S, T]: with
/// diff = i + offset - j, is_causal keeps diff >= 0 and the window -right <= diff <= left.
/// offset = nonpad_kv_seqlen[b] - S with nonpad_kv_seqlen and no past, else the past length.
Value positionTerm(NodeRewriter &n, const BiasParts &p, Type element) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  OpFoldResult one = b.getIndexAttr(1), s = p.scores[2], t = p.scores[3];
  SmallVector<OpFoldResult> dims = {p.nonpad ? p.scores[0] : one, one, s, t};
  RankedTensorType i64 = getTensorType(dims, b.getI64Type());
  SmallVector<Value> extents = getDynamicExtents(n, dims);
  Value i = prim::IotaOp::create(b, loc, i64, extents, 2);
  Value j = prim::IotaOp::create(b, loc, i64, extents, 3);
  Value offset;
  if (p.nonpad) {
    Value perRow = prim::SubOp::create(b, loc, p.nonpad,
                                       fillExtent(n, s, getDims(n, p.nonpad)));
    offset = perBatch(n, perRow, dims);
  } else {
    offset = fillExtent(n, p.past, dims);
  }
  Value diff = prim::SubOp::create(b, loc, prim::AddOp::create(b, loc, i, offset), j);
  Value allowed;
  auto require = [&](prim::CompareDirection d, double bound) {
    Value c = compare(n, d, diff, splatLike(n, diff, bound));
    allowed = allowed ? Value(prim::AndOp::create(b, loc, allowed, c)) : c;
  };
  if (p.causal)
    require(prim::CompareDirection::Ge, 0);
  if (p.left >= 0)
    require(prim::CompareDirection::Le, static_cast<double>(p.left));
  if (p.right >= 0)
    require(prim::CompareDirection::Ge, -static_cast<double>(p.right));
  return additive(n, allowed, element);
}

/// The additive bias (rank 4, broadcastable to the scores): attn_mask + the causal and
/// window terms + the nonpad_kv_seqlen padding (keys j >= nonpad_kv_seqlen[b] get -inf).
/// Null when there is no term (or after an error: see n.hasFailed()).
Value buildBias(NodeRewriter &n, const BiasParts &p, Type element) {
  SmallVector<Value> terms;
  if (p.mask) {
    Value m = maskTerm(n, p.mask, p.scores, element);
    if (!m)
      return nullptr;
    terms.push_back(m);
  }
  if (p.causal || p.left >= 0 || p.right >= 0)
    terms.push_back(positionTerm(n, p, element));
  if (p.nonpad) {
    OpBuilder &b = n.getBuilder();
    OpFoldResult one = b.getIndexAttr(1);
    SmallVector<OpFoldResult> dims = {p.scores[0], one, one, p.scores[3]};
    Value j = prim::IotaOp::create(b, n.getLoc(), getTensorType(dims, b.getI64Type()),
                                   getDynamicExtents(n, dims), 3);
    terms.push_back(additive(
        n, compare(n, prim::CompareDirection::Lt, j, perBatch(n, p.nonpad, dims)), element));
  }
  if (terms.empty())
    return nullptr;
  Value bias = terms.front();
  for (Value term : ArrayRef<Value>(terms).drop_front())
    if (!(bias = buildBinary<prim::AddOp>(n, bias, term)))
      return nullptr;
  return bias;
}

/// Attention: opset 24 adds nonpad_kv_seqlen, opset 25 left/right_window_size.
// attention(Q, K, V) = softmax(softcap(Q' K'^T) + bias) V with Q' = Q sqrt(scale),
// K' = concat(past_key, K) sqrt(scale) (scale default 1 / sqrt(head_size)),
// softcap(x) = c tanh(x / c) when c > 0, bias = attn_mask (bool: False -> -inf, padded
// with -inf to the total length) + causal (-inf where j > i + offset) + window (-inf
// outside [i + offset - left, i + offset + right]) + padding (-inf where
// j >= nonpad_kv_seqlen[b]); a row whose bias is all -inf gives zeros; kv head h serves
// q heads h * g .. h * g + g - 1 (g = q_heads / kv_heads)
template <bool NonpadInput, bool Windows>
LogicalResult attention(NodeRewriter &n) {
  Value q = n.getFloatInput(0), k = n.getFloatInput(1), v = n.getFloatInput(2);
  if (!q || !k || !v)
    return failure();
  Value mask = n.getOptionalInput(3), pastKey = n.getOptionalInput(4),
        pastValue = n.getOptionalInput(5);
  Value nonpad = NonpadInput ? n.getOptionalInput(6) : Value();
  if (n.hasFailed())
    return failure();
  if (!NonpadInput && n.hasInput(6))
    return n.emitError() << "the node has " << n.getNumInputs()
                         << " inputs, expected at most 6 (nonpad_kv_seqlen is new in opset 24)";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();

  // Attributes.
  std::optional<int64_t> qHeadsAttr = n.getOptionalInt("q_num_heads"),
                         kvHeadsAttr = n.getOptionalInt("kv_num_heads"),
                         precisionAttr = n.getOptionalInt("softmax_precision");
  int64_t isCausal = n.getInt("is_causal", 0), mode = n.getInt("qk_matmul_output_mode", 0);
  int64_t left = Windows ? n.getInt("left_window_size", -1) : -1;
  int64_t right = Windows ? n.getInt("right_window_size", -1) : -1;
  float softcap = n.getFloat("softcap", 0.0f);
  std::optional<double> scaleAttr;
  if (n.hasAttr("scale"))
    scaleAttr = n.getFloat("scale", 0.0f);
  if (n.hasFailed())
    return failure();
  if (isCausal != 0 && isCausal != 1)
    return n.emitError() << "attribute 'is_causal' is " << isCausal << ", expected 0 or 1";
  if (mode < 0 || mode > 3)
    return n.emitError() << "attribute 'qk_matmul_output_mode' is " << mode
                         << ", expected 0, 1, 2 or 3";
  if (left < -1 || right < -1)
    return n.emitError() << "attributes 'left_window_size' and 'right_window_size' are " << left
                         << " and " << right << ", expected -1 (unbounded) or >= 0";
  if (softcap < 0)
    return n.emitError() << "attribute 'softcap' is " << describe(softcap) << ", expected >= 0";
  if (scaleAttr && *scaleAttr < 0)
    return n.emitError() << "attribute 'scale' is " << describe(*scaleAttr)
                         << ", expected >= 0 (Q and K are each scaled by sqrt(scale))";
  Type t1 = elementOf(q), t2 = elementOf(v);
  Type softmaxType;
  if (precisionAttr) {
    softmaxType = elementTypeOfOnnxCode(n.getContext(), *precisionAttr);
    if (!softmaxType || !isa<FloatType>(softmaxType))
      return n.emitError() << "attribute 'softmax_precision' is " << *precisionAttr
                           << ", expected a floating-point type (1, 10, 11 or 16)";
  }

  // Inputs: 3-D [B, S, heads * D] are split into 4-D [B, heads, S, D].
  int64_t rank = rankOf(q);
  if ((rank != 3 && rank != 4) || rankOf(k) != rank || rankOf(v) != rank)
    return n.emitError() << "Q, K and V have types " << q.getType() << ", " << k.getType()
                         << " and " << v.getType()
                         << ", expected all 3-D [batch, sequence, hidden] or all 4-D [batch, "
                            "heads, sequence, head_size]";
  if (elementOf(k) != t1)
    return n.emitError() << "K has element type " << elementOf(k) << ", expected " << t1
                         << " (the type of Q)";
  if (rank == 3) {
    if (!qHeadsAttr || !kvHeadsAttr || *qHeadsAttr < 1 || *kvHeadsAttr < 1)
      return n.emitError() << "3-D inputs need the attributes 'q_num_heads' and "
                              "'kv_num_heads' (>= 1)";
    q = splitHeads(n, q, *qHeadsAttr, "Q", "q_num_heads");
    k = q ? splitHeads(n, k, *kvHeadsAttr, "K", "kv_num_heads") : nullptr;
    v = k ? splitHeads(n, v, *kvHeadsAttr, "V", "kv_num_heads") : nullptr;
    if (!v)
      return failure();
  } else if (qHeadsAttr || kvHeadsAttr) {
    if (Windows)
      return n.emitError() << "the attributes 'q_num_heads' and 'kv_num_heads' must not be "
                              "given with 4-D inputs";
    auto qHeads = getConstantIntValue(getDims(n, q)[1]);
    auto kvHeads = getConstantIntValue(getDims(n, k)[1]);
    if ((qHeadsAttr && qHeads && *qHeadsAttr != *qHeads) ||
        (kvHeadsAttr && kvHeads && *kvHeadsAttr != *kvHeads))
      return n.emitError() << "the attributes 'q_num_heads' and 'kv_num_heads' disagree with "
                              "the heads of the 4-D inputs Q and K ("
                           << q.getType() << ", " << k.getType() << ")";
  }
  SmallVector<OpFoldResult> qDims = getDims(n, q), kDims = getDims(n, k), vDims = getDims(n, v);
  if (!requireEqual(n, kDims[0], qDims[0], "the batch size of K", "the batch size of Q") ||
      !requireEqual(n, vDims[0], qDims[0], "the batch size of V", "the batch size of Q") ||
      !requireEqual(n, kDims[3], qDims[3], "the head size of K", "the head size of Q") ||
      !requireEqual(n, vDims[1], kDims[1], "the heads of V", "the heads of K") ||
      !requireEqual(n, vDims[2], kDims[2], "the sequence length of V",
                    "the sequence length of K"))
    return failure();

  // The cache: present = concat(past, new) along the sequence.
  if (static_cast<bool>(pastKey) != static_cast<bool>(pastValue))
    return n.emitError() << "past_key and past_value must be given together";
  if (pastKey && nonpad)
    return n.emitError() << "nonpad_kv_seqlen cannot be combined with past_key and past_value";
  OpFoldResult past = b.getIndexAttr(0);
  Value presentKey = k, presentValue = v;
  if (pastKey) {
    if (rankOf(pastKey) != 4 || rankOf(pastValue) != 4)
      return n.emitError() << "past_key and past_value have types " << pastKey.getType()
                           << " and " << pastValue.getType()
                           << ", expected 4-D [batch, kv_heads, past_sequence, head_size]";
    if (elementOf(pastKey) != t1 || elementOf(pastValue) != t2)
      return n.emitError() << "past_key and past_value have element types "
                           << elementOf(pastKey) << " and " << elementOf(pastValue)
                           << ", expected " << t1 << " and " << t2 << " (those of K and V)";
    SmallVector<OpFoldResult> pk = getDims(n, pastKey), pv = getDims(n, pastValue);
    for (int64_t d : {0, 1, 3})
      if (!requireEqual(n, pk[d], kDims[d], "dim " + std::to_string(d) + " of past_key",
                        "that of K") ||
          !requireEqual(n, pv[d], vDims[d], "dim " + std::to_string(d) + " of past_value",
                        "that of V"))
        return failure();
    if (!requireEqual(n, pv[2], pk[2], "the sequence length of past_value",
                      "that of past_key"))
      return failure();
    past = pk[2];
    presentKey = prim::ConcatenateOp::create(b, loc, ValueRange{pastKey, k}, 2);
    presentValue = prim::ConcatenateOp::create(b, loc, ValueRange{pastValue, v}, 2);
  }
  OpFoldResult total = getDims(n, presentKey)[2];
  if (nonpad) {
    if (rankOf(nonpad) != 1 || !isa<IntegerType>(elementOf(nonpad)) ||
        elementOf(nonpad).isInteger(1))
      return n.emitError() << "nonpad_kv_seqlen has type " << nonpad.getType()
                           << ", expected a vector of integers [batch]";
    if (!requireEqual(n, getDims(n, nonpad)[0], qDims[0], "the length of nonpad_kv_seqlen",
                      "the batch size"))
      return failure();
    nonpad = convert(n, nonpad, b.getI64Type());
  }

  // Grouped-query attention: Q's heads viewed as [kv_heads, group].
  OpFoldResult qHeads = qDims[1], kvHeads = kDims[1];
  std::optional<OpFoldResult> group;
  if (sameExtent(qHeads, kvHeads))
    group = b.getIndexAttr(1);
  else
    group = divideExtent(n, qHeads, kvHeads, "the number of query heads",
                         "the number of key/value heads");
  if (!group)
    return failure();
  bool grouped = getConstantIntValue(*group) != 1;

  // f16/bf16 compute in f32; the softmax in softmax_precision when given.
  Type compute = t1.getIntOrFloatBitWidth() < 32 ? Type(b.getF32Type()) : t1;
  softmaxType = softmaxType ? softmaxType : compute;
  Type valueType =
      softmaxType.getIntOrFloatBitWidth() > compute.getIntOrFloatBitWidth() ? softmaxType : compute;

  // Q' K'^T with sqrt(scale) on each side, as the reference does against overflow.
  Value scaleFactor;
  if (scaleAttr) {
    scaleFactor = scalarConstant(n, compute, std::sqrt(*scaleAttr));
  } else if (auto headSize = getConstantIntValue(qDims[3])) {
    scaleFactor = scalarConstant(n, compute, std::pow(static_cast<double>(*headSize), -0.25));
  } else {
    Value d = convert(n, makeShapeTensor(n, {qDims[3]}, b.getI64Type(), true), compute);
    scaleFactor = prim::SqrtOp::create(b, loc, prim::RsqrtOp::create(b, loc, d));
  }
  Value qs = convert(n, q, compute), ks = convert(n, presentKey, compute);
  qs = prim::MulOp::create(b, loc, qs, fill(n, scaleFactor, getDims(n, qs)));
  ks = prim::MulOp::create(b, loc, ks, fill(n, scaleFactor, getDims(n, ks)));
  SmallVector<OpFoldResult> scoreDims = {qDims[0], qHeads, qDims[2], total};
  Value scores;
  if (grouped) {
    Value qg = reshape(n, qs, {qDims[0], kvHeads, *group, qDims[2], qDims[3]});
    scores = prim::DotGeneralOp::create(b, loc, qg, ks, ArrayRef<int64_t>{4},
                                        ArrayRef<int64_t>{3}, ArrayRef<int64_t>{0, 1},
                                        ArrayRef<int64_t>{0, 1});
    scores = reshape(n, scores, scoreDims);
  } else {
    scores = prim::DotGeneralOp::create(b, loc, qs, ks, ArrayRef<int64_t>{3},
                                        ArrayRef<int64_t>{3}, ArrayRef<int64_t>{0, 1},
                                        ArrayRef<int64_t>{0, 1});
  }
  Value raw = scores;
  if (softcap > 0) {
    Value c = splatLike(n, scores, softcap);
    scores = prim::MulOp::create(
        b, loc, c, prim::TanhOp::create(b, loc, prim::DivOp::create(b, loc, scores, c)));
  }
  Value capped = scores;

  BiasParts parts{mask, nonpad, isCausal == 1, left, right, past, scoreDims};
  Value bias = buildBias(n, parts, compute);
  if (n.hasFailed())
    return failure();
  if (bias) {
    Value wide = broadcastTo(n, bias, scoreDims, "the attention bias");
    if (!wide)
      return failure();
    scores = prim::AddOp::create(b, loc, scores, wide);
  }
  Value withBias = scores;

  Value probs = safeSoftmax(n, convert(n, scores, softmaxType));
  if (bias) {
    // A row whose bias is all -inf attends nothing: zeros, also where the scores are NaN.
    Value rowMax = prim::ReduceOp::create(b, loc, prim::ReduceKind::Max, bias,
                                          ArrayRef<int64_t>{3});
    Value none = compare(n, prim::CompareDirection::Eq, rowMax, splatLike(n, rowMax, kNegInf));
    SmallVector<OpFoldResult> rowDims = getDims(n, none);
    rowDims.push_back(b.getIndexAttr(1));
    none = broadcastTo(n, reshape(n, none, rowDims), scoreDims, "the attention bias");
    if (!none)
      return failure();
    probs = select(n, none, splatLike(n, probs, 0.0), probs);
  }

  // probs V, grouped like the scores.
  Value pv = convert(n, probs, valueType), vs = convert(n, presentValue, valueType);
  Value y;
  if (grouped) {
    Value pg = reshape(n, pv, {qDims[0], kvHeads, *group, qDims[2], total});
    y = prim::DotGeneralOp::create(b, loc, pg, vs, ArrayRef<int64_t>{4}, ArrayRef<int64_t>{2},
                                   ArrayRef<int64_t>{0, 1}, ArrayRef<int64_t>{0, 1});
    y = reshape(n, y, {qDims[0], qHeads, qDims[2], vDims[3]});
  } else {
    y = prim::DotGeneralOp::create(b, loc, pv, vs, ArrayRef<int64_t>{3}, ArrayRef<int64_t>{2},
                                   ArrayRef<int64_t>{0, 1}, ArrayRef<int64_t>{0, 1});
  }
  y = convert(n, y, t1);
  if (rank == 3) {
    y = b.createOrFold<prim::TransposeOp>(loc, y, ArrayRef<int64_t>{0, 2, 1, 3});
    SmallVector<OpFoldResult> yDims = getDims(n, y);
    y = reshape(n, y, {yDims[0], yDims[1], mulIndex(n, yDims[2], yDims[3])});
  }

  // The 4th output: mode 0 the scaled QK product (the spec and ONNX's function body; the
  // Python reference returns it softcapped), 1 after softcap, 2 with the bias, 3 the
  // probabilities.
  Value qk = y;
  if (n.getNumOutputs() > 3 && !n.getNode()->getResult(3).use_empty()) {
    Value chosen[] = {raw, capped, withBias, probs};
    qk = convert(n, chosen[mode], t1);
  }
  return n.setResults({y, presentKey, presentValue, qk});
}

} // namespace

void tcc::decompose::registerAttentionRules(RuleRegistry &r) {
  r.add("", "Attention", 23, attention<false, false>);
  r.add("", "Attention", 24, attention<true, false>);
  r.add("", "Attention", 25, attention<true, true>);
}
