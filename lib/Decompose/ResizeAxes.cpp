//===- ResizeAxes.cpp - resizing a tensor axis by axis (Resize, Upsample) -------------===//
//
// Resizing is separable: each resized axis is interpolated on its own, one after the other.
// On an axis of input extent `in` and output extent `out`, output index o maps to a
// coordinate x in the input (coordinate_transformation_mode), and the mode turns x into
// taps: input indices, clamped into [0, in) (edge padding), with weights:
//   y = sum_k gather(x, index_k, axis) * broadcast(weight_k, axis)
// Nearest, and any axis whose outputs each copy one input, is a single gather. The taps
// are computed while compiling, in double precision as ONNX's reference does, and become
// small constants; where an extent is known only at run time, the same formulas run on an
// iota of the output indices in f64. With tf_crop_and_resize, outputs whose coordinate
// falls outside [0, in - 1] on some axis take extrapolation_value (one select at the end).
// Linear and cubic interpolation of 16-bit floats is computed in f32 and of integers in
// f64, converted back at the end (integers truncate, as in the reference).
//
//===----------------------------------------------------------------------------------===//
#include "ResizeAxes.h"
#include "RuleFamilies.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <sstream>
#include <type_traits>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using namespace tcc::decompose::resizing;

namespace {

using Direction = prim::CompareDirection;

/// The longest axis whose taps are embedded as constants (longer axes compute them at run
/// time).
constexpr int64_t kMaxConstantTaps = 1 << 16;
/// The most taps (one gather each) an antialiased axis may need.
constexpr int64_t kMaxTaps = 1024;

/// Doubles and integers: the taps of an axis with static extents, one output at a time.
struct ScalarMath {
  using Real = double;
  using Int = int64_t;
  using Bool = bool;
  Real real(double v) { return v; }
  Int integer(int64_t v) { return v; }
  template <typename T> T add(T a, T b) { return a + b; }
  template <typename T> T sub(T a, T b) { return a - b; }
  Real mul(Real a, Real b) { return a * b; }
  Real div(Real a, Real b) { return a / b; }
  Real floor(Real a) { return std::floor(a); }
  Real abs(Real a) { return std::abs(a); }
  Real max(Real a, Real b) { return std::max(a, b); }
  template <typename T> Bool cmp(Direction d, T a, T b) {
    switch (d) {
    case Direction::Eq:
      return a == b;
    case Direction::Ne:
      return a != b;
    case Direction::Lt:
      return a < b;
    case Direction::Le:
      return a <= b;
    case Direction::Gt:
      return a > b;
    case Direction::Ge:
      return a >= b;
    }
    return false;
  }
  template <typename T> T select(Bool p, T a, T b) { return p ? a : b; }
  Bool either(Bool a, Bool b) { return a || b; }
  Bool both(Bool a, Bool b) { return a && b; }
  /// Truncates, saturating far outside any extent (NaN gives 0), as prim.convert does.
  Int toInt(Real a) {
    constexpr double limit = 4.0e18;
    return std::isnan(a) ? 0 : static_cast<int64_t>(std::clamp(a, -limit, limit));
  }
  Int toInt(Bool a) { return a ? 1 : 0; }
  Int clamp(Int lo, Int x, Int hi) { return std::clamp(x, lo, hi); }
};

/// 1-d f64/i64/i1 tensors over the output indices of an axis: its taps when an extent is
/// known only at run time. The prim builder at the node, with ScalarMath's vocabulary.
struct VectorMath : RuleBuilder {
  using Real = Value;
  using Int = Value;
  using Bool = Value;
  VectorMath(NodeRewriter &n, SmallVector<OpFoldResult> shape)
      : RuleBuilder(n), shape(std::move(shape)) {}
  SmallVector<OpFoldResult> shape;
  Type f64 = b.getF64Type(), i64 = b.getI64Type();

