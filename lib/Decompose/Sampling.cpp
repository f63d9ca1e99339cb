//===- Sampling.cpp - rules for GridSample, AffineGrid, RoiAlign, CenterCropPad --------===//
//
// Sampling at data-dependent positions becomes gathers with linear indices: the sampled
// tensor is laid out as rows of channels (N x spatial..., C), each tap's index is computed
// elementwise as n * prod(spatial) + sum_i idx_i * stride_i, and each tap is one prim.gather
// of rows weighted by its interpolation weight. Coordinates are always clamped into the
// input (RoiAlign's batch_indices are checked instead: one outside fails the run), and taps
// outside it (zeros padding, RoiAlign's samples beyond the map) are masked with selects, so
// no gather reads out of bounds and no weight of 0 meets an inf. CenterCropPad is a slice
// and a pad (Col2Im: Col2Im.cpp).
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuntimeAxes.h"
#include "RuleFamilies.h"
#include "SamplingMath.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

using Direction = prim::CompareDirection;

/// The most gathers (taps to the power of the spatial rank) one GridSample may need.
constexpr int64_t kMaxTapCombinations = 256;
/// The most sampling points per bin and axis an adaptive RoiAlign may use.
constexpr int64_t kMaxRoiSamples = 1024;

/// The type sampled values of `element` are interpolated in: f64 for f64 and integers, else
/// f32 (16-bit floats are widened).
Type computeTypeFor(NodeRewriter &n, Type element) {
  if (element.isF64() || (isa<IntegerType>(element) && !element.isInteger(1)))
    return Float64Type::get(n.getContext());
  return Float32Type::get(n.getContext());
}

/// A 1-d constant of float type `type` holding `values`.
Value realVector(NodeRewriter &n, ArrayRef<double> values, Type type) {
  auto tensorType = RankedTensorType::get({static_cast<int64_t>(values.size())}, type);
  SmallVector<APFloat> converted;
  for (double v : values) {
    APFloat f(v);
    bool lost;
    f.convert(cast<FloatType>(type).getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    converted.push_back(f);
  }
  return arith::ConstantOp::create(n.getBuilder(), n.getLoc(),
                                   DenseElementsAttr::get(tensorType, converted));
}

/// False after an error when `extent` (dim `dim` of input `what`) is 0; a dynamic extent
/// gets a run-time check: indices clamped into an empty axis would still read outside it.
bool checkNotEmpty(NodeRewriter &n, OpFoldResult extent, int64_t dim, StringRef what) {
  if (auto c = getConstantIntValue(extent)) {
    if (*c > 0)
      return true;
    n.emitError() << "dim " << dim << " of " << what << " is empty, expected at least one "
                  << "element to sample from";
    return false;
  }
  OpBuilder &b = n.getBuilder();
  Value positive = b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::sgt,
                                                 toIndex(n, extent), toIndex(n, b.getIndexAttr(0)));
  prim::CheckOp::create(b, n.getLoc(), positive,
                        b.getStringAttr("node '" + n.getNode().getNodeName() + "' (" +
                                        n.getOpType() + "): dim " + std::to_string(dim) + " of " +
                                        what + " must not be empty"));
  return true;
}

/// `x` laid out as rows of channels: (N, C, S...) -> (N * prod(S), C), converted to `type`.
Value channelRows(NodeRewriter &n, Value x, Type type) {
  int64_t rank = rankOf(x);
  SmallVector<int64_t> perm = {0};
  for (int64_t d = 2; d < rank; ++d)
    perm.push_back(d);
  perm.push_back(1);
  SmallVector<OpFoldResult> dims = getDims(n, x), positions = {dims[0]};
  positions.append(dims.begin() + 2, dims.end());
  Value t = n.getBuilder().createOrFold<prim::TransposeOp>(n.getLoc(), convert(n, x, type), perm);
  return reshape(n, t, {product(n, positions), dims[1]});
}

/// (B, S..., C) -> (B, C, S...): the channels of gathered rows back in second place.
Value channelsSecond(NodeRewriter &n, Value v) {
  int64_t rank = rankOf(v);
  SmallVector<int64_t> perm = {0, rank - 1};
  for (int64_t d = 1; d + 1 < rank; ++d)
    perm.push_back(d);
  return n.getBuilder().createOrFold<prim::TransposeOp>(n.getLoc(), v, perm);
}

//===----------------------------------------------------------------------------------===//
// GridSample
//===----------------------------------------------------------------------------------===//

