//===- ResizeAxes.h - resizing a tensor axis by axis (Resize, Upsample) ---------*- C++ -*-===//
//
// The interpolation of Resize and Upsample (ResizeAxes.cpp), for the rules that read the
// nodes' attributes and inputs (Resize.cpp).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_DECOMPOSE_RESIZEAXES_H
#define TCC_LIB_DECOMPOSE_RESIZEAXES_H

#include "RuleSupport.h"

#include <optional>
#include <string>

namespace tcc::decompose::resizing {

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
  mlir::OpFoldResult in, out;
  std::optional<double> scale;
  mlir::Value scaleValue; ///< a 0-d f64 tensor: the scale read at run time (scales input)
  double roiStart = 0.0, roiEnd = 1.0;
  bool roiIsF32 = false;
  /// The roi read at run time (tf_crop_and_resize): 0-d f64 tensors of the start and of
  /// end - start (subtracted in the roi's type).
  mlir::Value roiStartValue, roiExtentValue;
};

/// The largest output extent of a resized axis.
constexpr double kMaxExtent = 1099511627776.0; // 2^40

/// A number as a person writes it (1.5, not 1.500000e+00).
std::string formatNumber(double value);

/// Resizes `x` along each axis of `specs` (see ResizeAxes.cpp) and sets it as the node's
/// result; an error naming the node where an axis cannot be resized.
mlir::LogicalResult resizeAxes(NodeRewriter &n, mlir::Value x, const ResizeOptions &options,
                               llvm::ArrayRef<AxisSpec> specs);

} // namespace tcc::decompose::resizing

#endif // TCC_LIB_DECOMPOSE_RESIZEAXES_H