  Value real(double v) { return fill(scalar(f64, v), shape); }
  Value integer(int64_t v) { return fill(scalar(i64, static_cast<double>(v)), shape); }
  /// An index extent, splat, as `type`.
  Value extent(OpFoldResult e, Type type) {
    return fill(convert(makeShapeTensor(n, {e}, i64, true), type), shape);
  }
  Value iota() { return convert(RuleBuilder::iota(shape, 0, i64), f64); }
  Value toInt(Value a) { return convert(a, i64); }
};

/// The first tap's offset from ceil(x) - 1 when antialiasing stretches the filter by
/// 1 / min(scale, 1): floor(-support / s) + 1 (support 1 for linear, 2 for cubic).
int64_t antialiasStart(const ResizeOptions &options, double scale) {
  double s = std::min(scale, 1.0), support = options.mode == Interpolation::Cubic ? 2.0 : 1.0;
  return static_cast<int64_t>(std::floor(-support / s)) + 1;
}

/// Taps per output: 1 (nearest), 2 (linear), 4 (cubic), or 2 - 2 * start with antialias.
int64_t tapCount(const ResizeOptions &options, double scale) {
  if (options.mode == Interpolation::Nearest)
    return 1;
  if (options.antialias)
    return 2 - 2 * antialiasStart(options, scale);
  return options.mode == Interpolation::Linear ? 2 : 4;
}

/// Input indices (clamped into [0, in)) and weights for output coordinate `x` of one axis,
/// and whether the output takes extrapolation_value.
template <typename M> struct TapValues {
  SmallVector<typename M::Int> indices;
  SmallVector<typename M::Real> weights; // none for nearest
  std::optional<typename M::Bool> outside;
};

/// The taps of output index x, in M's numbers; `lastIndex` is in - 1 and `staticScale` the
/// scale where it is known while compiling (antialias and Resize-10 need it).
///
/// x_original, with width = scale * in (the output extent before flooring, which the
/// reference uses in align_corners and tf_crop_and_resize):
///   half_pixel:           (x + 0.5) / scale - 0.5
///   half_pixel_symmetric: in / 2 * (1 - out / width) + (x + 0.5) / scale - 0.5
///   pytorch_half_pixel:   out > 1 ? (x + 0.5) / scale - 0.5 : 0
///   align_corners:        width == 1 ? 0 : x * (in - 1) / (width - 1)
///   asymmetric:           x / scale
///   tf_half_pixel_for_nn: (x + 0.5) / scale
///   tf_crop_and_resize:   start * (in - 1) + (width == 1 ? (end - start) * (in - 1) / 2
///                                            : x * (end - start) * (in - 1) / (width - 1)),
///                         extrapolation_value outside [0, in - 1]
/// nearest (an integral x_original picks itself):
///   round_prefer_floor: x - floor(x) <= 0.5 ? floor(x) : ceil(x)
///   round_prefer_ceil:  x - floor(x) <  0.5 ? floor(x) : ceil(x)
///   floor: floor(x);  ceil: ceil(x);  Resize-10 and Upsample: scale < 1 ? ceil(x) : floor(x)
/// linear and cubic: taps ceil(x) - count / 2 + k weighted by r = x - floor(x) (1 for
/// integral x), with Keys' kernel W(d) = (A + 2)|d|^3 - (A + 3)|d|^2 + 1 for |d| <= 1,
/// A|d|^3 - 5A|d|^2 + 8A|d| - 4A for 1 < |d| < 2, else 0:
///   linear: [1 - r, r];  cubic: [W(r + 1), W(r), W(1 - r), W(2 - r)]
///   antialias, s = min(scale, 1), t_k = (start + k - r) * s:
///     linear: max(1 - |t_k|, 0), cubic: W(t_k), divided by their sum
///   exclude_outside: taps outside [0, in) weigh 0, the others are divided by their sum.
template <typename M>
TapValues<M> tapsAt(M &m, const ResizeOptions &options, const AxisSpec &a, typename M::Real x,
                    typename M::Real in, typename M::Real out, typename M::Real scale,
                    typename M::Int lastIndex, std::optional<double> staticScale) {
  using Real = typename M::Real;
  using Int = typename M::Int;
  Real zero = m.real(0), half = m.real(0.5), one = m.real(1);
  Real width = m.mul(scale, in), last = m.sub(in, one);
  Real shifted = m.div(m.add(x, half), scale);
  Real coordinate = zero;
  switch (options.transform) {
  case Transform::HalfPixel:
    coordinate = m.sub(shifted, half);
    break;
  case Transform::HalfPixelSymmetric: {
    Real offset = m.mul(m.div(in, m.real(2)), m.sub(one, m.div(out, width)));
    coordinate = m.sub(m.add(offset, shifted), half);
    break;
  }
  case Transform::PytorchHalfPixel:
    coordinate = m.select(m.cmp(Direction::Gt, out, one), m.sub(shifted, half), zero);
    break;
  case Transform::AlignCorners:
    coordinate =
        m.select(m.cmp(Direction::Eq, width, one), zero, m.div(m.mul(x, last), m.sub(width, one)));
    break;
  case Transform::Asymmetric:
    coordinate = m.div(x, scale);
    break;
  case Transform::TfHalfPixelForNN:
    coordinate = shifted;
    break;
  case Transform::TfCropAndResize: {
    Real extent = m.real(a.roiIsF32 ? static_cast<double>(static_cast<float>(a.roiEnd) -
                                                          static_cast<float>(a.roiStart))
                                    : a.roiEnd - a.roiStart);
    Real roiStart = m.real(a.roiStart);
    if constexpr (std::is_same_v<M, VectorMath>) {
      if (a.roiStartValue) {
        extent = m.fill(a.roiExtentValue, m.shape);
        roiStart = m.fill(a.roiStartValue, m.shape);
      }
    }
    Real start = m.mul(roiStart, last);
    Real single = m.add(m.div(m.mul(extent, last), m.real(2)), start);
    Real spread = m.add(m.div(m.mul(m.mul(x, extent), last), m.sub(width, one)), start);
    coordinate = m.select(m.cmp(Direction::Eq, width, one), single, spread);
    break;
  }
  }
  TapValues<M> t;
  if (options.transform == Transform::TfCropAndResize)
    t.outside =
        m.either(m.cmp(Direction::Lt, coordinate, zero), m.cmp(Direction::Gt, coordinate, last));
  Int firstIndex = m.integer(0);
  auto clampIndex = [&](Int i) { return m.clamp(firstIndex, i, lastIndex); };
  Real lower = m.floor(coordinate), ratio = m.sub(coordinate, lower);
  if (options.mode == Interpolation::Nearest) {
    Int index = m.toInt(lower);
    auto roundUp = [&](Direction d, Real threshold) {
      index = m.add(index, m.toInt(m.cmp(d, ratio, threshold)));
    };
    if (options.rounding == Rounding::RoundPreferFloor)
      roundUp(Direction::Gt, half);
    else if (options.rounding == Rounding::RoundPreferCeil)
      roundUp(Direction::Ge, half);
    else if (options.rounding == Rounding::Ceil ||
             (options.rounding == Rounding::Legacy && staticScale && *staticScale < 1))
      roundUp(Direction::Gt, zero);
    else if (options.rounding == Rounding::Legacy && !staticScale) // ceil when scale < 1
      index = m.add(index, m.toInt(m.both(m.cmp(Direction::Gt, ratio, zero),
                                          m.cmp(Direction::Lt, scale, one))));
    t.indices.push_back(clampIndex(index));
    return t;
  }
  typename M::Bool integral = m.cmp(Direction::Eq, lower, coordinate);
  Real r = m.select(integral, one, ratio);
  int64_t count = tapCount(options, staticScale.value_or(1.0));
  Int first =
      m.sub(m.toInt(m.select(integral, coordinate, m.add(lower, one))), m.integer(count / 2));
  double A = options.cubicA;
  auto nearKernel = [&](Real d) { // ((A + 2) d - (A + 3)) d d + 1
    return m.add(m.mul(m.mul(m.sub(m.mul(m.real(A + 2), d), m.real(A + 3)), d), d), one);
  };
  auto farKernel = [&](Real d) { // ((A d - 5A) d + 8A) d - 4A
    Real p = m.add(m.mul(m.sub(m.mul(m.real(A), d), m.real(5 * A)), d), m.real(8 * A));
    return m.sub(m.mul(p, d), m.real(4 * A));
  };
  SmallVector<Real> &w = t.weights;
  if (!options.antialias && options.mode == Interpolation::Linear) {
    w = {m.sub(one, r), r};
  } else if (!options.antialias) {
    Real mirrored = m.sub(one, r);
    w = {farKernel(m.add(r, one)), nearKernel(r), nearKernel(mirrored),
         farKernel(m.add(mirrored, one))};
  } else {
    Real s = m.real(std::min(*staticScale, 1.0));
    int64_t start = antialiasStart(options, *staticScale);
    for (int64_t k = 0; k < count; ++k) {
      Real d = m.abs(m.mul(m.sub(m.real(static_cast<double>(start + k)), r), s));
      w.push_back(options.mode == Interpolation::Linear
                      ? m.max(m.sub(one, d), zero)
                      : m.select(m.cmp(Direction::Le, d, one), nearKernel(d),
                                 m.select(m.cmp(Direction::Lt, d, m.real(2)), farKernel(d), zero)));
    }
  }
  for (int64_t k = 0; k < count; ++k) {
    Int index = m.add(first, m.integer(k));
    if (options.excludeOutside)
      w[k] = m.select(
          m.both(m.cmp(Direction::Ge, index, firstIndex), m.cmp(Direction::Le, index, lastIndex)),
          w[k], zero);
    t.indices.push_back(clampIndex(index));
  }
  if (options.antialias || options.excludeOutside) {
    Real sum = w[0];
    for (int64_t k = 1; k < count; ++k)
      sum = m.add(sum, w[k]);
    for (Real &weight : w)
      weight = m.div(weight, sum);
  }
  return t;
}

/// Whether an axis of equal input and output extents (scale 1) maps each output to the
/// input at its own index, whatever the extent: x_original = x except for
/// tf_half_pixel_for_nn (x + 0.5, which nearest rounds down only in these modes) and a
/// tf_crop_and_resize roi other than [0, 1].
bool isIdentityAtUnitScale(const ResizeOptions &options, const AxisSpec &a) {
  if (options.transform == Transform::TfCropAndResize)
    return a.roiStart == 0 && a.roiEnd == 1;
  if (options.transform == Transform::TfHalfPixelForNN)
    return options.mode == Interpolation::Nearest &&
           (options.rounding == Rounding::RoundPreferFloor || options.rounding == Rounding::Floor);
  return true;
}

/// A 1-d constant holding `values` converted to `elementType` (i64, i1, f32 or f64).
template <typename T> Value vectorConstant(NodeRewriter &n, ArrayRef<T> values, Type elementType) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())}, elementType);
  auto make = [&](auto zero) {
    using U = decltype(zero);
    SmallVector<U> converted;
    for (T v : values)
      converted.push_back(static_cast<U>(v));
    return DenseElementsAttr::get(type, ArrayRef<U>(converted));
  };
  DenseElementsAttr attr = elementType.isF64()        ? make(0.0)
                           : elementType.isF32()      ? make(0.0f)
                           : elementType.isInteger(1) ? make(false)
                                                      : make(int64_t(0));
  return arith::ConstantOp::create(n.getBuilder(), n.getLoc(), cast<TypedAttr>(attr));
}

