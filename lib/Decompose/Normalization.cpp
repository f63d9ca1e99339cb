//===- Normalization.cpp - rules for batch, layer, instance, group and Lp norms -------===//
//
// Each normalization is (x - mean) * rsqrt(var + eps) over some dims, then an affine map.
// Moments are two-pass (var = mean((x - mean)^2)), which keeps f16/f32 accurate when the
// mean is large against the spread.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {


/// The float type of ONNX TensorProto code `code` for stash_type, or null.
Type stashElementType(MLIRContext *ctx, int64_t code) {
  switch (code) {
  case 1: return Float32Type::get(ctx);
  case 10: return Float16Type::get(ctx);
  case 11: return Float64Type::get(ctx);
  case 16: return BFloat16Type::get(ctx);
  default: return nullptr;
  }
}

/// Input `index` (a per-channel tensor such as scale [C]) converted to `element` and
/// broadcast into `dims` with its dims at first, first + 1, ...: `what` names it in errors.
Value broadcastAlong(NodeRewriter &n, Value v, ArrayRef<OpFoldResult> dims, int64_t first,
                     Type element, StringRef what) {
  int64_t rank = rankOf(v);
  if (first + rank > static_cast<int64_t>(dims.size())) {
    n.emitError() << what << " has type " << v.getType() << ", expected at most rank "
                  << static_cast<int64_t>(dims.size()) - first;
    return nullptr;
  }
  SmallVector<OpFoldResult> in = getDims(n, v);
  SmallVector<int64_t> mapping;
  for (int64_t d = 0; d < rank; ++d) {
    mapping.push_back(first + d);
    auto from = getConstantIntValue(in[d]), to = getConstantIntValue(dims[first + d]);
    if (from && *from == 1)
      continue;
    if (from && to && *from != *to) {
      n.emitError() << what << " has extent " << *from << " in dim " << d << ", expected "
                    << *to << " (dim " << first + d << " of the input)";
      return nullptr;
    }
    checkEqual(n, in[d], dims[first + d],
               what + " dim " + std::to_string(d) + " must equal input dim " +
                   std::to_string(first + d));
  }
  v = convert(n, v, element);
  return prim::BroadcastInDimOp::create(n.getBuilder(), n.getLoc(), getTensorType(dims, element),
                                        v, getDynamicExtents(n, dims),
                                        n.getBuilder().getDenseI64ArrayAttr(mapping));
}

/// Moments of `x` over `dims`: values come back broadcast to x's shape, and, for outputs,
/// with the reduced dims kept as 1.
struct Moments {
  NodeRewriter &n;
  Value x;
  SmallVector<int64_t> dims;
  SmallVector<OpFoldResult> xDims = getDims(n, x);

  OpBuilder &b() { return n.getBuilder(); }
  Location loc() { return n.getLoc(); }

  /// mean(v) over dims, with the dims dropped.
  Value mean(Value v) {
    Value sum = prim::ReduceOp::create(b(), loc(), prim::ReduceKind::Sum, v, dims);
    SmallVector<OpFoldResult> extents;
    for (int64_t d : dims)
      extents.push_back(xDims[d]);
    OpFoldResult total = product(n, extents);
    Type element = elementOf(v);
    Value count;
    if (auto c = getConstantIntValue(total))
      count = scalarConstant(n, element, static_cast<double>(*c));
    else
      count = convert(n, makeShapeTensor(n, {total}, b().getI64Type(), /*scalar=*/true), element);
    return prim::DivOp::create(b(), loc(), sum, fill(n, count, getDims(n, sum)));
  }

  /// A value with the dims dropped, broadcast back to x's shape.
  Value expand(Value reduced) {
    SmallVector<int64_t> mapping;
    for (int64_t d = 0; d < static_cast<int64_t>(xDims.size()); ++d)
      if (!llvm::is_contained(dims, d))
        mapping.push_back(d);
    return prim::BroadcastInDimOp::create(b(), loc(), getTensorType(xDims, elementOf(reduced)),
                                          reduced, getDynamicExtents(n, xDims),
                                          b().getDenseI64ArrayAttr(mapping));
  }

  /// A value with the dims dropped, reshaped to keep them as 1.
  Value keep(Value reduced) {
    SmallVector<OpFoldResult> shape(xDims);
    for (int64_t d : dims)
      shape[d] = b().getIndexAttr(1);
    return reshape(n, reduced, shape);
  }