enum class Interpolation { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

/// The taps of one spatial axis: clamped i64 indices, weights (none for nearest) and, with
/// zeros padding, whether each tap lies inside the input.
struct AxisTaps {
  SmallVector<Value> indices, weights, inside;
};

/// reflect(x) into [lo, hi] as ONNX's reference does, bouncing until inside:
///   dx = distance beyond the nearer bound, k = floor(dx / (hi - lo)), r = dx - k (hi - lo),
///   below lo: k even ? lo + r : hi - r;  above hi: k even ? hi - r : lo + r
Value reflect(TensorMath &m, Value x, Value lo, Value hi) {
  Value below = m.cmp(Direction::Lt, x, lo), above = m.cmp(Direction::Gt, x, hi);
  Value range = m.sub(hi, lo);
  Value dx = m.select(below, m.sub(lo, x), m.sub(x, hi));
  Value k = m.floor(m.div(dx, range));
  Value r = m.sub(dx, m.mul(k, range));
  Value even =
      m.cmp(Direction::Eq, m.sub(k, m.mul(m.floor(m.mul(k, m.constant(0.5))), m.constant(2))),
            m.constant(0));
  Value fromLow = m.select(below, even, m.negate(even));
  Value reflected = m.select(fromLow, m.add(lo, r), m.sub(hi, r));
  return m.select(m.either(below, above), reflected, x);
}

/// The taps of a spatial axis of extent `extent` at normalized coordinates `g` (f64). The
/// pixel coordinate is rounded to `coordinateType` (the reference keeps it in float32 unless
/// the grid is f64); the rest is computed in f64 (the reference's Python floats) and the
/// weights are returned as `weightType`.
AxisTaps gridAxisTaps(TensorMath &m, Value g, OpFoldResult extent, Interpolation mode,
                      Padding padding, bool alignCorners, Type coordinateType, Type weightType) {
  Value d = m.extent(extent, m.real), one = m.constant(1), half = m.constant(0.5);
  Value x = alignCorners ? m.mul(m.mul(m.add(g, one), half), m.sub(d, one))
                         : m.mul(m.sub(m.mul(m.add(g, one), d), one), half);
  x = convert(m.n, convert(m.n, x, coordinateType), m.real);
  Value lo = alignCorners ? m.constant(0) : m.constant(-0.5);
  Value hi = alignCorners ? m.sub(d, one) : m.sub(d, half);
  if (mode == Interpolation::Nearest)
    x = m.create<prim::RoundEvenOp>(x);
  if (padding == Padding::Border) {
    Value outside = m.either(m.cmp(Direction::Lt, x, lo), m.cmp(Direction::Gt, x, hi));
    x = m.select(outside, m.clamp(m.constant(0), x, m.sub(d, one)), x);
  } else if (padding == Padding::Reflection) {
    x = reflect(m, x, lo, hi);
  }
  AxisTaps taps;
  Value base = x;
  SmallVector<int64_t> offsets = {0};
  if (mode != Interpolation::Nearest) {
    base = m.floor(x);
    Value t = m.sub(x, base);
    if (mode == Interpolation::Linear) {
      offsets = {0, 1};
      taps.weights = {m.sub(one, t), t};
    } else {
      // Keys' cubic kernel with A = -0.75: W(s) = (A + 2)|s|^3 - (A + 3)|s|^2 + 1 for
      // |s| <= 1, A|s|^3 - 5A|s|^2 + 8A|s| - 4A for 1 < |s| < 2.
      constexpr double A = -0.75;
      auto nearKernel = [&](Value s) {
        return m.add(m.mul(m.mul(m.sub(m.mul(m.constant(A + 2), s), m.constant(A + 3)), s), s),
                     one);
      };
      auto farKernel = [&](Value s) {
        Value p =
            m.add(m.mul(m.sub(m.mul(m.constant(A), s), m.constant(5 * A)), s), m.constant(8 * A));
        return m.sub(m.mul(p, s), m.constant(4 * A));
      };
      Value mirrored = m.sub(one, t);
      offsets = {-1, 0, 1, 2};
      taps.weights = {farKernel(m.add(t, one)), nearKernel(t), nearKernel(mirrored),
                      farKernel(m.add(mirrored, one))};
    }
  }
  for (int64_t offset : offsets) {
    Value i = offset == 0 ? base : m.add(base, m.constant(static_cast<double>(offset)));
    if (padding == Padding::Zeros)
      taps.inside.push_back(
          m.both(m.cmp(Direction::Ge, i, m.constant(0)), m.cmp(Direction::Le, i, m.sub(d, one))));
    else if (padding == Padding::Reflection)
      i = reflect(m, i, lo, hi);
    taps.indices.push_back(m.toIndex(i, extent));
  }
  for (Value &w : taps.weights)
    w = convert(m.n, w, weightType);
  return taps;
}

// grid_sample(X, grid)[n, c, h...] = sum over taps (k_1..k_r) of
//   prod_i w_i(k_i) * X[n, c, idx_1(k_1), ..., idx_r(k_r)]  (0 for a tap outside, zeros padding)
// with x_i from g_i = grid[n, h..., r - 1 - i] on axis i of extent d_i:
//   x_i = align_corners ? (g_i + 1) / 2 (d_i - 1) : ((g_i + 1) d_i - 1) / 2  (nearest: rounded
//   half to even), bounds [lo, hi] = align_corners ? [0, d_i - 1] : [-0.5, d_i - 0.5];
//   outside them border clamps x_i into [0, d_i - 1] and reflection reflects it;
//   taps floor(x_i) + {0, 1} weighted [1 - t, t] (linear) or + {-1, 0, 1, 2} weighted by Keys'
//   kernel with A = -0.75 (cubic), t = x_i - floor(x_i); a tap index outside [0, d_i - 1] is
//   clamped (border), reflected (reflection) or reads 0 (zeros).
// GridSample-16 has only 2-d images and names the modes bilinear and bicubic.
template <bool Legacy> LogicalResult gridSample(NodeRewriter &n) {
  Value x = n.getInput(0), grid = n.getInput(1);
  if (!x || !grid)
    return failure();
  auto mode = Legacy ? getChoice<Interpolation>(n, "mode", "bilinear",
                                                {{"bilinear", Interpolation::Linear},
                                                 {"nearest", Interpolation::Nearest},
                                                 {"bicubic", Interpolation::Cubic}})
                     : getChoice<Interpolation>(n, "mode", "linear",
                                                {{"linear", Interpolation::Linear},
                                                 {"nearest", Interpolation::Nearest},
                                                 {"cubic", Interpolation::Cubic}});
  auto padding = mode ? getChoice<Padding>(n, "padding_mode", "zeros",
                                           {{"zeros", Padding::Zeros},
                                            {"border", Padding::Border},
                                            {"reflection", Padding::Reflection}})
                      : std::nullopt;
  if (!padding)
    return failure();
  bool alignCorners = n.getInt("align_corners", 0) != 0;
  if (n.hasFailed())
    return failure();
  int64_t rank = rankOf(x), spatial = rank - 2;
  if (Legacy ? rank != 4 : rank < 3)
    return n.emitError() << "input 0 (X) has type " << x.getType() << ", expected "
                         << (Legacy ? "a 4-d tensor (N, C, H, W)"
                                    : "rank >= 3 (N, C, D1, ..., Dr)");
  Type element = elementOf(x), gridElement = elementOf(grid);
  if (!isa<FloatType>(gridElement))
    return n.emitError() << "input 1 (grid) has type " << grid.getType()
                         << ", expected a floating-point tensor";
  if (*mode != Interpolation::Nearest && !isa<FloatType>(element) &&
      (!isa<IntegerType>(element) || element.isInteger(1)))
    return n.emitError() << "input 0 (X) has type " << x.getType()
                         << ", expected numbers for linear and cubic interpolation";
  if (rankOf(grid) != rank || typeOf(grid).getDimSize(rank - 1) != spatial)
    return n.emitError() << "input 1 (grid) has type " << grid.getType() << ", expected rank "
                         << rank << " (N, D1_out, ..., Dr_out, " << spatial
                         << ") with a static last dim of " << spatial;
  int64_t tapsPerAxis = *mode == Interpolation::Nearest  ? 1
                        : *mode == Interpolation::Linear ? 2
                                                         : 4;
  int64_t combinations = 1;
  for (int64_t i = 0; i < spatial && combinations <= kMaxTapCombinations; ++i)
    combinations *= tapsPerAxis;
  if (combinations > kMaxTapCombinations)
    return n.emitError() << "interpolating " << spatial << " spatial dims needs " << tapsPerAxis
                         << "^" << spatial << " gathers, tcc supports at most "
                         << kMaxTapCombinations;
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> xDims = getDims(n, x), gridDims = getDims(n, grid);
  auto xBatch = getConstantIntValue(xDims[0]), gridBatch = getConstantIntValue(gridDims[0]);
  if (xBatch && gridBatch && *xBatch != *gridBatch)
    return n.emitError() << "input 1 (grid) has batch " << *gridBatch << ", expected X's "
                         << *xBatch;
  checkEqual(n, gridDims[0], xDims[0], "the grid's batch must equal X's");
  for (int64_t d = 2; d < rank; ++d)
    if (!checkNotEmpty(n, xDims[d], d, "input 0 (X)"))
      return failure();
  SmallVector<OpFoldResult> outDims(gridDims.begin(), gridDims.end() - 1);
  Type real = Float64Type::get(n.getContext());
  Type valueType = *mode == Interpolation::Nearest ? element : computeTypeFor(n, element);
  Type coordinateType = gridElement.isF64() ? real : Float32Type::get(n.getContext());
  TensorMath m{n, outDims, real};

  // Per axis taps; axis i reads grid coordinate r - 1 - i (x first, then y, ...).
  SmallVector<AxisTaps> axes;
  Value grid64 = convert(n, grid, real);
  for (int64_t i = 0; i < spatial; ++i) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes(gridDims);
    offsets[rank - 1] = b.getIndexAttr(spatial - 1 - i);
    sizes[rank - 1] = b.getIndexAttr(1);
    Value g =
        b.createOrFold<prim::SliceOp>(loc, grid64, offsets, sizes, SmallVector<int64_t>(rank, 1));
    axes.push_back(gridAxisTaps(m, reshape(n, g, outDims), xDims[2 + i], *mode, *padding,
                                alignCorners, coordinateType, valueType));
  }

