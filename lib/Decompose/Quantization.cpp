//===- Quantization.cpp - rules for QuantizeLinear, DequantizeLinear and friends -----===//
//
// Quantized tensors are integers q with a scale s and a zero point z: x ~ (q - z) * s.
// Integer contractions (MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv) subtract the
// zero points in int32 and accumulate in int32, as the operators define; only the final
// rescaling of QLinear* multiplies in float32 by (s_a * s_b / s_y), rounds half to even and
// saturates into the output type.
//
//===----------------------------------------------------------------------------------===//
#include "QuantizationSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace tcc::decompose {

bool isQuantizedIntType(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && (integer.getWidth() == 8 || integer.getWidth() == 16);
}

/// A scale or zero point broadcast to the shape `dims` of the tensor it applies to:
/// per tensor (a scalar or a 1-element vector), per axis (a vector along `axis`), or blocked
/// (`blockSize` > 0: the same rank as the tensor, `axis` extent ceil(D / blockSize), each
/// element repeated blockSize times along `axis`).
Value broadcastParameter(NodeRewriter &n, Value param, ArrayRef<OpFoldResult> dims, int64_t axis,
                         int64_t blockSize, StringRef what) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t rank = dims.size(), prank = rankOf(param);
  auto type = [&](ArrayRef<OpFoldResult> shape) { return getTensorType(shape, elementOf(param)); };
  SmallVector<OpFoldResult> pdims = getDims(n, param);
  if (blockSize <= 0 && (prank == 0 || (prank == 1 && getConstantIntValue(pdims[0]) == 1))) {
    // per tensor
    Value scalar = prank == 0 ? param : reshape(n, param, {});
    return prim::BroadcastInDimOp::create(b, loc, type(dims), scalar, getDynamicExtents(n, dims),
                                          b.getDenseI64ArrayAttr({}));
  }
  // The axis matters (and must be valid) only now.
  std::optional<int64_t> normalized = normalizeAxis(n, axis, rank, "axis");
  if (!normalized)
    return nullptr;
  axis = *normalized;
  if (blockSize <= 0) {
    if (prank != 1) {
      n.emitError() << what << " has type " << param.getType()
                    << ", expected a scalar or a vector along axis " << axis;
      return nullptr;
    }
    // per axis
    auto count = getConstantIntValue(pdims[0]), extent = getConstantIntValue(dims[axis]);
    if (count && extent && *count != *extent) {
      n.emitError() << what << " has " << *count << " elements along the axis, expected "
                    << *extent;
      return nullptr;
    }
    checkEqual(n, pdims[0], dims[axis],
               (what + " must have one element per index of the quantization axis").str());
    return prim::BroadcastInDimOp::create(b, loc, type(dims), param, getDynamicExtents(n, dims),
                                          b.getDenseI64ArrayAttr({axis}));
  }
  // blocked: param[..., j, ...] covers indices [j * B, (j + 1) * B) of `axis`
  if (prank != rank) {
    n.emitError() << what << " has rank " << prank << ", expected " << rank
                  << " (blocked quantization)";
    return nullptr;
  }
  auto blocks = getConstantIntValue(pdims[axis]), extent = getConstantIntValue(dims[axis]);
  if (blocks && extent && *blocks != (*extent + blockSize - 1) / blockSize) {
    n.emitError() << what << " has " << *blocks << " blocks along the axis, expected ceil("
                  << *extent << " / " << blockSize << ")";
    return nullptr;
  }
  SmallVector<OpFoldResult> expanded(pdims.begin(), pdims.end());
  expanded.insert(expanded.begin() + axis + 1, b.getIndexAttr(blockSize));
  SmallVector<int64_t> keep;
  for (int64_t d = 0; d < rank; ++d)
    keep.push_back(d <= axis ? d : d + 1);
  Value repeated = prim::BroadcastInDimOp::create(
      b, loc, type(expanded), param, getDynamicExtents(n, expanded), b.getDenseI64ArrayAttr(keep));
  SmallVector<OpFoldResult> merged(pdims.begin(), pdims.end());
  merged[axis] = mulIndex(n, pdims[axis], b.getIndexAttr(blockSize));
  Value flat = reshape(n, repeated, merged);
  // ceil(D / B) blocks cover D; the last one may be partial.
  checkEqual(n, pdims[axis], ceilDivIndex(n, dims[axis], b.getIndexAttr(blockSize)),
             (what + " must have ceil(D / block_size) blocks along the axis").str());
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes(dims.begin(), dims.end());
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      sizes[d] = pdims[d];
  return b.createOrFold<prim::SliceOp>(loc, flat, offsets, sizes, SmallVector<int64_t>(rank, 1));
}

