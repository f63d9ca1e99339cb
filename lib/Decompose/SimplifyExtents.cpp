//===- SimplifyExtents.cpp - index arithmetic on extents, folded with the symbols' ranges -===//
//
// tcc-simplify-extents (Passes.td). Exporters compute shapes as tensors (Shape, Gather,
// Concat, Reshape's 0 and -1); decomposed, that is index arithmetic whose selects guard
// cases the symbols' ranges exclude (an extent equal to -1 or 0, a divisor of 0). Each value
// gets an interval from the symbols' declared ranges (prim.symbol's min and max, through the
// prim.bind_shape of the argument a prim.dim reads), and a comparison the intervals decide,
// a maximum or minimum one side of which always wins, and a division of a product by some
// of its own factors fold.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Decompose/Passes.h"

#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace tcc {
#define GEN_PASS_DEF_SIMPLIFYEXTENTS
#include "tcc/Decompose/Passes.h.inc"
} // namespace tcc

using namespace mlir;
namespace prim = tcc::prim;

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

/// [lo, hi] with kMin / kMax standing for unbounded.
struct Interval {
  int64_t lo = kMin, hi = kMax;
  bool nonNegative() const { return lo >= 0; }
};

int64_t saturatingAdd(int64_t a, int64_t b) {
  if (a == kMin || b == kMin)
    return kMin;
  if (a == kMax || b == kMax)
    return kMax;
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? (a > 0 ? kMax : kMin) : r;
}

/// a · b for a, b >= 0 (kMax: unbounded).
int64_t saturatingMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (a == kMax || b == kMax)
    return kMax;
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kMax : r;
}

/// The intervals of index and integer values, memoized for one query (rewrites erase and
/// create values between queries).
class Ranges {
public:
  explicit Ranges(SymbolTable &symbols) : symbols(symbols) {}

  Interval of(Value v, unsigned depth = 0) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    Interval r = depth > 64 ? Interval{} : compute(v, depth + 1);
    memo[v] = r;
    return r;
  }