  // Row n * prod(D) + sum_i idx_i * stride_i of X as (N * prod(D), C).
  Value rows = channelRows(n, x, valueType);
  SmallVector<OpFoldResult> strides(spatial, b.getIndexAttr(1));
  for (int64_t i = spatial - 2; i >= 0; --i)
    strides[i] = mulIndex(n, strides[i + 1], xDims[3 + i]);
  OpFoldResult image = mulIndex(n, strides[0], xDims[2]);
  Value batchRow = m.mul(m.iota(0, m.i64()), m.extent(image, m.i64()));
  OpFoldResult channels = xDims[1];
  Value zero;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    for (Value &index : axis.indices)
      if (!getConstantIntValue(strides[i]) || *getConstantIntValue(strides[i]) != 1)
        index = m.mul(index, m.extent(strides[i], m.i64()));
    for (Value &weight : axis.weights)
      weight = overChannels(n, weight, outDims, channels);
  }
  // Nested as the reference interpolates: the last axis innermost, each level a weighted
  // sum over its taps; a tap outside the input (zeros) reads 0 at the innermost level.
  std::function<Value(int64_t, Value, Value)> interpolate = [&](int64_t i, Value index,
                                                                Value inside) -> Value {
    Value sum;
    for (auto [k, tapIndex] : llvm::enumerate(axes[i].indices)) {
      Value at = m.add(index, tapIndex), within = inside;
      if (!axes[i].inside.empty())
        within = within ? m.both(within, axes[i].inside[k]) : axes[i].inside[k];
      Value v;
      if (i + 1 < spatial) {
        v = interpolate(i + 1, at, within);
      } else {
        v = prim::GatherOp::create(b, loc, rows, at, 0);
        if (within) {
          if (!zero)
            zero = fill(n, scalarConstant(n, valueType, 0.0), getDims(n, v));
          v = m.select(overChannels(n, within, outDims, channels), v, zero);
        }
      }
      if (!axes[i].weights.empty())
        v = m.mul(axes[i].weights[k], v);
      sum = sum ? m.add(sum, v) : v;
    }
    return sum;
  };
  Value sum = interpolate(0, batchRow, Value());
  return n.setResults(convert(n, channelsSecond(n, sum), element));
}

