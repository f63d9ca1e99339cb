//===- LinearAttention.cpp - rules for the cache and state ops of opsets 24 to 27 -----===//
//
// The building blocks of linear-attention and state-space models (Gated DeltaNet, Mamba):
// CausalConvWithState, a depthwise causal 1-D convolution that carries its last k - 1
// inputs, and LinearAttention, a recurrence over a [d_k, d_v] state per head; and
// TensorScatter, the in-place write of new positions into a KV cache (a gather here).
// LinearAttention is unrolled over a static sequence length (like RNN/GRU/LSTM until prim
// has loops); both compute f16/bf16 in f32, as ONNX's reference does.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// x[..., begin:begin+count, ...] along `axis`.
Value sliceAxis(NodeRewriter &n, Value x, int64_t axis, OpFoldResult begin, OpFoldResult count) {
  OpBuilder &b = n.getBuilder();
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes = getDims(n, x);
  offsets[axis] = begin;
  sizes[axis] = count;
  return b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes,
                                       SmallVector<int64_t>(rank, 1));
}

/// f32 for f16/bf16 (the type ONNX's reference accumulates in), else the type itself.
Type computeTypeOf(NodeRewriter &n, Type element) {
  return element.getIntOrFloatBitWidth() < 32 ? Type(n.getBuilder().getF32Type()) : element;
}

/// `x` [..., d] times a 0-d `scalar` broadcast to it.
Value scaleBy(NodeRewriter &n, Value x, Value scalar) {
  return prim::MulOp::create(n.getBuilder(), n.getLoc(), x, fill(n, scalar, getDims(n, x)));
}

// causal_conv_with_state(x [B, C, L], w [C, 1, k], bias, past [B, C, k-1]):
//   padded = concat(past or zeros, x) along L
//   y = act(depthwise_conv(padded, w, group = C) + bias), act = silu(v) = v sigmoid(v) or none
//   present_state = padded[:, :, L:]   (the last k - 1 positions)
LogicalResult causalConvWithState(NodeRewriter &n) {
  Value x = n.getFloatInput(0), w = n.getFloatInput(1);
  Value bias = n.getOptionalInput(2), past = n.getOptionalInput(3);
  std::string activation = n.getString("activation", "none");
  if (!x || !w || n.hasFailed())
    return failure();
  if (activation != "none" && activation != "silu" && activation != "swish")
    return n.emitError() << "attribute 'activation' is \"" << activation
                         << "\", expected none, silu or swish";
  Type element = elementOf(x);
  if (rankOf(x) != 3 || rankOf(w) != 3 || elementOf(w) != element)
    return n.emitError() << "input and weight have types " << x.getType() << " and "
                         << w.getType()
                         << ", expected 3-D [batch, channels, length] and [channels, 1, k] of "
                            "one element type";
  auto wType = cast<RankedTensorType>(w.getType());
  if (wType.isDynamicDim(2) || wType.getDimSize(2) < 1 || wType.getDimSize(1) != 1)
    return n.emitError() << "weight has type " << w.getType()
                         << ", expected [channels, 1, k] with a static k >= 1";
  int64_t k = wType.getDimSize(2);
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> xDims = getDims(n, x);
  auto channels = getConstantIntValue(xDims[1]);
  if (!channels)
    return n.emitError() << "input has type " << x.getType()
                         << ", expected a static channel count (the convolution's group)";
  checkEqual(n, getDims(n, w)[0], xDims[1], "weight's dim 0 must equal the input's channels");
  if (n.hasFailed())
    return failure();
  SmallVector<OpFoldResult> stateDims = {xDims[0], xDims[1], b.getIndexAttr(k - 1)};
  if (past) {
    if (rankOf(past) != 3 || elementOf(past) != element)
      return n.emitError() << "past_state has type " << past.getType()
                           << ", expected 3-D [batch, channels, k - 1] of " << element;
    SmallVector<OpFoldResult> pastDims = getDims(n, past);
    for (int64_t d = 0; d < 3; ++d) {
      auto actual = getConstantIntValue(pastDims[d]), expected = getConstantIntValue(stateDims[d]);
      if (actual && expected && *actual != *expected)
        return n.emitError() << "past_state has type " << past.getType() << ", expected [batch, "
                             << "channels, " << k - 1 << "]";
      checkEqual(n, pastDims[d], stateDims[d], "past_state must be [batch, channels, k - 1]");
    }
    if (n.hasFailed())
      return failure();
  }
  Value padded = x;
  if (k > 1) {
    Value front = past ? past : fill(n, scalarConstant(n, element, 0.0), stateDims);
    padded = prim::ConcatenateOp::create(b, loc, ValueRange{front, x}, 2);
  }
  Type compute = computeTypeOf(n, element);
  Value y = prim::ConvolutionOp::create(
      b, loc, convert(n, padded, compute), convert(n, w, compute), ArrayRef<int64_t>{1},
      ArrayRef<int64_t>{0}, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1},
      static_cast<uint64_t>(*channels));
  if (bias) {
    if (rankOf(bias) != 1 || elementOf(bias) != element)
      return n.emitError() << "bias has type " << bias.getType() << ", expected [channels] of "
                           << element;
    Value wide = broadcastChannels(n, convert(n, bias, compute), getDims(n, y), "bias");
    if (!wide)
      return failure();
    y = prim::AddOp::create(b, loc, y, wide);
  }
  // The reference rounds the convolution to T before the activation.
  y = convert(n, convert(n, y, element), compute);
  if (activation != "none")
    y = prim::MulOp::create(b, loc, y, prim::LogisticOp::create(b, loc, y));
  Value present = sliceAxis(n, padded, 2, xDims[2], b.getIndexAttr(k - 1));
  return n.setResults({convert(n, y, element), present});
}