/// A 1-d tensor along `axis` of a tensor of extents `dims`.
Value alongAxis(NodeRewriter &n, Value v, ArrayRef<OpFoldResult> dims, int64_t axis) {
  OpBuilder &b = n.getBuilder();
  return prim::BroadcastInDimOp::create(b, n.getLoc(), getTensorType(dims, elementOf(v)), v,
                                        getDynamicExtents(n, dims), b.getDenseI64ArrayAttr({axis}));
}

/// The element type linear and cubic interpolation compute in: f32 for 16-bit floats, f64
/// for integers (whose results the reference truncates after computing in f64).
Type computeTypeFor(Type element) {
  if (element.isF32() || element.isF64())
    return element;
  if (isa<IntegerType>(element))
    return Float64Type::get(element.getContext());
  return Float32Type::get(element.getContext());
}

/// The taps of one axis as 1-d tensors over the output indices: `indices` alone (each
/// output copies one input) or with `weights`; `outside` (i1, may be null) marks outputs
/// that take extrapolation_value.
struct AxisTaps {
  SmallVector<Value> indices, weights;
  Value outside;
};

/// The taps of an axis with static extents as constants; std::nullopt when the axis maps
/// each output to the input at its own index. Taps of weight 0 for every output are
/// dropped, and an axis whose outputs each copy one input becomes a single gather.
std::optional<AxisTaps> constantTaps(NodeRewriter &n, const ResizeOptions &options,
                                     const AxisSpec &a, int64_t in, int64_t out, Type computeType) {
  ScalarMath m;
  int64_t count = tapCount(options, *a.scale);
  SmallVector<SmallVector<int64_t>> indices(count, SmallVector<int64_t>(out));
  SmallVector<SmallVector<double>> weights(count, SmallVector<double>(out, 1.0));
  SmallVector<bool> outside(out, false);
  SmallVector<int64_t> selected(out, 0);
  bool selecting = true, identity = in == out;
  for (int64_t o = 0; o < out; ++o) {
    TapValues<ScalarMath> t = tapsAt(m, options, a, static_cast<double>(o), static_cast<double>(in),
                                     static_cast<double>(out), *a.scale, in - 1, a.scale);
    outside[o] = t.outside.value_or(false);
    int64_t chosen = -1;
    for (int64_t k = 0; k < count; ++k) {
      indices[k][o] = t.indices[k];
      if (!t.weights.empty())
        weights[k][o] = t.weights[k];
      if (weights[k][o] == 0)
        continue;
      selecting &= weights[k][o] == 1 && chosen < 0;
      chosen = k;
    }
    selecting &= chosen >= 0;
    selected[o] = selecting ? indices[chosen][o] : 0;
    identity &= !outside[o] && selected[o] == o;
  }
  if (selecting && identity)
    return std::nullopt;
  AxisTaps taps;
  if (llvm::is_contained(outside, true))
    taps.outside = vectorConstant<bool>(n, outside, n.getBuilder().getI1Type());
  Type i64 = n.getBuilder().getI64Type();
  if (selecting) {
    taps.indices.push_back(vectorConstant<int64_t>(n, selected, i64));
    return taps;
  }
  for (int64_t k = 0; k < count; ++k) {
    if (llvm::all_of(weights[k], [](double w) { return w == 0; }))
      continue;
    taps.indices.push_back(vectorConstant<int64_t>(n, indices[k], i64));
    taps.weights.push_back(vectorConstant<double>(n, weights[k], computeType));
  }
  return taps;
}

