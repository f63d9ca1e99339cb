//===- ContribQuantization.cpp - rules for ONNX Runtime's quantized com.microsoft ops --===//
//
// The QOperator format of ONNX Runtime's quantization tool (QLinearAdd, QLinearMul,
// QLinearSigmoid, QLinearLeakyRelu, QLinearSoftmax, QLinearGlobalAveragePool,
// QLinearAveragePool, QLinearConcat, QLinearWhere, QGemm) and the ops its graph optimizer
// writes (DynamicQuantizeMatMul, MatMulIntegerToFloat), with the semantics of ORT's x86 CPU
// kernels (docs/ContribOperators.md is the spec; where a kernel departs from it, the comment
// says so). The com.microsoft QuantizeLinear, DequantizeLinear and QLinearConv are the
// standard rules (Quantization.cpp).
//
// dq(q) = (q - z) * s in float32; q(v) = saturate(round_half_even(v / s_y) + z_y). A
// zero point left out is 0 of the tensor's type. Scales and zero points are per tensor
// (scalars or 1-element vectors) except where a rule says otherwise.
//
//===----------------------------------------------------------------------------------===//
#include "ContribSupport.h"
#include "QuantizationSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using namespace tcc::decompose::contrib;

namespace {

/// Whether `v` is a per-tensor parameter (a scalar or a 1-element vector); else an error.
bool checkPerTensor(NodeRewriter &n, Value v, StringRef what) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 0 || (type.getRank() == 1 && type.getDimSize(0) == 1))
    return true;
  n.emitError() << what << " has type " << v.getType()
                << ", expected a scalar or a 1-element vector (per-tensor quantization)";
  return false;
}

/// A quantized operand of the node: the tensor and its per-tensor scale and zero point.
struct Quantized {
  Value q, scale, zeroPoint; // zeroPoint may be null (0)
};

/// The operand at inputs (index, index + 1, index + 2), the zero point optional unless
/// `zeroPointRequired`; nullopt after an error.
std::optional<Quantized> getQuantized(NodeRewriter &n, unsigned index, StringRef name,
                                      bool zeroPointRequired = false) {
  Value q = n.getInput(index), scale = n.getInput(index + 1);
  Value zeroPoint = zeroPointRequired ? n.getInput(index + 2) : n.getOptionalInput(index + 2);
  if (!q || !scale || (zeroPointRequired && !zeroPoint))
    return std::nullopt;
  if (!elementOf(q).isInteger(8)) {
    n.emitError() << name << " has type " << q.getType() << ", expected int8 or uint8";
    return std::nullopt;
  }
  if (!isa<FloatType>(elementOf(scale))) {
    n.emitError() << name << "'s scale has type " << scale.getType() << ", expected float";
    return std::nullopt;
  }
  if (!checkPerTensor(n, scale, name.str() + "'s scale") ||
      (zeroPoint && !checkPerTensor(n, zeroPoint, name.str() + "'s zero point")))
    return std::nullopt;
  if (zeroPoint && elementOf(zeroPoint) != elementOf(q)) {
    n.emitError() << name << "'s zero point has type " << zeroPoint.getType()
                  << ", expected the element type of " << name << " (" << elementOf(q) << ")";
    return std::nullopt;
  }
  return Quantized{q, scale, zeroPoint};
}

/// A per-tensor parameter as a float32 tensor of shape `dims`.
Value perTensor(NodeRewriter &n, Value param, ArrayRef<OpFoldResult> dims, Type element) {
  return broadcastParameter(n, convert(n, param, element), dims, 0, 0, "parameter");
}

// dq(q) = (q - z) * s, the difference exact in int32 (the standard DequantizeLinear's body)
Value dequantize(NodeRewriter &n, const Quantized &x) {
  return dequantized(n, x.q, x.scale, x.zeroPoint, /*axis=*/0, /*blockSize=*/0);
}

// q(v) = saturate(round_half_even(v / s) + z) into `type` (z absent: 0)
Value quantize(NodeRewriter &n, Value v, Value scale, Value zeroPoint, Type type) {
  SmallVector<OpFoldResult> dims = getDims(n, v);
  Value scaled = Emit(n).div(v, perTensor(n, scale, dims, f32Type(n)));
  return roundAndSaturate(n, scaled,
                          zeroPoint ? perTensor(n, zeroPoint, dims, f32Type(n)) : Value(), type);
}

