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

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <string>

namespace tcc::autodiff {

/// Helpers for building prim code inside a rule (at the op's location).
class VjpBuilder {
public:
  VjpBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}
  mlir::OpBuilder &b;
  mlir::Location loc;

  static mlir::RankedTensorType typeOf(mlir::Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType());
  }
  /// The extents of `v` (constants where static, prim.dim otherwise).
  llvm::SmallVector<mlir::OpFoldResult> dims(mlir::Value v);
  /// The dynamic extents among `dims`, as index values.
  llvm::SmallVector<mlir::Value> dynamic(llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// A 0-d constant of `element`.
  mlir::Value scalar(mlir::Type element, double value);
  /// A tensor shaped like `like` filled with `value` (element type of `like` by default).
  mlir::Value splat(mlir::Value like, double value, mlir::Type element = {});
  /// `v` (0-d) broadcast to `dims`.
  mlir::Value fill(mlir::Value scalar0d, llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// `v` broadcast to `dims` along `mapping` (broadcast_in_dim).
  mlir::Value broadcast(mlir::Value v, llvm::ArrayRef<int64_t> mapping,
                        llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// `v` reshaped to `dims`.
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// Sum of `v` over `reduced` dims (dropped from the shape).
  mlir::Value sum(mlir::Value v, llvm::ArrayRef<int64_t> reduced);
  mlir::Value convert(mlir::Value v, mlir::Type element);
  mlir::Value compare(prim::CompareDirection direction, mlir::Value a, mlir::Value c);
  mlir::Value select(mlir::Value p, mlir::Value t, mlir::Value f);
  template <typename OpTy> mlir::Value binary(mlir::Value x, mlir::Value y) {
    return OpTy::create(b, loc, x, y).getResult();
  }
  template <typename OpTy> mlir::Value unary(mlir::Value x) {
    return OpTy::create(b, loc, x).getResult();
  }
  mlir::Value add(mlir::Value x, mlir::Value y) { return binary<prim::AddOp>(x, y); }
  mlir::Value sub(mlir::Value x, mlir::Value y) { return binary<prim::SubOp>(x, y); }
  mlir::Value mul(mlir::Value x, mlir::Value y) { return binary<prim::MulOp>(x, y); }
  mlir::Value div(mlir::Value x, mlir::Value y) { return binary<prim::DivOp>(x, y); }
  mlir::Value neg(mlir::Value x) { return unary<prim::NegOp>(x); }
  /// `x * c` for a constant c.
  mlir::Value scale(mlir::Value x, double c) { return mul(x, splat(x, c)); }

  // Index arithmetic on extents, folded where both sides are constants.
  mlir::Value indexValue(mlir::OpFoldResult v);
  mlir::OpFoldResult addIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult subIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult mulIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult minIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult maxIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  /// The product of `dims` (1 when empty).
  mlir::OpFoldResult product(llvm::ArrayRef<mlir::OpFoldResult> dims);

  /// Zeros of `element` shaped `dims`.
  mlir::Value zeros(llvm::ArrayRef<mlir::OpFoldResult> dims, mlir::Type element);
  /// An i64 tensor shaped `dims` whose every element is the index `v`.
  mlir::Value indexTensor(mlir::OpFoldResult v, llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// prim.iota along `dim`, shaped `dims`.
  mlir::Value iota(llvm::ArrayRef<mlir::OpFoldResult> dims, int64_t dim, mlir::Type element);
  /// `v` with the exact type `type` (a reshape when only the static-ness of dims differs).
  mlir::Value castTo(mlir::Value v, mlir::Type type);
  /// prim.slice of `v` along one dim (the others whole).
  mlir::Value sliceDim(mlir::Value v, int64_t dim, mlir::OpFoldResult offset,
                       mlir::OpFoldResult size, int64_t stride = 1);
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