/// A [B, T, heads * D] input as [B, heads, T, D] in `compute`; null after an error.
Value unpackHeads(NodeRewriter &n, Value x, int64_t heads, Type compute, const char *what) {
  SmallVector<OpFoldResult> dims = getDims(n, x);
  auto hidden = getConstantIntValue(dims[2]);
  if (!hidden || *hidden % heads != 0) {
    n.emitError() << what << " has type " << x.getType()
                  << ", expected a static last dim that is a multiple of " << heads;
    return nullptr;
  }
  OpBuilder &b = n.getBuilder();
  Value split = reshape(n, convert(n, x, compute),
                        {dims[0], dims[1], b.getIndexAttr(heads), b.getIndexAttr(*hidden / heads)});
  return b.createOrFold<prim::TransposeOp>(n.getLoc(), split, ArrayRef<int64_t>{0, 2, 1, 3});
}

// linear_attention(q, k, v, S0, decay g, beta): per step t, with S [B, H_kv, d_k, d_v] in f32
//   gated:  S = S * exp(g_t)                        (g_t per head or per key dim)
//   delta:  v_t = beta_t (v_t - S^T k_t)
//   S = S + k_t v_t^T;   o_t = scale q_t S          (q head h reads kv head h / (H_q / H_kv))
// output = o as [B, T, H_q d_v]; present_state = S; update_rule linear / gated / delta /
// gated_delta selects the steps; scale 0 means 1 / sqrt(d_k).
LogicalResult linearAttention(NodeRewriter &n) {
  Value q = n.getFloatInput(0), k = n.getFloatInput(1), v = n.getFloatInput(2);
  Value past = n.getOptionalInput(3), decay = n.getOptionalInput(4), beta = n.getOptionalInput(5);
  std::optional<int64_t> qHeads = n.getOptionalInt("q_num_heads"),
                         kvHeads = n.getOptionalInt("kv_num_heads");
  float scaleAttr = n.getFloat("scale", 0.0f);
  std::string rule = n.getString("update_rule", "gated_delta");
  if (!q || !k || !v || n.hasFailed())
    return failure();
  if (rule != "linear" && rule != "gated" && rule != "delta" && rule != "gated_delta")
    return n.emitError() << "attribute 'update_rule' is \"" << rule
                         << "\", expected linear, gated, delta or gated_delta";
  if (!qHeads || !kvHeads || *qHeads < 1 || *kvHeads < 1 || *qHeads % *kvHeads != 0)
    return n.emitError() << "attributes 'q_num_heads' and 'kv_num_heads' are required, >= 1, "
                            "and q_num_heads must be a multiple of kv_num_heads";
  bool gating = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  if (gating != static_cast<bool>(decay))
    return n.emitError() << "update_rule " << rule << (gating ? " needs" : " forbids")
                         << " the decay input";
  if (delta != static_cast<bool>(beta))
    return n.emitError() << "update_rule " << rule << (delta ? " needs" : " forbids")
                         << " the beta input";
  Type element = elementOf(q);
  for (Value x : {q, k, v})
    if (rankOf(x) != 3 || elementOf(x) != element)
      return n.emitError() << "query, key and value have types " << q.getType() << ", "
                           << k.getType() << " and " << v.getType()
                           << ", expected 3-D [batch, sequence, heads * head_size] of one type";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> qDims = getDims(n, q);
  auto steps = getConstantIntValue(qDims[1]);
  if (!steps || *steps < 1)
    return n.emitError() << "query has type " << q.getType()
                         << ", expected a static sequence length >= 1 (the recurrence is "
                            "unrolled)";
  for (Value x : {k, v}) {
    SmallVector<OpFoldResult> dims = getDims(n, x);
    checkEqual(n, dims[0], qDims[0], "key and value must have the batch size of query");
    if (n.hasFailed())
      return failure();
    auto t = getConstantIntValue(dims[1]);
    if (t && *t != *steps)
      return n.emitError() << "key/value has type " << x.getType()
                           << ", expected the sequence length of query (" << *steps << ")";
  }
  Type f = computeTypeOf(n, element);
  Value q4 = unpackHeads(n, q, *qHeads, f, "query");
  Value k4 = q4 ? unpackHeads(n, k, *kvHeads, f, "key") : nullptr;
  Value v4 = k4 ? unpackHeads(n, v, *kvHeads, f, "value") : nullptr;
  if (!v4)
    return failure();
  OpFoldResult batch = qDims[0];
  int64_t dk = cast<RankedTensorType>(q4.getType()).getDimSize(3);
  int64_t dv = cast<RankedTensorType>(v4.getType()).getDimSize(3);
  if (cast<RankedTensorType>(k4.getType()).getDimSize(3) != dk)
    return n.emitError() << "key has head size " << cast<RankedTensorType>(k4.getType()).getDimSize(3)
                         << ", expected that of query (" << dk << ")";
  int64_t group = *qHeads / *kvHeads;
  auto idx = [&](int64_t c) -> OpFoldResult { return b.getIndexAttr(c); };

  // decay as [B, H_kv, T, 1 or d_k] (exp taken once), beta as [B, H_kv or 1, T, 1].
  Value gate, betaAll;
  if (decay) {
    int64_t last = rankOf(decay) == 3 ? cast<RankedTensorType>(decay.getType()).getDimSize(2) : -1;
    if (last != *kvHeads && last != *kvHeads * dk)
      return n.emitError() << "decay has type " << decay.getType()
                           << ", expected [batch, sequence, kv_num_heads] or [batch, sequence, "
                              "kv_num_heads * d_k] (last dim "
                           << *kvHeads << " or " << *kvHeads * dk << ")";
    int64_t per = last / *kvHeads;
    Value g = reshape(n, convert(n, decay, f), {batch, idx(*steps), idx(*kvHeads), idx(per)});
    g = b.createOrFold<prim::TransposeOp>(loc, g, ArrayRef<int64_t>{0, 2, 1, 3});
    gate = prim::ExpOp::create(b, loc, g);
  }
  if (beta) {
    int64_t last = rankOf(beta) == 3 ? cast<RankedTensorType>(beta.getType()).getDimSize(2) : -1;
    if (last != *kvHeads && last != 1)
      return n.emitError() << "beta has type " << beta.getType()
                           << ", expected [batch, sequence, kv_num_heads] or [batch, sequence, 1]";
    Value bt = reshape(n, convert(n, beta, f), {batch, idx(*steps), idx(last), idx(1)});
    betaAll = b.createOrFold<prim::TransposeOp>(loc, bt, ArrayRef<int64_t>{0, 2, 1, 3});
  }

  // The state in f32; present_state takes past_state's type (query's without one).
  SmallVector<OpFoldResult> stateDims = {batch, idx(*kvHeads), idx(dk), idx(dv)};
  Type stateType = element;
  Value state;
  if (past) {
    if (rankOf(past) != 4)
      return n.emitError() << "past_state has type " << past.getType()
                           << ", expected [batch, kv_num_heads, d_k, d_v] = [" << *kvHeads
                           << " heads, " << dk << ", " << dv << "]";
    SmallVector<OpFoldResult> pastDims = getDims(n, past);
    for (int64_t d = 1; d < 4; ++d)
      if (getConstantIntValue(pastDims[d]) != getConstantIntValue(stateDims[d]))
        return n.emitError() << "past_state has type " << past.getType()
                             << ", expected [batch, " << *kvHeads << ", " << dk << ", " << dv
                             << "]";
    checkEqual(n, pastDims[0], batch, "past_state's batch must be query's");
    if (n.hasFailed())
      return failure();
    stateType = elementOf(past);
    state = reshape(n, convert(n, past, f), stateDims);
  } else {
    state = fill(n, scalarConstant(n, f, 0.0), stateDims);
  }
  double scale = scaleAttr != 0.0f ? static_cast<double>(scaleAttr) : 1.0 / std::sqrt(double(dk));
  Value scaleValue = scalarConstant(n, f, scale);

  SmallVector<OpFoldResult> stateShape = getDims(n, state);
  auto expandLast = [&](Value x, SmallVector<int64_t> mapping) -> Value {
    return prim::BroadcastInDimOp::create(b, loc, getTensorType(stateShape, f), x,
                                          getDynamicExtents(n, stateShape),
                                          b.getDenseI64ArrayAttr(mapping));
  };
  SmallVector<Value> outputs;
  for (int64_t t = 0; t < *steps; ++t) {
    // Step t of each input, without the T dim: q_t [B, H_q, d_k], k_t [B, H_kv, d_k], ...
    auto at = [&](Value x) {
      SmallVector<OpFoldResult> dims = getDims(n, x);
      Value s = sliceAxis(n, x, 2, idx(t), idx(1));
      return reshape(n, s, {dims[0], dims[1], dims[3]});
    };
    Value kt = at(k4), vt = at(v4);
    if (gate) {
      Value g = at(gate); // [B, H_kv, 1 or d_k]
      SmallVector<OpFoldResult> gd = getDims(n, g);
      g = broadcastTo(n, reshape(n, g, {gd[0], gd[1], gd[2], idx(1)}), stateShape, "decay");
      if (!g)
        return failure();
      state = prim::MulOp::create(b, loc, state, g);
    }
    if (delta) {
      // retrieved[b, h, m] = sum_d S[b, h, d, m] k_t[b, h, d]
      Value retrieved = prim::DotGeneralOp::create(
          b, loc, kt, state, ArrayRef<int64_t>{2}, ArrayRef<int64_t>{2}, ArrayRef<int64_t>{0, 1},
          ArrayRef<int64_t>{0, 1});
      Value bt = at(betaAll); // [B, H_kv or 1, 1]
      Value diff = prim::SubOp::create(b, loc, vt, retrieved);
      vt = buildBinary<prim::MulOp>(n, bt, diff);
      if (!vt)
        return failure();
    }
    // S += k_t (x) v_t
    Value outer = prim::MulOp::create(b, loc, expandLast(kt, {0, 1, 2}),
                                      expandLast(vt, {0, 1, 3}));
    state = prim::AddOp::create(b, loc, state, outer);
    // o_t[b, h g + j, m] = scale sum_d q_t[b, h g + j, d] S[b, h, d, m]
    Value qt = reshape(n, at(q4), {batch, idx(*kvHeads), idx(group), idx(dk)});
    Value ot = prim::DotGeneralOp::create(b, loc, qt, state, ArrayRef<int64_t>{3},
                                          ArrayRef<int64_t>{2}, ArrayRef<int64_t>{0, 1},
                                          ArrayRef<int64_t>{0, 1});
    ot = scaleBy(n, ot, scaleValue);
    outputs.push_back(reshape(n, ot, {batch, idx(1), idx(*qHeads * dv)}));
  }
  Value output = outputs.size() == 1
                     ? outputs.front()
                     : Value(prim::ConcatenateOp::create(b, loc, outputs, 1));
  return n.setResults({convert(n, output, element), convert(n, state, stateType)});
}