private:
  Interval compute(Value v, unsigned depth) {
    APInt constant;
    if (matchPattern(v, m_ConstantInt(&constant)))
      return {constant.getSExtValue(), constant.getSExtValue()};
    Operation *op = v.getDefiningOp();
    if (!op)
      return {};
    if (auto dim = dyn_cast<prim::DimOp>(op))
      return dimRange(dim.getOperand(), dim.getIndex());
    if (auto dim = dyn_cast<tensor::DimOp>(op)) {
      std::optional<int64_t> index = dim.getConstantIndex();
      return index ? dimRange(dim.getSource(), *index) : Interval{0, kMax};
    }
    if (auto data = dyn_cast<prim::DataSymbolOp>(op))
      return symbolRange(data.getSymbolAttr());
    if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
      Interval in = of(cast.getIn(), depth);
      // i64 <-> index keep the value; narrower types might wrap.
      if (cast.getIn().getType().isIndex() || cast.getIn().getType().isInteger(64))
        if (cast.getOut().getType().isIndex() || cast.getOut().getType().isInteger(64))
          return in;
      return {};
    }
    if (auto add = dyn_cast<arith::AddIOp>(op)) {
      Interval a = of(add.getLhs(), depth), b = of(add.getRhs(), depth);
      return {saturatingAdd(a.lo, b.lo), saturatingAdd(a.hi, b.hi)};
    }
    if (auto sub = dyn_cast<arith::SubIOp>(op)) {
      Interval a = of(sub.getLhs(), depth), b = of(sub.getRhs(), depth);
      if (b.lo == kMin || b.hi == kMax)
        return {};
      return {saturatingAdd(a.lo, -b.hi), saturatingAdd(a.hi, -b.lo)};
    }
    if (auto mul = dyn_cast<arith::MulIOp>(op)) {
      Interval a = of(mul.getLhs(), depth), b = of(mul.getRhs(), depth);
      if (!a.nonNegative() || !b.nonNegative())
        return {};
      return {saturatingMul(a.lo, b.lo), saturatingMul(a.hi, b.hi)};
    }
    if (isa<arith::FloorDivSIOp, arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp>(op)) {
      Interval a = of(op->getOperand(0), depth), b = of(op->getOperand(1), depth);
      if (!a.nonNegative() || b.lo < 1)
        return {};
      bool ceil = isa<arith::CeilDivSIOp>(op);
      int64_t lo = a.lo / (b.hi == kMax ? kMax : b.hi);
      int64_t hi = a.hi == kMax ? kMax : (ceil ? (a.hi + b.lo - 1) / b.lo : a.hi / b.lo);
      return {lo, hi};
    }
    if (auto max = dyn_cast<arith::MaxSIOp>(op)) {
      Interval a = of(max.getLhs(), depth), b = of(max.getRhs(), depth);
      return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    }
    if (auto min = dyn_cast<arith::MinSIOp>(op)) {
      Interval a = of(min.getLhs(), depth), b = of(min.getRhs(), depth);
      return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
    }
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (!select.getType().isIntOrIndex())
        return {};
      Interval a = of(select.getTrueValue(), depth), b = of(select.getFalseValue(), depth);
      return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
    }
    return {};
  }

  /// Dim `d` of `tensor`: static, a function argument's dim as its prim.bind_shape states
  /// it in symbols, or any extent (>= 0).
  Interval dimRange(Value tensor, int64_t d) {
    auto type = dyn_cast<RankedTensorType>(tensor.getType());
    if (!type || d < 0 || d >= type.getRank())
      return {0, kMax};
    if (!type.isDynamicDim(d))
      return {type.getDimSize(d), type.getDimSize(d)};
    for (Operation *user : tensor.getUsers()) {
      auto bind = dyn_cast<prim::BindShapeOp>(user);
      if (!bind || static_cast<int64_t>(bind.getShape().getNumResults()) <= d)
        continue;
      Interval r = exprRange(bind.getShape().getResult(d), bind.getSymbols());
      return {std::max<int64_t>(r.lo, 0), r.hi};
    }
    return {0, kMax};
  }

  Interval exprRange(AffineExpr expr, ArrayAttr names) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return {constant.getValue(), constant.getValue()};
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
      if (symbol.getPosition() >= names.size())
        return {};
      return symbolRange(cast<FlatSymbolRefAttr>(names[symbol.getPosition()]));
    }
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return {};
    Interval a = exprRange(binary.getLHS(), names), b = exprRange(binary.getRHS(), names);
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return {saturatingAdd(a.lo, b.lo), saturatingAdd(a.hi, b.hi)};
    case AffineExprKind::Mul:
      if (a.nonNegative() && b.nonNegative())
        return {saturatingMul(a.lo, b.lo), saturatingMul(a.hi, b.hi)};
      return {};
    default:
      return {};
    }
  }

  Interval symbolRange(FlatSymbolRefAttr name) {
    auto symbol = symbols.lookup<prim::SymbolOp>(name.getAttr());
    if (!symbol)
      return {0, kMax};
    std::optional<uint64_t> max = symbol.getMax();
    return {static_cast<int64_t>(symbol.getMin()), max ? static_cast<int64_t>(*max) : kMax};
  }

  SymbolTable &symbols;
  DenseMap<Value, Interval> memo;
};

/// A comparison the intervals decide.
struct FoldComparison : OpRewritePattern<arith::CmpIOp> {
  FoldComparison(MLIRContext *context, SymbolTable &symbols)
      : OpRewritePattern(context), symbols(symbols) {}