/// saturate(round_half_even(v) + z) into `type` (v and z in float32).
Value roundAndSaturate(NodeRewriter &n, Value v, Value zeroPoint, Type type) {
  OpBuilder &b = n.getBuilder();
  Value r = prim::RoundEvenOp::create(b, n.getLoc(), v);
  if (zeroPoint)
    r = prim::AddOp::create(b, n.getLoc(), r, zeroPoint);
  // float -> integer conversion saturates (see prim.convert).
  return convert(n, r, type);
}

/// convert(q, i32) - z, with z a scalar or a vector along `axis` of q (or absent).
Value centered(NodeRewriter &n, Value q, Value zeroPoint, int64_t axis, StringRef what) {
  Value wide = convert(n, q, i32Type(n));
  if (!zeroPoint)
    return wide;
  if (!isQuantizedIntType(elementOf(zeroPoint))) {
    n.emitError() << what << " has element type " << elementOf(zeroPoint)
                  << ", expected int8, uint8, int16 or uint16";
    return nullptr;
  }
  Value z = broadcastParameter(n, convert(n, zeroPoint, i32Type(n)), getDims(n, q), axis, 0, what);
  return z ? prim::SubOp::create(n.getBuilder(), n.getLoc(), wide, z).getResult() : Value();
}

Value dequantized(NodeRewriter &n, Value q, Value scale, Value zeroPoint, int64_t axis,
                  int64_t blockSize) {
  SmallVector<OpFoldResult> dims = getDims(n, q);
  OpBuilder &b = n.getBuilder();
  // The difference in int32 is exact; float32 then holds int8/int16 differences exactly.
  Value diff = convert(n, q, i32Type(n));
  if (zeroPoint) {
    Value z = broadcastParameter(n, convert(n, zeroPoint, i32Type(n)), dims, axis, blockSize,
                                 "x_zero_point");
    if (!z)
      return nullptr;
    diff = prim::SubOp::create(b, n.getLoc(), diff, z);
  }
  Value s = broadcastParameter(n, convert(n, scale, f32Type(n)), dims, axis, blockSize, "x_scale");
  if (!s)
    return nullptr;
  return prim::MulOp::create(b, n.getLoc(), convert(n, diff, f32Type(n)), s);
}

bool checkQuantized(NodeRewriter &n, Value v, StringRef what) {
  if (isQuantizedIntType(elementOf(v)))
    return true;
  n.emitError() << what << " has element type " << elementOf(v)
                << ", expected int8, uint8, int16 or uint16";
  return false;
}

/// x's channels (dim 1) moved last (`back`) or the last dim moved to 1.
Value moveChannels(NodeRewriter &n, Value x, bool back) {
  int64_t rank = rankOf(x);
  SmallVector<int64_t> perm = {0};
  for (int64_t d = 0; d + 2 < rank; ++d)
    perm.push_back(back ? d + 2 : d + 1);
  perm.insert(back ? perm.end() : perm.begin() + 1, back ? 1 : rank - 1);
  return n.prim().transpose(x, perm);
}

} // namespace tcc::decompose