  /// mean(x) and rsqrt(var(x) + eps) with the dims dropped; `normalized` is
  /// (x - mean) * rsqrt(var + eps) at x's shape.
  struct Normalized {
    Value mean, invStd, normalized;
  };
  Normalized normalize(double epsilon) {
    Value meanValue = mean(x);
    Value centered = prim::SubOp::create(b(), loc(), x, expand(meanValue));
    Value var = mean(prim::MulOp::create(b(), loc(), centered, centered));
    Value invStd = prim::RsqrtOp::create(
        b(), loc(), prim::AddOp::create(b(), loc(), var, splatLike(n, var, epsilon)));
    Value normalized = prim::MulOp::create(b(), loc(), centered, expand(invStd));
    return {meanValue, invStd, normalized};
  }
};

// training_mode=1 (opset 14+), with the batch statistics over every dim but the channels:
// Y = (X - current_mean) / sqrt(current_var + epsilon) * scale + B,
// running_mean = input_mean * momentum + current_mean * (1 - momentum),
// running_var = input_var * momentum + current_var * (1 - momentum),
// current_var the population variance; statistics in f32 at least (as the spec asks).
LogicalResult batchNormalizationTraining(NodeRewriter &n, Value x, Value scale, Value bias,
                                         Value mean, Value var, float epsilon) {
  if (n.getNumOutputs() > 3)
    return n.emitError() << "expected at most 3 outputs (Y, running_mean, running_var) with "
                            "training_mode=1, got "
                         << n.getNumOutputs();
  float momentum = n.getFloat("momentum", 0.9f);
  if (n.hasFailed())
    return failure();
  Type element = elementOf(x);
  Type stash = element.getIntOrFloatBitWidth() < 32 ? Float32Type::get(n.getContext()) : element;
  SmallVector<int64_t> reduced = {0};
  for (int64_t d = 2; d < rankOf(x); ++d)
    reduced.push_back(d);
  Moments moments{n, convert(n, x, stash), reduced};
  Value currentMean = moments.mean(moments.x);
  Value centered = prim::SubOp::create(n.getBuilder(), n.getLoc(), moments.x,
                                       moments.expand(currentMean));
  Value currentVar =
      moments.mean(prim::MulOp::create(n.getBuilder(), n.getLoc(), centered, centered));
  Value invStd = prim::RsqrtOp::create(
      n.getBuilder(), n.getLoc(),
      prim::AddOp::create(n.getBuilder(), n.getLoc(), currentVar,
                          splatLike(n, currentVar, epsilon)));
  Value factor = buildBinary<prim::MulOp>(n, convert(n, scale, stash), invStd);
  if (!factor)
    return failure();
  Value factorB = broadcastAlong(n, factor, moments.xDims, 1, stash, "scale");
  Value biasB = broadcastAlong(n, bias, moments.xDims, 1, stash, "B");
  if (!factorB || !biasB)
    return failure();
  Value y = prim::AddOp::create(n.getBuilder(), n.getLoc(),
                                prim::MulOp::create(n.getBuilder(), n.getLoc(), centered,
                                                    factorB),
                                biasB);
  // running = input * momentum + current * (1 - momentum), in the input's type.
  auto running = [&](Value input, Value current) -> Value {
    Value in = convert(n, input, stash);
    Value kept = buildBinary<prim::MulOp>(n, in, scalarConstant(n, stash, momentum));
    Value added = buildBinary<prim::MulOp>(n, current, scalarConstant(n, stash, 1.0 - momentum));
    Value sum = kept && added ? buildBinary<prim::AddOp>(n, kept, added) : nullptr;
    return sum ? convert(n, sum, elementOf(input)) : nullptr;
  };
  Value runningMean = running(mean, currentMean), runningVar = running(var, currentVar);
  if (!runningMean || !runningVar)
    return failure();
  return n.setResults({convert(n, y, element), runningMean, runningVar});
}

