//===- ConvTranspose.cpp - rules for ONNX ConvTranspose -------------------------------===//
//
// prim has no input dilation, so ConvTranspose is built from a stride-1 prim.convolution:
// the input is dilated by the strides (zeros inserted with reshape + pad), the filter has
// its in/out channels swapped per group and its spatial dims reversed, and the convolution
// pads by dilation * (k - 1) minus the ONNX pads (negative paddings crop the input).
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

/// Python's a // b (rounds toward -inf), as ONNX's reference computes the pads with.
int64_t floorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/// The static attributes of one ConvTranspose node, one entry per spatial dim.
struct TransposedWindow {
  SmallVector<int64_t> kernel, strides, dilations, outputPadding, padBegin, padEnd;
};

/// Begin and end pads of each spatial dim. Given an output_shape (or auto_pad SAME, where
/// output = in * stride), total = stride (in - 1) + output_padding + (k - 1) dilation + 1
/// - output, split as floor(total / 2) at the begin for SAME_UPPER and at the end otherwise.
LogicalResult getTransposedPadding(NodeRewriter &n, ArrayRef<OpFoldResult> inputSpatial,
                                   TransposedWindow &w) {
  int64_t spatial = static_cast<int64_t>(inputSpatial.size());
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  if (autoPad.empty())
    autoPad = "NOTSET";
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return n.emitError() << "attribute 'auto_pad' is \"" << autoPad
                         << "\", expected NOTSET, VALID, SAME_UPPER or SAME_LOWER";
  w.padBegin.assign(spatial, 0);
  w.padEnd.assign(spatial, 0);
  std::optional<SmallVector<int64_t>> outputShape = n.getInts("output_shape");
  if (n.hasFailed())
    return failure();
  // Some exporters give the whole output shape (N, C, spatial...): keep the spatial part.
  if (outputShape && static_cast<int64_t>(outputShape->size()) == spatial + 2)
    outputShape->erase(outputShape->begin(), outputShape->begin() + 2);
  if (outputShape && static_cast<int64_t>(outputShape->size()) != spatial)
    return n.emitError() << "attribute 'output_shape' has " << outputShape->size()
                         << " entries, expected one per spatial dim (" << spatial << ")";
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (!outputShape && !same) {
    if (autoPad == "VALID")
      return success();
    auto pads = getSpatialInts(n, "pads", 2 * spatial, 0, 0);
    if (!pads)
      return failure();
    for (int64_t d = 0; d < spatial; ++d) {
      w.padBegin[d] = (*pads)[d];
      w.padEnd[d] = (*pads)[d + spatial];
    }
    return success();
  }
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t effective = (w.kernel[d] - 1) * w.dilations[d] + 1, total;
    auto in = getConstantIntValue(inputSpatial[d]);
    if (!outputShape) {
      // output = in * stride, so total does not depend on in.
      total = w.outputPadding[d] + effective - w.strides[d];
    } else if (in) {
      total = w.strides[d] * (*in - 1) + w.outputPadding[d] + effective - (*outputShape)[d];
    } else {
      return n.emitError() << "attribute 'output_shape' needs a static input extent, spatial "
                           << "dim " << d << " is dynamic (tcc's paddings are compile-time "
                           << "constants)";
    }
    int64_t half = floorDiv(total, 2);
    w.padBegin[d] = autoPad == "SAME_UPPER" ? half : total - half;
    w.padEnd[d] = total - w.padBegin[d];
  }
  return success();
}

