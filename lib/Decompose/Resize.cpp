//===- Resize.cpp - rules for Resize and Upsample ---------------------------------------===//
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
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <type_traits>
#include <sstream>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

enum class Interpolation { Nearest, Linear, Cubic };
enum class Transform {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,
  TfCropAndResize
};
/// nearest_mode; Legacy is Resize-10's and Upsample's rule (ceil when downsampling).
enum class Rounding { RoundPreferFloor, RoundPreferCeil, Floor, Ceil, Legacy };

struct ResizeOptions {
  Interpolation mode = Interpolation::Nearest;
  Transform transform = Transform::HalfPixel;
  Rounding rounding = Rounding::RoundPreferFloor;
  double cubicA = -0.75;
  bool excludeOutside = false;
  bool antialias = false;
  double extrapolation = 0.0;
};

/// One resized axis. `scale` is the coordinate scale (the given one, or out / in when
/// sizes are given); it is unknown only for dynamic extents. `roiIsF32` keeps the
/// reference's float32 subtraction of the roi bounds.
struct AxisSpec {
  int64_t axis = 0;
  OpFoldResult in, out;
  std::optional<double> scale;
  mlir::Value scaleValue; ///< a 0-d f64 tensor: the scale read at run time (scales input)
  double roiStart = 0.0, roiEnd = 1.0;
  bool roiIsF32 = false;
  /// The roi read at run time (tf_crop_and_resize): 0-d f64 tensors of the start and of
  /// end - start (subtracted in the roi's type).
  mlir::Value roiStartValue, roiExtentValue;
};

using Direction = prim::CompareDirection;

/// The largest output extent of a resized axis, and the largest whose taps are embedded
/// as constants (longer axes compute them at run time).
constexpr double kMaxExtent = 1099511627776.0; // 2^40
constexpr int64_t kMaxConstantTaps = 1 << 16;
/// The most taps (one gather each) an antialiased axis may need.
constexpr int64_t kMaxTaps = 1024;