//===----------------------------------------------------------------------------------===//
// AffineGrid
//===----------------------------------------------------------------------------------===//

/// The evenly spaced base coordinates in [-1, 1] along an axis of `extent` positions:
///   align_corners: -1 + i * 2 / (s - 1) (-1 when s = 1);  else: -1 + 1 / s + i * 2 / s
Value baseCoordinates(NodeRewriter &n, OpFoldResult extent, bool alignCorners, Type real) {
  if (auto s = getConstantIntValue(extent)) {
    SmallVector<double> values;
    double step = alignCorners ? 2.0 / static_cast<double>(std::max<int64_t>(*s - 1, 1))
                               : 2.0 / static_cast<double>(*s);
    double start = alignCorners ? -1.0 : -1.0 + step / 2;
    for (int64_t i = 0; i < *s; ++i)
      values.push_back(start + static_cast<double>(i) * step);
    return realVector(n, values, real);
  }
  TensorMath m{n, {extent}, real};
  Value s = m.extent(extent, real), one = m.constant(1), two = m.constant(2);
  Value step = alignCorners ? m.div(two, m.max(m.sub(s, one), one)) : m.div(two, s);
  Value start = alignCorners ? m.constant(-1) : m.add(m.constant(-1), m.div(step, two));
  return m.add(start, m.mul(m.iota(0, real), step));
}

// affine_grid(theta, size)[n, s..., j] = theta[n, j, r] + sum_k theta[n, j, k] * base_k
// with base_k the base coordinate (see baseCoordinates) along spatial dim r - 1 - k of
// size[2:] (k = 0 is the width), r = 2 (size = N, C, H, W) or 3 (N, C, D, H, W)
LogicalResult affineGrid(NodeRewriter &n) {
  Value theta = n.getFloatInput(0), size = n.getInput(1);
  if (!theta || !size)
    return failure();
  bool alignCorners = n.getInt("align_corners", 0) != 0;
  if (n.hasFailed())
    return failure();
  auto elements = getShapeElements(n, size);
  if (!elements || (elements->size() != 4 && elements->size() != 5))
    return n.emitError() << "input 1 (size) has type " << size.getType()
                         << ", expected 4 (N, C, H, W) or 5 (N, C, D, H, W) integers";
  int64_t spatial = static_cast<int64_t>(elements->size()) - 2;
  RankedTensorType thetaType = typeOf(theta);
  if (thetaType.getRank() != 3 || thetaType.getDimSize(1) != spatial ||
      thetaType.getDimSize(2) != spatial + 1)
    return n.emitError() << "input 0 (theta) has type " << theta.getType() << ", expected (N, "
                         << spatial << ", " << spatial + 1 << ") for a " << spatial << "-d size";
  SmallVector<OpFoldResult> extents(elements->begin() + 2, elements->end());
  for (OpFoldResult e : extents)
    if (auto c = getConstantIntValue(e); c && *c < 0)
      return n.emitError() << "input 1 (size) has a negative extent " << *c;
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  // In f64, as the reference multiplies theta by its float64 base grid.
  Type element = thetaType.getElementType(), real = Float64Type::get(n.getContext());
  SmallVector<OpFoldResult> outDims = {getDims(n, theta)[0]};
  outDims.append(extents);
  TensorMath m{n, outDims, real};
  SmallVector<Value> base;
  for (int64_t k = 0; k < spatial; ++k)
    base.push_back(
        m.along(baseCoordinates(n, extents[spatial - 1 - k], alignCorners, real), {spatial - k}));
  Value theta64 = convert(n, theta, real);
  auto coefficient = [&](int64_t j, int64_t k) {
    SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(j), b.getIndexAttr(k)};
    SmallVector<OpFoldResult> sizes = {outDims[0], b.getIndexAttr(1), b.getIndexAttr(1)};
    Value entry =
        b.createOrFold<prim::SliceOp>(loc, theta64, offsets, sizes, SmallVector<int64_t>(3, 1));
    return m.along(reshape(n, entry, {outDims[0]}), {0});
  };
  SmallVector<OpFoldResult> columnDims(outDims);
  columnDims.push_back(b.getIndexAttr(1));
  SmallVector<Value> columns;
  for (int64_t j = 0; j < spatial; ++j) {
    Value c = coefficient(j, spatial);
    for (int64_t k = 0; k < spatial; ++k)
      c = m.add(c, m.mul(coefficient(j, k), base[k]));
    columns.push_back(reshape(n, convert(n, c, element), columnDims));
  }
  return n.setResults(prim::ConcatenateOp::create(b, loc, columns, spatial + 1).getResult());
}