namespace {

// y = saturate(round(x / y_scale) + y_zero_point)
LogicalResult quantizeLinear(NodeRewriter &n) {
  Value x = n.getInput(0), scale = n.getInput(1), zeroPoint = n.getOptionalInput(2);
  if (!x || !scale || n.hasFailed())
    return failure();
  // Opset 23's `precision` is the type of x / y_scale's computation: float32 is what tcc uses.
  if (int64_t precision = n.getInt("precision", 0); precision != 0 && precision != 1)
    return n.emitError() << "precision " << precision
                         << " is not supported (tcc divides in float32: 0 or 1)";
  Type out = zeroPoint ? elementOf(zeroPoint) : Type();
  if (!out) {
    int64_t code = n.getInt("output_dtype", 0);
    out = code ? elementTypeOfOnnxCode(n.getContext(), code)
               : IntegerType::get(n.getContext(), 8, IntegerType::Unsigned);
  }
  if (!out || !isQuantizedIntType(out))
    return n.emitError() << "the quantized type is " << out
                         << "; tcc supports int8, uint8, int16 and uint16 (float8 and 4-bit "
                            "types are not supported yet)";
  if (!isa<FloatType>(elementOf(x)) && !elementOf(x).isInteger(32))
    return n.emitError() << "x has element type " << elementOf(x)
                         << ", expected a float type or int32";
  int64_t axis = n.getInt("axis", 1); // normalized where a parameter is per axis
  int64_t blockSize = n.getInt("block_size", 0);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  Value s = broadcastParameter(n, convert(n, scale, f32Type(n)), dims, axis, blockSize, "y_scale");
  Value z = zeroPoint ? broadcastParameter(n, convert(n, zeroPoint, f32Type(n)), dims, axis,
                                           blockSize, "y_zero_point")
                      : Value();
  if (!s || (zeroPoint && !z))
    return failure();
  Value scaled = prim::DivOp::create(n.getBuilder(), n.getLoc(), convert(n, x, f32Type(n)), s);
  return n.setResults(roundAndSaturate(n, scaled, z, out));
}

// y = (x - x_zero_point) * x_scale
LogicalResult dequantizeLinear(NodeRewriter &n) {
  Value x = n.getInput(0), scale = n.getInput(1), zeroPoint = n.getOptionalInput(2);
  if (!x || !scale || n.hasFailed())
    return failure();
  Type in = elementOf(x);
  if (!isQuantizedIntType(in) && !in.isInteger(32))
    return n.emitError() << "x has element type " << in
                         << "; tcc supports int8, uint8, int16, uint16 and int32 (float8 and "
                            "4-bit types are not supported yet)";
  if (!isa<FloatType>(elementOf(scale)))
    return n.emitError() << "x_scale has element type " << elementOf(scale)
                         << ", expected a float type";
  int64_t axis = n.getInt("axis", 1); // normalized where a parameter is per axis
  Value y = dequantized(n, x, scale, zeroPoint, axis, n.getInt("block_size", 0));
  if (!y)
    return failure();
  // Opset 23's `output_dtype` (0: the scale's type).
  Type out = elementOf(scale);
  if (int64_t code = n.getInt("output_dtype", 0)) {
    out = elementTypeOfOnnxCode(n.getContext(), code);
    if (!out || !isa<FloatType>(out))
      return n.emitError() << "output_dtype " << code << " is not a supported float type";
  }
  return n.setResults(convert(n, y, out));
}

// lo = min(0, min(x)), hi = max(0, max(x)); y_scale = (hi - lo) / 255
// y_zero_point = saturate(round(0 - lo / y_scale)); y = saturate(round(x / y_scale) + y_zero_point)
LogicalResult dynamicQuantizeLinear(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  if (!elementOf(x).isF32())
    return n.emitError() << "x has element type " << elementOf(x) << ", expected f32";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < rankOf(x); ++d)
    all.push_back(d);
  Value lo = prim::ReduceOp::create(b, loc, prim::ReduceKind::Min, x, all);
  Value hi = prim::ReduceOp::create(b, loc, prim::ReduceKind::Max, x, all);
  Value zero = scalarConstant(n, f32Type(n), 0.0);
  lo = prim::MinOp::create(b, loc, lo, zero);
  hi = prim::MaxOp::create(b, loc, hi, zero);
  Value scale = prim::DivOp::create(b, loc, prim::SubOp::create(b, loc, hi, lo),
                                    scalarConstant(n, f32Type(n), 255.0));
  Type u8 = IntegerType::get(n.getContext(), 8, IntegerType::Unsigned);
  Value zeroPointF = prim::RoundEvenOp::create(
      b, loc, prim::SubOp::create(b, loc, zero, prim::DivOp::create(b, loc, lo, scale)));
  zeroPointF = prim::MinOp::create(b, loc, prim::MaxOp::create(b, loc, zeroPointF, zero),
                                   scalarConstant(n, f32Type(n), 255.0));
  SmallVector<OpFoldResult> dims = getDims(n, x);
  Value scaled = prim::DivOp::create(b, loc, x, broadcastTo(n, scale, dims));
  Value y = roundAndSaturate(n, scaled, broadcastTo(n, zeroPointF, dims), u8);
  return n.setResults({y, scale, convert(n, zeroPointF, u8)});
}