/// A number as a person writes it (1.5, not 1.500000e+00).
std::string formatNumber(double value) {
  std::ostringstream os;
  os << value;
  return os.str();
}

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
    case Direction::Eq: return a == b;
    case Direction::Ne: return a != b;
    case Direction::Lt: return a < b;
    case Direction::Le: return a <= b;
    case Direction::Gt: return a > b;
    case Direction::Ge: return a >= b;
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
    t.outside = m.either(m.cmp(Direction::Lt, coordinate, zero),
                         m.cmp(Direction::Gt, coordinate, last));
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
  Int first = m.sub(m.toInt(m.select(integral, coordinate, m.add(lower, one))),
                    m.integer(count / 2));
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
                                 m.select(m.cmp(Direction::Lt, d, m.real(2)), farKernel(d),
                                          zero)));
    }
  }
  for (int64_t k = 0; k < count; ++k) {
    Int index = m.add(first, m.integer(k));
    if (options.excludeOutside)
      w[k] = m.select(m.both(m.cmp(Direction::Ge, index, firstIndex),
                             m.cmp(Direction::Le, index, lastIndex)),
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
                                        getDynamicExtents(n, dims),
                                        b.getDenseI64ArrayAttr({axis}));
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
                                     const AxisSpec &a, int64_t in, int64_t out,
                                     Type computeType) {
  ScalarMath m;
  int64_t count = tapCount(options, *a.scale);
  SmallVector<SmallVector<int64_t>> indices(count, SmallVector<int64_t>(out));
  SmallVector<SmallVector<double>> weights(count, SmallVector<double>(out, 1.0));
  SmallVector<bool> outside(out, false);
  SmallVector<int64_t> selected(out, 0);
  bool selecting = true, identity = in == out;
  for (int64_t o = 0; o < out; ++o) {
    TapValues<ScalarMath> t =
        tapsAt(m, options, a, static_cast<double>(o), static_cast<double>(in),
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
std::optional<AxisTaps> iotaTaps(NodeRewriter &n, const ResizeOptions &options,
                                 const AxisSpec &a) {
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

/// Resizes `x` along each axis of `specs` (see the file comment).
LogicalResult resizeAxes(NodeRewriter &n, Value x, const ResizeOptions &options,
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

/// The values of a constant floating-point input; empty when the input is absent or has no
/// elements (opsets 11 and 12 pass empty tensors for unused inputs); std::nullopt after an
/// error naming the input.
std::optional<SmallVector<double>> getConstantFloats(NodeRewriter &n, unsigned index,
                                                     StringRef what, bool *isF32 = nullptr) {
  if (!n.hasInput(index))
    return SmallVector<double>();
  Value v = n.getOptionalInput(index);
  if (!v)
    return std::nullopt;
  RankedTensorType type = typeOf(v);
  if (type.hasStaticShape() && type.getNumElements() == 0)
    return SmallVector<double>();
  if (!isa<FloatType>(type.getElementType()) || type.getRank() != 1) {
    n.emitError() << "input " << index << " (" << what << ") has type " << type
                  << ", expected a 1-d floating-point tensor";
    return std::nullopt;
  }
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr))) {
    InFlightDiagnostic diag = n.emitError();
    diag << "input " << index << " (" << what << ") must be a constant (an "
         << "initializer or a Constant node): tcc computes the output shape and the "
         << "interpolation taps while compiling";
    noteConstantInput(diag);
    return std::nullopt;
  }
  if (isF32)
    *isF32 = type.getElementType().isF32();
  SmallVector<double> values;
  for (APFloat f : attr.getValues<APFloat>()) {
    bool lost;
    f.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    values.push_back(f.convertToDouble());
  }
  return values;
}

/// Whether input `index` holds floats known only at run time (a non-empty tensor that is
/// not a constant).
bool isRuntimeFloats(NodeRewriter &n, unsigned index) {
  if (!n.hasInput(index))
    return false;
  Value v = n.getOptionalInput(index);
  if (!v)
    return false;
  RankedTensorType type = typeOf(v);
  if (type.hasStaticShape() && type.getNumElements() == 0)
    return false;
  return isa<FloatType>(type.getElementType()) && !matchPattern(v, m_Constant());
}

/// Axis specs from `scales` (one per resized axis): out = floor(in * scale), the product
/// in float32 as ONNX's shape inference and ONNX Runtime compute it (the spec's roi factor
/// is applied by neither, nor by the reference).
std::optional<SmallVector<AxisSpec>> specsFromScales(NodeRewriter &n, Value x,
                                                     ArrayRef<int64_t> axes,
                                                     ArrayRef<double> scales,
                                                     double minimum) {
  if (scales.size() != axes.size()) {
    n.emitError() << "scales has " << scales.size() << " entries, expected " << axes.size()
                  << " (one per resized axis)";
    return std::nullopt;
  }
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<AxisSpec> specs;
  for (auto [axis, scale] : llvm::zip(axes, scales)) {
    if (!std::isfinite(scale) || scale <= 0 || scale < minimum) {
      n.emitError() << "scale " << formatNumber(scale) << " of dim " << axis << " must be "
                    << (minimum > 0 ? ">= 1" : "> 0");
      return std::nullopt;
    }
    AxisSpec a;
    a.axis = axis;
    a.in = dims[axis];
    a.scale = scale;
    if (auto in = getConstantIntValue(a.in)) {
      double product = std::floor(static_cast<float>(*in) * static_cast<float>(scale));
      if (!(product <= kMaxExtent)) {
        n.emitError() << "scale " << formatNumber(scale) << " of dim " << axis
                      << " gives an output extent too large (" << formatNumber(product) << ")";
        return std::nullopt;
      }
      a.out = n.getBuilder().getIndexAttr(static_cast<int64_t>(product));
    } else if (scale == std::floor(scale) && scale <= 1024) {
      a.out = mulIndex(n, a.in, n.getBuilder().getIndexAttr(static_cast<int64_t>(scale)));
    } else {
      n.emitError() << "dim " << axis << " of the input is dynamic and scaled by "
                    << formatNumber(scale) << ": tcc needs a static extent there unless the "
                    << "scale is an integer (the output extent must be index arithmetic over "
                    << "the input's)";
      return std::nullopt;
    }
    specs.push_back(a);
  }
  return specs;
}

/// Axis specs from `scales` read at run time (one per resized axis): each scale s as an f64
/// for the taps, and out = floor(f32(in) * f32(s)) as specsFromScales computes it, an
/// extent computed before the run; -1 (refused before the run, naming the extent) unless
/// s > 0 and the product is in [0, 2^40]. `minimum` 1 (Upsample): also -1 for s < 1.
std::optional<SmallVector<AxisSpec>> specsFromRuntimeScales(NodeRewriter &n, Value x,
                                                            ArrayRef<int64_t> axes,
                                                            Value scales, double minimum) {
  RankedTensorType type = typeOf(scales);
  if (!isa<FloatType>(type.getElementType()) || type.getRank() != 1 || !type.hasStaticShape()) {
    n.emitError() << "scales has type " << type
                  << ", expected a 1-d floating-point tensor of static length";
    return std::nullopt;
  }
  if (type.getDimSize(0) != static_cast<int64_t>(axes.size())) {
    n.emitError() << "scales has " << type.getDimSize(0) << " entries, expected " << axes.size()
                  << " (one per resized axis)";
    return std::nullopt;
  }
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type f32 = b.getF32Type(), f64 = b.getF64Type();
  auto toType = [&](Value v, FloatType to) -> Value {
    auto from = cast<FloatType>(v.getType());
    if (from == to)
      return v;
    if (from.getWidth() < to.getWidth())
      return arith::ExtFOp::create(b, loc, to, v);
    return arith::TruncFOp::create(b, loc, to, v);
  };
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<AxisSpec> specs;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    Value scale = tensor::ExtractOp::create(
        b, loc, scales, ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
    Value scale32 = toType(scale, cast<FloatType>(f32));
    Value in = arith::SIToFPOp::create(
        b, loc, f32,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), toIndex(n, dims[axis])));
    Value product = arith::MulFOp::create(b, loc, in, scale32);
    auto real = [&](Type t, double v) {
      return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v)).getResult();
    };
    auto ordered = [&](arith::CmpFPredicate p, Value l, Value r) {
      return arith::CmpFOp::create(b, loc, p, l, r).getResult();
    };
    Value ok = arith::AndIOp::create(
        b, loc,
        arith::AndIOp::create(b, loc, ordered(arith::CmpFPredicate::OGT, scale32, real(f32, 0)),
                              ordered(arith::CmpFPredicate::OGE, scale32, real(f32, minimum))),
        ordered(arith::CmpFPredicate::OLE, product, real(f32, kMaxExtent)));
    // A non-negative product truncates to its floor.
    Value count = arith::IndexCastOp::create(
        b, loc, b.getIndexType(), arith::FPToSIOp::create(b, loc, b.getI64Type(), product));
    AxisSpec a;
    a.axis = axis;
    a.in = dims[axis];
    a.out = arith::SelectOp::create(b, loc, ok, count, arith::ConstantIndexOp::create(b, loc, -1))
                .getResult();
    a.scaleValue = tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, f64),
                                                  ValueRange{toType(scale, cast<FloatType>(f64))});
    specs.push_back(a);
  }
  return specs;
}