/// A quantized output's per-tensor scale, zero point (may be null: 0) and element type.
struct OutputParameters {
  Value scale, zeroPoint;
  Type type;
};

/// The output's scale and zero point at inputs (index, index + 1) and its element type
/// (the zero point's, else `fallback`); nullopt after an error.
std::optional<OutputParameters> getOutputParameters(NodeRewriter &n, unsigned index, Type fallback,
                                                    bool zeroPointRequired) {
  Value scale = n.getInput(index);
  Value zeroPoint = zeroPointRequired ? n.getInput(index + 1) : n.getOptionalInput(index + 1);
  if (!scale || (zeroPointRequired && !zeroPoint))
    return std::nullopt;
  if (!isa<FloatType>(elementOf(scale))) {
    n.emitError() << "the output scale has type " << scale.getType() << ", expected float";
    return std::nullopt;
  }
  if (!checkPerTensor(n, scale, "the output scale") ||
      (zeroPoint && !checkPerTensor(n, zeroPoint, "the output zero point")))
    return std::nullopt;
  Type type = zeroPoint ? elementOf(zeroPoint) : fallback;
  if (!type.isInteger(8)) {
    n.emitError() << "the output zero point has type " << zeroPoint.getType()
                  << ", expected int8 or uint8";
    return std::nullopt;
  }
  return OutputParameters{scale, zeroPoint, type};
}

/// The inputs of a one-operand op, (X, X_scale, X_zero_point, Y_scale, Y_zero_point): X and
/// the output's parameters, Y of X's type unless its zero point says otherwise.
struct UnaryOperands {
  Quantized x;
  OutputParameters y;
};

std::optional<UnaryOperands> getUnaryOperands(NodeRewriter &n, bool zeroPointsRequired,
                                              bool outputZeroPointRequired) {
  auto x = getQuantized(n, 0, "X", zeroPointsRequired);
  auto y =
      x ? getOutputParameters(n, 3, elementOf(x->q), zeroPointsRequired || outputZeroPointRequired)
        : std::nullopt;
  if (!y)
    return std::nullopt;
  return UnaryOperands{*x, *y};
}

// q(v) with the output's parameters
Value quantize(NodeRewriter &n, Value v, const OutputParameters &y) {
  return quantize(n, v, y.scale, y.zeroPoint, y.type);
}

//===----------------------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------------------===//

// QLinearAdd: C = q((s_a (A - z_a) + s_b (B - z_b)) / s_c + z_c), A and B broadcast
// QLinearMul: C = q((A - z_a)(B - z_b) * (s_a s_b / s_c) + z_c); the product is exact in int32,
//             as ORT's x86 kernel computes it
template <bool IsMul> LogicalResult qLinearBinary(NodeRewriter &n) {
  auto a = getQuantized(n, 0, "A");
  auto b = a ? getQuantized(n, 3, "B") : std::nullopt;
  if (!b)
    return failure();
  if (elementOf(a->q) != elementOf(b->q))
    return n.emitError() << "A has type " << a->q.getType() << " and B " << b->q.getType()
                         << ", expected one element type";
  auto c = getOutputParameters(n, 6, elementOf(a->q), false);
  if (!c)
    return failure();
  Emit e(n);
  if (!IsMul) {
    Value sum = buildBinary<prim::AddOp>(n, dequantize(n, *a), dequantize(n, *b));
    return sum ? n.setResults(quantize(n, sum, *c)) : failure();
  }
  Value ca = centered(n, a->q, a->zeroPoint, 0, "A's zero point");
  Value cb = ca ? centered(n, b->q, b->zeroPoint, 0, "B's zero point") : Value();
  Value product = cb ? buildBinary<prim::MulOp>(n, ca, cb) : Value();
  if (!product)
    return failure();
  SmallVector<OpFoldResult> dims = getDims(n, product);
  Type f32 = f32Type(n);
  Value factor = e.div(e.mul(perTensor(n, a->scale, dims, f32), perTensor(n, b->scale, dims, f32)),
                       perTensor(n, c->scale, dims, f32));
  Value v = e.mul(convert(n, product, f32), factor);
  return n.setResults(roundAndSaturate(
      n, v, c->zeroPoint ? perTensor(n, c->zeroPoint, dims, f32) : Value(), c->type));
}