/// conv(cx, cw) in int32 of the centered values cx = x - z_x and cw = w - z_w, x and w 8-bit.
/// A grouped (depthwise) convolution whose sums stay below 2^24 in magnitude (255 * 255 per
/// product, at most 258 products per sum) is computed in float32 and converted: every
/// partial sum is an integer float32 holds exactly, so the result is the same, and the CPU
/// tiles vectorize float convolutions (ONNX Runtime's QOperator MobileNetV2 is mostly
/// depthwise QLinearConv).
Value integerConvolution(NodeRewriter &n, Value x, Value w, Value cx, Value cw) {
  auto wType = cast<RankedTensorType>(cw.getType());
  int64_t group = n.getInt("group", 1);
  if (group > 1 && wType.hasStaticShape() && wType.getRank() >= 2 && wType.getDimSize(0) > 0 &&
      elementOf(x).getIntOrFloatBitWidth() == 8 && elementOf(w).getIntOrFloatBitWidth() == 8) {
    int64_t products = wType.getNumElements() / wType.getDimSize(0);
    if (products * 255 * 255 < (int64_t(1) << 24)) {
      Value y = buildConvolution(n, convert(n, cx, f32Type(n)), convert(n, cw, f32Type(n)));
      return y ? convert(n, y, i32Type(n)) : Value();
    }
  }
  return buildConvolution(n, cx, cw);
}

// Y = (A - a_zero_point) @ (B - b_zero_point) in int32; a_zero_point per row of A (or
// scalar), b_zero_point per column of B (or scalar)
LogicalResult matMulInteger(NodeRewriter &n) {
  Value a = n.getInput(0), bMatrix = n.getInput(1);
  if (!a || !bMatrix || !checkQuantized(n, a, "A") || !checkQuantized(n, bMatrix, "B"))
    return failure();
  int64_t ra = rankOf(a), rb = rankOf(bMatrix);
  Value ca = centered(n, a, n.getOptionalInput(2), std::max<int64_t>(ra - 2, 0), "a_zero_point");
  Value cb = centered(n, bMatrix, n.getOptionalInput(3), rb - 1, "b_zero_point");
  if (!ca || !cb)
    return failure();
  Value y = buildMatMul(n, ca, cb);
  return y ? n.setResults(y) : failure();
}

// Y = conv(x - x_zero_point, w - w_zero_point) in int32; w_zero_point per output channel
LogicalResult convInteger(NodeRewriter &n) {
  Value x = n.getInput(0), w = n.getInput(1);
  if (!x || !w || !checkQuantized(n, x, "x") || !checkQuantized(n, w, "w"))
    return failure();
  Value cx = centered(n, x, n.getOptionalInput(2), 1, "x_zero_point");
  Value cw = centered(n, w, n.getOptionalInput(3), 0, "w_zero_point");
  if (!cx || !cw)
    return failure();
  Value y = integerConvolution(n, x, w, cx, cw);
  return y ? n.setResults(y) : failure();
}

/// The multiplier s_a * s_b / s_y broadcast to `dims` (float32): s_a along `axisA` and s_b
/// along `axisB` of the result when they are vectors.
Value rescaleFactor(NodeRewriter &n, Value sa, int64_t axisA, Value sb, int64_t axisB, Value sy,
                    ArrayRef<OpFoldResult> dims) {
  OpBuilder &b = n.getBuilder();
  Value a = broadcastParameter(n, convert(n, sa, f32Type(n)), dims, axisA, 0, "the first scale");
  Value c = broadcastParameter(n, convert(n, sb, f32Type(n)), dims, axisB, 0, "the second scale");
  Value y = broadcastParameter(n, convert(n, sy, f32Type(n)), dims, 0, 0, "y_scale");
  if (!a || !c || !y)
    return nullptr;
  return prim::DivOp::create(b, n.getLoc(), prim::MulOp::create(b, n.getLoc(), a, c), y);
}

/// saturate(round(acc * factor) + y_zero_point) into y_zero_point's type.
Value requantize(NodeRewriter &n, Value acc, Value factor, Value yZeroPoint) {
  SmallVector<OpFoldResult> dims = getDims(n, acc);
  Value z = broadcastParameter(n, convert(n, yZeroPoint, f32Type(n)), dims, 0, 0, "y_zero_point");
  if (!z)
    return nullptr;
  Value v = prim::MulOp::create(n.getBuilder(), n.getLoc(), convert(n, acc, f32Type(n)), factor);
  return roundAndSaturate(n, v, z, elementOf(yZeroPoint));
}

