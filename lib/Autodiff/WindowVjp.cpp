//===- WindowVjp.cpp - VJP rules of convolution and reduce_window (pooling) ------------===//
//
// Both read windows placed at o * stride + k * dilation - low. Their transposes send the
// cotangent back over the same positions, built from existing prims (prim has no interior
// padding or select_and_scatter): the cotangent spread with stride - 1 zeros between its
// elements (VjpBuilder::placeStrided) and reduced again by a stride-1 window op (sum, or a
// convolution with the flipped filter), or placed once per window offset (max, min).
//
//===----------------------------------------------------------------------------------===//
#include "VjpRules.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

namespace {

using Cts = ArrayRef<Value>;
using Out = MutableArrayRef<Value>;

/// Along `dim`: a tensor T of extent `in + (window - 1) dilation` with
/// T[o stride + (window - 1) dilation - low] = g[o], zeros elsewhere. Then
/// sum_k T[i + k dilation] f[window - 1 - k] = sum over (o, k) with o stride + k dilation - low
/// = i of g[o] f[k]: the transpose of the window op at input position i.
Value spread(VjpBuilder &b, Value g, int64_t dim, int64_t window, int64_t stride, int64_t dilation,
             int64_t low, OpFoldResult in) {
  int64_t reach = (window - 1) * dilation;
  return b.placeStrided(g, dim, b.b.getIndexAttr(reach - low), stride,
                        b.addIndex(in, b.b.getIndexAttr(reach)));
}

/// The 0-d identity of max (-inf) or min (+inf).
Value extremumIdentity(VjpBuilder &b, Type element, prim::ReduceKind kind) {
  double inf = std::numeric_limits<double>::infinity();
  return b.scalar(element, kind == prim::ReduceKind::Max ? -inf : inf);
}

// reduce_window sum: dx[i] = sum over (o, k) with o s + k dl - lo = i of g[o]; with g spread
//   per dim (T[o s + (w-1) dl - lo] = g[o]): dx = reduce_window sum of T, stride 1, dilation dl.
// reduce_window max (min): each window's cotangent goes to its first maximal (minimal) element
//   in row-major window order, as select_and_scatter with >=: ties go to the earliest window
//   offset, a window of padding only gives nothing, a NaN window gives nothing. Per window
//   offset k: x_k = the padded operand sliced at k dl with the window strides (x_k[o] is the
//   k-th element of window o); chosen_k = (x_k == y) and no earlier offset was; the padded
//   dx += g where chosen_k, placed back at k dl + o s; then the padding is cut.
LogicalResult reduceWindowRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto pool = cast<prim::ReduceWindowOp>(op);
  Value x = pool.getOperand(), y = pool.getResult();
  ArrayRef<int64_t> window = pool.getWindowDimensions(), strides = pool.getWindowStrides(),
                    dilations = pool.getWindowDilations(), low = pool.getPaddingLow(),
                    high = pool.getPaddingHigh();
  int64_t rank = VjpBuilder::typeOf(x).getRank();
  Type element = VjpBuilder::typeOf(x).getElementType();
  SmallVector<OpFoldResult> xDims = b.dims(x);
  auto untouched = [&](int64_t dim) {
    return window[dim] == 1 && strides[dim] == 1 && low[dim] == 0 && high[dim] == 0;
  };
  prim::ReduceKind kind = pool.getKind();
  if (kind == prim::ReduceKind::Sum) {
    Value spreadG = g[0];
    for (int64_t dim = 0; dim < rank; ++dim)
      if (!untouched(dim))
        spreadG = spread(b, spreadG, dim, window[dim], strides[dim], dilations[dim], low[dim],
                         xDims[dim]);
    SmallVector<int64_t> ones(rank, 1), none(rank, 0);
    Value dx = prim::ReduceWindowOp::create(b.b, b.loc, prim::ReduceKind::Sum, spreadG, window,
                                            ones, dilations, none, none);
    d[0] = b.castTo(dx, x.getType());
    return success();
  }
  if (kind != prim::ReduceKind::Max && kind != prim::ReduceKind::Min) {
    op->emitError() << nodePrefix(op) << "the VJP of reduce_window "
                    << prim::stringifyReduceKind(kind)
                    << " is not implemented (only sum, max and min)";
    return failure();
  }
  Value padded = prim::PadOp::create(b.b, b.loc, x, extremumIdentity(b, element, kind), low, high);
  SmallVector<OpFoldResult> paddedDims = b.dims(padded), yDims = b.dims(y);
  Value zero = b.splat(g[0], 0), taken, sum;
  SmallVector<int64_t> k(rank, 0);
  while (true) {
    SmallVector<OpFoldResult> offsets;
    for (int64_t dim = 0; dim < rank; ++dim)
      offsets.push_back(b.b.getIndexAttr(k[dim] * dilations[dim]));
    Value xk = b.b.createOrFold<prim::SliceOp>(b.loc, padded, offsets, yDims, strides);
    xk = b.castTo(xk, y.getType());
    Value hit = b.cmp(prim::CompareDirection::Eq, xk, y);
    Value chosen = taken ? b.create<prim::AndOp>(hit, b.create<prim::NotOp>(taken)) : hit;
    taken = taken ? b.create<prim::OrOp>(taken, hit) : hit;
    Value part = b.select(chosen, g[0], zero);
    for (int64_t dim = 0; dim < rank; ++dim)
      if (window[dim] != 1 || strides[dim] != 1)
        part = b.placeStrided(part, dim, offsets[dim], strides[dim], paddedDims[dim]);
    part = b.castTo(part, padded.getType());
    sum = sum ? b.add(sum, part) : part;
    // The next window offset, row-major.
    int64_t dim = rank - 1;
    for (; dim >= 0; --dim) {
      if (++k[dim] < window[dim])
        break;
      k[dim] = 0;
    }
    if (dim < 0)
      break;
  }
  for (int64_t dim = 0; dim < rank; ++dim)
    if (low[dim] != 0 || high[dim] != 0)
      sum = b.padOrCut(sum, dim, -low[dim], -high[dim]);
  d[0] = b.castTo(sum, x.getType());
  return success();
}