enum class Unary { Sigmoid, LeakyRelu };

// QLinearSigmoid: Y = q(sigmoid(dq(X)));
// QLinearLeakyRelu: Y = q(v >= 0 ? v : alpha v), v = dq(X) (alpha default 0.01).
// ORT reads both from a 256-entry table of the same values.
template <Unary Kind> LogicalResult qLinearUnary(NodeRewriter &n) {
  auto operands = getUnaryOperands(n, false, false);
  if (!operands)
    return failure();
  Emit e(n);
  Value v = dequantize(n, operands->x), y;
  if (Kind == Unary::Sigmoid) {
    y = prim::LogisticOp::create(e.b, e.loc, v);
  } else {
    Value alpha = e.splat(v, n.getFloat("alpha", 0.01f));
    y = e.select(e.cmp(Dir::Ge, v, e.splat(v, 0.0)), v, e.mul(v, alpha));
  }
  return n.setResults(quantize(n, y, operands->y));
}

// QLinearSoftmax: Y = q(softmax(dq(X))) along `axis`; `opset` (required) is the original
// Softmax's: before 13 the input is coerced to 2-D at axis (default 1), from 13 the softmax
// runs over that one dim (default -1). ORT's kernel ignores X's zero point (it cancels) and
// scales by floor(1 / y_scale), the same for the 1/256 its tool writes.
LogicalResult qLinearSoftmax(NodeRewriter &n) {
  auto operands = getUnaryOperands(n, false, true);
  if (!operands)
    return failure();
  const Quantized &x = operands->x;
  std::optional<int64_t> opset = n.getOptionalInt("opset");
  if (!opset)
    return n.emitError() << "expected the attribute 'opset' (the opset of the Softmax it "
                            "replaces)";
  bool coerce = *opset < 13;
  int64_t rank = rankOf(x.q);
  if (rank == 0)
    return n.emitError() << "expected an input of rank >= 1";
  auto axis = normalizeAxis(n, n.getInt("axis", coerce ? 1 : -1), rank);
  if (!axis)
    return failure();
  Value v = dequantize(n, x);
  SmallVector<OpFoldResult> dims = getDims(n, v);
  ArrayRef<OpFoldResult> all(dims);
  Value p;
  if (coerce) {
    Value flat =
        reshape(n, v, {product(n, all.take_front(*axis)), product(n, all.drop_front(*axis))});
    p = reshape(n, softmaxLast(n, flat), dims);
  } else if (*axis == rank - 1) {
    p = softmaxLast(n, v);
  } else {
    SmallVector<int64_t> perm;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis)
        perm.push_back(d);
    perm.push_back(*axis);
    SmallVector<int64_t> inverse(rank);
    for (int64_t d = 0; d < rank; ++d)
      inverse[perm[d]] = d;
    Emit e(n);
    p = e.transpose(softmaxLast(n, e.transpose(v, perm)), inverse);
  }
  return n.setResults(quantize(n, p, operands->y));
}

// QLinearWhere: Z = condition ? q_z(dq(X)) : q_z(dq(Y)), broadcast; every input required
LogicalResult qLinearWhere(NodeRewriter &n) {
  Value condition = n.getInput(0);
  auto x = condition ? getQuantized(n, 1, "X", true) : std::nullopt;
  auto y = x ? getQuantized(n, 4, "Y", true) : std::nullopt;
  auto z = y ? getOutputParameters(n, 7, elementOf(x->q), true) : std::nullopt;
  if (!z)
    return failure();
  Type out = z->type;
  if (!elementOf(condition).isInteger(1))
    return n.emitError() << "condition has type " << condition.getType() << ", expected bool";
  if (elementOf(x->q) != out || elementOf(y->q) != out)
    return n.emitError() << "X, Y and z_zero_point have element types " << elementOf(x->q) << ", "
                         << elementOf(y->q) << " and " << out << ", expected one type";
  SmallVector<Value> operands = broadcastAll(
      n, {condition, quantize(n, dequantize(n, *x), *z), quantize(n, dequantize(n, *y), *z)});
  if (operands.empty())
    return failure();
  return n.setResults(Emit(n).select(operands[0], operands[1], operands[2]));
}