  LogicalResult matchAndRewrite(arith::CmpIOp op, PatternRewriter &rewriter) const override {
    if (!op.getLhs().getType().isIntOrIndex() || isa<ShapedType>(op.getLhs().getType()))
      return failure();
    Ranges ranges(symbols);
    Interval a = ranges.of(op.getLhs()), b = ranges.of(op.getRhs());
    std::optional<bool> known;
    using P = arith::CmpIPredicate;
    bool disjoint = a.hi < b.lo || b.hi < a.lo;
    switch (op.getPredicate()) {
    case P::eq:
      if (disjoint)
        known = false;
      break;
    case P::ne:
      if (disjoint)
        known = true;
      break;
    case P::slt:
      if (a.hi < b.lo)
        known = true;
      else if (a.lo >= b.hi)
        known = false;
      break;
    case P::sle:
      if (a.hi <= b.lo)
        known = true;
      else if (a.lo > b.hi)
        known = false;
      break;
    case P::sgt:
      if (a.lo > b.hi)
        known = true;
      else if (a.hi <= b.lo)
        known = false;
      break;
    case P::sge:
      if (a.lo >= b.hi)
        known = true;
      else if (a.hi < b.lo)
        known = false;
      break;
    default:
      break;
    }
    if (!known)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, rewriter.getBoolAttr(*known));
    return success();
  }

  SymbolTable &symbols;
};

/// max(a, b) or min(a, b) where one side always wins.
template <typename Op, bool isMax> struct FoldExtremum : OpRewritePattern<Op> {
  FoldExtremum(MLIRContext *context, SymbolTable &symbols)
      : OpRewritePattern<Op>(context), symbols(symbols) {}

  LogicalResult matchAndRewrite(Op op, PatternRewriter &rewriter) const override {
    Ranges ranges(symbols);
    Interval a = ranges.of(op.getLhs()), b = ranges.of(op.getRhs());
    Value winner;
    if (isMax ? a.lo >= b.hi : a.hi <= b.lo)
      winner = op.getLhs();
    else if (isMax ? b.lo >= a.hi : b.hi <= a.lo)
      winner = op.getRhs();
    if (!winner)
      return failure();
    rewriter.replaceOp(op, winner);
    return success();
  }

  SymbolTable &symbols;
};

/// (x · y · c1) floordiv (y · c2), when c2 divides c1 and the divisor is >= 1: x · (c1 / c2).
struct CancelFactors : OpRewritePattern<arith::FloorDivSIOp> {
  CancelFactors(MLIRContext *context, SymbolTable &symbols)
      : OpRewritePattern(context), symbols(symbols) {}

  LogicalResult matchAndRewrite(arith::FloorDivSIOp op, PatternRewriter &rewriter) const override {
    Ranges ranges(symbols);
    if (!op.getType().isIndex() || ranges.of(op.getRhs()).lo < 1 ||
        !ranges.of(op.getLhs()).nonNegative())
      return failure();
    // The quotient of the products (prim's monomials: dims bound to one symbol are one).
    prim::PrimBuilder prims(rewriter, op.getLoc());
    std::optional<OpFoldResult> quotient = prims.divideExactly(op.getLhs(), op.getRhs());
    if (!quotient)
      return failure();
    Value result = getValueOrCreateConstantIndexOp(rewriter, op.getLoc(), *quotient);
    rewriter.replaceOp(op, result);
    return success();
  }

  SymbolTable &symbols;
};

/// prim.reshape of a tensor.from_elements to a static shape: the elements in that shape
/// (so that a tensor.extract of it folds to the element).
struct ReshapeElements : OpRewritePattern<prim::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(prim::ReshapeOp op, PatternRewriter &rewriter) const override {
    auto elements = op.getOperand().getDefiningOp<tensor::FromElementsOp>();
    if (!elements || !op.getType().hasStaticShape())
      return failure();
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, op.getType(), elements.getElements());
    return success();
  }
};

struct SimplifyExtentsPass : public tcc::impl::SimplifyExtentsBase<SimplifyExtentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldComparison, CancelFactors, FoldExtremum<arith::MaxSIOp, true>,
                 FoldExtremum<arith::MinSIOp, false>>(&getContext(), symbols);
    // The greedy driver also folds what the patterns expose (selects of a constant
    // condition, extracts of tensor.from_elements).
    patterns.add<ReshapeElements>(&getContext());
    // Not converging within the driver's limit leaves valid IR, only less folded.
    (void)applyPatternsGreedily(module, std::move(patterns));
  }
};

} // namespace