/// BatchNormalization; training_mode=1 (opset 14+) computes the batch statistics.
// batch_norm(x) = (x - mean) * (scale / sqrt(var + eps)) + B, per channel (dim 1)
template <bool TrainingModeAttr>
LogicalResult batchNormalization(NodeRewriter &n) {
  Value x = n.getFloatInput(0), scale = n.getInput(1), bias = n.getInput(2),
        mean = n.getInput(3), var = n.getInput(4);
  if (!x || !scale || !bias || !mean || !var)
    return failure();
  // Opsets 6-8: `spatial` (default 1) = statistics per channel; is_test is ignored
  // (tcc compiles inference).
  if (n.getVersion() < 9 && n.getInt("spatial", 1) != 1)
    return n.emitError() << "spatial=0 (statistics per element) is not supported";
  bool training = TrainingModeAttr && n.getInt("training_mode", 0) != 0;
  // Before opset 14 the extra outputs exist for training; unused ones pass the inputs on.
  for (unsigned i = 1; i < n.getNumOutputs() && !training; ++i)
    if (!n.getNode()->getResult(i).use_empty())
      return n.emitError() << "output " << i << " (a training statistic) is used; at inference "
                           << "BatchNormalization computes only Y";
  if (rankOf(x) < 2)
    return n.emitError() << "expected an input of rank >= 2 (N x C x ...), got " << x.getType();
  auto xType = cast<RankedTensorType>(x.getType());
  for (auto [v, what] : {std::pair(scale, "scale"), std::pair(bias, "B"),
                         std::pair(mean, "input_mean"), std::pair(var, "input_var")}) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getRank() < 1 || type.isDynamicDim(0) || xType.isDynamicDim(1))
      continue;
    if (type.getDimSize(0) != xType.getDimSize(1))
      return n.emitError() << what << " has type " << type << ", expected "
                           << xType.getDimSize(1) << " elements (the channels of X)";
  }
  float epsilon = n.getFloat("epsilon", 1e-5f);
  if (training)
    return batchNormalizationTraining(n, x, scale, bias, mean, var, epsilon);
  Type element = elementOf(x);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  // The factor is computed on the small per-channel tensors, then broadcast once.
  scale = convert(n, scale, element);
  var = convert(n, var, element);
  Value factor = buildBinary<prim::MulOp>(
      n, scale,
      prim::RsqrtOp::create(b, loc,
                            prim::AddOp::create(b, loc, var, splatLike(n, var, epsilon))));
  if (!factor)
    return failure();
  Value factorB = broadcastAlong(n, factor, dims, 1, element, "scale");
  Value meanB = broadcastAlong(n, mean, dims, 1, element, "input_mean");
  Value biasB = broadcastAlong(n, bias, dims, 1, element, "B");
  if (!factorB || !meanB || !biasB)
    return failure();
  Value centered = prim::SubOp::create(b, loc, x, meanB);
  Value y = prim::AddOp::create(b, loc, prim::MulOp::create(b, loc, centered, factorB), biasB);
  return n.setResults({y, mean, var, mean, var});
}

// layer_norm(x) = (x - mean) * rsqrt(var + eps) * scale + B over dims [axis, rank);
// outputs Y, Mean and InvStdDev (the last two with the normalized dims kept as 1)
/// LayerNormalization's and RMSNormalization's statistics: the dims from `axis` on, computed
/// in `stash_type`.
struct TrailingNorm {
  SmallVector<int64_t> dims;
  Type stash;
};
std::optional<TrailingNorm> getTrailingNorm(NodeRewriter &n, Value x) {
  int64_t rank = rankOf(x);
  auto axis = normalizeAxis(n, n.getInt("axis", -1), rank);
  if (!axis)
    return std::nullopt;
  int64_t stashType = n.getInt("stash_type", 1);
  Type stash = stashElementType(n.getContext(), stashType);
  if (!stash) {
    n.emitError() << "stash_type " << stashType
                  << " is not a floating-point type (expected 1, 10, 11 or 16)";
    return std::nullopt;
  }
  TrailingNorm result{{}, stash};
  for (int64_t d = *axis; d < rank; ++d)
    result.dims.push_back(d);
  return result;
}

LogicalResult layerNormalization(NodeRewriter &n) {
  Value x = n.getFloatInput(0), scale = n.getInput(1), bias = n.getOptionalInput(2);
  if (!x || !scale || n.hasFailed())
    return failure();
  auto trailing = getTrailingNorm(n, x);
  if (!trailing)
    return failure();
  auto [dims, stash] = *trailing;
  Type element = elementOf(x);
  Moments m{n, convert(n, x, stash), dims};
  Moments::Normalized stats = m.normalize(n.getFloat("epsilon", 1e-5f));
  Value y = buildBinary<prim::MulOp>(n, convert(n, stats.normalized, element),
                                     convert(n, scale, element));
  if (y && bias)
    y = buildBinary<prim::AddOp>(n, y, convert(n, bias, element));
  if (!y)
    return failure();
  return n.setResults({y, m.keep(stats.mean), m.keep(stats.invStd)});
}