//===----------------------------------------------------------------------------------===//
// Pooling and concatenation
//===----------------------------------------------------------------------------------===//

// QLinearGlobalAveragePool: Y = q(sum(X - z_x) * (s_x / (s_y * count))), the sum over the
// spatial dims in int32 (count = their product); every input required. ORT multiplies by the
// one factor, as here; channels_last = 1 reads and writes [N, spatial..., C].
LogicalResult qLinearGlobalAveragePool(NodeRewriter &n) {
  auto operands = getUnaryOperands(n, true, true);
  if (!operands)
    return failure();
  const Quantized &x = operands->x;
  const OutputParameters &y = operands->y;
  int64_t rank = rankOf(x.q);
  if (rank < 3)
    return n.emitError() << "expected an input of rank >= 3 (N x C x D1 ...), got "
                         << x.q.getType();
  bool channelsLast = n.getInt("channels_last", 0) != 0;
  Value q = channelsLast ? moveChannels(n, x.q, false) : x.q;
  Emit e(n);
  SmallVector<OpFoldResult> dims = getDims(n, q);
  Value diff = centered(n, q, x.zeroPoint, 0, "x_zero_point");
  if (!diff)
    return failure();
  SmallVector<int64_t> spatial;
  for (int64_t d = 2; d < rank; ++d)
    spatial.push_back(d);
  Value sum = e.sum(diff, spatial); // [N, C]
  SmallVector<OpFoldResult> sumDims = getDims(n, sum);
  Type f32 = f32Type(n);
  Value count = e.extent(product(n, ArrayRef<OpFoldResult>(dims).drop_front(2)), sumDims, f32);
  Value factor =
      e.div(perTensor(n, x.scale, sumDims, f32), e.mul(perTensor(n, y.scale, sumDims, f32), count));
  Value pooled = roundAndSaturate(n, e.mul(convert(n, sum, f32), factor),
                                  perTensor(n, y.zeroPoint, sumDims, f32), y.type);
  SmallVector<OpFoldResult> kept(dims.begin(), dims.begin() + 2);
  kept.append(rank - 2, e.b.getIndexAttr(1));
  pooled = reshape(n, pooled, kept);
  return n.setResults(channelsLast ? moveChannels(n, pooled, true) : pooled);
}

// QLinearAveragePool: Y = q(average_pool(dq(X))) with AveragePool's attributes (no
// dilations), channels_last as above. As ORT's kernel does, count_include_pad divides every
// window by the kernel size, also one that ceil_mode extends past the padding (ONNX's
// AveragePool counts only the padded input there). ORT pools in float too, except where the
// window is the whole map without padding, which it computes like QLinearGlobalAveragePool.
LogicalResult qLinearAveragePool(NodeRewriter &n) {
  auto operands = getUnaryOperands(n, false, false);
  if (!operands)
    return failure();
  const Quantized &x = operands->x;
  const OutputParameters &out = operands->y;
  if (rankOf(x.q) < 3)
    return n.emitError() << "expected an input of rank >= 3 (N x C x D1 ...), got "
                         << x.q.getType();
  bool channelsLast = n.getInt("channels_last", 0) != 0;
  Value v = dequantize(n, x);
  if (channelsLast)
    v = moveChannels(n, v, false);
  Value pooled = buildAveragePool(n, v, /*countIncludePad=*/true, /*ceilMode=*/true,
                                  /*dilations=*/false, /*kernelSizeDivisor=*/true);
  if (!pooled)
    return failure();
  // saturate(round_half_even(v / s_y + z_y)): ORT adds the zero point before rounding here,
  // and in float32 that sum can round onto a tie (27.499998 + 110 = 137.5).
  SmallVector<OpFoldResult> dims = getDims(n, pooled);
  Emit e(n);
  Value scaled = e.div(pooled, perTensor(n, out.scale, dims, f32Type(n)));
  if (out.zeroPoint)
    scaled = e.add(scaled, perTensor(n, out.zeroPoint, dims, f32Type(n)));
  Value y = roundAndSaturate(n, scaled, Value(), out.type);
  return n.setResults(channelsLast ? moveChannels(n, y, true) : y);
}

