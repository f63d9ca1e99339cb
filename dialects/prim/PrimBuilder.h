//===- PrimBuilder.h - building prim arithmetic at one location ---------------*- C++ -*-===//
//
// The one builder of prim code that the decomposition rules (lib/Decompose, through
// NodeRewriter::prim()) and the VJP rules (lib/Autodiff, VjpBuilder) share: constants and
// fills, broadcasts, reshapes, slices, elementwise arithmetic, and index arithmetic on
// extents that folds constants (so static shapes stay static).
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_DIALECTS_PRIM_PRIMBUILDER_H
#define TCC_DIALECTS_PRIM_PRIMBUILDER_H

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/Builders.h"

#include <map>
#include <optional>

namespace tcc::prim {

/// A tensor type with static extents where `dims` are constants and `?` elsewhere.
mlir::RankedTensorType tensorType(llvm::ArrayRef<mlir::OpFoldResult> dims, mlir::Type element);

/// The dynamic extents among `dims` as index values, in order (the `sizes(...)` operands).
llvm::SmallVector<mlir::Value> dynamicExtents(llvm::ArrayRef<mlir::OpFoldResult> dims);

/// An index extent as coefficient x product of factors (dims or other index values), when it
/// is a product; `factors` identify dims up to equality (prim.dim of tensors bound to one
/// symbol count as one) and are sorted.
struct Monomial {
  int64_t coefficient = 1;
  llvm::SmallVector<std::pair<void *, int64_t>> factors;
  llvm::SmallVector<mlir::Value> values;
};
std::optional<Monomial> asMonomial(mlir::OpFoldResult extent);

/// True when two extents are equal at compile time (equal monomials).
bool sameExtent(mlir::OpFoldResult a, mlir::OpFoldResult b);

/// An index extent as a sum of monomials (additions of products, Monomial's factors as the
/// keys): the coefficient of each product, none zero; the empty product is the constant.
using ExtentSum = std::map<llvm::SmallVector<std::pair<void *, int64_t>>, int64_t>;
std::optional<ExtentSum> asSum(mlir::OpFoldResult extent);
/// Dim `index` of `tensor` as a sum: its static extent, or the dim itself as one factor
/// (a function argument's dim bound to a symbol counts as the symbol's first binding).
ExtentSum dimAsSum(mlir::Value tensor, int64_t index);
/// a + b, merging equal products.
ExtentSum addSums(const ExtentSum &a, const ExtentSum &b);

class PrimBuilder {
public:
  PrimBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}
  virtual ~PrimBuilder() = default;
  mlir::OpBuilder &b;
  mlir::Location loc;