// convolution, y[n, o, x] = sum_{c, k} in[n, G(o) Cg + c, x s + k dl - lo] f[o, c, k]:
//   d in = convolution of g spread per spatial dim (stride - 1 zeros between elements,
//          (K-1) dl - lo before) with the filter flipped and its in/out channels swapped
//          within each group, stride 1, dilation dl, same groups;
//   d f[o, c, k] = sum_{n, x} g[n, o, x] in_padded[n, G(o) Cg + c, x s + k dl]: a convolution
//          with batch and channels swapped (each group's Cg channels become the batch, its N
//          samples the channels, so groups pair them with that group's output channels),
//          stride dl, filter dilation s; its first K positions.
LogicalResult convolutionRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  auto conv = cast<prim::ConvolutionOp>(op);
  Value input = conv.getInput(), filter = conv.getFilter();
  ArrayRef<int64_t> strides = conv.getStrides(), low = conv.getPaddingLow(),
                    high = conv.getPaddingHigh(), dilations = conv.getDilations();
  int64_t groups = conv.getFeatureGroupCount();
  RankedTensorType filterType = VjpBuilder::typeOf(filter);
  if (!filterType.hasStaticShape()) {
    op->emitError() << nodePrefix(op)
                    << "the VJP of prim.convolution needs a filter of static shape, got "
                    << filterType;
    return failure();
  }
  int64_t rank = filterType.getRank(), spatial = rank - 2;
  ArrayRef<int64_t> fShape = filterType.getShape();
  int64_t outChannels = fShape[0], groupChannels = fShape[1];
  int64_t outPerGroup = outChannels / groups, channels = groupChannels * groups;
  auto index = [&](int64_t v) -> OpFoldResult { return b.b.getIndexAttr(v); };
  SmallVector<OpFoldResult> inDims = b.dims(input), gDims = b.dims(g[0]);
  SmallVector<int64_t> unit(spatial, 1), none(spatial, 0), spatialDims;
  for (int64_t s = 0; s < spatial; ++s)
    spatialDims.push_back(s + 2);
  /// dims[0..3) followed by `rest`'s spatial extents.
  auto withSpatial = [&](std::initializer_list<OpFoldResult> lead, ArrayRef<OpFoldResult> rest) {
    SmallVector<OpFoldResult> result(lead);
    llvm::append_range(result, rest.drop_front(2));
    return result;
  };
  auto identityTail = [&](std::initializer_list<int64_t> lead, int64_t from) {
    SmallVector<int64_t> perm(lead);
    for (int64_t s = 0; s < spatial; ++s)
      perm.push_back(from + s);
    return perm;
  };
  SmallVector<OpFoldResult> fDims = b.dims(filter);

  // Input: spread g, convolve with the regrouped, flipped filter.
  Value spreadG = g[0];
  for (int64_t s = 0; s < spatial; ++s)
    spreadG =
        spread(b, spreadG, s + 2, fShape[s + 2], strides[s], dilations[s], low[s], inDims[s + 2]);
  Value regrouped = b.reshape(
      filter, withSpatial({index(groups), index(outPerGroup), index(groupChannels)}, fDims));
  regrouped = prim::TransposeOp::create(b.b, b.loc, regrouped, identityTail({0, 2, 1}, 3));
  regrouped = b.reshape(regrouped, withSpatial({index(channels), index(outPerGroup)}, fDims));
  regrouped = prim::ReverseOp::create(b.b, b.loc, regrouped, spatialDims);
  Value dIn = prim::ConvolutionOp::create(b.b, b.loc, spreadG, regrouped, unit, none, none,
                                          dilations, groups);
  d[0] = b.castTo(dIn, input.getType());

  // Filter: [N, C, P...] -> [Cg, G N, P...] against g [N, O, X...] -> [O, N, X...].
  Value paddedIn = input;
  for (int64_t s = 0; s < spatial; ++s)
    paddedIn = b.padOrCut(paddedIn, s + 2, low[s], high[s]);
  SmallVector<OpFoldResult> pDims = b.dims(paddedIn);
  OpFoldResult batch = inDims[0];
  Value lhs = b.reshape(paddedIn, withSpatial({batch, index(groups), index(groupChannels)}, pDims));
  lhs = prim::TransposeOp::create(b.b, b.loc, lhs, identityTail({2, 1, 0}, 3));
  lhs =
      b.reshape(lhs, withSpatial({index(groupChannels), b.mulIndex(index(groups), batch)}, pDims));
  Value rhs = b.reshape(g[0], withSpatial({batch, index(groups), index(outPerGroup)}, gDims));
  rhs = prim::TransposeOp::create(b.b, b.loc, rhs, identityTail({1, 2, 0}, 3));
  rhs = b.reshape(rhs, withSpatial({index(outChannels), batch}, gDims));
  Value dF =
      prim::ConvolutionOp::create(b.b, b.loc, lhs, rhs, dilations, none, none, strides, groups);
  dF = prim::TransposeOp::create(b.b, b.loc, dF, identityTail({1, 0}, 2));
  for (int64_t s = 0; s < spatial; ++s)
    if (VjpBuilder::typeOf(dF).getDimSize(s + 2) != fShape[s + 2])
      dF = b.slice(dF, s + 2, index(0), index(fShape[s + 2]));
  d[1] = b.castTo(dF, filter.getType());
  return success();
}

} // namespace

void tcc::autodiff::registerWindowVjps(VjpRegistry &r) {
  r.add("prim.reduce_window", reduceWindowRule);
  r.add("prim.convolution", convolutionRule);
}
