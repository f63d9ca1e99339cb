//===- Contrib.cpp - rules for the com.microsoft ops of ONNX Runtime's fusions --------===//
//
// The contrib ops that Hugging Face Optimum exports and ONNX Runtime's graph optimizer
// writes (activations, skip/simplified layer norms, rotary embedding, MatMulNBits; the
// attention family is in ContribAttention.cpp), decomposed with the semantics of ORT's CPU kernels (docs/ContribOperators.md
// is the spec). f16 and bf16 inputs are computed in f32, as ORT's kernels do, and converted
// back. ORT registers SimplifiedLayerNormalization in the default domain; it is here too.
//
//===----------------------------------------------------------------------------------===//
#include "ContribSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace tcc::decompose::contrib {


/// f16 and bf16 compute in f32.
Type computeType(Type t) {
  return t.getIntOrFloatBitWidth() < 32 ? Type(Float32Type::get(t.getContext())) : t;
}

std::string show(OpFoldResult e) {
  auto c = getConstantIntValue(e);
  return c ? std::to_string(*c) : std::string("?");
}

/// A vector [H] (gamma, beta, a bias) converted to `element` and broadcast along the last
/// dim of `dims`; null after an error naming `what`.
Value alongLastDim(NodeRewriter &n, Value v, ArrayRef<OpFoldResult> dims, Type element,
                   StringRef what) {
  OpFoldResult last = dims.back();
  if (rankOf(v) != 1) {
    n.emitError() << what << " has type " << v.getType() << ", expected a vector of "
                  << show(last) << " (the last dim of the input)";
    return nullptr;
  }
  OpFoldResult extent = getDims(n, v)[0];
  auto e = getConstantIntValue(extent), l = getConstantIntValue(last);
  if (e && l && *e != *l) {
    n.emitError() << what << " has " << *e << " elements, expected " << *l
                  << " (the last dim of the input)";
    return nullptr;
  }
  checkEqual(n, extent, last, what.str() + " must have as many elements as the last dim");
  return n.prim().broadcast(convert(n, v, element), {static_cast<int64_t>(dims.size()) - 1}, dims);
}

/// softmax over the last dim, with the row max subtracted.
Value softmaxLast(NodeRewriter &n, Value x) {
  Emit e(n);
  int64_t last = rankOf(x) - 1;
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < last; ++d)
    kept.push_back(d);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  auto reduce = [&](prim::ReduceKind kind, Value v) -> Value {
    return prim::ReduceOp::create(e.b, e.loc, kind, v, ArrayRef<int64_t>{last});
  };
  Value max = reduce(prim::ReduceKind::Max, x);
  Value exp = prim::ExpOp::create(e.b, e.loc, e.sub(x, e.broadcast(max, kept, dims)));
  Value sum = reduce(prim::ReduceKind::Sum, exp);
  return e.div(exp, e.broadcast(sum, kept, dims));
}

//===----------------------------------------------------------------------------------===//
// Activations and FusedMatMul
//===----------------------------------------------------------------------------------===//

// gelu(x) = 0.5 x (1 + erf(x / sqrt(2)))
Value geluErf(Emit &e, Value x) {
  Value inner = prim::ErfOp::create(e.b, e.loc, e.mul(x, e.splat(x, M_SQRT1_2)));
  return e.mul(e.mul(e.splat(x, 0.5), x), e.add(e.splat(x, 1), inner));
}

// fast_gelu(x) = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
Value geluTanh(Emit &e, Value x) {
  Value cube = e.mul(e.mul(x, x), x);
  Value inner = e.mul(e.splat(x, std::sqrt(2.0 / M_PI)), e.add(x, e.mul(e.splat(x, 0.044715), cube)));
  return e.mul(e.mul(e.splat(x, 0.5), x), e.add(e.splat(x, 1), e.tanh(inner)));
}