//===----------------------------------------------------------------------------------===//
// RoiAlign
//===----------------------------------------------------------------------------------===//

/// One spatial axis of RoiAlign's samples: roi columns `lowColumn` and `highColumn` of the
/// rois, the map's extent, the pooled extent and the sampling points per bin.
struct RoiAxis {
  int64_t lowColumn, highColumn;
  OpFoldResult extent;
  int64_t pooled;
  Value count;    // (R) real: sampling points per bin of each roi
  int64_t points; // their maximum, the extent of the samples' axis
};

/// The samples of one axis, each of shape (R, pooled, points): the two clamped indices,
/// their weights, whether the sample lies on the map and (adaptive) whether it is used.
struct RoiSamples {
  Value low, high, lowWeight, highWeight, onMap, used;
};

/// y = start + p * bin + (i + 0.5) * bin / count for bin p and point i; outside [-1, extent]
/// the sample reads nothing; else y = max(y, 0), low = floor(y), high = low + 1 (both the
/// last row when low >= extent - 1, where y = low), weights [1 - (y - low), y - low].
RoiSamples roiAxisSamples(NodeRewriter &n, const RoiAxis &a, Value rois, double scale,
                          bool halfPixel, Type real) {
  OpBuilder &b = n.getBuilder();
  OpFoldResult roiCount = getDims(n, rois)[0];
  auto column = [&](int64_t c) {
    SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(c)};
    SmallVector<OpFoldResult> sizes = {roiCount, b.getIndexAttr(1)};
    Value v =
        b.createOrFold<prim::SliceOp>(n.getLoc(), rois, offsets, sizes, SmallVector<int64_t>{1, 1});
    return reshape(n, v, {roiCount});
  };
  TensorMath r{n, {roiCount}, real};
  Value offset = r.constant(halfPixel ? 0.5 : 0.0), s = r.constant(scale);
  Value start = r.sub(r.mul(column(a.lowColumn), s), offset);
  Value end = r.sub(r.mul(column(a.highColumn), s), offset);
  Value length = r.sub(end, start);
  if (!halfPixel)
    length = r.max(length, r.constant(1));
  Value bin = r.div(length, r.constant(static_cast<double>(a.pooled)));

  TensorMath m{n, {roiCount, b.getIndexAttr(a.pooled), b.getIndexAttr(a.points)}, real};
  Value count = m.along(a.count, {0});
  Value binB = m.along(bin, {0}), point = m.iota(2, real);
  Value y = m.add(m.add(m.along(start, {0}), m.mul(m.iota(1, real), binB)),
                  m.div(m.mul(m.add(point, m.constant(0.5)), binB), count));
  RoiSamples samples;
  Value e = m.extent(a.extent, real), last = m.sub(e, m.constant(1));
  samples.onMap = m.both(m.cmp(Direction::Ge, y, m.constant(-1)), m.cmp(Direction::Le, y, e));
  samples.used = m.cmp(Direction::Lt, point, count);
  y = m.max(y, m.constant(0));
  Value low = m.floor(y);
  Value atEnd = m.cmp(Direction::Ge, low, last);
  low = m.select(atEnd, last, low);
  Value high = m.select(atEnd, last, m.add(low, m.constant(1)));
  y = m.select(atEnd, last, y);
  samples.highWeight = m.sub(y, low);
  samples.lowWeight = m.sub(m.constant(1), samples.highWeight);
  samples.low = m.toIndex(low, a.extent);
  samples.high = m.toIndex(high, a.extent);
  return samples;
}

/// The constant values of a floating-point tensor, or std::nullopt.
std::optional<SmallVector<double>> getConstantReals(Value v) {
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<double> values;
  for (APFloat f : attr.getValues<APFloat>()) {
    bool lost;
    f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    values.push_back(f.convertToDouble());
  }
  return values;
}