/// The taps of an axis whose extents are known only at run time, from an iota of the
/// output indices.
std::optional<AxisTaps> iotaTaps(NodeRewriter &n, const ResizeOptions &options, const AxisSpec &a) {
  if (options.antialias && !a.scale) {
    n.emitError() << "antialias on dim " << a.axis << " needs static extents (the filter "
                  << "size depends on the scale)";
    return std::nullopt;
  }
  VectorMath m{n, {a.out}};
  Value in = m.extent(a.in, m.f64), out = m.extent(a.out, m.f64);
  Value scale = a.scale        ? m.real(*a.scale)
                : a.scaleValue ? m.fill(a.scaleValue, m.shape)
                               : m.div(out, in);
  Value lastIndex = m.extent(subIndex(n, a.in, n.getBuilder().getIndexAttr(1)), m.i64);
  TapValues<VectorMath> t = tapsAt(m, options, a, m.iota(), in, out, scale, lastIndex, a.scale);
  return AxisTaps{t.indices, t.weights, t.outside.value_or(Value())};
}

/// y resized along `axis`: gather(y, index, axis), or with weights
/// sum_k gather(y, index_k, axis) * broadcast(weight_k, axis) in `computeType`.
Value applyTaps(NodeRewriter &n, Value y, int64_t axis, const AxisTaps &taps, Type computeType) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  if (taps.weights.empty())
    return prim::GatherOp::create(b, loc, y, taps.indices[0], axis);
  y = convert(n, y, computeType);
  Value sum;
  for (auto [index, weight] : llvm::zip(taps.indices, taps.weights)) {
    Value gathered = prim::GatherOp::create(b, loc, y, index, axis);
    Value weights = alongAxis(n, convert(n, weight, computeType), getDims(n, gathered), axis);
    Value scaled = prim::MulOp::create(b, loc, gathered, weights);
    sum = sum ? Value(prim::AddOp::create(b, loc, sum, scaled)) : scaled;
  }
  return sum;
}

} // namespace