/// fn(x + bias) with the bias at input `biasIndex` (-1: none), computed in f32 for f16/bf16.
template <Value (*Fn)(Emit &, Value)>
LogicalResult activation(NodeRewriter &n, int biasIndex, bool biasRequired) {
  Value x = n.getFloatInput(0);
  Value bias = biasIndex < 0 ? Value()
               : biasRequired ? n.getInput(biasIndex)
                              : n.getOptionalInput(biasIndex);
  if (!x || n.hasFailed())
    return failure();
  Type element = elementOf(x), compute = computeType(element);
  x = convert(n, x, compute);
  if (bias && !(x = buildBinary<prim::AddOp>(n, x, convert(n, bias, compute))))
    return failure();
  Emit e(n);
  return n.setResults(convert(n, Fn(e, x), element));
}

// bias_gelu(A, B) = gelu(A + B)
LogicalResult biasGelu(NodeRewriter &n) { return activation<geluErf>(n, 1, true); }
// fast_gelu(X, bias?) = gelu_tanh(X + bias)
LogicalResult fastGelu(NodeRewriter &n) { return activation<geluTanh>(n, 1, false); }
// gelu(X) with erf
LogicalResult gelu(NodeRewriter &n) { return activation<geluErf>(n, -1, false); }

// quick_gelu(x) = x sigmoid(alpha x), alpha = 1.702 by default
LogicalResult quickGelu(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  float alpha = n.getFloat("alpha", 1.702f);
  if (!x || n.hasFailed())
    return failure();
  Emit e(n);
  Value wide = convert(n, x, computeType(elementOf(x)));
  Value y = e.mul(wide, prim::LogisticOp::create(e.b, e.loc, e.mul(e.splat(wide, alpha), wide)));
  return n.setResults(convert(n, y, elementOf(x)));
}

/// FusedMatMul's view of an operand: transBatch moves dim 0 to just before the last
/// ([b0, b1.., m, k] -> [b1.., m, b0, k]), trans then swaps the last two dims.
Value fusedMatMulOperand(NodeRewriter &n, Value x, bool transBatch, bool trans, StringRef what) {
  int64_t rank = rankOf(x);
  if ((trans && rank < 2) || (transBatch && rank < 3)) {
    n.emitError() << what << " has type " << x.getType() << ", expected rank >= "
                  << (transBatch ? 3 : 2) << " with trans" << (transBatch ? "Batch" : "") << what;
    return nullptr;
  }
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(d);
  if (transBatch) {
    perm.erase(perm.begin());
    perm.insert(perm.end() - 1, 0);
  }
  if (trans)
    std::swap(perm[rank - 2], perm[rank - 1]);
  return n.prim().transpose(x, perm);
}

// fused_matmul(A, B) = alpha matmul(A', B') with A', B' as in fusedMatMulOperand
LogicalResult fusedMatMul(NodeRewriter &n) {
  Value a = n.getFloatInput(0), b = n.getFloatInput(1);
  float alpha = n.getFloat("alpha", 1.0f);
  bool transA = n.getInt("transA", 0), transB = n.getInt("transB", 0);
  bool batchA = n.getInt("transBatchA", 0), batchB = n.getInt("transBatchB", 0);
  if (!a || !b || n.hasFailed())
    return failure();
  if ((batchA || batchB) && rankOf(a) != rankOf(b))
    return n.emitError() << "A and B have types " << a.getType() << " and " << b.getType()
                         << ", expected one rank (>= 3) with transBatchA or transBatchB";
  a = fusedMatMulOperand(n, a, batchA, transA, "A");
  b = a ? fusedMatMulOperand(n, b, batchB, transB, "B") : nullptr;
  Value y = b ? buildMatMul(n, a, b) : nullptr;
  if (!y)
    return failure();
  if (alpha != 1.0f)
    y = n.prim().mul(y, splatLike(n, y, alpha));
  return n.setResults(y);
}

//===----------------------------------------------------------------------------------===//
// Normalizations
//===----------------------------------------------------------------------------------===//

