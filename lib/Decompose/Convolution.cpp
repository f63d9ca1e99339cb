//===- Convolution.cpp - rules for ONNX Conv ------------------------------------------===//
//
// ONNX Conv is prim.convolution (N-d, grouped, cross-correlation) plus a per-channel bias.
// prim.convolution's paddings are static attributes, so auto_pad SAME needs the padded
// extent at compile time: it is static whenever the input extent is, or the stride is 1.
//
//===----------------------------------------------------------------------------------===//
#include "RuleFamilies.h"
#include "RuleSupport.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// Low and high padding of each spatial dim from `pads` or auto_pad. SAME_UPPER and
/// SAME_LOWER pad so that out = ceil(in / stride):
/// total = max((out - 1) * stride + (k - 1) * dilation + 1 - in, 0), the odd one at the end
/// for SAME_UPPER and at the start for SAME_LOWER.
LogicalResult getPadding(NodeRewriter &n, ArrayRef<OpFoldResult> inputSpatial,
                         ArrayRef<std::optional<int64_t>> kernel, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilations, SmallVector<int64_t> &low,
                         SmallVector<int64_t> &high) {
  int64_t spatial = static_cast<int64_t>(inputSpatial.size());
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  low.assign(spatial, 0);
  high.assign(spatial, 0);
  if (autoPad == "NOTSET" || autoPad.empty()) {
    auto pads = getSpatialInts(n, "pads", 2 * spatial, 0, 0);
    if (!pads)
      return failure();
    for (int64_t d = 0; d < spatial; ++d) {
      low[d] = (*pads)[d];
      high[d] = (*pads)[d + spatial];
    }
    return success();
  }
  if (autoPad == "VALID")
    return success();
  if (autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER")
    return n.emitError() << "attribute 'auto_pad' is \"" << autoPad
                         << "\", expected NOTSET, VALID, SAME_UPPER or SAME_LOWER";
  for (int64_t d = 0; d < spatial; ++d) {
    if (!kernel[d])
      return n.emitError() << "auto_pad " << autoPad << " needs a static kernel extent, spatial "
                           << "dim " << d << " is dynamic (give kernel_shape)";
    int64_t effective = (*kernel[d] - 1) * dilations[d] + 1, total;
    auto in = getConstantIntValue(inputSpatial[d]);
    if (strides[d] == 1) {
      total = effective - 1;
    } else if (in) {
      int64_t out = (*in + strides[d] - 1) / strides[d];
      total = std::max<int64_t>((out - 1) * strides[d] + effective - *in, 0);
    } else {
      return n.emitError() << "auto_pad " << autoPad << " with stride " << strides[d]
                           << " needs a static input extent, spatial dim " << d
                           << " is dynamic (tcc's paddings are compile-time constants)";
    }
    int64_t smaller = total / 2;
    low[d] = autoPad == "SAME_UPPER" ? smaller : total - smaller;
    high[d] = total - low[d];
  }
  return success();
}

} // namespace

