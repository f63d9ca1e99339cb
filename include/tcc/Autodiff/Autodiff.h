//===- Autodiff.h - reverse-mode differentiation of prim code -------------------*- C++ -*-===//
//
// AOTAutograd's idea on prim: one VJP rule per primitive (lib/Autodiff/*Vjp.cpp, each with
// its formula), and a reverse sweep that chains them. The result is more prim code in the
// same function, so the backward pass is fused and code-generated exactly like the forward.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_AUTODIFF_AUTODIFF_H
#define TCC_AUTODIFF_AUTODIFF_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace tcc::autodiff {

/// Builds, at `builder`'s insertion point (after every op of `block` that computes
/// `outputs`), the gradients of sum_i <outputs[i], seeds[i]> with respect to each of `wrt`
/// (vector-Jacobian products). The ops on paths from `wrt` to `outputs` are visited in
/// reverse; each contributes through its VJP rule; contributions to one value are summed.
/// A `wrt` value the outputs do not depend on gets a zero gradient. Integer and boolean
/// values carry no gradient. Fails, after an error at the op (whose location names the ONNX
/// node), when a path goes through an op that has no VJP rule or is not differentiable.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
buildGradients(mlir::OpBuilder &builder, mlir::Block &block, mlir::ValueRange outputs,
               mlir::ValueRange seeds, mlir::ValueRange wrt);

/// The op names (e.g. "prim.add") with a VJP rule, and those marked not differentiable with
/// the reason, for documentation and tests.
std::vector<std::string> getDifferentiableOps();
std::vector<std::pair<std::string, std::string>> getNonDifferentiableOps();

} // namespace tcc::autodiff

#endif // TCC_AUTODIFF_AUTODIFF_H