/// x (of f32 or wider) normalized over its last dims from `axis` on: the normalized value,
/// and the statistics with those dims kept as 1. Without `centered` the mean is not
/// subtracted (RMS norm) and the mean output is zeros, as ORT writes it.
struct NormalizedRows {
  Value normalized, mean, invStd;
};
NormalizedRows normalizeRows(NodeRewriter &n, Value x, int64_t axis, double epsilon,
                             bool centered) {
  Emit e(n);
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> dims = getDims(n, x), kept(dims);
  SmallVector<int64_t> reduced, rest;
  for (int64_t d = 0; d < rank; ++d)
    (d >= axis ? reduced : rest).push_back(d);
  for (int64_t d : reduced)
    kept[d] = e.b.getIndexAttr(1);
  OpFoldResult count = product(n, ArrayRef<OpFoldResult>(dims).drop_front(axis));
  auto mean = [&](Value v) {
    Value sum = prim::ReduceOp::create(e.b, e.loc, prim::ReduceKind::Sum, v, reduced);
    return e.div(sum, e.extent(count, getDims(n, sum), elementOf(v)));
  };
  Value centeredX = x, meanValue;
  if (centered) {
    meanValue = mean(x);
    centeredX = e.sub(x, e.broadcast(meanValue, rest, dims));
  }
  Value var = mean(e.mul(centeredX, centeredX));
  Value invStd = prim::RsqrtOp::create(e.b, e.loc, e.add(var, e.splat(var, epsilon)));
  if (!centered)
    meanValue = e.splat(invStd, 0.0);
  return {e.mul(centeredX, e.broadcast(invStd, rest, dims)), reshape(n, meanValue, kept),
          reshape(n, invStd, kept)};
}

/// SkipLayerNormalization (with beta) and SkipSimplifiedLayerNormalization (RMS).
// skip_layer_norm: s = input + skip + bias; output = (s - mean) rsqrt(var + eps) gamma + beta
// skip_simplified: s = input + skip + bias; output = s rsqrt(mean(s^2) + eps) gamma
// outputs: output, mean and inv_std_var (f32, last dim kept as 1), s
template <bool Centered>
LogicalResult skipLayerNorm(NodeRewriter &n) {
  Value x = n.getFloatInput(0), skip = n.getFloatInput(1), gamma = n.getInput(2);
  Value beta = Centered ? n.getOptionalInput(3) : Value();
  Value bias = n.getOptionalInput(Centered ? 4 : 3);
  float epsilon = n.getFloat("epsilon", 1e-12f);
  if (!x || !skip || !gamma || n.hasFailed())
    return failure();
  if (rankOf(x) < 1)
    return n.emitError() << "input has type " << x.getType() << ", expected rank >= 1";
  Type element = elementOf(x), compute = computeType(element), f32 = n.getBuilder().getF32Type();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  Emit e(n);
  Value skipB = broadcastTo(n, convert(n, skip, compute), dims, "skip");
  if (!skipB)
    return failure();
  Value sum = e.add(convert(n, x, compute), skipB);
  if (bias) {
    Value biasB = alongLastDim(n, bias, dims, compute, "bias");
    if (!biasB)
      return failure();
    sum = e.add(sum, biasB);
  }
  NormalizedRows rows = normalizeRows(n, sum, rankOf(x) - 1, epsilon, Centered);
  Value gammaB = alongLastDim(n, gamma, dims, compute, "gamma");
  Value betaB = beta ? alongLastDim(n, beta, dims, compute, "beta") : Value();
  if (!gammaB || (beta && !betaB))
    return failure();
  Value y = e.mul(rows.normalized, gammaB);
  if (betaB)
    y = e.add(y, betaB);
  return n.setResults({convert(n, y, element), convert(n, rows.mean, f32),
                       convert(n, rows.invStd, f32), convert(n, sum, element)});
}