/// convolution(x, w) with the node's strides, pads (or auto_pad), dilations, group and
/// kernel_shape.
Value tcc::decompose::buildConvolution(NodeRewriter &n, Value x, Value w) {
  auto checkedGroup = checkConvolutionOperands(n, x, w, "M x C/group x k1 ...");
  if (!checkedGroup)
    return nullptr;
  int64_t group = *checkedGroup, rank = rankOf(x), spatial = rank - 2;
  auto strides = getSpatialInts(n, "strides", spatial, 1, 1);
  auto dilations = strides ? getSpatialInts(n, "dilations", spatial, 1, 1) : std::nullopt;
  if (!strides || !dilations)
    return nullptr;
  auto xType = cast<RankedTensorType>(x.getType()), wType = cast<RankedTensorType>(w.getType());
  SmallVector<std::optional<int64_t>> kernel;
  std::optional<SmallVector<int64_t>> kernelShape = n.getInts("kernel_shape");
  if (kernelShape && static_cast<int64_t>(kernelShape->size()) != spatial) {
    n.emitError() << "attribute 'kernel_shape' has " << kernelShape->size() << " entries, expected "
                  << spatial;
    return nullptr;
  }
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t k = wType.getDimSize(d + 2);
    if (kernelShape && !ShapedType::isDynamic(k) && (*kernelShape)[d] != k) {
      n.emitError() << "kernel_shape[" << d << "] is " << (*kernelShape)[d] << " but W has extent "
                    << k << " there";
      return nullptr;
    }
    if (!ShapedType::isDynamic(k))
      kernel.push_back(k);
    else if (kernelShape)
      kernel.push_back((*kernelShape)[d]);
    else
      kernel.push_back(std::nullopt);
  }
  int64_t channels = xType.getDimSize(1), filterChannels = wType.getDimSize(1),
          outChannels = wType.getDimSize(0);
  if (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(filterChannels) &&
      channels != filterChannels * group) {
    n.emitError() << "X has " << channels << " channels, expected W's " << filterChannels
                  << " input channels x group (" << group << ")";
    return nullptr;
  }
  if (!ShapedType::isDynamic(outChannels) && outChannels % group != 0) {
    n.emitError() << "W has " << outChannels << " output channels, expected a multiple of group ("
                  << group << ")";
    return nullptr;
  }
  SmallVector<OpFoldResult> xDims = getDims(n, x), wDims = getDims(n, w);
  if (ShapedType::isDynamic(channels) || ShapedType::isDynamic(filterChannels))
    checkEqual(n, xDims[1], mulIndex(n, wDims[1], n.getBuilder().getIndexAttr(group)),
               "X's channels must equal W's input channels x group");
  SmallVector<int64_t> low, high;
  if (failed(getPadding(n, ArrayRef<OpFoldResult>(xDims).drop_front(2), kernel, *strides,
                        *dilations, low, high)))
    return nullptr;
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t in = xType.getDimSize(d + 2);
    if (ShapedType::isDynamic(in) || !kernel[d])
      continue;
    int64_t effective = (*kernel[d] - 1) * (*dilations)[d] + 1;
    if (in + low[d] + high[d] < effective) {
      n.emitError() << "spatial dim " << d << ": the dilated kernel (" << effective
                    << ") is larger than the padded input (" << in << " + " << low[d] << " + "
                    << high[d] << ")";
      return nullptr;
    }
  }
  // A kernel of 1 without padding reads only every stride-th input point:
  //   conv(x, w, stride s)[y] = sum_c w[c] x[c, s y] = conv(slice(x, step s), w, stride 1)[y]
  // so the points are gathered once by a strided slice and the convolution runs with
  // stride 1 (contiguous vector loads). In place, every tile of output channels read the
  // input again as wide loads and shuffles: a ResNet-50 downsample (1024 -> 2048 channels,
  // 14x14 -> 7x7) took 4.5x as long.
  bool pointwise = llvm::all_of(kernel, [](std::optional<int64_t> k) { return k && *k == 1; }) &&
                   llvm::all_of(low, [](int64_t p) { return p == 0; }) &&
                   llvm::all_of(high, [](int64_t p) { return p == 0; }) &&
                   llvm::any_of(*strides, [](int64_t s) { return s > 1; });
  if (pointwise) {
    OpBuilder &b = n.getBuilder();
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes(xDims);
    SmallVector<int64_t> steps(rank, 1);
    for (int64_t d = 0; d < spatial; ++d) {
      // ceil(in / s) points: the output extent of a kernel of 1 without padding.
      sizes[d + 2] = ceilDivIndex(n, xDims[d + 2], b.getIndexAttr((*strides)[d]));
      steps[d + 2] = (*strides)[d];
    }
    x = b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes, steps);
    strides = SmallVector<int64_t>(spatial, 1);
  }
  return prim::ConvolutionOp::create(n.getBuilder(), n.getLoc(), x, w, *strides, low, high,
                                     *dilations, static_cast<uint64_t>(group));
}

namespace {

// conv(x, w, b) = convolution(x, w, strides, pads, dilations, group) + b[c] per channel
LogicalResult conv(NodeRewriter &n) {
  Value x = n.getInput(0), w = n.getInput(1), bias = n.getOptionalInput(2);
  if (!x || !w || n.hasFailed())
    return failure();
  Value result = buildConvolution(n, x, w);
  if (!result)
    return failure();
  if (bias) {
    Value biasB = broadcastChannels(n, convert(n, bias, elementOf(x)), getDims(n, result), "B");
    if (!biasB)
      return failure();
    result = prim::AddOp::create(n.getBuilder(), n.getLoc(), result, biasB);
  }
  return n.setResults(result);
}

} // namespace

void tcc::decompose::registerConvolutionRules(RuleRegistry &r) {
  r.add("", "Conv", 1, conv);
  r.add("", "Conv", 11, conv);
}