/// keep_aspect_ratio_policy with sizes read at run time (static input extents): the common
/// scale, min (not_larger) or max (not_smaller) over the axes of size / in in f64, and
/// out = floor(scale * in + 0.5) per axis as extents computed before the run (-1, refused,
/// outside [0, 2^40]); the taps use the common scale.
std::optional<SmallVector<AxisSpec>> keepAspectRatioAtRuntime(NodeRewriter &n,
                                                              SmallVector<AxisSpec> specs,
                                                              StringRef policy) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type f64 = b.getF64Type(), i64 = b.getI64Type();
  auto real = [&](OpFoldResult extent) -> Value {
    return arith::SIToFPOp::create(b, loc, f64,
                                   arith::IndexCastOp::create(b, loc, i64, toIndex(n, extent)));
  };
  Value common;
  for (const AxisSpec &a : specs) {
    auto in = getConstantIntValue(a.in);
    if (!in || *in == 0) {
      n.emitError() << "keep_aspect_ratio_policy " << policy << " needs static, non-empty "
                    << "input extents on the resized axes, dim " << a.axis << " is not";
      return std::nullopt;
    }
    Value ratio = arith::DivFOp::create(b, loc, real(a.out), real(a.in));
    common = !common                ? ratio
             : policy == "not_larger" ? arith::MinimumFOp::create(b, loc, common, ratio).getResult()
                                      : arith::MaximumFOp::create(b, loc, common, ratio).getResult();
  }
  Value scale = tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, f64),
                                               ValueRange{common});
  for (AxisSpec &a : specs) {
    Value product = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, common, real(a.in)),
        arith::ConstantOp::create(b, loc, b.getFloatAttr(f64, 0.5)));
    Value ok = arith::AndIOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, product,
                              arith::ConstantOp::create(b, loc, b.getFloatAttr(f64, 0.0))),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, product,
                              arith::ConstantOp::create(b, loc, b.getFloatAttr(f64, kMaxExtent))));
    Value count = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                             arith::FPToSIOp::create(b, loc, i64, product));
    a.out = arith::SelectOp::create(b, loc, ok, count, arith::ConstantIndexOp::create(b, loc, -1))
                .getResult();
    a.scale = std::nullopt;
    a.scaleValue = scale;
  }
  return specs;
}

