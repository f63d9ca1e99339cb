//===- Random.cpp - random draws: RandomUniform/Normal(Like), Bernoulli, Multinomial ----===//
//
// Random numbers come from a counter-based generator built from integer prims, so a draw is a
// pure function of (seed, element index) and needs no state: element i's 64 random bits are
// the SplitMix64 finalizer of (i + 1) * 0x9E3779B97F4A7C15 + key(seed). The seed is the
// `seed` attribute; without one, a seed fixed per node (a hash of its name), so a library
// draws the same numbers on every run (ONNX leaves the generator unspecified; no two
// implementations agree on the numbers, which is why ONNX's test cases for these ops, made
// with NumPy's generator, cannot be matched).
//
//===----------------------------------------------------------------------------------===//
#include "NodeRewriter.h"
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// The 64-bit key of the node's stream: the seed attribute, or a hash of the node's name.
uint64_t streamKey(NodeRewriter &n) {
  uint64_t key;
  if (n.hasAttr("seed")) {
    double seed = n.getFloat("seed", 0);
    key = static_cast<uint64_t>(static_cast<int64_t>(seed)) * 0xD1B54A32D192ED03ULL;
  } else {
    key = 0xCBF29CE484222325ULL; // FNV-1a of the node name
    for (char c : n.getNode().getNodeName()) {
      key ^= static_cast<unsigned char>(c);
      key *= 0x100000001B3ULL;
    }
  }
  return key;
}

/// A ui64 constant tensor shaped like `like` (i64 bits reinterpreted).
Value splatU64(NodeRewriter &n, Value like, uint64_t value) {
  OpBuilder &b = n.getBuilder();
  Type u64 = IntegerType::get(b.getContext(), 64, IntegerType::Unsigned);
  auto type = RankedTensorType::get({}, u64);
  Value scalar = arith::ConstantOp::create(
      b, n.getLoc(), DenseElementsAttr::get(type, APInt(64, value)));
  return fill(n, scalar, getDims(n, like));
}

/// 64 random bits per element of `dims`: SplitMix64's finalizer of the counter
/// (2 * index + lane + 1) * golden + key, with lane 0 or 1 (two streams for Box-Muller).
Value randomBits(NodeRewriter &n, ArrayRef<OpFoldResult> dims, int64_t lane) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type u64 = IntegerType::get(b.getContext(), 64, IntegerType::Unsigned);
  OpFoldResult count = product(n, dims);
  Value index = prim::IotaOp::create(b, loc, getTensorType({count}, b.getI64Type()),
                                     getDynamicExtents(n, {count}), 0);
  Value z = convert(n, index, u64);
  z = prim::AddOp::create(b, loc, prim::MulOp::create(b, loc, z, splatU64(n, z, 2)),
                          splatU64(n, z, lane + 1));
  z = prim::AddOp::create(b, loc, prim::MulOp::create(b, loc, z, splatU64(n, z, 0x9E3779B97F4A7C15ULL)),
                          splatU64(n, z, streamKey(n)));
  auto mix = [&](Value v, int shift, uint64_t multiplier) {
    Value shifted = prim::ShiftRightLogicalOp::create(b, loc, v, splatU64(n, v, shift));
    Value x = prim::XorOp::create(b, loc, v, shifted);
    return multiplier ? Value(prim::MulOp::create(b, loc, x, splatU64(n, x, multiplier))) : x;
  };
  z = mix(z, 30, 0xBF58476D1CE4E5B9ULL);
  z = mix(z, 27, 0x94D049BB133111EBULL);
  z = mix(z, 31, 0);
  return reshape(n, z, dims);
}

/// Uniform numbers in [0, 1) of `element`: the top `p` bits scaled by 2^-p, p the type's
/// significand precision (exact in the type, so never rounded up to 1).
Value uniform01(NodeRewriter &n, ArrayRef<OpFoldResult> dims, Type element, int64_t lane = 0) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  unsigned precision = cast<FloatType>(element).getFPMantissaWidth();
  Value bits = randomBits(n, dims, lane);
  bits = prim::ShiftRightLogicalOp::create(b, loc, bits, splatU64(n, bits, 64 - precision));
  Value value = convert(n, bits, element);
  return prim::MulOp::create(b, loc, value, splatLike(n, value, std::ldexp(1.0, -static_cast<int>(precision))));
}