// rms_norm(x) = x * rsqrt(mean(x^2 over dims axis..) + eps) * scale, computed in stash_type
LogicalResult rmsNormalization(NodeRewriter &n) {
  Value x = n.getFloatInput(0), scale = n.getInput(1);
  if (!x || !scale || n.hasFailed())
    return failure();
  auto trailing = getTrailingNorm(n, x);
  if (!trailing)
    return failure();
  auto [dims, stash] = *trailing;
  Type element = elementOf(x);
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value wide = convert(n, x, stash);
  Moments m{n, wide, dims};
  Value meanSquare = m.mean(prim::MulOp::create(b, loc, wide, wide));
  Value eps = fill(n, scalarConstant(n, stash, n.getFloat("epsilon", 1e-5f)), getDims(n, meanSquare));
  Value inv = prim::RsqrtOp::create(b, loc, prim::AddOp::create(b, loc, meanSquare, eps));
  Value normalized = prim::MulOp::create(b, loc, wide, m.expand(inv));
  Value y = buildBinary<prim::MulOp>(n, convert(n, normalized, element), convert(n, scale, element));
  return y ? n.setResults(y) : failure();
}

// instance_norm(x) = (x - mean) * rsqrt(var + eps) * scale + B, moments over dims 2.. per
// (n, c), scale and B per channel
LogicalResult instanceNormalization(NodeRewriter &n) {
  Value x = n.getFloatInput(0), scale = n.getInput(1), bias = n.getInput(2);
  if (!x || !scale || !bias)
    return failure();
  int64_t rank = rankOf(x);
  if (rank < 3)
    return n.emitError() << "expected an input of rank >= 3 (N x C x D1 ...), got "
                         << x.getType();
  SmallVector<int64_t> dims;
  for (int64_t d = 2; d < rank; ++d)
    dims.push_back(d);
  Moments m{n, x, dims};
  Value normalized = m.normalize(n.getFloat("epsilon", 1e-5f)).normalized;
  Type element = elementOf(x);
  Value scaleB = broadcastAlong(n, scale, m.xDims, 1, element, "scale");
  if (!scaleB)
    return failure();
  Value biasB = broadcastAlong(n, bias, m.xDims, 1, element, "B");
  if (!biasB)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  return n.setResults(prim::AddOp::create(
      b, loc, prim::MulOp::create(b, loc, normalized, scaleB), biasB).getResult());
}

// lp_norm(x) = x / ||x||_p along axis (0 where the norm is 0), p = 1 (sum |x|) or 2
// (sqrt(sum x^2))
LogicalResult lpNormalization(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  if (!x)
    return failure();
  auto axis = normalizeAxis(n, n.getInt("axis", -1), rankOf(x));
  if (!axis)
    return failure();
  int64_t p = n.getInt("p", 2);
  if (p != 1 && p != 2)
    return n.emitError() << "attribute 'p' is " << p << ", expected 1 or 2";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Moments m{n, x, {*axis}};
  Value terms = p == 1 ? Value(prim::AbsOp::create(b, loc, x))
                       : Value(prim::MulOp::create(b, loc, x, x));
  Value norm = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, terms,
                                      ArrayRef<int64_t>{*axis});
  if (p == 2)
    norm = prim::SqrtOp::create(b, loc, norm);
  // A zero norm gives 0, not 0 / 0 (the spec says so since onnx/onnx#7618; ORT agrees).
  Value normB = m.expand(norm);
  Value isZero = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, normB,
                                         splatLike(n, normB, 0.0));
  Value y = prim::DivOp::create(b, loc, x, normB);
  return n.setResults(
      prim::SelectOp::create(b, loc, isZero, splatLike(n, x, 0.0), y).getResult());
}

// mvn(x) = (x - mean) / (sqrt(mean((x - mean)^2)) + 1e-9) over `axes` (default [0, 2, 3])
LogicalResult meanVarianceNormalization(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  SmallVector<int64_t> axes = n.getInts("axes").value_or(SmallVector<int64_t>{0, 2, 3});
  if (n.hasFailed())
    return failure();
  SmallVector<int64_t> dims;
  for (int64_t a : axes) {
    auto axis = normalizeAxis(n, a, rank);
    if (!axis)
      return failure();
    if (llvm::is_contained(dims, *axis))
      return n.emitError() << "axis " << a << " is listed twice";
    dims.push_back(*axis);
  }
  llvm::sort(dims);
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Moments m{n, x, dims};
  Value centered = prim::SubOp::create(b, loc, x, m.expand(m.mean(x)));
  Value deviation =
      prim::SqrtOp::create(b, loc, m.mean(prim::MulOp::create(b, loc, centered, centered)));
  Value denominator = prim::AddOp::create(b, loc, deviation, splatLike(n, deviation, 1e-9));
  return n.setResults(prim::DivOp::create(b, loc, centered, m.expand(denominator)).getResult());
}