/// Axis specs from `sizes`, adjusted by keep_aspect_ratio_policy:
///   stretch: out = size, scale = out / in
///   not_larger / not_smaller: scale = min / max over the axes of size / in,
///                             out = floor(scale * in + 0.5)
std::optional<SmallVector<AxisSpec>> specsFromSizes(NodeRewriter &n, Value x,
                                                    ArrayRef<int64_t> axes, Value sizes,
                                                    StringRef policy) {
  auto elements = getShapeElements(n, sizes);
  if (!elements) {
    n.emitError() << "input 3 (sizes) has type " << sizes.getType()
                  << ", expected a 1-d integer tensor of at most 64 elements";
    return std::nullopt;
  }
  if (elements->size() != axes.size()) {
    n.emitError() << "sizes has " << elements->size() << " entries, expected " << axes.size()
                  << " (one per resized axis)";
    return std::nullopt;
  }
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<AxisSpec> specs;
  for (auto [axis, size] : llvm::zip(axes, *elements)) {
    AxisSpec a;
    a.axis = axis;
    a.in = dims[axis];
    a.out = size;
    auto in = getConstantIntValue(a.in), out = getConstantIntValue(a.out);
    if (out && (*out < 0 || static_cast<double>(*out) > kMaxExtent)) {
      n.emitError() << "sizes entry " << *out << " for dim " << axis
                    << (*out < 0 ? " is negative" : " is too large");
      return std::nullopt;
    }
    if (in && out && *in > 0)
      a.scale = static_cast<double>(*out) / static_cast<double>(*in);
    else if (sameExtent(a.in, a.out))
      a.scale = 1.0;
    specs.push_back(a);
  }
  if (policy == "stretch")
    return specs;
  bool runtimeSizes = llvm::any_of(specs, [](const AxisSpec &a) {
    return !getConstantIntValue(a.out) && getConstantIntValue(a.in);
  });
  if (runtimeSizes)
    return keepAspectRatioAtRuntime(n, specs, policy);
  std::optional<double> common;
  for (AxisSpec &a : specs) {
    auto in = getConstantIntValue(a.in);
    if (!in || !getConstantIntValue(a.out) || *in == 0) {
      n.emitError() << "keep_aspect_ratio_policy " << policy << " needs static, non-empty "
                    << "extents on the resized axes, dim " << a.axis << " is not";
      return std::nullopt;
    }
    common = !common ? *a.scale
             : policy == "not_larger" ? std::min(*common, *a.scale)
                                      : std::max(*common, *a.scale);
  }
  for (AxisSpec &a : specs) {
    double out = std::floor(*common * static_cast<double>(*getConstantIntValue(a.in)) + 0.5);
    if (!(out <= kMaxExtent)) {
      n.emitError() << "keep_aspect_ratio_policy " << policy << " gives dim " << a.axis
                    << " an output extent too large (" << formatNumber(out) << ")";
      return std::nullopt;
    }
    a.scale = *common;
    a.out = n.getBuilder().getIndexAttr(static_cast<int64_t>(out));
  }
  return specs;
}