/// Whether two per-tensor parameters are the same value or equal constants.
bool sameParameter(Value a, Value b) {
  if (a == b)
    return true;
  DenseElementsAttr x, y;
  if (!a || !b || !matchPattern(a, m_Constant(&x)) || !matchPattern(b, m_Constant(&y)))
    return false;
  if (!x.isSplat() || !y.isSplat() || x.getElementType() != y.getElementType())
    return false;
  return isa<FloatType>(x.getElementType())
             ? x.getSplatValue<APFloat>() == y.getSplatValue<APFloat>()
             : x.getSplatValue<APInt>() == y.getSplatValue<APInt>();
}

// QLinearConcat(Y_scale, Y_zero_point, (X_i, X_i_scale, X_i_zero_point)...): concat along
// `axis` (required) of each X_i requantized to Y's parameters, q_y(dq(X_i)); an input whose
// parameters are Y's is copied, as ORT does.
LogicalResult qLinearConcat(NodeRewriter &n) {
  unsigned count = n.getNumInputs();
  if (count < 5 || (count - 2) % 3 != 0)
    return n.emitError() << "has " << count
                         << " inputs, expected Y_scale, Y_zero_point and then triples "
                            "(X, X_scale, X_zero_point)";
  auto y = getOutputParameters(n, 0, Type(), true);
  if (!y)
    return failure();
  if (!n.hasAttr("axis"))
    return n.emitError() << "expected the attribute 'axis'";
  SmallVector<Value> parts;
  for (unsigned i = 2; i < count; i += 3) {
    std::string name = "input " + std::to_string((i - 2) / 3);
    auto x = getQuantized(n, i, name, true);
    if (!x)
      return failure();
    if (elementOf(x->q) != y->type)
      return n.emitError() << name << " has type " << x->q.getType()
                           << ", expected the element type of Y_zero_point (" << y->type << ")";
    bool same = sameParameter(x->scale, y->scale) && sameParameter(x->zeroPoint, y->zeroPoint);
    parts.push_back(same ? x->q : quantize(n, dequantize(n, *x), *y));
  }
  int64_t rank = rankOf(parts.front());
  auto axis = normalizeAxis(n, n.getInt("axis", 0), rank);
  if (!axis)
    return failure();
  for (Value p : parts)
    if (rankOf(p) != rank)
      return n.emitError() << "the inputs have ranks " << rank << " and " << rankOf(p)
                           << ", expected one rank";
  return n.setResults(
      prim::ConcatenateOp::create(n.getBuilder(), n.getLoc(), parts, *axis).getResult());
}

//===----------------------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------------------===//

/// A scale or zero point of B: per tensor, or a vector of N (one per output column), as a
/// tensor of `dims` (the result's) of `element`; null after an error.
Value perColumn(NodeRewriter &n, Value param, ArrayRef<OpFoldResult> dims, Type element,
                StringRef what) {
  auto type = cast<RankedTensorType>(param.getType());
  if (type.getRank() > 1) {
    n.emitError() << what << " has type " << param.getType()
                  << ", expected a scalar or a vector with one element per column of B";
    return nullptr;
  }
  return broadcastParameter(n, convert(n, param, element), dims,
                            static_cast<int64_t>(dims.size()) - 1, 0, what);
}

/// (B - z_b) in int32 with z_b per tensor or per column (B's last dim).
Value centeredColumns(NodeRewriter &n, Value bm, Value zeroPoint) {
  Value wide = convert(n, bm, i32Type(n));
  if (!zeroPoint)
    return wide;
  Value z = perColumn(n, zeroPoint, getDims(n, bm), i32Type(n), "b_zero_point");
  return z ? Emit(n).sub(wide, z) : Value();
}

/// bias [N] added along the last dim of y, or y when absent; null after an error.
Value addBias(NodeRewriter &n, Value y, Value bias) {
  if (!bias)
    return y;
  Value b = alongLastDim(n, bias, getDims(n, y), elementOf(y), "bias");
  return b ? Emit(n).add(y, b) : Value();
}