// roi_align(X, rois, batch_indices)[r, c, ph, pw] = avg or max over the sampling points
// (iy, ix) of bin (ph, pw) of roi r, each bilinearly interpolated from X[batch_indices[r], c]
// (see roiAxisSamples): avg = sum of w1 v1 + w2 v2 + w3 v3 + w4 v4 over the points / max(gh gw, 1),
// max = max over the points of max(w1 v1, w2 v2, w3 v3, w4 v4); a point off the map
// contributes 0. Roi r spans [x1, x2] * spatial_scale - offset (offset 0.5 for half_pixel,
// else the extents are at least 1), bins extent / output, points per bin sampling_ratio or,
// adaptive, ceil(roi extent / output extent). RoiAlign-10 has no half_pixel.
template <bool HasTransformationMode> LogicalResult roiAlign(NodeRewriter &n) {
  Value x = n.getFloatInput(0), rois = n.getFloatInput(1), batchIndices = n.getInput(2);
  if (!x || !rois || !batchIndices)
    return failure();
  bool isMax = false;
  if (auto mode = getChoice<bool>(n, "mode", "avg", {{"avg", false}, {"max", true}}))
    isMax = *mode;
  else
    return failure();
  bool halfPixel = false;
  if (HasTransformationMode) {
    auto transform = getChoice<bool>(n, "coordinate_transformation_mode", "half_pixel",
                                     {{"half_pixel", true}, {"output_half_pixel", false}});
    if (!transform)
      return failure();
    halfPixel = *transform;
  }
  int64_t outputHeight = n.getInt("output_height", 1), outputWidth = n.getInt("output_width", 1);
  int64_t samplingRatio = n.getInt("sampling_ratio", 0);
  double scale = n.getFloat("spatial_scale", 1.0f);
  if (n.hasFailed())
    return failure();
  if (outputHeight < 1 || outputWidth < 1)
    return n.emitError() << "attributes 'output_height' and 'output_width' are " << outputHeight
                         << " and " << outputWidth << ", expected >= 1";
  if (samplingRatio < 0)
    return n.emitError() << "attribute 'sampling_ratio' is " << samplingRatio << ", expected >= 0";
  if (rankOf(x) != 4)
    return n.emitError() << "input 0 (X) has type " << x.getType()
                         << ", expected a 4-d tensor (N, C, H, W)";
  if (rankOf(rois) != 2 || typeOf(rois).getDimSize(1) != 4)
    return n.emitError() << "input 1 (rois) has type " << rois.getType()
                         << ", expected (num_rois, 4)";
  Type indexElement = elementOf(batchIndices);
  if (rankOf(batchIndices) != 1 || !isa<IntegerType>(indexElement) || indexElement.isInteger(1))
    return n.emitError() << "input 2 (batch_indices) has type " << batchIndices.getType()
                         << ", expected a 1-d integer tensor";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  if (samplingRatio > kMaxRoiSamples)
    return n.emitError() << "attribute 'sampling_ratio' is " << samplingRatio
                         << ", tcc supports at most " << kMaxRoiSamples;
  // Sample positions and weights in f64 (the reference's Python floats), values in f32 (f64
  // for f64 data).
  Type element = elementOf(x), real = Float64Type::get(n.getContext());
  Type valueType = computeTypeFor(n, element);
  SmallVector<OpFoldResult> xDims = getDims(n, x), roiDims = getDims(n, rois);
  for (int64_t d : {0, 2, 3})
    if (!checkNotEmpty(n, xDims[d], d, "input 0 (X)"))
      return failure();
  OpFoldResult roiCount = roiDims[0];
  auto roiStatic = getConstantIntValue(roiCount),
       indexCount = getConstantIntValue(getDims(n, batchIndices)[0]);
  if (roiStatic && indexCount && *roiStatic != *indexCount)
    return n.emitError() << "input 2 (batch_indices) has " << *indexCount
                         << " entries, expected one per roi (" << *roiStatic << ")";
  checkEqual(n, getDims(n, batchIndices)[0], roiCount, "batch_indices must have one entry per roi");

  RoiAxis height{1, 3, xDims[2], outputHeight, {}, samplingRatio};
  RoiAxis width{0, 2, xDims[3], outputWidth, {}, samplingRatio};
  SmallVector<double> divisors;
  SmallVector<bool> sampled;
  if (samplingRatio > 0) {
    height.count = width.count =
        TensorMath{n, {roiCount}, real}.constant(static_cast<double>(samplingRatio));
  } else {
    // Adaptive: the points per bin depend on each roi's extent, known only for constant rois.
    auto values = getConstantReals(rois);
    if (!values)
      return n.emitError() << "sampling_ratio 0 (adaptive) needs input 1 (rois) to be a "
                           << "constant (an initializer or a Constant node): the number of "
                           << "sampling points per bin depends on each roi's size; give a "
                           << "sampling_ratio > 0 otherwise";
    SmallVector<double> countH, countW;
    height.points = width.points = 1;
    double offset = halfPixel ? 0.5 : 0.0;
    for (size_t r = 0; r + 3 < values->size(); r += 4) {
      auto points = [&](double low, double high, int64_t pooled) {
        double extent = (high * scale - offset) - (low * scale - offset);
        if (!halfPixel)
          extent = std::max(extent, 1.0);
        double p = std::ceil(extent / static_cast<double>(pooled));
        return std::isfinite(p) ? std::max(p, 0.0) : 0.0;
      };
      double h = points((*values)[r + 1], (*values)[r + 3], outputHeight);
      double w = points((*values)[r], (*values)[r + 2], outputWidth);
      if (h > kMaxRoiSamples || w > kMaxRoiSamples)
        return n.emitError() << "roi " << r / 4 << " needs " << h << " x " << w
                             << " sampling points per bin, tcc supports at most " << kMaxRoiSamples
                             << " per axis";
      countH.push_back(h);
      countW.push_back(w);
      height.points = std::max(height.points, static_cast<int64_t>(h));
      width.points = std::max(width.points, static_cast<int64_t>(w));
      divisors.push_back(std::max(h * w, 1.0));
      sampled.push_back(h * w > 0);
    }
    height.count = realVector(n, countH, real);
    width.count = realVector(n, countW, real);
  }
  Value rois64 = convert(n, rois, real);
  RoiSamples ys = roiAxisSamples(n, height, rois64, scale, halfPixel, real);
  RoiSamples xs = roiAxisSamples(n, width, rois64, scale, halfPixel, real);

  // Samples (R, ph, iy, pw, ix): rows batch * H * W + y * W + x of X as (N * H * W, C).
  SmallVector<OpFoldResult> dims = {roiCount, b.getIndexAttr(outputHeight),
                                    b.getIndexAttr(height.points), b.getIndexAttr(outputWidth),
                                    b.getIndexAttr(width.points)};
  TensorMath m{n, dims, real};
  auto alongY = [&](Value v) { return m.along(v, {0, 1, 2}); };
  auto alongX = [&](Value v) { return m.along(v, {0, 3, 4}); };
  OpFoldResult image = mulIndex(n, xDims[2], xDims[3]);
  // Each roi's first row, image * H * W, gathered from a table of the N images' first rows:
  // an index outside [0, N) (ONNX leaves it undefined) fails the run rather than reading
  // another image.
  TensorMath images{n, {xDims[0]}, real};
  Value firstRows = images.mul(images.iota(0, images.i64()), images.extent(image, images.i64()));
  Value batchRow = m.along(gatherInRange(n, firstRows, convert(n, batchIndices, images.i64()),
                                         0, "batch_indices", "the batch of X"),
                           {0});
  Value widthI = m.extent(xDims[3], m.i64());
  Value rowLow = m.add(batchRow, m.mul(alongY(ys.low), widthI));
  Value rowHigh = m.add(batchRow, m.mul(alongY(ys.high), widthI));
  Value rows = channelRows(n, x, valueType);
  SmallVector<Value> terms;
  for (auto [row, wy] : {std::pair(rowLow, ys.lowWeight), std::pair(rowHigh, ys.highWeight)})
    for (auto [column, wx] : {std::pair(xs.low, xs.lowWeight), std::pair(xs.high, xs.highWeight)}) {
      Value gathered = prim::GatherOp::create(b, loc, rows, m.add(row, alongX(column)), 0);
      Value weight = convert(n, m.mul(alongY(wy), alongX(wx)), valueType);
      terms.push_back(m.mul(gathered, overChannels(n, weight, dims, xDims[1])));
    }
  Value value = isMax ? m.max(m.max(terms[0], terms[1]), m.max(terms[2], terms[3]))
                      : m.add(m.add(terms[0], terms[1]), m.add(terms[2], terms[3]));
  SmallVector<OpFoldResult> valueDims = getDims(n, value);
  Value zero = fill(n, scalarConstant(n, valueType, 0.0), valueDims);
  Value onMap = m.both(alongY(ys.onMap), alongX(xs.onMap));
  value = m.select(overChannels(n, onMap, dims, xDims[1]), value, zero);
  if (samplingRatio == 0) {
    // Points beyond a roi's own count take no part: 0 in a sum, -inf in a max.
    Value unused = fill(n, scalarConstant(n, valueType, isMax ? -INFINITY : 0.0), valueDims);
    Value used = m.both(alongY(ys.used), alongX(xs.used));
    value = m.select(overChannels(n, used, dims, xDims[1]), value, unused);
  }
  Value pooled =
      prim::ReduceOp::create(b, loc, isMax ? prim::ReduceKind::Max : prim::ReduceKind::Sum, value,
                             ArrayRef<int64_t>{2, 4});
  SmallVector<OpFoldResult> pooledDims = getDims(n, pooled);
  TensorMath p{n, pooledDims, valueType};
  if (!isMax) {
    Value divisor = samplingRatio > 0
                        ? p.constant(static_cast<double>(samplingRatio * samplingRatio))
                        : p.along(realVector(n, divisors, valueType), {0});
    pooled = p.div(pooled, divisor);
  } else if (llvm::is_contained(sampled, false)) {
    // A roi without sampling points pools to 0.
    SmallVector<double> flags(sampled.begin(), sampled.end());
    Value has = p.cmp(Direction::Ne, p.along(realVector(n, flags, valueType), {0}), p.constant(0));
    pooled = p.select(has, pooled, p.constant(0));
  }
  return n.setResults(convert(n, channelsSecond(n, pooled), element));
}