// upsample-7/9, resize-10(x, scales): every axis scaled, x_original = x / scale
// (asymmetric); nearest takes floor(x_original) (ceil when downsampling), linear is
// edge-clamped. Upsample-7 takes scales as an attribute; Upsample needs scales >= 1.
template <bool upsample, bool scalesAttribute> LogicalResult legacyResize(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  ResizeOptions options;
  options.transform = Transform::Asymmetric;
  options.rounding = Rounding::Legacy;
  auto mode = getChoice<Interpolation>(
      n, "mode", "nearest",
      {{"nearest", Interpolation::Nearest}, {"linear", Interpolation::Linear}});
  if (!mode)
    return failure();
  options.mode = *mode;
  std::optional<SmallVector<double>> scales;
  if (scalesAttribute) {
    if (auto values = n.getFloats("scales"))
      scales = SmallVector<double>(values->begin(), values->end());
    else if (!n.hasFailed())
      n.emitError() << "expected the attribute 'scales'";
  } else if (isRuntimeFloats(n, 1)) {
    SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, rankOf(x)));
    auto specs = specsFromRuntimeScales(n, x, axes, n.getInput(1), upsample ? 1.0 : 0.0);
    if (!specs)
      return failure();
    return resizeAxes(n, x, options, *specs);
  } else {
    scales = getConstantFloats(n, 1, "scales");
  }
  if (!scales)
    return failure();
  SmallVector<int64_t> axes = llvm::to_vector(llvm::seq<int64_t>(0, rankOf(x)));
  auto specs = specsFromScales(n, x, axes, *scales, upsample ? 1.0 : 0.0);
  if (!specs)
    return failure();
  return resizeAxes(n, x, options, *specs);
}

// Upsample-10 is deprecated: an error that names the replacement
LogicalResult upsampleDeprecated(NodeRewriter &n) {
  return n.emitError() << "Upsample is deprecated since opset 10; the model should use Resize";
}

/// The attributes of Resize-11 and later, checked against the node's opset.
std::optional<ResizeOptions> readOptions(NodeRewriter &n) {
  int64_t version = n.getVersion();
  ResizeOptions options;
  options.cubicA = n.getFloat("cubic_coeff_a", -0.75f);
  options.excludeOutside = n.getInt("exclude_outside", 0) != 0;
  options.extrapolation = n.getFloat("extrapolation_value", 0.0f);
  options.antialias = version >= 18 && n.getInt("antialias", 0) != 0;
  auto mode = getChoice<Interpolation>(n, "mode", "nearest",
                                       {{"nearest", Interpolation::Nearest},
                                        {"linear", Interpolation::Linear},
                                        {"cubic", Interpolation::Cubic}});
  SmallVector<std::pair<StringRef, Transform>> transforms = {
      {"half_pixel", Transform::HalfPixel},
      {"pytorch_half_pixel", Transform::PytorchHalfPixel},
      {"align_corners", Transform::AlignCorners},
      {"asymmetric", Transform::Asymmetric},
      {"tf_crop_and_resize", Transform::TfCropAndResize}};
  if (version < 13)
    transforms.push_back({"tf_half_pixel_for_nn", Transform::TfHalfPixelForNN});
  if (version >= 19)
    transforms.push_back({"half_pixel_symmetric", Transform::HalfPixelSymmetric});
  auto transform = mode ? getChoice<Transform>(n, "coordinate_transformation_mode",
                                               "half_pixel", transforms)
                        : std::nullopt;
  if (!transform)
    return std::nullopt;
  options.mode = *mode;
  options.transform = *transform;
  if (options.mode != Interpolation::Nearest)
    return options;
  auto rounding = getChoice<Rounding>(n, "nearest_mode", "round_prefer_floor",
                                      {{"round_prefer_floor", Rounding::RoundPreferFloor},
                                       {"round_prefer_ceil", Rounding::RoundPreferCeil},
                                       {"floor", Rounding::Floor},
                                       {"ceil", Rounding::Ceil}});
  if (!rounding)
    return std::nullopt;
  options.rounding = *rounding;
  if (options.antialias) {
    n.emitError() << "antialias applies to the linear and cubic modes, the mode is nearest";
    return std::nullopt;
  }
  return options;
}

