//===- Resize.cpp - rules for Resize and Upsample ---------------------------------------===//
//
// The rules read the nodes' attributes and their scales, sizes and roi (constant or given at
// run time) into one AxisSpec per resized axis; ResizeAxes.cpp interpolates (the formulas
// are there).
//
//===----------------------------------------------------------------------------------===//
#include "ResizeAxes.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using namespace tcc::decompose::resizing;

namespace {

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
                                                     ArrayRef<double> scales, double minimum) {
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
                                                            ArrayRef<int64_t> axes, Value scales,
                                                            double minimum) {
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
    Value scale = tensor::ExtractOp::create(b, loc, scales,
                                            ValueRange{arith::ConstantIndexOp::create(b, loc, i)});
    Value scale32 = toType(scale, cast<FloatType>(f32));
    Value in = arith::SIToFPOp::create(
        b, loc, f32, arith::IndexCastOp::create(b, loc, b.getI64Type(), toIndex(n, dims[axis])));
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
std::optional<SmallVector<AxisSpec>>
keepAspectRatioAtRuntime(NodeRewriter &n, SmallVector<AxisSpec> specs, StringRef policy) {
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
    common = !common ? ratio
             : policy == "not_larger"
                 ? arith::MinimumFOp::create(b, loc, common, ratio).getResult()
                 : arith::MaximumFOp::create(b, loc, common, ratio).getResult();
  }
  Value scale =
      tensor::FromElementsOp::create(b, loc, RankedTensorType::get({}, f64), ValueRange{common});
  for (AxisSpec &a : specs) {
    Value product =
        arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, common, real(a.in)),
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
std::optional<SmallVector<AxisSpec>>
specsFromSizes(NodeRewriter &n, Value x, ArrayRef<int64_t> axes, Value sizes, StringRef policy) {
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
    common = !common                  ? *a.scale
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
  auto transform =
      mode ? getChoice<Transform>(n, "coordinate_transformation_mode", "half_pixel", transforms)
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
  auto scales = !policy         ? std::nullopt
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
      return n.emitError() << "roi has " << roi->size() << " entries, expected " << 2 * axes.size()
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