/// The `dtype` attribute (an ONNX TensorProto code) as a float type, or `fallback`.
FloatType floatDtype(NodeRewriter &n, Type fallback) {
  if (!n.hasAttr("dtype"))
    return dyn_cast_or_null<FloatType>(fallback);
  return dyn_cast_or_null<FloatType>(elementTypeOfOnnxCode(n.getContext(), n.getInt("dtype", 1)));
}

/// The output shape: the `shape` attribute (RandomUniform/RandomNormal) or the input's.
std::optional<SmallVector<OpFoldResult>> outputDims(NodeRewriter &n, bool like) {
  if (like) {
    Value input = n.getInput(0);
    if (!input)
      return std::nullopt;
    return getDims(n, input);
  }
  std::optional<SmallVector<int64_t>> shape = n.getInts("shape");
  if (!shape) {
    n.emitError() << "attribute 'shape' is required";
    return std::nullopt;
  }
  SmallVector<OpFoldResult> dims;
  for (int64_t d : *shape) {
    if (d < 0) {
      n.emitError() << "attribute 'shape' has the negative extent " << d;
      return std::nullopt;
    }
    dims.push_back(n.getBuilder().getIndexAttr(d));
  }
  return dims;
}

Type likeType(NodeRewriter &n, bool like) {
  if (!like)
    return n.getBuilder().getF32Type();
  Value input = n.getInput(0);
  return input ? typeOf(input).getElementType() : Type();
}

// RandomUniform(Like): low + (high - low) * u, u uniform in [0, 1).
template <bool Like> LogicalResult randomUniform(NodeRewriter &n) {
  auto dims = outputDims(n, Like);
  if (!dims)
    return failure();
  FloatType element = floatDtype(n, likeType(n, Like));
  if (!element)
    return n.emitError() << "dtype must be a floating-point type";
  double low = n.getFloat("low", 0), high = n.getFloat("high", 1);
  Value u = uniform01(n, *dims, element);
  Value scaled = prim::MulOp::create(n.getBuilder(), n.getLoc(), u, splatLike(n, u, high - low));
  return n.setResults({prim::AddOp::create(n.getBuilder(), n.getLoc(), scaled, splatLike(n, u, low))});
}

// RandomNormal(Like): mean + scale * sqrt(-2 ln(1 - u1)) cos(2 pi u2) (Box-Muller), in at
// least f32.
template <bool Like> LogicalResult randomNormal(NodeRewriter &n) {
  auto dims = outputDims(n, Like);
  if (!dims)
    return failure();
  FloatType element = floatDtype(n, likeType(n, Like));
  if (!element)
    return n.emitError() << "dtype must be a floating-point type";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type compute = element.getWidth() < 32 ? Type(b.getF32Type()) : Type(element);
  Value u1 = uniform01(n, *dims, compute, 0), u2 = uniform01(n, *dims, compute, 1);
  Value radius = prim::SqrtOp::create(
      b, loc, prim::MulOp::create(b, loc, splatLike(n, u1, -2),
                                  prim::LogOp::create(b, loc, prim::SubOp::create(
                                                                  b, loc, splatLike(n, u1, 1), u1))));
  Value angle = prim::CosOp::create(b, loc, prim::MulOp::create(b, loc, u2, splatLike(n, u2, 2 * M_PI)));
  Value z = prim::MulOp::create(b, loc, radius, angle);
  z = prim::AddOp::create(b, loc,
                          prim::MulOp::create(b, loc, z, splatLike(n, z, n.getFloat("scale", 1))),
                          splatLike(n, z, n.getFloat("mean", 0)));
  return n.setResults({convert(n, z, element)});
}

// Bernoulli(p): 1 where u < p, else 0 (u uniform in [0, 1)), in dtype (default: p's type).
LogicalResult bernoulli(NodeRewriter &n) {
  Value p = n.getFloatInput(0);
  if (!p)
    return failure();
  Type element = typeOf(p).getElementType();
  if (n.hasAttr("dtype")) {
    element = elementTypeOfOnnxCode(n.getContext(), n.getInt("dtype", 1));
    if (!element)
      return n.emitError() << "unsupported dtype " << n.getInt("dtype", 1);
  }
  Type compute = typeOf(p).getElementType();
  Value u = uniform01(n, getDims(n, p), compute);
  Value hit = prim::CompareOp::create(n.getBuilder(), n.getLoc(), prim::CompareDirection::Lt, u, p);
  return n.setResults({convert(n, hit, element)});
}