/// x with stride - 1 zeros between neighbours along each spatial dim, plus stride - 1
/// trailing zeros (the caller crops those): [N, C, H] -> [N, C, H, 1] -> pad ->
/// [N, C, H, s] -> [N, C, H * s].
Value dilateInput(NodeRewriter &n, Value x, ArrayRef<int64_t> strides) {
  if (llvm::all_of(strides, [](int64_t s) { return s == 1; }))
    return x;
  SmallVector<OpFoldResult> dims = getDims(n, x), split = {dims[0], dims[1]},
                            merged = {dims[0], dims[1]};
  SmallVector<int64_t> low, high = {0, 0};
  OpBuilder &b = n.getBuilder();
  for (auto [d, s] : llvm::enumerate(strides)) {
    split.push_back(dims[d + 2]);
    high.push_back(0);
    merged.push_back(mulIndex(n, dims[d + 2], b.getIndexAttr(s)));
    if (s > 1) {
      split.push_back(b.getIndexAttr(1));
      high.push_back(s - 1);
    }
  }
  low.assign(high.size(), 0);
  Value padded = prim::PadOp::create(b, n.getLoc(), reshape(n, x, split),
                                     scalarConstant(n, elementOf(x), 0.0), low, high);
  return reshape(n, padded, merged);
}

/// ConvTranspose's W [C_in, C_out/G, k...] as a Conv filter [C_out, C_in/G, k...]:
/// [G, C_in/G, C_out/G, k...] -> transpose to [G, C_out/G, C_in/G, k...] -> reshape ->
/// reverse the spatial dims.
Value regroupFilter(NodeRewriter &n, Value w, int64_t group) {
  OpBuilder &b = n.getBuilder();
  int64_t rank = rankOf(w);
  SmallVector<OpFoldResult> dims = getDims(n, w);
  OpFoldResult groups = b.getIndexAttr(group);
  OpFoldResult inPerGroup = floorDivIndex(n, dims[0], groups);
  SmallVector<OpFoldResult> grouped = {groups, inPerGroup, dims[1]};
  SmallVector<OpFoldResult> filter = {mulIndex(n, groups, dims[1]), inPerGroup};
  SmallVector<int64_t> perm = {0, 2, 1}, spatialDims;
  for (int64_t d = 2; d < rank; ++d) {
    grouped.push_back(dims[d]);
    filter.push_back(dims[d]);
    perm.push_back(d + 1);
    spatialDims.push_back(d);
  }
  Value t = b.createOrFold<prim::TransposeOp>(n.getLoc(), reshape(n, w, grouped), perm);
  return prim::ReverseOp::create(b, n.getLoc(), reshape(n, t, filter), spatialDims);
}


/// The window attributes, with the kernel extents from kernel_shape or W (static).
LogicalResult getWindow(NodeRewriter &n, RankedTensorType wType, int64_t spatial,
                        TransposedWindow &w) {
  auto strides = getSpatialInts(n, "strides", spatial, 1, 1);
  auto dilations = strides ? getSpatialInts(n, "dilations", spatial, 1, 1) : std::nullopt;
  auto outputPadding =
      dilations ? getSpatialInts(n, "output_padding", spatial, 0, 0) : std::nullopt;
  if (!outputPadding)
    return failure();
  w.strides = *strides;
  w.dilations = *dilations;
  w.outputPadding = *outputPadding;
  std::optional<SmallVector<int64_t>> kernelShape = n.getInts("kernel_shape");
  if (kernelShape && static_cast<int64_t>(kernelShape->size()) != spatial)
    return n.emitError() << "attribute 'kernel_shape' has " << kernelShape->size()
                         << " entries, expected " << spatial;
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t k = wType.getDimSize(d + 2);
    if (kernelShape && !ShapedType::isDynamic(k) && (*kernelShape)[d] != k)
      return n.emitError() << "kernel_shape[" << d << "] is " << (*kernelShape)[d]
                           << " but W has extent " << k << " there";
    if (ShapedType::isDynamic(k) && !kernelShape)
      return n.emitError() << "W's spatial dim " << d << " is dynamic, expected a static "
                           << "kernel extent (or give kernel_shape)";
    w.kernel.push_back(ShapedType::isDynamic(k) ? (*kernelShape)[d] : k);
  }
  return success();
}