// QGemm: acc = C + (op(A) - z_a)(op(B) - z_b) in int32 (op: the transposes), then
// y = acc * (alpha s_a s_b[n]) in float32, or q(acc * (alpha s_a s_b[n] / s_y)) when
// y_zero_point is given; b's scale and zero point per tensor or per column
LogicalResult qGemm(NodeRewriter &n) {
  auto a = getQuantized(n, 0, "A", true);
  Value bm = a ? n.getInput(3) : Value(), sb = n.getInput(4), zb = n.getInput(5);
  if (!a || !bm || !sb || !zb || !checkQuantized(n, bm, "B"))
    return failure();
  if (rankOf(a->q) != 2 || rankOf(bm) != 2)
    return n.emitError() << "A has type " << a->q.getType() << " and B " << bm.getType()
                         << ", expected matrices";
  if (elementOf(zb) != elementOf(bm))
    return n.emitError() << "b_zero_point has type " << zb.getType()
                         << ", expected the element type of B";
  Value c = n.getOptionalInput(6), sy = n.getOptionalInput(7), zy = n.getOptionalInput(8);
  if (static_cast<bool>(sy) != static_cast<bool>(zy))
    return n.emitError() << "y_scale and y_zero_point must be given together (a quantized "
                            "output) or both left out (a float output)";
  std::optional<OutputParameters> y;
  if (zy && !(y = getOutputParameters(n, 7, Type(), true)))
    return failure();
  Emit e(n);
  Value ca = centered(n, a->q, a->zeroPoint, 0, "a_zero_point");
  if (!ca)
    return failure();
  if (n.getInt("transA", 0))
    ca = e.transpose(ca, {1, 0});
  Value b = bm;
  if (n.getInt("transB", 0))
    b = e.transpose(b, {1, 0});
  Value cb = centeredColumns(n, b, zb);
  if (!cb)
    return failure();
  Value acc = buildMatMul(n, ca, cb);
  if (!acc)
    return failure();
  SmallVector<OpFoldResult> dims = getDims(n, acc);
  if (c) {
    if (!elementOf(c).isInteger(32))
      return n.emitError() << "C has type " << c.getType() << ", expected int32";
    Value broadcastC = broadcastTo(n, c, dims);
    if (!broadcastC)
      return failure();
    acc = e.add(acc, broadcastC);
  }
  Type f32 = f32Type(n);
  Value scaleB = perColumn(n, sb, dims, f32, "b_scale");
  if (!scaleB || !checkPerTensor(n, a->scale, "a_scale"))
    return failure();
  Value factor =
      e.mul(e.mul(e.splat(acc, n.getFloat("alpha", 1.0f), f32), perTensor(n, a->scale, dims, f32)),
            scaleB);
  Value v = convert(n, acc, f32);
  if (!zy)
    return n.setResults(e.mul(v, factor));
  factor = e.div(factor, perTensor(n, sy, dims, f32));
  return n.setResults(roundAndSaturate(n, e.mul(v, factor), perTensor(n, zy, dims, f32), y->type));
}

/// y = acc * (s_a * s_b[n]) + bias[n] (float32), then converted to `element`.
Value scaleAccumulator(NodeRewriter &n, Value acc, Value sa, Value sb, Value bias, Type element) {
  SmallVector<OpFoldResult> dims = getDims(n, acc);
  Type f32 = f32Type(n);
  Value scaleB = perColumn(n, sb, dims, f32, "b_scale");
  if (!scaleB)
    return nullptr;
  Emit e(n);
  Value y = e.mul(convert(n, acc, f32), e.mul(perTensor(n, sa, dims, f32), scaleB));
  y = addBias(n, y, bias ? convert(n, bias, f32) : Value());
  return y ? convert(n, y, element) : Value();
}

// MatMulIntegerToFloat: Y = (A - z_a)(B - z_b) * (s_a s_b[n]) + bias[n], the product in int32;
// b's scale and zero point per tensor or per column; Y has the scales' type
LogicalResult matMulIntegerToFloat(NodeRewriter &n) {
  Value a = n.getInput(0), bm = n.getInput(1), sa = n.getInput(2), sb = n.getInput(3);
  if (!a || !bm || !sa || !sb || !checkQuantized(n, a, "A") || !checkQuantized(n, bm, "B"))
    return failure();
  if (!isa<FloatType>(elementOf(sa)) || elementOf(sa) != elementOf(sb))
    return n.emitError() << "a_scale has type " << sa.getType() << " and b_scale " << sb.getType()
                         << ", expected one float type";
  Value za = n.getOptionalInput(4), zb = n.getOptionalInput(5);
  if (!checkPerTensor(n, sa, "a_scale") || (za && !checkPerTensor(n, za, "a_zero_point")))
    return failure();
  Value ca = centered(n, a, za, 0, "a_zero_point");
  Value cb = ca ? centeredColumns(n, bm, zb) : Value();
  Value acc = cb ? buildMatMul(n, ca, cb) : Value();
  Value y = acc ? scaleAccumulator(n, acc, sa, sb, n.getOptionalInput(6), elementOf(sa)) : Value();
  return y ? n.setResults(y) : failure();
}