// resize-11/13/18/19(x, roi, scales, sizes): each resized axis d interpolated with scale
// s[d] (given, or sizes[d] / in[d]) as in the file comment; out[d] = floor(in[d] * s[d]) or
// sizes[d] (adjusted by keep_aspect_ratio_policy)
LogicalResult resize(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  auto options = readOptions(n);
  if (!options)
    return failure();
  int64_t rank = rankOf(x), version = n.getVersion();
  if (rank == 0)
    return n.emitError() << "expected an input of rank >= 1, got " << x.getType();
  SmallVector<int64_t> axes;
  if (auto given = version >= 18 ? n.getInts("axes") : std::nullopt) {
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
    axes.append(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
  }
  auto policy = version >= 18 ? getChoice<StringRef>(n, "keep_aspect_ratio_policy", "stretch",
                                                     {{"stretch", "stretch"},
                                                      {"not_larger", "not_larger"},
                                                      {"not_smaller", "not_smaller"}})
                              : std::optional<StringRef>("stretch");
  bool runtimeScales = policy && isRuntimeFloats(n, 2);
  auto scales = !policy          ? std::nullopt
                : runtimeScales ? std::optional<SmallVector<double>>(SmallVector<double>{0.0})
                                : getConstantFloats(n, 2, "scales");
  if (!scales)
    return failure();
  Value sizes = n.getOptionalInput(3);
  if (n.hasFailed())
    return failure();
  if (sizes && typeOf(sizes).hasStaticShape() && typeOf(sizes).getNumElements() == 0)
    sizes = nullptr;
  if (!scales->empty() && sizes)
    return n.emitError() << "expected one of the inputs scales (2) and sizes (3), got both";
  if (scales->empty() && !sizes)
    return n.emitError() << "expected one of the inputs scales (2) and sizes (3), got neither";
  if (runtimeScales && *policy != "stretch")
    return n.emitError() << "keep_aspect_ratio_policy " << *policy << " applies to sizes, "
                         << "not scales";
  auto specs = sizes           ? specsFromSizes(n, x, axes, sizes, *policy)
               : runtimeScales ? specsFromRuntimeScales(n, x, axes, n.getInput(2), 0.0)
                               : specsFromScales(n, x, axes, *scales, 0.0);
  if (!specs)
    return failure();
  if (options->transform == Transform::TfCropAndResize && isRuntimeFloats(n, 1)) {
    // The roi read at run time: start and end - start per axis, the subtraction in the
    // roi's own type (as the reference), then f64.
    Value roi = n.getInput(1);
    RankedTensorType type = typeOf(roi);
    if (type.getRank() != 1 || !type.hasStaticShape() ||
        type.getDimSize(0) != static_cast<int64_t>(2 * axes.size()))
      return n.emitError() << "roi has type " << type << ", expected " << 2 * axes.size()
                           << " entries (start and end of each resized axis) with "
                           << "tf_crop_and_resize";
    OpBuilder &b = n.getBuilder();
    Location loc = n.getLoc();
    Type f64 = b.getF64Type();
    auto element = [&](size_t i) {
      return tensor::ExtractOp::create(b, loc, roi,
                                       ValueRange{arith::ConstantIndexOp::create(b, loc, i)})
          .getResult();
    };
    auto widen = [&](Value v) -> Value {
      Value wide = v.getType() == f64 ? v : arith::ExtFOp::create(b, loc, f64, v).getResult();
      return tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, f64),
                                            ValueRange{wide});
    };
    for (size_t i = 0; i < specs->size(); ++i) {
      Value start = element(i), end = element(i + axes.size());
      (*specs)[i].roiStartValue = widen(start);
      (*specs)[i].roiExtentValue = widen(arith::SubFOp::create(b, loc, end, start));
    }
  } else if (options->transform == Transform::TfCropAndResize) {
    bool isF32 = false;
    auto roi = getConstantFloats(n, 1, "roi", &isF32);
    if (!roi)
      return failure();
    if (roi->size() != 2 * axes.size())
      return n.emitError() << "roi has " << roi->size() << " entries, expected "
                           << 2 * axes.size()
                           << " (start and end of each resized axis) with tf_crop_and_resize";
    for (size_t i = 0; i < specs->size(); ++i) {
      (*specs)[i].roiStart = (*roi)[i];
      (*specs)[i].roiEnd = (*roi)[i + axes.size()];
      (*specs)[i].roiIsF32 = isF32;
    }
  }
  return resizeAxes(n, x, *options, *specs);
}

} // namespace

void tcc::decompose::registerResizeRules(RuleRegistry &r) {
  r.add("", "Upsample", 7, legacyResize</*upsample=*/true, /*scalesAttribute=*/true>);
  r.add("", "Upsample", 9, legacyResize</*upsample=*/true, /*scalesAttribute=*/false>);
  r.add("", "Upsample", 10, upsampleDeprecated);
  r.add("", "Resize", 10, legacyResize</*upsample=*/false, /*scalesAttribute=*/false>);
  r.add("", "Resize", 11, resize);
  r.add("", "Resize", 13, resize);
  r.add("", "Resize", 18, resize);
  r.add("", "Resize", 19, resize);
}