// simplified_layer_norm(x) = x rsqrt(mean(x^2 over dims axis..) + eps) scale, in stash_type;
// outputs Y and inv_std_var (normalized dims kept as 1)
LogicalResult simplifiedLayerNorm(NodeRewriter &n) {
  Value x = n.getFloatInput(0), scale = n.getInput(1);
  int64_t axisAttr = n.getInt("axis", -1), stash = n.getInt("stash_type", 1);
  float epsilon = n.getFloat("epsilon", 1e-5f);
  if (!x || !scale || n.hasFailed())
    return failure();
  auto axis = normalizeAxis(n, axisAttr, rankOf(x));
  if (!axis)
    return failure();
  Type element = elementOf(x);
  Type compute = stash == 1 ? Type(n.getBuilder().getF32Type()) : element;
  if (stash != 1 && elementTypeOfOnnxCode(n.getContext(), stash) != element)
    return n.emitError() << "stash_type " << stash << " is not supported (expected 1, f32, or "
                         << "the input's type)";
  NormalizedRows rows = normalizeRows(n, convert(n, x, compute), *axis, epsilon, false);
  Value y = buildBinary<prim::MulOp>(n, convert(n, rows.normalized, element),
                                     convert(n, scale, element));
  if (!y)
    return failure();
  return n.setResults({y, rows.invStd});
}

//===----------------------------------------------------------------------------------===//
// Rotary embedding
//===----------------------------------------------------------------------------------===//

/// Rows `positions` [B, S] (i64) of a [max_position, R/2] table, as `element`.
Value lookupRows(NodeRewriter &n, Value table, Value positions, Type element) {
  Value rows = gatherInRange(n, table, positions, 0, "position_ids",
                             "the rows of cos_cache");
  return convert(n, rows, element);
}

// rope(x) on x [B, S, N, H] with c, s [B, S, R/2]: the first R features split into x1, x2
// (halves, or even/odd with `interleaved`) become x1 c - x2 s and x1 s + x2 c; the rest pass
Value applyRotary(NodeRewriter &n, Value x, Value cosRows, Value sinRows, int64_t rotary,
                  bool interleaved) {
  Emit e(n);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  int64_t half = rotary / 2, head = *getConstantIntValue(dims[3]);
  SmallVector<OpFoldResult> quarter = {dims[0], dims[1], dims[2], e.b.getIndexAttr(half)};
  Value c = e.broadcast(cosRows, {0, 1, 3}, quarter), s = e.broadcast(sinRows, {0, 1, 3}, quarter);
  auto at = [&](int64_t begin, int64_t stride) {
    return e.slice(x, 3, e.b.getIndexAttr(begin), e.b.getIndexAttr(half), stride);
  };
  Value x1 = interleaved ? at(0, 2) : at(0, 1), x2 = interleaved ? at(1, 2) : at(half, 1);
  Value real = e.sub(e.mul(c, x1), e.mul(s, x2)), imag = e.add(e.mul(s, x1), e.mul(c, x2));
  Value rotated;
  if (interleaved) {
    SmallVector<OpFoldResult> pairs(quarter);
    pairs.push_back(e.b.getIndexAttr(1));
    rotated = prim::ConcatenateOp::create(
        e.b, e.loc, ValueRange{reshape(n, real, pairs), reshape(n, imag, pairs)}, 4);
    rotated = reshape(n, rotated, {dims[0], dims[1], dims[2], e.b.getIndexAttr(rotary)});
  } else {
    rotated = prim::ConcatenateOp::create(e.b, e.loc, ValueRange{real, imag}, 3);
  }
  if (rotary == head)
    return rotated;
  Value rest = e.slice(x, 3, e.b.getIndexAttr(rotary), e.b.getIndexAttr(head - rotary));
  return prim::ConcatenateOp::create(e.b, e.loc, ValueRange{rotated, rest}, 3);
}

/// Checks a [max_position, R/2] cache; R/2 (static) or 0 after an error.
int64_t cacheHalfWidth(NodeRewriter &n, Value cache, StringRef what) {
  auto width = rankOf(cache) == 2 ? getConstantIntValue(getDims(n, cache)[1]) : std::nullopt;
  if (!width || *width < 1) {
    n.emitError() << what << " has type " << cache.getType()
                  << ", expected [max_position, rotary_dim / 2] with a static last dim";
    return 0;
  }
  return *width;
}

