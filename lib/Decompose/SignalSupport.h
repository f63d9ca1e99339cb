//===- SignalSupport.h - what the signal rules share (Signal.cpp, MelWeightMatrix.cpp) -*- C++
//-*-===//
#ifndef TCC_LIB_DECOMPOSE_SIGNALSUPPORT_H
#define TCC_LIB_DECOMPOSE_SIGNALSUPPORT_H

#include "NodeRewriter.h"

#include <optional>
#include <string>

namespace tcc::decompose {

/// The longest window or DFT whose values tcc computes while compiling.
constexpr int64_t kMaxConstantLength = int64_t(1) << 30;

/// A number as a person writes it (11, not 1.100000e+01).
std::string formatNumber(double value);

/// The value of a scalar integer input (0-d or one element) known while compiling: a
/// constant, or shape arithmetic that folds to one. std::nullopt after an error.
std::optional<int64_t> getConstantScalar(NodeRewriter &n, unsigned index, llvm::StringRef what);

/// Whether `v` is an integer scalar (0-d or one element) whose value is known only at run
/// time.
bool isRuntimeScalar(NodeRewriter &n, mlir::Value v);

/// The value of a constant floating-point scalar input; std::nullopt after an error.
std::optional<double> getConstantReal(NodeRewriter &n, unsigned index, llvm::StringRef what);

/// The element type named by attribute output_datatype (default 1, float), which must be
/// numeric; null after an error.
mlir::Type getOutputType(NodeRewriter &n);

/// A constant of `shape` holding `values` (row-major) as `elementType`. Floats are rounded
/// to nearest even; integers are built as f64 and converted by prim.convert (truncation).
mlir::Value realConstant(NodeRewriter &n, llvm::ArrayRef<int64_t> shape,
                         llvm::ArrayRef<double> values, mlir::Type elementType);

/// MelWeightMatrix (MelWeightMatrix.cpp).
mlir::LogicalResult melWeightMatrix(NodeRewriter &n);

} // namespace tcc::decompose

#endif // TCC_LIB_DECOMPOSE_SIGNALSUPPORT_H