// acc = (a - a_zp) @ (b - b_zp) in int32; y = saturate(round(acc * a_s * b_s / y_s) + y_zp)
LogicalResult qLinearMatMul(NodeRewriter &n) {
  Value a = n.getInput(0), sa = n.getInput(1), za = n.getInput(2), bm = n.getInput(3),
        sb = n.getInput(4), zb = n.getInput(5), sy = n.getInput(6), zy = n.getInput(7);
  if (n.hasFailed() || !a || !bm || !zy || !checkQuantized(n, a, "a") ||
      !checkQuantized(n, bm, "b") || !checkQuantized(n, zy, "y_zero_point"))
    return failure();
  int64_t ra = rankOf(a), rb = rankOf(bm);
  Value ca = centered(n, a, za, std::max<int64_t>(ra - 2, 0), "a_zero_point");
  Value cb = centered(n, bm, zb, rb - 1, "b_zero_point");
  if (!ca || !cb)
    return failure();
  Value acc = buildMatMul(n, ca, cb);
  if (!acc)
    return failure();
  int64_t r = rankOf(acc);
  Value factor = rescaleFactor(n, sa, std::max<int64_t>(r - 2, 0), sb, r - 1, sy, getDims(n, acc));
  Value y = factor ? requantize(n, acc, factor, zy) : Value();
  return y ? n.setResults(y) : failure();
}

// acc = conv(x - x_zp, w - w_zp) + B in int32; y = saturate(round(acc * x_s * w_s / y_s) + y_zp)
// com.microsoft's QLinearConv (ORT's layout pass) may read and write channels last.
LogicalResult qLinearConv(NodeRewriter &n) {
  Value x = n.getInput(0), sx = n.getInput(1), zx = n.getInput(2), w = n.getInput(3),
        sw = n.getInput(4), zw = n.getInput(5), sy = n.getInput(6), zy = n.getInput(7),
        bias = n.getOptionalInput(8);
  if (n.hasFailed() || !x || !w || !zy || !checkQuantized(n, x, "x") ||
      !checkQuantized(n, w, "w") || !checkQuantized(n, zy, "y_zero_point"))
    return failure();
  bool channelsLast = n.getInt("channels_last", 0) != 0;
  if (channelsLast && rankOf(x) < 3)
    return n.emitError() << "x has type " << x.getType() << ", expected N x D1 ... x C";
  if (channelsLast)
    x = moveChannels(n, x, false);
  Value cx = centered(n, x, zx, 1, "x_zero_point");
  Value cw = centered(n, w, zw, 0, "w_zero_point");
  if (!cx || !cw)
    return failure();
  Value acc = integerConvolution(n, x, w, cx, cw);
  if (!acc)
    return failure();
  SmallVector<OpFoldResult> dims = getDims(n, acc);
  if (bias) {
    if (!elementOf(bias).isInteger(32))
      return n.emitError() << "B has element type " << elementOf(bias) << ", expected int32";
    Value biasB = broadcastChannels(n, bias, dims, "B");
    if (!biasB)
      return failure();
    acc = prim::AddOp::create(n.getBuilder(), n.getLoc(), acc, biasB);
  }
  Value factor = rescaleFactor(n, sx, 1, sw, 1, sy, dims);
  Value y = factor ? requantize(n, acc, factor, zy) : Value();
  if (y && channelsLast)
    y = moveChannels(n, y, true);
  return y ? n.setResults(y) : failure();
}

} // namespace

void tcc::decompose::registerQuantizationRules(RuleRegistry &r) {
  r.add("", "QuantizeLinear", 10, quantizeLinear);
  r.add("", "QuantizeLinear", 13, quantizeLinear);
  r.add("", "QuantizeLinear", 19, quantizeLinear);
  r.add("", "QuantizeLinear", 21, quantizeLinear);
  r.add("", "QuantizeLinear", 23, quantizeLinear); // + precision
  r.add("", "DequantizeLinear", 10, dequantizeLinear);
  r.add("", "DequantizeLinear", 13, dequantizeLinear);
  r.add("", "DequantizeLinear", 19, dequantizeLinear);
  r.add("", "DequantizeLinear", 21, dequantizeLinear);
  r.add("", "DequantizeLinear", 23, dequantizeLinear); // + output_dtype
  r.add("", "DynamicQuantizeLinear", 11, dynamicQuantizeLinear);
  r.add("", "MatMulInteger", 10, matMulInteger);
  r.add("", "ConvInteger", 10, convInteger);
  r.add("", "QLinearMatMul", 10, qLinearMatMul);
  r.add("", "QLinearMatMul", 21, qLinearMatMul);
  r.add("", "QLinearConv", 10, qLinearConv);
  // ONNX Runtime's com.microsoft versions (its QDQ format with contrib ops, 16-bit types on
  // older opsets, the NHWC layout pass): the same definitions.
  r.add("com.microsoft", "QuantizeLinear", 1, quantizeLinear);
  r.add("com.microsoft", "DequantizeLinear", 1, dequantizeLinear);
  r.add("com.microsoft", "QLinearConv", 1, qLinearConv);
}