// convtranspose(x, w, b) = convolution(dilate(x, strides), reverse(swap_io(w)), stride 1,
//   pads d (k - 1) - pad_begin and d (k - 1) - pad_end + output_padding, group) + b[c]
LogicalResult convTranspose(NodeRewriter &n) {
  Value x = n.getInput(0), w = n.getInput(1), bias = n.getOptionalInput(2);
  if (!x || !w || n.hasFailed())
    return failure();
  auto checkedGroup = checkConvolutionOperands(n, x, w, "C x M/group x k1 ...");
  if (!checkedGroup)
    return failure();
  int64_t group = *checkedGroup, rank = rankOf(x), spatial = rank - 2;
  auto xType = cast<RankedTensorType>(x.getType()), wType = cast<RankedTensorType>(w.getType());
  TransposedWindow window;
  if (failed(getWindow(n, wType, spatial, window)))
    return failure();
  int64_t channels = xType.getDimSize(1), filterChannels = wType.getDimSize(0);
  if (!ShapedType::isDynamic(filterChannels) && filterChannels % group != 0)
    return n.emitError() << "W has " << filterChannels
                         << " input channels, expected a multiple of group (" << group << ")";
  if (!ShapedType::isDynamic(channels) && !ShapedType::isDynamic(filterChannels) &&
      channels != filterChannels)
    return n.emitError() << "X has " << channels << " channels, expected W's "
                         << filterChannels;
  SmallVector<OpFoldResult> xDims = getDims(n, x);
  checkEqual(n, xDims[1], getDims(n, w)[0], "X's channels must equal W's first extent");
  if (failed(getTransposedPadding(n, ArrayRef<OpFoldResult>(xDims).drop_front(2), window)))
    return failure();

  // Convolution paddings; the high one also drops dilateInput's stride - 1 trailing zeros.
  OpBuilder &b = n.getBuilder();
  SmallVector<int64_t> low(spatial), high(spatial);
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0)), sizes;
  Value dilated = dilateInput(n, x, window.strides);
  SmallVector<OpFoldResult> dilatedDims = getDims(n, dilated);
  sizes = {dilatedDims[0], dilatedDims[1]};
  bool crop = false;
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t reach = window.dilations[d] * (window.kernel[d] - 1);
    low[d] = reach - window.padBegin[d];
    high[d] = reach - window.padEnd[d] + window.outputPadding[d] - (window.strides[d] - 1);
    int64_t cutLow = std::max<int64_t>(-low[d], 0), cutHigh = std::max<int64_t>(-high[d], 0);
    OpFoldResult extent = dilatedDims[d + 2];
    if (auto in = getConstantIntValue(extent); in && *in < cutLow + cutHigh)
      return n.emitError() << "spatial dim " << d << ": the pads crop " << cutLow + cutHigh
                           << " elements from an upsampled input of " << *in;
    crop |= cutLow || cutHigh;
    offsets.push_back(b.getIndexAttr(cutLow));
    sizes.push_back(subIndex(n, extent, b.getIndexAttr(cutLow + cutHigh)));
    low[d] = std::max<int64_t>(low[d], 0);
    high[d] = std::max<int64_t>(high[d], 0);
  }
  if (crop)
    dilated = b.createOrFold<prim::SliceOp>(n.getLoc(), dilated, offsets, sizes,
                                            SmallVector<int64_t>(rank, 1));
  Value result = prim::ConvolutionOp::create(b, n.getLoc(), dilated, regroupFilter(n, w, group),
                                             SmallVector<int64_t>(spatial, 1), low, high,
                                             window.dilations, static_cast<uint64_t>(group));
  if (bias) {
    Value biasB = broadcastChannels(n, convert(n, bias, elementOf(x)), getDims(n, result), "B");
    if (!biasB)
      return failure();
    result = prim::AddOp::create(b, n.getLoc(), result, biasB);
  }
  return n.setResults(result);
}

} // namespace

void tcc::decompose::registerConvTransposeRules(RuleRegistry &r) {
  r.add("", "ConvTranspose", 1, convTranspose);
  r.add("", "ConvTranspose", 11, convTranspose);
}