/// GroupNormalization: opset 18 has scale and bias per group ([G]), opset 21 per channel
/// ([C]) and stash_type.
// group_norm(x) = normalize(x viewed as [N, G, C/G * D...]) * scale + bias, per channel
template <bool PerChannelAffine>
LogicalResult groupNormalization(NodeRewriter &n) {
  Value x = n.getFloatInput(0), scale = n.getInput(1), bias = n.getInput(2);
  if (!x || !scale || !bias)
    return failure();
  int64_t rank = rankOf(x);
  if (rank < 3)
    return n.emitError() << "expected an input of rank >= 3 (N x C x D1 ...), got "
                         << x.getType();
  std::optional<int64_t> groupsAttr = n.getOptionalInt("num_groups");
  if (n.hasFailed())
    return failure();
  if (!groupsAttr || *groupsAttr < 1)
    return n.emitError() << "expected the attribute 'num_groups' >= 1";
  int64_t groups = *groupsAttr;
  Type element = elementOf(x), stash = element;
  if (PerChannelAffine) {
    int64_t stashType = n.getInt("stash_type", 1);
    stash = stashElementType(n.getContext(), stashType);
    if (!stash)
      return n.emitError() << "stash_type " << stashType
                           << " is not a floating-point type (expected 1, 10, 11 or 16)";
  }
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  auto channels = getConstantIntValue(dims[1]);
  if (channels && *channels % groups != 0)
    return n.emitError() << "the input has " << *channels
                         << " channels, expected a multiple of num_groups (" << groups << ")";
  OpFoldResult groupSize = floorDivIndex(n, dims[1], b.getIndexAttr(groups));
  if (!channels)
    checkEqual(n, mulIndex(n, groupSize, b.getIndexAttr(groups)), dims[1],
               "the number of channels must be a multiple of num_groups (" +
                   std::to_string(groups) + ")");
  OpFoldResult perGroup =
      mulIndex(n, groupSize, product(n, ArrayRef<OpFoldResult>(dims).drop_front(2)));
  Value grouped = reshape(n, convert(n, x, stash), {dims[0], b.getIndexAttr(groups), perGroup});
  Moments m{n, grouped, {2}};
  Value normalized = reshape(
      n, convert(n, m.normalize(n.getFloat("epsilon", 1e-5f)).normalized, element), dims);
  if (!PerChannelAffine) {
    // [G] -> [G, C/G] -> [C]: every channel of a group takes the group's value.
    SmallVector<OpFoldResult> expanded = {b.getIndexAttr(groups), groupSize};
    auto perChannel = [&](Value v, StringRef what) -> Value {
      SmallVector<OpFoldResult> in = getDims(n, v);
      auto extent = rankOf(v) == 1 ? getConstantIntValue(in[0]) : std::nullopt;
      if (!extent || *extent != groups) {
        n.emitError() << what << " has type " << v.getType() << ", expected a vector of "
                      << groups << " (num_groups) elements at opset 18";
        return nullptr;
      }
      Value wide = prim::BroadcastInDimOp::create(
          b, loc, getTensorType(expanded, elementOf(v)), v, getDynamicExtents(n, expanded),
          b.getDenseI64ArrayAttr({0}));
      return reshape(n, wide, {dims[1]});
    };
    scale = perChannel(scale, "scale");
    bias = scale ? perChannel(bias, "bias") : nullptr;
    if (!scale || !bias)
      return failure();
  }
  Value scaleB = broadcastAlong(n, scale, dims, 1, element, "scale");
  Value biasB = scaleB ? broadcastAlong(n, bias, dims, 1, element, "bias") : nullptr;
  if (!scaleB || !biasB)
    return failure();
  return n.setResults(prim::AddOp::create(
      b, loc, prim::MulOp::create(b, loc, normalized, scaleB), biasB).getResult());
}

} // namespace

void tcc::decompose::registerNormalizationRules(RuleRegistry &r) {
  r.add("", "BatchNormalization", 6, batchNormalization<false>); // is_test/spatial=1 only
  r.add("", "BatchNormalization", 7, batchNormalization<false>);
  r.add("", "BatchNormalization", 9, batchNormalization<false>);
  r.add("", "BatchNormalization", 14, batchNormalization<true>);
  r.add("", "BatchNormalization", 15, batchNormalization<true>);
  r.add("", "LayerNormalization", 17, layerNormalization);
  r.add("", "RMSNormalization", 23, rmsNormalization);
  r.add("", "InstanceNormalization", 6, instanceNormalization);
  r.add("", "LpNormalization", 1, lpNormalization);
  r.add("", "MeanVarianceNormalization", 9, meanVarianceNormalization);
  r.add("", "MeanVarianceNormalization", 13, meanVarianceNormalization);
  r.add("", "GroupNormalization", 18, groupNormalization<false>);
  r.add("", "GroupNormalization", 21, groupNormalization<true>);
}