//===----------------------------------------------------------------------------------===//
// CenterCropPad
//===----------------------------------------------------------------------------------===//

// center_crop_pad(x, shape, axes): on each listed axis of extent d and target s,
// d > s: x[(d - s) / 2 : (d - s) / 2 + s] (the window rounds down);
// d < s: zeros padded with (s - d) / 2 before and the rest after
LogicalResult centerCropPad(NodeRewriter &n) {
  Value x = n.getInput(0), shape = n.getInput(1);
  if (!x || !shape)
    return failure();
  int64_t rank = rankOf(x);
  SmallVector<int64_t> axes;
  if (auto given = n.getInts("axes")) {
    for (int64_t a : *given) {
      auto axis = normalizeAxis(n, a, rank);
      if (!axis)
        return failure();
      if (llvm::is_contained(axes, *axis))
        return n.emitError() << "attribute 'axes' lists dim " << *axis << " twice";
      axes.push_back(*axis);
    }
  } else if (n.hasFailed()) {
    return failure();
  } else {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  auto targets = getShapeElements(n, shape);
  if (!targets)
    return n.emitError() << "input 1 (shape) has type " << shape.getType()
                         << ", expected a 1-d integer tensor";
  if (targets->size() != axes.size())
    return n.emitError() << "input 1 (shape) has " << targets->size() << " entries, expected "
                         << axes.size() << " (one per axis)";
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> dims = getDims(n, x), offsets(rank, b.getIndexAttr(0)), sizes(dims);
  // A target read at run time (or a dynamic dim): crop or pad chosen at run time, as one
  // centered pad by lo = s >= d ? (s - d) / 2 : -((d - s) / 2), hi = s - d - lo (negative
  // amounts crop; the output extent s is a computed extent, refused when negative).
  if (llvm::any_of(llvm::zip(axes, *targets), [&](auto pair) {
        auto [axis, target] = pair;
        return !sameExtent(dims[axis], target) &&
               (!getConstantIntValue(target) || !getConstantIntValue(dims[axis]));
      })) {
    SmallVector<OpFoldResult> lo(rank), hi(rank);
    for (auto [axis, target] : llvm::zip(axes, *targets)) {
      if (auto s = getConstantIntValue(target); s && *s < 0)
        return n.emitError() << "input 1 (shape) has entry " << *s << " for dim " << axis
                             << ", expected >= 0";
      OpFoldResult two = b.getIndexAttr(2), zero = b.getIndexAttr(0);
      OpFoldResult grow = subIndex(n, target, dims[axis]);
      lo[axis] = selectIndex(n, arith::CmpIPredicate::sge, grow, zero,
                             floorDivIndex(n, grow, two),
                             subIndex(n, zero, floorDivIndex(n, subIndex(n, zero, grow), two)));
      hi[axis] = subIndex(n, grow, lo[axis]);
    }
    return n.setResults(
        padAtRuntime(n, x, lo, hi, "constant", scalarConstant(n, elementOf(x), 0.0)));
  }
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  bool crops = false, pads = false;
  for (auto [axis, target] : llvm::zip(axes, *targets)) {
    if (sameExtent(dims[axis], target))
      continue;
    auto d = getConstantIntValue(dims[axis]), s = getConstantIntValue(target);
    if (!s) {
      InFlightDiagnostic diag = n.emitError();
      diag << "input 1 (shape) must be a constant (an initializer or a Constant node): its entry "
           << "for dim " << axis << " determines the output shape";
      return noteConstantInput(diag);
    }
    if (*s < 0)
      return n.emitError() << "input 1 (shape) has entry " << *s << " for dim " << axis
                           << ", expected >= 0";
    if (!d)
      return n.emitError() << "dim " << axis << " of the input is dynamic: tcc needs a static "
                           << "extent to choose between cropping and padding it to " << *s;
    if (*d > *s) {
      offsets[axis] = b.getIndexAttr((*d - *s) / 2);
      sizes[axis] = b.getIndexAttr(*s);
      crops = true;
    } else if (*d < *s) {
      low[axis] = (*s - *d) / 2;
      high[axis] = *s - *d - low[axis];
      pads = true;
    }
  }
  Value y = x;
  if (crops)
    y = b.createOrFold<prim::SliceOp>(n.getLoc(), y, offsets, sizes, SmallVector<int64_t>(rank, 1));
  if (pads)
    y = prim::PadOp::create(b, n.getLoc(), y, scalarConstant(n, elementOf(x), 0.0), low, high);
  return n.setResults(y);
}

} // namespace

void tcc::decompose::registerSamplingRules(RuleRegistry &r) {
  r.add("", "GridSample", 16, gridSample</*Legacy=*/true>);
  r.add("", "GridSample", 20, gridSample</*Legacy=*/false>);
  r.add("", "GridSample", 22, gridSample</*Legacy=*/false>);
  r.add("", "AffineGrid", 20, affineGrid);
  r.add("", "RoiAlign", 10, roiAlign</*HasTransformationMode=*/false>);
  r.add("", "RoiAlign", 16, roiAlign</*HasTransformationMode=*/true>);
  r.add("", "RoiAlign", 22, roiAlign</*HasTransformationMode=*/true>);
  r.add("", "CenterCropPad", 18, centerCropPad);
}