// rotary_embedding(x, position_ids, cos_cache, sin_cache): rope of each head of x ([B, S,
// N*H] or [B, N, S, H]) with c, s = the caches' rows at position_ids ([B, S], or one start
// position p: rows p, p + 1, ..); R = rotary_embedding_dim (default: the head size, which
// is 2 * cos_cache's width unless num_heads says otherwise); `scale` is unused, as in ORT
LogicalResult rotaryEmbedding(NodeRewriter &n) {
  Value x = n.getFloatInput(0), positions = n.getInput(1), cosCache = n.getFloatInput(2),
        sinCache = n.getFloatInput(3);
  int64_t heads = n.getInt("num_heads", 0), rotaryAttr = n.getInt("rotary_embedding_dim", 0);
  bool interleaved = n.getInt("interleaved", 0) != 0;
  int64_t packed = n.getInt("is_packed_batching", 0);
  if (!x || !positions || !cosCache || !sinCache || n.hasFailed())
    return failure();
  if (packed != 0)
    return n.emitError() << "is_packed_batching=1 (ragged batches) is not supported";
  if (rotaryAttr > 0 && heads <= 0)
    return n.emitError() << "rotary_embedding_dim needs the attribute num_heads (> 0)";
  int64_t half = cacheHalfWidth(n, cosCache, "cos_cache");
  if (!half || !cacheHalfWidth(n, sinCache, "sin_cache"))
    return failure();
  Emit e(n);
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> xDims = getDims(n, x);
  Value work;
  if (rank == 4) {
    work = e.transpose(x, {0, 2, 1, 3});
  } else if (rank == 3) {
    auto hidden = getConstantIntValue(xDims[2]);
    int64_t head = heads > 0 ? (hidden && *hidden % heads == 0 ? *hidden / heads : 0) : 2 * half;
    if (!hidden || head == 0 || *hidden % head != 0)
      return n.emitError() << "input has type " << x.getType() << ", expected a static hidden "
                           << "size that is a multiple of the head size "
                           << (heads > 0 ? "(hidden / num_heads)" : "(2 * cos_cache's width)");
    work = reshape(n, x, {xDims[0], xDims[1], e.b.getIndexAttr(*hidden / head),
                          e.b.getIndexAttr(head)});
  } else {
    return n.emitError() << "input has type " << x.getType()
                         << ", expected [B, S, hidden] or [B, N, S, head_size]";
  }
  SmallVector<OpFoldResult> dims = getDims(n, work); // [B, S, N, H]
  auto head = getConstantIntValue(dims[3]);
  if (!head)
    return n.emitError() << "the head size must be static";
  int64_t rotary = rotaryAttr > 0 ? rotaryAttr : *head;
  if (rotary % 2 || rotary > *head)
    return n.emitError() << "the rotary dim is " << rotary << ", expected an even number <= "
                         << "the head size " << *head;
  if (rotary / 2 != half)
    return n.emitError() << "cos_cache and sin_cache are " << half << " wide, expected half the "
                         << "rotary dim (" << rotary / 2 << ")";
  // Positions [B, S]: given, or a start position plus 0, 1, ...
  Value pos = convert(n, positions, e.b.getI64Type());
  SmallVector<OpFoldResult> bs = {dims[0], dims[1]};
  auto posType = cast<RankedTensorType>(pos.getType());
  if (posType.getRank() <= 1 && posType.hasStaticShape() && posType.getNumElements() == 1) {
    Value start = e.broadcast(reshape(n, pos, {}), {}, bs);
    pos = e.add(start, e.iota(bs, 1, e.b.getI64Type()));
  } else if (rankOf(pos) != 2) {
    return n.emitError() << "position_ids has type " << positions.getType()
                         << ", expected [batch, sequence] or one start position";
  }
  Type compute = computeType(elementOf(x));
  work = convert(n, work, compute);
  Value y = applyRotary(n, work, lookupRows(n, cosCache, pos, compute),
                        lookupRows(n, sinCache, pos, compute), rotary, interleaved);
  y = convert(n, y, elementOf(x));
  y = rank == 4 ? e.transpose(y, {0, 2, 1, 3}) : reshape(n, y, xDims);
  return n.setResults(y);
}

//===----------------------------------------------------------------------------------===//
// MatMulNBits
//===----------------------------------------------------------------------------------===//