std::string resizing::formatNumber(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

LogicalResult resizing::resizeAxes(NodeRewriter &n, Value x, const ResizeOptions &options,
                                   ArrayRef<AxisSpec> specs) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type element = elementOf(x), computeType = computeTypeFor(element);
  Value y = x;
  SmallVector<std::pair<int64_t, Value>> masks;
  // The last axis first, as the reference nests its interpolation.
  for (const AxisSpec &a : llvm::reverse(specs)) {
    auto in = getConstantIntValue(a.in), out = getConstantIntValue(a.out);
    if (in && out && *in == 0) {
      if (*out != 0)
        return n.emitError() << "dim " << a.axis << " of the input is empty and cannot be "
                             << "resized to " << *out << " elements";
      continue;
    }
    if (options.antialias && a.scale && tapCount(options, *a.scale) > kMaxTaps)
      return n.emitError() << "antialias with scale " << formatNumber(*a.scale) << " on dim "
                           << a.axis << " needs " << tapCount(options, *a.scale)
                           << " taps per output, tcc supports at most " << kMaxTaps;
    std::optional<AxisTaps> taps;
    if (in && out && a.scale && *out <= kMaxConstantTaps && !a.roiStartValue) {
      taps = constantTaps(n, options, a, *in, *out, computeType);
    } else if (!sameExtent(a.in, a.out) || a.scale.value_or(1.0) != 1.0 || a.roiStartValue ||
               !isIdentityAtUnitScale(options, a)) {
      taps = iotaTaps(n, options, a);
      if (!taps)
        return failure();
    }
    if (!taps)
      continue;
    if (taps->outside)
      masks.push_back({a.axis, taps->outside});
    y = applyTaps(n, y, a.axis, *taps, computeType);
  }
  y = convert(n, y, element);
  if (!masks.empty()) {
    // extrapolation_value where any axis' coordinate is outside the input.
    SmallVector<OpFoldResult> dims = getDims(n, y);
    Value outside;
    for (auto &[axis, mask] : masks) {
      Value broadcast = alongAxis(n, mask, dims, axis);
      outside = outside ? Value(prim::OrOp::create(b, loc, outside, broadcast)) : broadcast;
    }
    Value extrapolation = fill(n, scalarConstant(n, element, options.extrapolation), dims);
    y = prim::SelectOp::create(b, loc, outside, extrapolation, y);
  }
  return n.setResults(y);
}