// DynamicQuantizeMatMul: A (float32) quantized to uint8 as DynamicQuantizeLinear does
// (lo = min(A, 0), hi = max(A, 0), s_a = (hi - lo) / 255, or 1 where that is 0, z_a =
// saturate(round(-lo / s_a))), then as MatMulIntegerToFloat with B's parameters
LogicalResult dynamicQuantizeMatMul(NodeRewriter &n) {
  Value a = n.getInput(0), bm = n.getInput(1), sb = n.getInput(2);
  if (!a || !bm || !sb || !checkQuantized(n, bm, "B"))
    return failure();
  if (!elementOf(a).isF32())
    return n.emitError() << "A has type " << a.getType() << ", expected float32";
  Emit e(n);
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < rankOf(a); ++d)
    all.push_back(d);
  Value zero = e.scalar(f32Type(n), 0.0);
  Value lo = e.min(prim::ReduceOp::create(e.b, e.loc, prim::ReduceKind::Min, a, all), zero);
  Value hi = e.max(prim::ReduceOp::create(e.b, e.loc, prim::ReduceKind::Max, a, all), zero);
  Value range = e.div(e.sub(hi, lo), e.scalar(f32Type(n), 255.0));
  Value scale = e.select(e.cmp(Dir::Eq, range, zero), e.scalar(f32Type(n), 1.0), range);
  Value zeroPoint = e.clamp(zero, prim::RoundEvenOp::create(e.b, e.loc, e.div(e.neg(lo), scale)),
                            e.scalar(f32Type(n), 255.0));
  SmallVector<OpFoldResult> dims = getDims(n, a);
  Value q = e.div(a, broadcastTo(n, scale, dims));
  Type u8 = IntegerType::get(n.getContext(), 8, IntegerType::Unsigned);
  q = roundAndSaturate(n, q, broadcastTo(n, zeroPoint, dims), u8);
  // q - z_a in int32: z_a is an integer in [0, 255]
  Value ca =
      e.sub(convert(n, q, i32Type(n)), broadcastTo(n, convert(n, zeroPoint, i32Type(n)), dims));
  Value cb = centeredColumns(n, bm, n.getOptionalInput(3));
  Value acc = cb ? buildMatMul(n, ca, cb) : Value();
  Value y = acc ? scaleAccumulator(n, acc, scale, sb, n.getOptionalInput(4), f32Type(n)) : Value();
  return y ? n.setResults(y) : failure();
}

} // namespace

void tcc::decompose::contrib::registerContribQuantizationRules(RuleRegistry &r) {
  r.add(kDomain, "QLinearAdd", 1, qLinearBinary<false>);
  r.add(kDomain, "QLinearMul", 1, qLinearBinary<true>);
  r.add(kDomain, "QLinearSigmoid", 1, qLinearUnary<Unary::Sigmoid>);
  r.add(kDomain, "QLinearLeakyRelu", 1, qLinearUnary<Unary::LeakyRelu>);
  r.add(kDomain, "QLinearSoftmax", 1, qLinearSoftmax);
  r.add(kDomain, "QLinearWhere", 1, qLinearWhere);
  r.add(kDomain, "QLinearGlobalAveragePool", 1, qLinearGlobalAveragePool);
  r.add(kDomain, "QLinearAveragePool", 1, qLinearAveragePool);
  r.add(kDomain, "QLinearConcat", 1, qLinearConcat);
  r.add(kDomain, "QGemm", 1, qGemm);
  r.add(kDomain, "MatMulIntegerToFloat", 1, matMulIntegerToFloat);
  r.add(kDomain, "DynamicQuantizeMatMul", 1, dynamicQuantizeMatMul);
}