/// An index extent as a 0-d i64 tensor filled to `dims`.
Value fillExtent(NodeRewriter &n, OpFoldResult extent, ArrayRef<OpFoldResult> dims) {
  return fill(n, makeShapeTensor(n, {extent}, n.getBuilder().getI64Type(), /*scalar=*/true),
              dims);
}

// tensor_scatter(past, update, w) along `axis`, p the dims before it (p_0 the batch):
//   present[p, j, r] = update[p, s, r] if 0 <= s < sequence_length else past[p, j, r]
//   s = j - w[p_0] (linear) or (j - w[p_0]) mod max_sequence_length (circular); w = 0 if absent
LogicalResult tensorScatter(NodeRewriter &n) {
  Value past = n.getInput(0), update = n.getInput(1), indices = n.getOptionalInput(2);
  int64_t axisAttr = n.getInt("axis", -2);
  std::string mode = n.getString("mode", "linear");
  if (!past || !update || n.hasFailed())
    return failure();
  if (mode != "linear" && mode != "circular")
    return n.emitError() << "attribute 'mode' is \"" << mode << "\", expected linear or circular";
  int64_t rank = rankOf(past);
  if (rankOf(update) != rank || elementOf(update) != elementOf(past))
    return n.emitError() << "past_cache and update have types " << past.getType() << " and "
                         << update.getType() << ", expected one rank and element type";
  auto axis = normalizeAxis(n, axisAttr, rank);
  if (!axis)
    return failure();
  if (*axis == 0)
    return n.emitError() << "attribute 'axis' is " << axisAttr
                         << ", expected a dim after the batch dim 0";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> pd = getDims(n, past), ud = getDims(n, update);
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      checkEqual(n, ud[d], pd[d], "update must have past_cache's shape except along the axis");
  if (n.hasFailed())
    return failure();
  OpFoldResult batch = pd[0], maxLength = pd[*axis], length = ud[*axis];
  OpFoldResult inner = product(n, ArrayRef<OpFoldResult>(pd).slice(1, *axis - 1));
  OpFoldResult rest = product(n, ArrayRef<OpFoldResult>(pd).drop_front(*axis + 1));
  auto l = getConstantIntValue(length), m = getConstantIntValue(maxLength);
  if (l && m && *l > *m)
    return n.emitError() << "update has " << *l << " positions along the axis, expected at most "
                         << "past_cache's " << *m;
  Value rows = reshape(n, update, {mulIndex(n, mulIndex(n, batch, inner), length), rest});
  Value cache = reshape(n, past, {batch, inner, maxLength, rest});

  SmallVector<OpFoldResult> grid = {batch, inner, maxLength};
  RankedTensorType i64 = getTensorType(grid, b.getI64Type());
  SmallVector<Value> extents = getDynamicExtents(n, grid);
  Value bi = prim::IotaOp::create(b, loc, i64, extents, 0);
  Value ii = prim::IotaOp::create(b, loc, i64, extents, 1);
  Value j = prim::IotaOp::create(b, loc, i64, extents, 2);
  Value w = fill(n, scalarConstant(n, b.getI64Type(), 0.0), grid);
  if (indices) {
    if (rankOf(indices) != 1 || !isa<IntegerType>(elementOf(indices)))
      return n.emitError() << "write_indices has type " << indices.getType()
                           << ", expected an integer vector [batch]";
    checkEqual(n, getDims(n, indices)[0], batch, "write_indices must have one entry per batch");
    if (n.hasFailed())
      return failure();
    w = prim::BroadcastInDimOp::create(b, loc, i64, convert(n, indices, b.getI64Type()), extents,
                                       b.getDenseI64ArrayAttr({0}));
  }
  Value s = prim::SubOp::create(b, loc, j, w);
  Value zero = fill(n, scalarConstant(n, b.getI64Type(), 0.0), grid);
  auto cmp = [&](prim::CompareDirection d, Value x, Value y) -> Value {
    return prim::CompareOp::create(b, loc, d, x, y);
  };
  if (mode == "circular") {
    Value period = fillExtent(n, maxLength, grid);
    Value r = prim::RemOp::create(b, loc, s, period);
    s = prim::SelectOp::create(b, loc, cmp(prim::CompareDirection::Lt, r, zero),
                               prim::AddOp::create(b, loc, r, period), r);
  }
  Value valid = prim::AndOp::create(b, loc, cmp(prim::CompareDirection::Ge, s, zero),
                                    cmp(prim::CompareDirection::Lt, s, fillExtent(n, length, grid)));
  s = prim::SelectOp::create(b, loc, valid, s, zero);
  // Row of update: (b * inner + i) * sequence_length + s.
  Value row = prim::AddOp::create(
      b, loc,
      prim::MulOp::create(b, loc,
                          prim::AddOp::create(b, loc,
                                              prim::MulOp::create(b, loc, bi,
                                                                  fillExtent(n, inner, grid)),
                                              ii),
                          fillExtent(n, length, grid)),
      s);
  Value taken = prim::GatherOp::create(b, loc, rows, row, 0);
  SmallVector<OpFoldResult> full = {batch, inner, maxLength, rest};
  Value validFull = prim::BroadcastInDimOp::create(
      b, loc, getTensorType(full, b.getI1Type()), valid, getDynamicExtents(n, full),
      b.getDenseI64ArrayAttr({0, 1, 2}));
  Value present = prim::SelectOp::create(b, loc, validFull, taken, cache);
  return n.setResults(reshape(n, present, pd));
}

} // namespace

void tcc::decompose::registerLinearAttentionRules(RuleRegistry &r) {
  r.add("", "CausalConvWithState", 27, causalConvWithState);
  r.add("", "LinearAttention", 27, linearAttention);
  r.add("", "TensorScatter", 24, tensorScatter);
}