/// The `bits`-wide fields of the bytes of `packed` [R, C] (low bits first): [R, C * 8/bits].
Value unpackFields(NodeRewriter &n, Value packed, int64_t bits) {
  Emit e(n);
  int64_t per = 8 / bits;
  Type u8 = IntegerType::get(n.getContext(), 8, IntegerType::Unsigned);
  packed = convert(n, packed, u8);
  SmallVector<OpFoldResult> dims = getDims(n, packed), wide(dims);
  wide.push_back(e.b.getIndexAttr(per));
  Value bytes = e.broadcast(packed, {0, 1}, wide);
  Value shift = e.mul(e.iota(wide, 2, u8), e.splat(bytes, static_cast<double>(bits)));
  Value fields = prim::ShiftRightLogicalOp::create(e.b, e.loc, bytes, shift);
  Value mask = e.splat(bytes, static_cast<double>((1 << bits) - 1));
  fields = prim::AndOp::create(e.b, e.loc, fields, mask);
  return reshape(n, fields, {dims[0], mulIndex(n, dims[1], e.b.getIndexAttr(per))});
}

// matmul_nbits(A, B) = A W^T (+ bias) with W [N, K] dequantized per block of block_size
// along K: W[n, k] = (q[n, k] - zero_point[n, k / block_size]) * scales[n, k / block_size],
// q the `bits`-wide fields of B [N, k_blocks, blob] (low bits first), zero points packed
// like B (uint8), or floats, or 2^(bits - 1) when absent. This dequantizes the whole weight
// and multiplies in float: the semantics check, not the fast path (which would keep B packed
// and dequantize blocks in registers).
LogicalResult matMulNBits(NodeRewriter &n) {
  Value a = n.getFloatInput(0), packed = n.getInput(1), scales = n.getFloatInput(2),
        zeroPoints = n.getOptionalInput(3), bias = n.getOptionalInput(5);
  std::optional<int64_t> kAttr = n.getOptionalInt("K"), nAttr = n.getOptionalInt("N"),
                         blockAttr = n.getOptionalInt("block_size");
  int64_t bits = n.getInt("bits", 4);
  if (!a || !packed || !scales || n.hasFailed() || refuseInput(n, 4, "g_idx"))
    return failure();
  if (!kAttr || !nAttr || !blockAttr || *kAttr < 1 || *nAttr < 1 || *blockAttr < 1)
    return n.emitError() << "expected the attributes 'K', 'N' and 'block_size' >= 1";
  if (bits != 2 && bits != 4 && bits != 8)
    return n.emitError() << "bits is " << bits << ", expected 2, 4 or 8 (fields that do not "
                         << "divide a byte are not supported)";
  int64_t K = *kAttr, N = *nAttr, block = *blockAttr;
  if ((block * bits) % 8 != 0)
    return n.emitError() << "block_size " << block << " does not fill whole bytes at " << bits
                         << " bits";
  int64_t blocks = (K + block - 1) / block, blob = block * bits / 8;
  if (packed.getType() != RankedTensorType::get({N, blocks, blob}, elementOf(packed)) ||
      !elementOf(packed).isInteger(8))
    return n.emitError() << "B has type " << packed.getType() << ", expected uint8 [" << N
                         << ", " << blocks << ", " << blob << "] (N, k_blocks, blob_size)";
  auto scalesType = cast<RankedTensorType>(scales.getType());
  if (!scalesType.hasStaticShape() || scalesType.getNumElements() != N * blocks)
    return n.emitError() << "scales has type " << scales.getType() << ", expected " << N
                         << " x " << blocks << " elements";
  if (rankOf(a) < 1 || getConstantIntValue(getDims(n, a).back()) != K)
    return n.emitError() << "A has type " << a.getType() << ", expected a last dim of " << K
                         << " (K)";
  Emit e(n);
  Type element = elementOf(a), compute = computeType(element);
  OpFoldResult nIdx = e.b.getIndexAttr(N), kbIdx = e.b.getIndexAttr(blocks);
  // q [N, k_blocks, block] as floats.
  Value q = unpackFields(n, reshape(n, packed, {nIdx, e.b.getIndexAttr(blocks * blob)}), bits);
  SmallVector<OpFoldResult> qDims = {nIdx, kbIdx, e.b.getIndexAttr(block)};
  q = convert(n, reshape(n, q, qDims), compute);
  Value zero;
  if (!zeroPoints) {
    zero = fill(n, scalarConstant(n, compute, std::pow(2.0, bits - 1)), {nIdx, kbIdx});
  } else if (isa<FloatType>(elementOf(zeroPoints))) {
    auto zt = cast<RankedTensorType>(zeroPoints.getType());
    if (!zt.hasStaticShape() || zt.getNumElements() != N * blocks)
      return n.emitError() << "zero_points has type " << zeroPoints.getType() << ", expected "
                           << N << " x " << blocks << " elements";
    zero = reshape(n, convert(n, zeroPoints, compute), {nIdx, kbIdx});
  } else {
    int64_t zeroBytes = (blocks * bits + 7) / 8;
    auto zt = cast<RankedTensorType>(zeroPoints.getType());
    if (!elementOf(zeroPoints).isInteger(8) || !zt.hasStaticShape() ||
        zt.getNumElements() != N * zeroBytes)
      return n.emitError() << "zero_points has type " << zeroPoints.getType() << ", expected "
                           << "uint8 [" << N << ", " << zeroBytes << "] (packed like B) or "
                           << "floats [" << N << ", " << blocks << "]";
    Value fields = unpackFields(n, reshape(n, zeroPoints, {nIdx, e.b.getIndexAttr(zeroBytes)}),
                                bits);
    zero = convert(n, e.slice(fields, 1, e.b.getIndexAttr(0), kbIdx), compute);
  }
  Value scale = reshape(n, convert(n, scales, compute), {nIdx, kbIdx});
  Value weights = e.mul(e.sub(q, e.broadcast(zero, {0, 1}, qDims)), e.broadcast(scale, {0, 1}, qDims));
  weights = reshape(n, weights, {nIdx, e.b.getIndexAttr(blocks * block)});
  if (blocks * block != K)
    weights = e.slice(weights, 1, e.b.getIndexAttr(0), e.b.getIndexAttr(K));
  Value wide = convert(n, a, compute);
  Value y = prim::DotGeneralOp::create(e.b, e.loc, wide, weights,
                                       ArrayRef<int64_t>{rankOf(a) - 1}, ArrayRef<int64_t>{1},
                                       ArrayRef<int64_t>{}, ArrayRef<int64_t>{});
  if (bias) {
    Value b = alongLastDim(n, bias, getDims(n, y), compute, "bias");
    if (!b)
      return failure();
    y = e.add(y, b);
  }
  return n.setResults(convert(n, y, element));
}