  static mlir::RankedTensorType typeOf(mlir::Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType());
  }
  /// The extents of `v`: constants where static, prim.dim otherwise. (The decomposition
  /// rules' builder answers in terms of the function's inputs instead.)
  virtual llvm::SmallVector<mlir::OpFoldResult> dims(mlir::Value v);

  // --- Constants and fills -----------------------------------------------------------------
  /// A 0-d constant of `element` holding `value` (rounded to nearest even, or truncated).
  mlir::Value scalar(mlir::Type element, double value);
  /// The 0-d tensor `scalar0d` broadcast to `dims` (a constant when both are static).
  mlir::Value fill(mlir::Value scalar0d, llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// A tensor shaped like `like` filled with `value`, of `element` (default: like's).
  mlir::Value splat(mlir::Value like, double value, mlir::Type element = {});
  /// Zeros of `element` shaped `dims`.
  mlir::Value zeros(llvm::ArrayRef<mlir::OpFoldResult> dims, mlir::Type element);
  /// prim.iota along `dim`, shaped `dims`.
  mlir::Value iota(llvm::ArrayRef<mlir::OpFoldResult> dims, int64_t dim, mlir::Type element);
  /// An i64 tensor shaped `dims` whose every element is the index `v`.
  mlir::Value indexTensor(mlir::OpFoldResult v, llvm::ArrayRef<mlir::OpFoldResult> dims);

  // --- Shapes ------------------------------------------------------------------------------
  /// `v` broadcast to `dims`, its dim i becoming dim mapping[i] (no op when nothing changes).
  mlir::Value broadcast(mlir::Value v, llvm::ArrayRef<int64_t> mapping,
                        llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// `v` reshaped to `dims` (no op when the static type already matches).
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<mlir::OpFoldResult> dims);
  /// `v` converted to `element` (no op when it has it; strings are formatted and parsed).
  mlir::Value convert(mlir::Value v, mlir::Type element);
  /// The sum of `v` over the `reduced` dims (dropped from the shape).
  mlir::Value sum(mlir::Value v, llvm::ArrayRef<int64_t> reduced);
  mlir::Value transpose(mlir::Value v, llvm::ArrayRef<int64_t> permutation);
  /// v[..., offset : offset + size * stride : stride, ...] along `dim`.
  mlir::Value slice(mlir::Value v, int64_t dim, mlir::OpFoldResult offset, mlir::OpFoldResult size,
                    int64_t stride = 1);

  // --- Elementwise (operands of one shape) -----------------------------------------------
  template <typename OpTy, typename... Args> mlir::Value create(Args... args) {
    return OpTy::create(b, loc, args...).getResult();
  }
  mlir::Value add(mlir::Value x, mlir::Value y) { return create<AddOp>(x, y); }
  mlir::Value sub(mlir::Value x, mlir::Value y) { return create<SubOp>(x, y); }
  mlir::Value mul(mlir::Value x, mlir::Value y) { return create<MulOp>(x, y); }
  mlir::Value div(mlir::Value x, mlir::Value y) { return create<DivOp>(x, y); }
  mlir::Value max(mlir::Value x, mlir::Value y) { return create<MaxOp>(x, y); }
  mlir::Value min(mlir::Value x, mlir::Value y) { return create<MinOp>(x, y); }
  mlir::Value neg(mlir::Value x) { return create<NegOp>(x); }
  mlir::Value abs(mlir::Value x) { return create<AbsOp>(x); }
  mlir::Value floor(mlir::Value x) { return create<FloorOp>(x); }
  mlir::Value exp(mlir::Value x) { return create<ExpOp>(x); }
  mlir::Value tanh(mlir::Value x) { return create<TanhOp>(x); }
  mlir::Value sqrt(mlir::Value x) { return create<SqrtOp>(x); }
  mlir::Value cmp(CompareDirection direction, mlir::Value x, mlir::Value y) {
    return create<CompareOp>(direction, x, y);
  }
  mlir::Value select(mlir::Value p, mlir::Value t, mlir::Value f) {
    return create<SelectOp>(p, t, f);
  }
  mlir::Value both(mlir::Value x, mlir::Value y) { return create<AndOp>(x, y); }
  mlir::Value either(mlir::Value x, mlir::Value y) { return create<OrOp>(x, y); }
  mlir::Value negate(mlir::Value x) { return create<NotOp>(x); }
  mlir::Value clamp(mlir::Value lo, mlir::Value x, mlir::Value hi) {
    return create<ClampOp>(lo, x, hi);
  }
  /// `x * c` for a constant c.
  mlir::Value scale(mlir::Value x, double c) { return mul(x, splat(x, c)); }

  // --- Index arithmetic on extents, folded where the operands are constants --------------
  /// `v` as an index SSA value (materializing a constant).
  mlir::Value index(mlir::OpFoldResult v);
  mlir::OpFoldResult addIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult subIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult mulIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult floorDivIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult ceilDivIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult minIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  /// max(x, y); an extent built from dims and constants >= 0 is known to be >= any y <= 0.
  mlir::OpFoldResult maxIndex(mlir::OpFoldResult x, mlir::OpFoldResult y);
  /// The product of `values` (1 when empty).
  mlir::OpFoldResult product(llvm::ArrayRef<mlir::OpFoldResult> values);
  /// (lhs `predicate` rhs) ? ifTrue : ifFalse, signed comparison.
  mlir::OpFoldResult selectIndex(mlir::arith::CmpIPredicate predicate, mlir::OpFoldResult lhs,
                                 mlir::OpFoldResult rhs, mlir::OpFoldResult ifTrue,
                                 mlir::OpFoldResult ifFalse);
  /// x / y when y's factors cancel out of x's exactly (e.g. (6 n) / n = 6); std::nullopt
  /// when that cannot be shown at compile time.
  std::optional<mlir::OpFoldResult> divideExactly(mlir::OpFoldResult x, mlir::OpFoldResult y);
};

} // namespace tcc::prim

#endif // TCC_DIALECTS_PRIM_PRIMBUILDER_H
