//===- VjpRules.h - what a VJP rule sees, and the rule registry -----------------*- C++ -*-===//
//
// A rule gets the op and the cotangents of its results (the gradient of the scalar being
// differentiated with respect to each result; null for results that carry none, i.e. integer
// results or results nothing downstream needed) and returns one cotangent per operand (null
// for an operand that gets none: integer operands, or operands the op is constant in).
// Operand cotangents have the operand's exact type. Every rule has its formula as a comment.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_AUTODIFF_VJPRULES_H
#define TCC_LIB_AUTODIFF_VJPRULES_H

#include "dialects/prim/PrimBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <string>

namespace tcc::autodiff {

/// The prim builder of a rule, at the op's location (dialects/prim/PrimBuilder.h), with the
/// data movement that only transposes of ops need.
class VjpBuilder : public prim::PrimBuilder {
public:
  using PrimBuilder::PrimBuilder;

  /// `v` with the exact type `type` (a reshape when only the static-ness of dims differs).
  mlir::Value castTo(mlir::Value v, mlir::Type type);
  /// `v` along `dim` with `low` and `high` zeros added (positive) or elements cut (negative).
  mlir::Value padOrCut(mlir::Value v, int64_t dim, int64_t low, int64_t high);
  /// The transpose of a strided slice along `dim`: a tensor of extent `extent` there, zero
  /// except at `offset + i * stride`, which holds `g[i]`. `offset` may be a negative
  /// constant; elements that land outside `[0, extent)` are dropped.
  mlir::Value placeStrided(mlir::Value g, int64_t dim, mlir::OpFoldResult offset, int64_t stride,
                           mlir::OpFoldResult extent);
  /// result[..., i, ...] = v[..., idx[..., i, ...], ...] along `dim` (take_along_axis);
  /// `idx` (i64) has v's extents except along `dim`, its entries in range.
  mlir::Value takeAlong(mlir::Value v, mlir::Value idx, int64_t dim);
};

/// Fills `operandCotangents` (one per operand, pre-set to null).
using VjpFn = mlir::LogicalResult (*)(VjpBuilder &b, mlir::Operation *op,
                                      llvm::ArrayRef<mlir::Value> resultCotangents,
                                      llvm::MutableArrayRef<mlir::Value> operandCotangents);

class VjpRegistry {
public:
  static const VjpRegistry &get();
  void add(llvm::StringRef opName, VjpFn fn) { rules[opName] = fn; }
  /// An op through which no gradient flows; asking for one is an error with `why`.
  void addNonDifferentiable(llvm::StringRef opName, llvm::StringRef why) {
    nonDifferentiable[opName] = why.str();
  }
  VjpFn lookup(llvm::StringRef opName) const {
    auto it = rules.find(opName);
    return it == rules.end() ? nullptr : it->second;
  }
  const std::string *whyNot(llvm::StringRef opName) const {
    auto it = nonDifferentiable.find(opName);
    return it == nonDifferentiable.end() ? nullptr : &it->second;
  }
  llvm::StringMap<VjpFn> rules;
  llvm::StringMap<std::string> nonDifferentiable;
};

/// "node 'NAME': " from the op's location (the ONNX node), or "": the start of every error.
std::string nodePrefix(mlir::Operation *op);

// One registration function per rule file.
void registerElementwiseVjps(VjpRegistry &registry);  // ElementwiseVjp.cpp
void registerDataMovementVjps(VjpRegistry &registry); // DataMovementVjp.cpp
void registerReductionVjps(VjpRegistry &registry);    // ReductionVjp.cpp
void registerContractionVjps(VjpRegistry &registry);  // ContractionVjp.cpp
void registerWindowVjps(VjpRegistry &registry);       // WindowVjp.cpp
void registerLoopVjps(VjpRegistry &registry);         // LoopVjp.cpp

} // namespace tcc::autodiff

#endif // TCC_LIB_AUTODIFF_VJPRULES_H