/// Refuses an optional input `index` that tcc does not support.
bool refuseInput(NodeRewriter &n, unsigned index, StringRef what) {
  if (n.hasInput(index)) {
    n.emitError() << "input " << index << " (" << what << ") is not supported";
    return true;
  }
  return false;
}

} // namespace tcc::decompose::contrib

using namespace tcc::decompose::contrib;

void tcc::decompose::registerContribRules(RuleRegistry &r) {
  r.add(kDomain, "FusedMatMul", 1, fusedMatMul);
  r.add(kDomain, "BiasGelu", 1, biasGelu);
  r.add(kDomain, "FastGelu", 1, fastGelu);
  r.add(kDomain, "Gelu", 1, gelu);
  r.add(kDomain, "QuickGelu", 1, quickGelu);
  r.add(kDomain, "SkipLayerNormalization", 1, skipLayerNorm<true>);
  r.add(kDomain, "SkipSimplifiedLayerNormalization", 1, skipLayerNorm<false>);
  r.add("", "SimplifiedLayerNormalization", 1, simplifiedLayerNorm);
  r.add(kDomain, "RotaryEmbedding", 1, rotaryEmbedding);
  registerContribAttentionRules(r); // ContribAttention.cpp
  registerContribQuantizationRules(r); // ContribQuantization.cpp
  r.add(kDomain, "MatMulNBits", 1, matMulNBits);
}
