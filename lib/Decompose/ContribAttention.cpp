//===- ContribAttention.cpp - com.microsoft MultiHeadAttention, GroupQueryAttention, Attention ===//
//
// The attention family of ONNX Runtime's contrib ops, with the semantics of ORT's CPU kernels
// (docs/ContribOperators.md); f16/bf16 compute in f32.
//
//===----------------------------------------------------------------------------------===//
#include "ContribSupport.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace tcc::decompose::contrib {
namespace {

//===----------------------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------------------===//

/// [B, S, N*H] -> [B, N, S, H]; the hidden size must be static and a multiple of N.
Value splitHeads(NodeRewriter &n, Value x, int64_t heads, StringRef what) {
  if (rankOf(x) != 3) {
    n.emitError() << what << " has type " << x.getType() << ", expected [batch, sequence, "
                  << "hidden]";
    return nullptr;
  }
  SmallVector<OpFoldResult> dims = getDims(n, x);
  auto hidden = getConstantIntValue(dims[2]);
  if (!hidden || *hidden % heads != 0) {
    n.emitError() << what << " has type " << x.getType() << ", expected a static hidden size "
                  << "that is a multiple of the number of heads " << heads;
    return nullptr;
  }
  OpBuilder &b = n.getBuilder();
  Value split = reshape(n, x, {dims[0], dims[1], b.getIndexAttr(heads),
                               b.getIndexAttr(*hidden / heads)});
  return n.prim().transpose(split, {0, 2, 1, 3});
}

/// [B, N, S, H] -> [B, S, N*H]
Value mergeHeads(NodeRewriter &n, Value y) {
  Value t = n.prim().transpose(y, {0, 2, 1, 3});
  SmallVector<OpFoldResult> dims = getDims(n, t);
  return reshape(n, t, {dims[0], dims[1], mulIndex(n, dims[2], dims[3])});
}

/// Extents that must agree: an error when both are static and differ, else a run-time check.
bool requireSame(NodeRewriter &n, OpFoldResult actual, OpFoldResult expected,
                 const std::string &what, const std::string &expectedWhat) {
  auto a = getConstantIntValue(actual), x = getConstantIntValue(expected);
  if (a && x && *a != *x) {
    n.emitError() << what << " is " << *a << ", expected " << *x << " (" << expectedWhat << ")";
    return false;
  }
  checkEqual(n, actual, expected, what + " must equal " + expectedWhat);
  return true;
}

/// What is added to or masked out of the scores [B, N, S, T]: an additive term and the
/// positions a query may see (i1), each broadcastable to the scores; softcap c > 0 maps the
/// scaled scores to c tanh(x / c) before the additive term.
struct ScoreTerms {
  Value additive, allowed;
  double softcap = 0;
};

// sdpa(Q, K, V) = softmax(softcap(scale Q K^T) + additive, masked where !allowed) V, with
// Q [B, N, S, H], K [B, Nkv, T, H], V [B, Nkv, T, Hv]; query head h reads kv head
// h / (N / Nkv); computed in f32 for f16/bf16; returns [B, N, S, Hv] of Q's type
Value scaledDotProduct(NodeRewriter &n, Value q, Value k, Value v, double scale,
                       const ScoreTerms &terms) {
  Emit e(n);
  Type element = elementOf(q), compute = computeType(element);
  SmallVector<OpFoldResult> qd = getDims(n, q), kd = getDims(n, k), vd = getDims(n, v);
  // Grouped heads are static (from attributes); dynamic heads were checked equal.
  auto heads = getConstantIntValue(qd[1]), kvHeads = getConstantIntValue(kd[1]);
  int64_t group = heads && kvHeads ? *heads / *kvHeads : 1;
  q = e.mul(convert(n, q, compute), splatLike(n, q, scale, compute));
  k = convert(n, k, compute);
  v = convert(n, v, compute);
  SmallVector<OpFoldResult> scoreDims = {qd[0], qd[1], qd[2], kd[2]};
  Value scores;
  if (group > 1) {
    Value qg = reshape(n, q, {qd[0], kd[1], e.b.getIndexAttr(group), qd[2], qd[3]});
    scores = prim::DotGeneralOp::create(e.b, e.loc, qg, k, ArrayRef<int64_t>{4},
                                        ArrayRef<int64_t>{3}, ArrayRef<int64_t>{0, 1},
                                        ArrayRef<int64_t>{0, 1});
    scores = reshape(n, scores, scoreDims);
  } else {
    scores = prim::DotGeneralOp::create(e.b, e.loc, q, k, ArrayRef<int64_t>{3},
                                        ArrayRef<int64_t>{3}, ArrayRef<int64_t>{0, 1},
                                        ArrayRef<int64_t>{0, 1});
  }
  if (terms.softcap > 0) {
    Value c = e.splat(scores, terms.softcap);
    scores = e.mul(c, e.tanh(e.div(scores, c)));
  }
  if (terms.additive) {
    Value additive = broadcastTo(n, convert(n, terms.additive, compute), scoreDims,
                                 "the attention bias");
    if (!additive)
      return nullptr;
    scores = e.add(scores, additive);
  }
  if (terms.allowed) {
    Value allowed = broadcastTo(n, terms.allowed, scoreDims, "the attention mask");
    if (!allowed)
      return nullptr;
    scores = e.select(allowed, scores, e.splat(scores, std::numeric_limits<float>::lowest()));
  }
  Value probs = softmaxLast(n, scores);
  Value y;
  if (group > 1) {
    Value pg = reshape(n, probs, {qd[0], kd[1], e.b.getIndexAttr(group), qd[2], kd[2]});
    y = prim::DotGeneralOp::create(e.b, e.loc, pg, v, ArrayRef<int64_t>{4}, ArrayRef<int64_t>{2},
                                   ArrayRef<int64_t>{0, 1}, ArrayRef<int64_t>{0, 1});
    y = reshape(n, y, {qd[0], qd[1], qd[2], vd[3]});
  } else {
    y = prim::DotGeneralOp::create(e.b, e.loc, probs, v, ArrayRef<int64_t>{3},
                                   ArrayRef<int64_t>{2}, ArrayRef<int64_t>{0, 1},
                                   ArrayRef<int64_t>{0, 1});
  }
  return convert(n, y, element);
}

/// The default scale 1 / sqrt(head size) unless the `scale` attribute is non-zero.
double attentionScale(NodeRewriter &n, Value q) {
  float scale = n.getFloat("scale", 0.0f);
  if (scale != 0.0f)
    return scale;
  return 1.0 / std::sqrt(static_cast<double>(*getConstantIntValue(getDims(n, q)[3])));
}

/// The masked positions [B, 1, S|1, T] of an int key padding mask / mask_index: [B] key
/// lengths, [2B] ends then starts, [B, T] or [B, S, T] (0 = masked). Null after an error.
Value paddingMask(NodeRewriter &n, Value mask, OpFoldResult batch, OpFoldResult seq,
                  OpFoldResult total, bool allowStartEnd, StringRef what) {
  Emit e(n);
  Type i64 = e.b.getI64Type();
  OpFoldResult one = e.b.getIndexAttr(1);
  if (!isa<IntegerType>(elementOf(mask)) || elementOf(mask).isInteger(1)) {
    n.emitError() << what << " has type " << mask.getType() << ", expected int32";
    return nullptr;
  }
  Value m = convert(n, mask, i64);
  SmallVector<OpFoldResult> md = getDims(n, m);
  int64_t rank = rankOf(m);
  if (rank == 1) {
    SmallVector<OpFoldResult> dims = {batch, one, one, total};
    Value j = e.iota(dims, 3, i64);
    auto perBatch = [&](Value v) { return e.broadcast(v, {0}, dims); };
    if (allowStartEnd && sameExtent(md[0], mulIndex(n, batch, e.b.getIndexAttr(2)))) {
      Value end = perBatch(e.slice(m, 0, e.b.getIndexAttr(0), batch));
      Value start = perBatch(e.slice(m, 0, batch, batch));
      return e.disjoin(e.cmp(Dir::Ge, j, end), e.cmp(Dir::Lt, j, start));
    }
    auto length = getConstantIntValue(md[0]), b = getConstantIntValue(batch);
    if (length && b && *length != *b) {
      n.emitError() << what << " has type " << mask.getType() << ", expected [batch] key "
                    << "lengths" << (allowStartEnd ? " or [2 * batch] ends and starts" : "")
                    << " (other 1-D formats are not supported)";
      return nullptr;
    }
    // Key lengths; a length that cannot be compared at compile time is checked at run time.
    checkEqual(n, md[0], batch, what.str() + " must hold one key length per batch entry");
    return e.cmp(Dir::Ge, j, perBatch(m));
  }
  if (rank != 2 && rank != 3) {
    n.emitError() << what << " has type " << mask.getType() << ", expected [batch], "
                  << "[batch, total_sequence] or [batch, sequence, total_sequence] (4-D masks "
                  << "are not supported, as by ORT's CPU kernels)";
    return nullptr;
  }
  if (!requireSame(n, md[0], batch, what.str() + " dim 0", "the batch size") ||
      !requireSame(n, md.back(), total, what.str() + "'s last dim",
                   "the total sequence length") ||
      (rank == 3 && !requireSame(n, md[1], seq, what.str() + " dim 1", "the sequence length")))
    return nullptr;
  SmallVector<OpFoldResult> four = {md[0], one, rank == 3 ? md[1] : one, md.back()};
  Value masked = e.cmp(Dir::Eq, m, e.splat(m, 0));
  return reshape(n, masked, four);
}

/// Keys j > i + past are masked for query i: [1, 1, S, T].
Value causalMask(NodeRewriter &n, OpFoldResult seq, OpFoldResult total, OpFoldResult past) {
  Emit e(n);
  Type i64 = e.b.getI64Type();
  OpFoldResult one = e.b.getIndexAttr(1);
  SmallVector<OpFoldResult> dims = {one, one, seq, total};
  Value i = e.add(e.iota(dims, 2, i64), e.extent(past, dims, i64));
  return e.cmp(Dir::Gt, e.iota(dims, 3, i64), i);
}

/// mask_filter_value where `masked`, 0 elsewhere (ORT adds it rather than -inf).
Value filterTerm(NodeRewriter &n, Value masked, Type element) {
  float filter = n.getFloat("mask_filter_value", -10000.0f);
  return Emit(n).select(masked, splatLike(n, masked, filter, element),
                        splatLike(n, masked, 0.0, element));
}

/// Refuses a used output `index` that tcc does not compute.
bool refuseUsedOutput(NodeRewriter &n, unsigned index, StringRef what) {
  if (n.getNumOutputs() > index && !n.getNode()->getResult(index).use_empty()) {
    n.emitError() << "output " << index << " (" << what << ") is not supported";
    return true;
  }
  return false;
}

/// A past key or value [B, N, P, H] that extends `fresh` [B, N, L, H] along dim 2: same
/// element type and dims 0, 1 and 3. False after an error naming `what`.
bool checkPast(NodeRewriter &n, Value past, Value fresh, const std::string &what) {
  if (rankOf(past) != 4 || elementOf(past) != elementOf(fresh)) {
    n.emitError() << what << " has type " << past.getType() << ", expected " << elementOf(fresh)
                  << " [batch, heads, past_sequence, head_size]";
    return false;
  }
  SmallVector<OpFoldResult> pd = getDims(n, past), fd = getDims(n, fresh);
  for (int64_t d : {0, 1, 3})
    if (!requireSame(n, pd[d], fd[d], "dim " + std::to_string(d) + " of " + what,
                     "that of the new keys and values"))
      return false;
  return true;
}

// multi_head_attention(Q, K, V) = concat_heads(sdpa(Q + bq, concat(past_key, K + bk),
// concat(past_value, V + bv))) with additive key_padding_mask (mask_filter_value where 0 /
// beyond the key length), causal mask (unidirectional, S > 1) and attention_bias; K and V may
// come as [B, N, L, H] (then without bias); outputs output, present_key, present_value
LogicalResult multiHeadAttention(NodeRewriter &n) {
  Value q = n.getFloatInput(0), k = n.getOptionalInput(1), v = n.getOptionalInput(2),
        bias = n.getOptionalInput(3), padding = n.getOptionalInput(4),
        attnBias = n.getOptionalInput(5), pastKey = n.getOptionalInput(6),
        pastValue = n.getOptionalInput(7);
  std::optional<int64_t> headsAttr = n.getOptionalInt("num_heads");
  bool causal = n.getInt("unidirectional", 0) != 0;
  if (!q || n.hasFailed() || refuseInput(n, 8, "past_sequence_length, a shared KV buffer") ||
      refuseInput(n, 9, "cache_indirection") || refuseUsedOutput(n, 3, "qk"))
    return failure();
  if (!headsAttr || *headsAttr < 1)
    return n.emitError() << "expected the attribute 'num_heads' >= 1";
  if (!k || !v)
    return n.emitError() << "key and value are required (packed QKV in query, and packed KV "
                            "in key, are not supported)";
  if (rankOf(q) != 3 || rankOf(k) != rankOf(v) || (rankOf(k) != 3 && rankOf(k) != 4))
    return n.emitError() << "query, key and value have types " << q.getType() << ", "
                         << k.getType() << " and " << v.getType() << ", expected [B, S, D] "
                         << "query with [B, L, D] or [B, N, L, H] key and value";
  if (static_cast<bool>(pastKey) != static_cast<bool>(pastValue))
    return n.emitError() << "past_key and past_value must be given together";
  int64_t heads = *headsAttr;
  Emit e(n);
  Type element = elementOf(q);
  SmallVector<OpFoldResult> qd = getDims(n, q);
  if (bias) {
    SmallVector<OpFoldResult> bd = getDims(n, bias);
    auto hq = getConstantIntValue(qd[2]);
    if (rankOf(bias) != 1 || !hq || !getConstantIntValue(bd[0]))
      return n.emitError() << "bias has type " << bias.getType()
                           << ", expected a static vector [D + D + D_v]";
    int64_t total = *getConstantIntValue(bd[0]), dq = *hq;
    int64_t dv = rankOf(v) == 3 ? getConstantIntValue(getDims(n, v)[2]).value_or(-1)
                                : total - 2 * dq;
    if (dv < 1 || total != 2 * dq + dv)
      return n.emitError() << "bias has " << total << " elements, expected " << 2 * dq << " + "
                           << "the hidden size of value";
    bias = convert(n, bias, element);
    auto part = [&](int64_t offset, int64_t size) {
      return e.slice(bias, 0, e.b.getIndexAttr(offset), e.b.getIndexAttr(size));
    };
    q = buildBinary<prim::AddOp>(n, q, part(0, dq));
    if (rankOf(k) == 3) {
      k = buildBinary<prim::AddOp>(n, k, part(dq, dq));
      v = buildBinary<prim::AddOp>(n, v, part(2 * dq, dv));
    }
    if (!q || !k || !v)
      return failure();
  }
  Value qh = splitHeads(n, q, heads, "query");
  Value kh = rankOf(k) == 4 ? k : splitHeads(n, k, heads, "key");
  Value vh = rankOf(v) == 4 ? v : splitHeads(n, v, heads, "value");
  if (!qh || !kh || !vh)
    return failure();
  SmallVector<OpFoldResult> hq = getDims(n, qh), hk = getDims(n, kh), hv = getDims(n, vh);
  if (!requireSame(n, hk[1], e.b.getIndexAttr(heads), "the heads of key", "num_heads") ||
      !requireSame(n, hk[3], hq[3], "the head size of key", "that of query") ||
      !requireSame(n, hv[1], e.b.getIndexAttr(heads), "the heads of value", "num_heads") ||
      !requireSame(n, hv[2], hk[2], "the sequence length of value", "that of key") ||
      !requireSame(n, hk[0], hq[0], "the batch size of key", "that of query"))
    return failure();
  OpFoldResult past = e.b.getIndexAttr(0);
  if (pastKey) {
    if (!checkPast(n, pastKey, kh, "past_key") || !checkPast(n, pastValue, vh, "past_value"))
      return failure();
    past = getDims(n, pastKey)[2];
    kh = prim::ConcatenateOp::create(e.b, e.loc, ValueRange{pastKey, kh}, 2);
    vh = prim::ConcatenateOp::create(e.b, e.loc, ValueRange{pastValue, vh}, 2);
  }
  OpFoldResult total = getDims(n, kh)[2];
  Value masked;
  if (padding && !(masked = paddingMask(n, padding, hq[0], hq[2], total, false,
                                        "key_padding_mask")))
    return failure();
  if (causal && getConstantIntValue(hq[2]) != 1)
    masked = e.disjoin(masked, causalMask(n, hq[2], total, past));
  Type compute = computeType(element);
  ScoreTerms terms;
  if (masked)
    terms.additive = filterTerm(n, masked, compute);
  if (attnBias) {
    if (rankOf(attnBias) != 4)
      return n.emitError() << "attention_bias has type " << attnBias.getType()
                           << ", expected [B or 1, N or 1, S, T]";
    attnBias = convert(n, attnBias, compute);
    terms.additive = terms.additive ? buildBinary<prim::AddOp>(n, terms.additive, attnBias)
                                    : attnBias;
    if (!terms.additive)
      return failure();
  }
  Value y = scaledDotProduct(n, qh, kh, vh, attentionScale(n, qh), terms);
  if (!y)
    return failure();
  return n.setResults({mergeHeads(n, y), kh, vh, y});
}

/// Where each batch entry's new keys and values go in GroupQueryAttention's cache.
struct CacheLayout {
  Value past;  ///< past length per batch entry, i64 [B]: max(seqlens_k + 1 - S, 0)
  Value total; ///< total length per batch entry, i64 [B]: seqlens_k + 1
};

/// present[b, h, p] = past[b, h, p] for p < past_b, new[b, h, p - past_b] for past_b <= p <
/// past_b + S, 0 beyond; [B, Nkv, T, H] (a linear gather from concat(past, new)).
Value buildPresent(NodeRewriter &n, Value pastKV, Value fresh, const CacheLayout &layout,
                   OpFoldResult total) {
  Emit e(n);
  Type i64 = e.b.getI64Type();
  SmallVector<OpFoldResult> fd = getDims(n, fresh);
  Value all = pastKV ? Value(prim::ConcatenateOp::create(e.b, e.loc, ValueRange{pastKV, fresh}, 2))
                     : fresh;
  OpFoldResult pastLen = pastKV ? getDims(n, pastKV)[2] : OpFoldResult(e.b.getIndexAttr(0));
  OpFoldResult rows = getDims(n, all)[2];
  SmallVector<OpFoldResult> dims = {fd[0], fd[1], total};
  Value p = e.iota(dims, 2, i64);
  Value pastB = e.broadcast(layout.past, {0}, dims);
  Value fromPast = e.cmp(Dir::Lt, p, pastB);
  Value fromNew = e.cmp(Dir::Lt, p, e.add(pastB, e.extent(fd[2], dims, i64)));
  Value source = e.select(fromPast, p, e.add(e.sub(p, pastB), e.extent(pastLen, dims, i64)));
  source = e.max(e.splat(source, 0), e.min(source, e.sub(e.extent(rows, dims, i64), e.splat(source, 1))));
  Value row = e.add(e.mul(e.iota(dims, 0, i64), e.extent(fd[1], dims, i64)), e.iota(dims, 1, i64));
  Value index = e.add(e.mul(row, e.extent(rows, dims, i64)), source);
  Value flat = reshape(n, all, {product(n, {fd[0], fd[1], rows}), fd[3]});
  Value gathered = prim::GatherOp::create(e.b, e.loc, flat, index, 0);
  SmallVector<OpFoldResult> full = {fd[0], fd[1], total, fd[3]};
  Value valid = e.broadcast(fromNew, {0, 1, 2}, full);
  return e.select(valid, gathered, splatLike(n, gathered, 0.0));
}

// group_query_attention: per batch entry b, past_b = max(seqlens_k[b] + 1 - S, 0); the new
// keys/values (rotated with cos/sin rows past_b + i when do_rotary) are written at rows
// past_b.. of the cache (present, of length max(total_sequence_length, P), rows after
// seqlens_k[b] zero); query i sees keys j <= past_b + i, j <= seqlens_k[b] and, with
// local_window_size W > 0, j > past_b + i - W; scores are softcapped, then attention_bias
// is added; query head h reads kv head h / (num_heads / kv_num_heads)
LogicalResult groupQueryAttention(NodeRewriter &n) {
  Value q = n.getFloatInput(0), k = n.getOptionalInput(1), v = n.getOptionalInput(2),
        pastKey = n.getOptionalInput(3), pastValue = n.getOptionalInput(4),
        seqlens = n.getInput(5), totalInput = n.getInput(6), cosCache = n.getOptionalInput(7),
        sinCache = n.getOptionalInput(8), attnBias = n.getOptionalInput(10);
  std::optional<int64_t> headsAttr = n.getOptionalInt("num_heads"),
                         kvHeadsAttr = n.getOptionalInt("kv_num_heads");
  bool rotary = n.getInt("do_rotary", 0) != 0;
  bool interleaved = n.getInt("rotary_interleaved", 0) != 0;
  int64_t window = n.getInt("local_window_size", -1), smooth = n.getInt("smooth_softmax", 0),
          qkOutput = n.getInt("qk_output", 0);
  float softcap = n.getFloat("softcap", 0.0f);
  std::string kQuant = n.getString("k_quant_type", "NONE"),
              vQuant = n.getString("v_quant_type", "NONE");
  if (!q || !seqlens || !totalInput || n.hasFailed() ||
      refuseInput(n, 9, "position_ids") || refuseInput(n, 11, "head_sink") ||
      refuseInput(n, 12, "k_scale") || refuseInput(n, 13, "v_scale") ||
      refuseInput(n, 14, "q_norm_weight") || refuseInput(n, 15, "k_norm_weight") ||
      refuseUsedOutput(n, 3, "output_qk"))
    return failure();
  if (!headsAttr || !kvHeadsAttr || *headsAttr < 1 || *kvHeadsAttr < 1 ||
      *headsAttr % *kvHeadsAttr != 0)
    return n.emitError() << "expected the attributes 'num_heads' and 'kv_num_heads' >= 1, "
                            "num_heads a multiple of kv_num_heads";
  if (smooth != 0 || qkOutput != 0 || kQuant != "NONE" || vQuant != "NONE" ||
      n.getInt("sliding_window_cache", 0) != 0)
    return n.emitError() << "smooth_softmax, qk_output, sliding_window_cache and quantized KV "
                            "caches are not supported";
  if (softcap < 0)
    return n.emitError() << "attribute 'softcap' must be >= 0";
  if (static_cast<bool>(k) != static_cast<bool>(v) ||
      static_cast<bool>(pastKey) != static_cast<bool>(pastValue))
    return n.emitError() << "key and value, and past_key and past_value, must be given together";
  int64_t heads = *headsAttr, kvHeads = *kvHeadsAttr;
  Emit e(n);
  Type i64 = e.b.getI64Type(), element = elementOf(q);
  if (rankOf(q) != 3)
    return n.emitError() << "query has type " << q.getType() << ", expected [B, S, D]";
  SmallVector<OpFoldResult> qd = getDims(n, q);
  if (!k) {
    // Packed QKV: [B, S, (N + 2 Nkv) H].
    auto width = getConstantIntValue(qd[2]);
    int64_t parts = heads + 2 * kvHeads;
    if (!width || *width % parts != 0)
      return n.emitError() << "packed query has type " << q.getType() << ", expected a static "
                           << "last dim (num_heads + 2 kv_num_heads) * head_size";
    int64_t head = *width / parts;
    k = e.slice(q, 2, e.b.getIndexAttr(heads * head), e.b.getIndexAttr(kvHeads * head));
    v = e.slice(q, 2, e.b.getIndexAttr((heads + kvHeads) * head), e.b.getIndexAttr(kvHeads * head));
    q = e.slice(q, 2, e.b.getIndexAttr(0), e.b.getIndexAttr(heads * head));
  }
  auto toHeads = [&](Value x, int64_t count, StringRef what) -> Value {
    Value h = splitHeads(n, x, count, what); // [B, N, S, H]
    return h ? e.transpose(h, {0, 2, 1, 3}) : nullptr;  // [B, S, N, H]
  };
  Value qs = toHeads(q, heads, "query"), ks = toHeads(k, kvHeads, "key"),
        vs = toHeads(v, kvHeads, "value");
  if (!qs || !ks || !vs)
    return failure();
  SmallVector<OpFoldResult> sq = getDims(n, qs), sk = getDims(n, ks);
  if (!requireSame(n, sk[3], sq[3], "the head size of key", "that of query") ||
      !requireSame(n, sk[1], sq[1], "the sequence length of key", "that of query") ||
      !requireSame(n, sk[0], sq[0], "the batch size of key", "that of query"))
    return failure();
  OpFoldResult batch = sq[0], seq = sq[1], pastLen = e.b.getIndexAttr(0);
  if (pastKey) {
    if (!checkPast(n, pastKey, e.transpose(ks, {0, 2, 1, 3}), "past_key") ||
        !checkPast(n, pastValue, e.transpose(vs, {0, 2, 1, 3}), "past_value"))
      return failure();
    pastLen = getDims(n, pastKey)[2];
  }
  // Per-batch lengths and the cache length max(total_sequence_length, P).
  if (rankOf(seqlens) != 1 || !isa<IntegerType>(elementOf(seqlens)))
    return n.emitError() << "seqlens_k has type " << seqlens.getType() << ", expected int32 [B]";
  if (!requireSame(n, getDims(n, seqlens)[0], batch, "the length of seqlens_k", "the batch size"))
    return failure();
  // Exporters compute total_sequence_length from shapes and Cast it to int32: looking
  // through the integer convert keeps the cache length symbolic instead of data-dependent.
  Value totalSource = totalInput;
  while (auto cast = totalSource.getDefiningOp<prim::ConvertOp>()) {
    if (!isa<IntegerType>(elementOf(cast.getOperand())) || !isShapeTensor(cast.getOperand()))
      break;
    totalSource = cast.getOperand();
  }
  auto totalElements = getShapeElements(n, totalSource);
  if (!totalElements || totalElements->size() != 1)
    return n.emitError() << "total_sequence_length has type " << totalInput.getType()
                         << ", expected one int32";
  OpFoldResult total = maxIndex(n, (*totalElements)[0], pastLen);
  SmallVector<OpFoldResult> bdims = {batch};
  Value totalB = e.add(convert(n, seqlens, i64), e.splat(convert(n, seqlens, i64), 1));
  CacheLayout layout{e.max(e.sub(totalB, e.extent(seq, bdims, i64)), e.splat(totalB, 0)), totalB};

  Type compute = computeType(element);
  if (rotary) {
    if (!cosCache || !sinCache)
      return n.emitError() << "do_rotary=1 needs cos_cache and sin_cache";
    int64_t half = cacheHalfWidth(n, cosCache, "cos_cache");
    if (!half || !cacheHalfWidth(n, sinCache, "sin_cache"))
      return failure();
    int64_t head = *getConstantIntValue(sq[3]);
    if (2 * half > head)
      return n.emitError() << "the caches' width " << half << " is more than half the head size "
                           << head;
    SmallVector<OpFoldResult> bs = {batch, seq};
    Value pos = e.add(e.broadcast(layout.past, {0}, bs), e.iota(bs, 1, i64));
    Value c = lookupRows(n, cosCache, pos, compute), s = lookupRows(n, sinCache, pos, compute);
    qs = convert(n, applyRotary(n, convert(n, qs, compute), c, s, 2 * half, interleaved), element);
    ks = convert(n, applyRotary(n, convert(n, ks, compute), c, s, 2 * half, interleaved), element);
  } else if (cosCache || sinCache) {
    return n.emitError() << "cos_cache and sin_cache are given but do_rotary is 0";
  }
  Value qh = e.transpose(qs, {0, 2, 1, 3}), kh = e.transpose(ks, {0, 2, 1, 3}),
        vh = e.transpose(vs, {0, 2, 1, 3});
  Value presentKey = buildPresent(n, pastKey, kh, layout, total);
  Value presentValue = buildPresent(n, pastValue, vh, layout, total);

  // Which keys each query sees: [B, 1, S, T].
  OpFoldResult one = e.b.getIndexAttr(1);
  SmallVector<OpFoldResult> md = {batch, one, seq, total};
  Value j = e.iota(md, 3, i64);
  Value i = e.add(e.broadcast(layout.past, {0}, md), e.iota(md, 2, i64));
  Value allowed = e.conjoin(e.cmp(Dir::Le, j, i),
                         e.cmp(Dir::Lt, j, e.broadcast(layout.total, {0}, md)));
  if (window > 0)
    allowed = e.conjoin(allowed, e.cmp(Dir::Gt, j, e.sub(i, e.splat(i, static_cast<double>(window)))));
  ScoreTerms terms{attnBias, allowed, softcap};
  if (attnBias && rankOf(attnBias) != 4)
    return n.emitError() << "attention_bias has type " << attnBias.getType()
                         << ", expected [B or 1, N or 1, S, T]";
  Value y = scaledDotProduct(n, qh, presentKey, presentValue, attentionScale(n, qh), terms);
  if (!y)
    return failure();
  return n.setResults({mergeHeads(n, y), presentKey, presentValue, y});
}

// attention(X, W, bias) = concat_heads(sdpa(Q, concat(past[0], K), concat(past[1], V)))
// with [Q, K, V] = X W + bias split by qkv_hidden_sizes, mask_index (key lengths, ends and
// starts, or 0/1 masks) and unidirectional as mask_filter_value terms, attention_bias added;
// outputs output and present = stack(K, V) [2, B, N, T, H]
LogicalResult attention(NodeRewriter &n) {
  Value x = n.getFloatInput(0), w = n.getFloatInput(1), bias = n.getOptionalInput(2),
        maskIndex = n.getOptionalInput(3), past = n.getOptionalInput(4),
        attnBias = n.getOptionalInput(5);
  std::optional<int64_t> headsAttr = n.getOptionalInt("num_heads");
  std::optional<SmallVector<int64_t>> sizesAttr = n.getInts("qkv_hidden_sizes");
  bool causal = n.getInt("unidirectional", 0) != 0;
  if (!x || !w || n.hasFailed() || refuseInput(n, 6, "past_sequence_length, a shared buffer"))
    return failure();
  if (n.getInt("do_rotary", 0) != 0 || n.getInt("past_present_share_buffer", 0) != 0)
    return n.emitError() << "do_rotary and past_present_share_buffer are not supported";
  if (!headsAttr || *headsAttr < 1)
    return n.emitError() << "expected the attribute 'num_heads' >= 1";
  if (rankOf(x) != 3 || rankOf(w) != 2)
    return n.emitError() << "input and weights have types " << x.getType() << " and "
                         << w.getType() << ", expected [B, S, D_in] and [D_in, D + D + D_v]";
  int64_t heads = *headsAttr;
  Emit e(n);
  auto width = getConstantIntValue(getDims(n, w)[1]);
  if (!width)
    return n.emitError() << "weights has type " << w.getType() << ", expected a static last dim";
  SmallVector<int64_t> sizes = sizesAttr.value_or(SmallVector<int64_t>(3, *width / 3));
  std::string listed = "[" + llvm::join(llvm::map_range(sizes, [](int64_t s) {
                                          return std::to_string(s);
                                        }), ", ") + "]";
  if (sizes.size() != 3 || sizes[0] != sizes[1] ||
      llvm::any_of(sizes, [&](int64_t s) { return s < 1 || s % heads != 0; }))
    return n.emitError() << "the hidden sizes of Q, K and V are " << listed << ", expected "
                         << "[D, D, D_v] with each a multiple of num_heads " << heads;
  if (sizes[0] + sizes[1] + sizes[2] != *width)
    return n.emitError() << "the weights have " << *width << " columns, expected the sum of "
                         << "the hidden sizes " << listed;
  Value y = buildMatMul(n, x, w);
  if (!y)
    return failure();
  if (bias && !(y = buildBinary<prim::AddOp>(n, y, bias)))
    return failure();
  auto part = [&](int64_t offset, int64_t size) {
    return e.slice(y, 2, e.b.getIndexAttr(offset), e.b.getIndexAttr(size));
  };
  Value qh = splitHeads(n, part(0, sizes[0]), heads, "Q");
  Value kh = splitHeads(n, part(sizes[0], sizes[1]), heads, "K");
  Value vh = splitHeads(n, part(2 * sizes[0], sizes[2]), heads, "V");
  if (!qh || !kh || !vh)
    return failure();
  SmallVector<OpFoldResult> hq = getDims(n, qh);
  OpFoldResult pastLen = e.b.getIndexAttr(0);
  if (past) {
    SmallVector<OpFoldResult> pd = getDims(n, past);
    if (rankOf(past) != 5 || getConstantIntValue(pd[0]) != 2)
      return n.emitError() << "past has type " << past.getType() << ", expected [2, B, N, P, H]";
    pastLen = pd[3];
    SmallVector<OpFoldResult> one4 = {pd[1], pd[2], pd[3], pd[4]};
    Value pk = reshape(n, e.slice(past, 0, e.b.getIndexAttr(0), e.b.getIndexAttr(1)), one4);
    Value pv = reshape(n, e.slice(past, 0, e.b.getIndexAttr(1), e.b.getIndexAttr(1)), one4);
    if (!checkPast(n, pk, kh, "past[0]") || !checkPast(n, pv, vh, "past[1]"))
      return failure();
    kh = prim::ConcatenateOp::create(e.b, e.loc, ValueRange{pk, kh}, 2);
    vh = prim::ConcatenateOp::create(e.b, e.loc, ValueRange{pv, vh}, 2);
  }
  OpFoldResult total = getDims(n, kh)[2];
  Value masked;
  if (maskIndex && !(masked = paddingMask(n, maskIndex, hq[0], hq[2], total, true, "mask_index")))
    return failure();
  if (causal)
    masked = e.disjoin(masked, causalMask(n, hq[2], total, pastLen));
  Type compute = computeType(elementOf(x));
  ScoreTerms terms;
  if (masked)
    terms.additive = filterTerm(n, masked, compute);
  if (attnBias) {
    attnBias = convert(n, attnBias, compute);
    terms.additive = terms.additive ? buildBinary<prim::AddOp>(n, terms.additive, attnBias)
                                    : attnBias;
    if (!terms.additive)
      return failure();
  }
  Value out = scaledDotProduct(n, qh, kh, vh, attentionScale(n, qh), terms);
  if (!out)
    return failure();
  Value present = out;
  if (n.getNumOutputs() > 1 && !n.getNode()->getResult(1).use_empty()) {
    if (sizes[1] != sizes[2])
      return n.emitError() << "output 1 (present) needs K and V of one hidden size";
    SmallVector<OpFoldResult> kd = getDims(n, kh), stacked = {e.b.getIndexAttr(1)};
    stacked.append(kd.begin(), kd.end());
    present = prim::ConcatenateOp::create(
        e.b, e.loc, ValueRange{reshape(n, kh, stacked), reshape(n, vh, stacked)}, 0);
  }
  return n.setResults({mergeHeads(n, out), present});
}

} // namespace

void registerContribAttentionRules(RuleRegistry &r) {
  r.add(kDomain, "MultiHeadAttention", 1, multiHeadAttention);
  r.add(kDomain, "GroupQueryAttention", 1, groupQueryAttention);
  r.add(kDomain, "Attention", 1, attention);
}

} // namespace tcc::decompose::contrib