// Multinomial(x [B, C] unnormalized log-probabilities): sample_size indices per row drawn
// from softmax(x): with cdf = cumsum(softmax(x)) and u uniform, the sample is
// #{c : cdf[c] < u * cdf[C-1]} (at most C - 1).
LogicalResult multinomial(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  if (!x)
    return failure();
  if (typeOf(x).getRank() != 2)
    return n.emitError() << "input must be [batch, classes], got " << x.getType();
  int64_t samples = n.getInt("sample_size", 1);
  if (samples < 1)
    return n.emitError() << "sample_size must be at least 1, got " << samples;
  Type element = elementTypeOfOnnxCode(n.getContext(), n.getInt("dtype", 6));
  // int32 or int64 (ONNX's codes 6 and 7); uint32/uint64 map to unsigned integer types.
  if (!element || !element.isInteger() || element.isUnsignedInteger() ||
      element.getIntOrFloatBitWidth() < 32)
    return n.emitError() << "dtype must be int32 or int64";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type f32 = typeOf(x).getElementType().getIntOrFloatBitWidth() < 32 ? Type(b.getF32Type())
                                                                     : typeOf(x).getElementType();
  x = convert(n, x, f32);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  Value max = reduceKeep(n, prim::ReduceKind::Max, x, 1);
  Value e = prim::ExpOp::create(b, loc, prim::SubOp::create(b, loc, x, broadcastTo(n, max, dims)));
  Value cdf = prim::CumulativeOp::create(b, loc, prim::ReduceKind::Sum, e, 1);
  SmallVector<OpFoldResult> lastOffsets{b.getIndexAttr(0), subIndex(n, dims[1], b.getIndexAttr(1))};
  Value total = b.createOrFold<prim::SliceOp>(loc, cdf, SmallVector<OpFoldResult>{b.getIndexAttr(0), lastOffsets[1]},
                                              SmallVector<OpFoldResult>{dims[0], b.getIndexAttr(1)},
                                              SmallVector<int64_t>{1, 1});
  SmallVector<OpFoldResult> sampleDims{dims[0], b.getIndexAttr(samples)};
  Value u = uniform01(n, sampleDims, f32);
  Value threshold = prim::MulOp::create(b, loc, u, broadcastTo(n, total, sampleDims));
  // [B, S, C]: cdf[b, c] < threshold[b, s]
  SmallVector<OpFoldResult> cube{dims[0], b.getIndexAttr(samples), dims[1]};
  Value below = prim::CompareOp::create(
      b, loc, prim::CompareDirection::Lt,
      broadcastTo(n, reshape(n, cdf, {dims[0], b.getIndexAttr(1), dims[1]}), cube),
      broadcastTo(n, reshape(n, threshold, {dims[0], b.getIndexAttr(samples), b.getIndexAttr(1)}), cube));
  Value index = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, convert(n, below, b.getI64Type()),
                                       ArrayRef<int64_t>{2});
  Value last = fill(n, makeShapeTensor(n, {subIndex(n, dims[1], b.getIndexAttr(1))}, b.getI64Type(), true),
                    sampleDims);
  index = prim::MinOp::create(b, loc, index, last);
  return n.setResults({convert(n, index, element)});
}

} // namespace

void tcc::decompose::registerRandomRules(RuleRegistry &r) {
  for (int64_t since : {1, 22}) {
    r.add("", "RandomUniform", since, randomUniform<false>);
    r.add("", "RandomUniformLike", since, randomUniform<true>);
    r.add("", "RandomNormal", since, randomNormal<false>);
    r.add("", "RandomNormalLike", since, randomNormal<true>);
  }
  r.add("", "Bernoulli", 15, bernoulli);
  r.add("", "Bernoulli", 22, bernoulli);
  r.add("", "Multinomial", 7, multinomial);
  r.add("", "Multinomial", 22, multinomial);
}
