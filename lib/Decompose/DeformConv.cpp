//===- DeformConv.cpp - rule for DeformConv (deformable convolution) -----------------===//
//
// Each kernel tap of each output position samples the input bilinearly at a learned offset
// from its regular position. The samples are gathers of rows (as in GridSample, Sampling.cpp:
// clamped indices, taps outside the image masked to 0), weighted and summed into columns
// (N, group, C/group * kH * kW, oH * oW) that one batched matmul contracts with W.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"
#include "SamplingMath.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

using Direction = prim::CompareDirection;

// deform_conv(X, W, offset, B, mask)[n, o, i, j] =
//   B[o] + sum over c of o's group (o / (oC / group)) and taps (a, b) of
//     W[o, c mod (C / group), a, b] * mask[n, g, a, b, i, j] * bilinear(X[n, c], y, x)
// with g = c / (C / offset_group), offset viewed as (N, offset_group, kH, kW, 2, oH, oW)
// (y before x) and mask as (N, offset_group, kH, kW, oH, oW) (1 when absent):
//   y = i * strides[0] - pads[0] + a * dilations[0] + offset[n, g, a, b, 0, i, j]
//   x = j * strides[1] - pads[1] + b * dilations[1] + offset[n, g, a, b, 1, i, j]
//   bilinear(img, y, x) = sum over y' in floor(y) + {0, 1}, x' in floor(x) + {0, 1} of
//     (1 - |y - y'|) (1 - |x - x'|) img[y', x']   (0 for (y', x') outside the image)
// The output extent oH x oW is offset's; it must be
//   (H + pads[0] + pads[2] - dilations[0] (kH - 1) - 1) / strides[0] + 1 (likewise oW).
LogicalResult deformConv(NodeRewriter &n) {
  Value x = n.getInput(0), w = n.getInput(1), offset = n.getInput(2);
  if (!x || !w || !offset)
    return failure();
  Value bias = n.getOptionalInput(3), mask = n.getOptionalInput(4);
  if (rankOf(x) != 4)
    return n.emitError()
           << "input 0 (X) has type " << x.getType()
           << ", expected a 4-d tensor (N, C, H, W): tcc supports 2-d DeformConv only";
  Type element = elementOf(x);
  if (!isa<FloatType>(element))
    return n.emitError() << "input 0 (X) has type " << x.getType()
                         << ", expected a floating-point tensor";
  if (rankOf(w) != 4 || elementOf(w) != element)
    return n.emitError() << "input 1 (W) has type " << w.getType() << ", expected a 4-d tensor "
                         << "(oC, C / group, kH, kW) of X's element type " << element;
  if (rankOf(offset) != 4 || !isa<FloatType>(elementOf(offset)))
    return n.emitError() << "input 2 (offset) has type " << offset.getType()
                         << ", expected a 4-d floating-point tensor "
                         << "(N, offset_group * kH * kW * 2, oH, oW)";
  int64_t group = n.getInt("group", 1), offsetGroups = n.getInt("offset_group", 1);
  auto dilations = getSpatialInts(n, "dilations", 2, 1, 1);
  auto strides = dilations ? getSpatialInts(n, "strides", 2, 1, 1) : std::nullopt;
  auto pads = strides ? getSpatialInts(n, "pads", 4, 0, 0) : std::nullopt;
  if (!pads)
    return failure();
  if (group < 1 || offsetGroups < 1)
    return n.emitError() << "attributes group = " << group << " and offset_group = " << offsetGroups
                         << ", expected both >= 1";

  // Channel counts and the kernel must be static: they shape the contraction.
  auto wType = cast<RankedTensorType>(w.getType()), xType = cast<RankedTensorType>(x.getType());
  int64_t outChannels = wType.getDimSize(0), groupChannels = wType.getDimSize(1);
  int64_t kh = wType.getDimSize(2), kw = wType.getDimSize(3), channels = xType.getDimSize(1);
  if (ShapedType::isDynamic(channels) || wType.getNumDynamicDims() != 0)
    return n.emitError() << "input 0 (X) has type " << x.getType() << " and input 1 (W) "
                         << w.getType() << ", expected a static channel dim of X and a static W";
  if (auto kernel = n.getInts("kernel_shape"); kernel && *kernel != SmallVector<int64_t>{kh, kw})
    return n.emitError() << "attribute 'kernel_shape' does not match W's spatial dims " << kh
                         << " x " << kw;
  if (n.hasFailed())
    return failure();
  if (channels != groupChannels * group || outChannels % group != 0)
    return n.emitError() << "X has " << channels << " channels and W is (" << outChannels << ", "
                         << groupChannels << ", ...), expected C = W.dim1 * group (" << group
                         << ") and oC divisible by group";
  if (channels % offsetGroups != 0)
    return n.emitError() << "X has " << channels << " channels, expected a multiple of "
                         << "offset_group (" << offsetGroups << ")";
  int64_t taps = kh * kw;
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> xDims = getDims(n, x), offsetDims = getDims(n, offset);
  auto idx = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  if (auto c = getConstantIntValue(offsetDims[1]); c && *c != offsetGroups * taps * 2)
    return n.emitError() << "input 2 (offset) has type " << offset.getType() << ", expected dim 1 "
                         << "= offset_group * kH * kW * 2 = " << offsetGroups * taps * 2;
  checkEqual(n, offsetDims[1], idx(offsetGroups * taps * 2),
             "offset's dim 1 must be offset_group * kH * kW * 2");
  checkEqual(n, offsetDims[0], xDims[0], "offset's batch must equal X's");
  OpFoldResult outH = offsetDims[2], outW = offsetDims[3];
  int64_t kernelExtent[2] = {(*dilations)[0] * (kh - 1) + 1, (*dilations)[1] * (kw - 1) + 1};
  for (int64_t d = 0; d < 2; ++d) {
    OpFoldResult expected = addIndex(
        n,
        floorDivIndex(n,
                      subIndex(n, addIndex(n, xDims[2 + d], idx((*pads)[d] + (*pads)[d + 2])),
                               idx(kernelExtent[d])),
                      idx((*strides)[d])),
        idx(1));
    auto e = getConstantIntValue(expected), got = getConstantIntValue(offsetDims[2 + d]);
    if (e && got && *e != *got)
      return n.emitError() << "input 2 (offset) has " << *got << " output positions on spatial "
                           << "dim " << d << ", expected " << *e << " for X's extent, kernel, "
                           << "pads, strides and dilations";
    checkEqual(n, offsetDims[2 + d], expected,
               "offset's spatial dims must match the convolution's output");
  }
  if (mask && (rankOf(mask) != 4 || !isa<FloatType>(elementOf(mask))))
    return n.emitError() << "input 4 (mask) has type " << mask.getType() << ", expected a 4-d "
                         << "floating-point tensor (N, offset_group * kH * kW, oH, oW)";
  if (mask) {
    SmallVector<OpFoldResult> maskDims = getDims(n, mask);
    auto c = getConstantIntValue(maskDims[1]);
    if (c && *c != offsetGroups * taps)
      return n.emitError() << "input 4 (mask) has type " << mask.getType() << ", expected dim 1 "
                           << "= offset_group * kH * kW = " << offsetGroups * taps;
    checkEqual(n, maskDims[1], idx(offsetGroups * taps),
               "mask's dim 1 must be offset_group * kH * kW");
    for (int64_t d : {0, 2, 3})
      checkEqual(n, maskDims[d], offsetDims[d], "mask's dims 0, 2 and 3 must equal offset's");
  }

  // Positions (N, G, kH, kW, oH, oW) in pixel coordinates of X.
  Type real = element.isF64() ? element : Float32Type::get(n.getContext());
  OpFoldResult batch = xDims[0], height = xDims[2], width = xDims[3];
  SmallVector<OpFoldResult> dims = {batch, idx(offsetGroups), idx(kh), idx(kw), outH, outW};
  TensorMath m{n, dims, real};
  Value offsets = reshape(n, convert(n, offset, real),
                          {batch, idx(offsetGroups), idx(kh), idx(kw), idx(2), outH, outW});
  auto component = [&](int64_t c) {
    SmallVector<OpFoldResult> starts(7, idx(0)), sizes = getDims(n, offsets);
    starts[4] = idx(c);
    sizes[4] = idx(1);
    Value s =
        b.createOrFold<prim::SliceOp>(loc, offsets, starts, sizes, SmallVector<int64_t>(7, 1));
    return reshape(n, s, dims);
  };
  auto position = [&](int64_t d) {
    Value base = m.add(m.mul(m.iota(4 + d, real), m.constant((*strides)[d])),
                       m.mul(m.iota(2 + d, real), m.constant((*dilations)[d])));
    return m.add(m.sub(base, m.constant((*pads)[d])), component(d));
  };
  Value py = position(0), px = position(1);

  // Rows ((n * H + y) * W + x) * G + g of X as (N * H * W * G, C / G).
  int64_t sampledChannels = channels / offsetGroups;
  Value rows = reshape(n, convert(n, x, real),
                       {batch, idx(offsetGroups), idx(sampledChannels), height, width});
  rows = b.createOrFold<prim::TransposeOp>(loc, rows, ArrayRef<int64_t>{0, 3, 4, 1, 2});
  rows = reshape(n, rows,
                 {product(n, {batch, height, width, idx(offsetGroups)}), idx(sampledChannels)});
  Value groupsI = m.constant(static_cast<double>(offsetGroups), m.i64());
  Value widthI = m.extent(width, m.i64());
  Value heightI = m.extent(height, m.i64());
  Value imageRow =
      m.add(m.mul(m.mul(m.mul(m.iota(0, m.i64()), heightI), widthI), groupsI), m.iota(1, m.i64()));
  Value weightScale = mask ? reshape(n, convert(n, mask, real), dims) : Value();

  struct Tap {
    Value index, weight, inside;
  };
  auto axisTaps = [&](Value p, OpFoldResult extent) {
    Value low = m.floor(p), t = m.sub(p, low), last = m.sub(m.extent(extent, real), m.constant(1));
    SmallVector<Tap> result;
    for (int64_t k = 0; k < 2; ++k) {
      Value at = k == 0 ? low : m.add(low, m.constant(1));
      Value inside =
          m.both(m.cmp(Direction::Ge, at, m.constant(0)), m.cmp(Direction::Le, at, last));
      result.push_back({m.toIndex(at, extent), k == 0 ? m.sub(m.constant(1), t) : t, inside});
    }
    return result;
  };
  SmallVector<Tap> ys = axisTaps(py, height), xs = axisTaps(px, width);
  Value sampled, zero;
  for (const Tap &ty : ys)
    for (const Tap &tx : xs) {
      Value row = m.add(imageRow, m.mul(m.add(m.mul(ty.index, widthI), tx.index), groupsI));
      Value v = prim::GatherOp::create(b, loc, rows, row, 0);
      if (!zero)
        zero = fill(n, scalarConstant(n, real, 0.0), getDims(n, v));
      v = m.select(overChannels(n, m.both(ty.inside, tx.inside), dims, idx(sampledChannels)), v,
                   zero);
      Value weight = m.mul(ty.weight, tx.weight);
      if (weightScale)
        weight = m.mul(weight, weightScale);
      v = m.mul(overChannels(n, weight, dims, idx(sampledChannels)), v);
      sampled = sampled ? m.add(sampled, v) : v;
    }

  // Columns (N, group, C / group * kH * kW, oH * oW) contracted with W as
  // (group, oC / group, C / group * kH * kW).
  Value columns =
      b.createOrFold<prim::TransposeOp>(loc, sampled, ArrayRef<int64_t>{0, 1, 6, 2, 3, 4, 5});
  OpFoldResult positions = mulIndex(n, outH, outW);
  columns = reshape(n, columns, {batch, idx(group), idx(groupChannels * taps), positions});
  Value filters = reshape(n, convert(n, w, real),
                          {idx(group), idx(outChannels / group), idx(groupChannels * taps)});
  Value y = buildMatMul(n, filters, columns);
  if (!y)
    return failure();
  SmallVector<OpFoldResult> outDims = {batch, idx(outChannels), outH, outW};
  y = reshape(n, y, outDims);
  if (bias) {
    Value b64 = broadcastChannels(n, convert(n, bias, real), outDims, "input 3 (B)");
    if (!b64)
      return failure();
    y = prim::AddOp::create(b, loc, y, b64);
  }
  return n.setResults(convert(n, y, element));
}

} // namespace

void tcc::decompose::registerDeformConvRules(RuleRegistry &r) {
  r.add("", "DeformConv", 19, deformConv);
  r.add("", "DeformConv", 22, deformConv);
}
