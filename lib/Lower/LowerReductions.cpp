//===- LowerReductions.cpp - reduce, arg_reduce, reduce_window, cumulative -> linalg -------===//
//
// Reductions are linalg.generic ops with reduction iterators whose destination starts as
// the combiner's identity. Sums and products of floats narrower than f32 accumulate in f32
// and are rounded once at the end. cumulative is an scf.for along the scanned dim carrying
// the running value, one elementwise generic per step.
//
//===----------------------------------------------------------------------------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc;

namespace {

/// reduce: out[kept dims] = combine over the listed dims, starting from the identity.
struct ReduceToGeneric : OpRewritePattern<prim::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ReduceOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = lower::castToSignless(rewriter, loc, op.getOperand());
    auto operandType = op.getOperand().getType();
    auto type = op.getType();
    int64_t rank = operandType.getRank();
    ArrayRef<int64_t> dims = op.getDimensions();
    int kind = static_cast<int>(op.getKind());
    Type element = operandType.getElementType();
    Type acc = lower::accumulatorType(element, op.getKind() == prim::ReduceKind::Sum ||
                                                    op.getKind() == prim::ReduceKind::Prod);

    SmallVector<Value> sizes;
    SmallVector<AffineExpr> kept;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      bool reduced = llvm::is_contained(dims, d);
      iterators.push_back(reduced ? utils::IteratorType::reduction : utils::IteratorType::parallel);
      if (reduced)
        continue;
      kept.push_back(rewriter.getAffineDimExpr(d));
      if (operandType.isDynamicDim(d))
        sizes.push_back(tensor::DimOp::create(rewriter, loc, operand, d));
    }
    Value init = lower::createFilled(rewriter, loc, type.clone(acc), sizes,
                              lower::createIdentity(rewriter, loc, kind, acc));
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   AffineMap::get(rank, 0, kept, rewriter.getContext())};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{operand}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = lower::convertScalar(b, nested, args[0], element, acc);
          linalg::YieldOp::create(b, nested, lower::combine(b, nested, kind, acc, args[1], x));
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc,
                                             lower::convertElements(rewriter, loc, generic.getResult(0),
                                                             acc, element),
                                             type));
    return success();
  }
};

/// arg_reduce: a generic with two destinations, the best value so far and its index.
/// The update rule is a total order on (value, index) pairs, so it gives the same answer in
/// any iteration order: a strictly better value wins (NaN beats every number and loses to
/// nothing), and among equal values (NaNs are equal) the smaller index wins, or the larger
/// with select_last_index. The destinations start as (identity, 0), which never beats the
/// real element 0 and never beats the real answer.
struct ArgReduceToGeneric : OpRewritePattern<prim::ArgReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ArgReduceOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = lower::castToSignless(rewriter, loc, op.getOperand());
    auto operandType = op.getOperand().getType();
    auto type = op.getType();
    int64_t rank = operandType.getRank(), dim = op.getDimension();
    Type element = operandType.getElementType(), i64 = rewriter.getI64Type();
    bool isMax = op.getKind() == prim::ArgReduceKind::Argmax;
    bool selectLast = op.getSelectLastIndex();

    SmallVector<Value> sizes;
    SmallVector<AffineExpr> kept;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      iterators.push_back(d == dim ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
      if (d == dim)
        continue;
      kept.push_back(rewriter.getAffineDimExpr(d));
      if (operandType.isDynamicDim(d))
        sizes.push_back(tensor::DimOp::create(rewriter, loc, operand, d));
    }
    auto identityKind = isMax ? prim::ReduceKind::Max : prim::ReduceKind::Min;
    Value bestInit =
        lower::createFilled(rewriter, loc, type.clone(element), sizes,
                     lower::createIdentity(rewriter, loc, static_cast<int>(identityKind), element));
    auto indexType = lower::signless(type);
    Value indexInit = lower::createFilled(rewriter, loc, indexType, sizes,
                                   arith::ConstantIntOp::create(rewriter, loc, i64, 0));
    AffineMap keptMap = AffineMap::get(rank, 0, kept, rewriter.getContext());
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank), keptMap, keptMap};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{bestInit.getType(), indexType}, ValueRange{operand},
        ValueRange{bestInit, indexInit}, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value k =
              arith::IndexCastOp::create(b, nested, i64, linalg::IndexOp::create(b, nested, dim));
          Value better, tie;
          if (isa<FloatType>(element)) {
            auto predicate = isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
            Value xNaN = arith::CmpFOp::create(b, nested, arith::CmpFPredicate::UNO, x, x);
            Value bestNaN = arith::CmpFOp::create(b, nested, arith::CmpFPredicate::UNO, best, best);
            Value bestNumber = arith::XOrIOp::create(
                b, nested, bestNaN, arith::ConstantIntOp::create(b, nested, b.getI1Type(), 1));
            // better = (isnan(x) && !isnan(best)) || x > best;  tie = both NaN || x == best
            better =
                arith::OrIOp::create(b, nested, arith::AndIOp::create(b, nested, xNaN, bestNumber),
                                     arith::CmpFOp::create(b, nested, predicate, x, best));
            tie = arith::OrIOp::create(
                b, nested, arith::AndIOp::create(b, nested, xNaN, bestNaN),
                arith::CmpFOp::create(b, nested, arith::CmpFPredicate::OEQ, x, best));
          } else {
            bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
            arith::CmpIPredicate predicate =
                isMax ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                      : (isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
            better = arith::CmpIOp::create(b, nested, predicate, x, best);
            tie = arith::CmpIOp::create(b, nested, arith::CmpIPredicate::eq, x, best);
          }
          Value indexWins = arith::CmpIOp::create(
              b, nested, selectLast ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt, k,
              bestIndex);
          Value update = arith::OrIOp::create(b, nested, better,
                                              arith::AndIOp::create(b, nested, tie, indexWins));
          linalg::YieldOp::create(
              b, nested,
              ValueRange{arith::SelectOp::create(b, nested, update, x, best).getResult(),
                         arith::SelectOp::create(b, nested, update, k, bestIndex).getResult()});
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, generic.getResult(1), type));
    return success();
  }
};

/// reduce_window: out[i] = combine over k of padded[i * stride + k * dilation], with the
/// operand padded by the identity. The iteration space is (out dims..., window dims...);
/// a tensor.empty of the window's shape gives the window dims their extents.
struct ReduceWindowToGeneric : OpRewritePattern<prim::ReduceWindowOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::ReduceWindowOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    auto operandType = op.getOperand().getType();
    int64_t rank = type.getRank();
    int kind = static_cast<int>(op.getKind());
    Type element = operandType.getElementType();
    Type acc = lower::accumulatorType(element, op.getKind() == prim::ReduceKind::Sum ||
                                                    op.getKind() == prim::ReduceKind::Prod);
    ArrayRef<int64_t> window = op.getWindowDimensions(), strides = op.getWindowStrides(),
                      dilations = op.getWindowDilations(), low = op.getPaddingLow(),
                      high = op.getPaddingHigh();

    Value padded = lower::castToSignless(rewriter, loc, op.getOperand());
    if (llvm::any_of(low, [](int64_t p) { return p != 0; }) ||
        llvm::any_of(high, [](int64_t p) { return p != 0; })) {
      SmallVector<int64_t> shape;
      for (int64_t d = 0; d < rank; ++d)
        shape.push_back(operandType.isDynamicDim(d) ? ShapedType::kDynamic
                                                    : operandType.getDimSize(d) + low[d] + high[d]);
      padded = tensor::PadOp::create(rewriter, loc, lower::signless(operandType.clone(shape)), padded,
                                     getAsIndexOpFoldResult(rewriter.getContext(), low),
                                     getAsIndexOpFoldResult(rewriter.getContext(), high),
                                     lower::createIdentity(rewriter, loc, kind, element));
    }

    SmallVector<Value> sizes;
    for (int64_t d = 0; d < rank; ++d)
      if (type.isDynamicDim(d))
        sizes.push_back(lower::windowExtent(rewriter, loc,
                                            tensor::DimOp::create(rewriter, loc, padded, d),
                                            rewriter.getIndexAttr(window[d]), strides[d],
                                            dilations[d]));
    Value init = lower::createFilled(rewriter, loc, type.clone(acc), sizes,
                              lower::createIdentity(rewriter, loc, kind, acc));
    Value windowShape =
        lower::createEmpty(rewriter, loc, RankedTensorType::get(window, lower::signless(element)), {});

    SmallVector<AffineExpr> read, windowExprs, outExprs;
    for (int64_t d = 0; d < rank; ++d) {
      AffineExpr out = rewriter.getAffineDimExpr(d), k = rewriter.getAffineDimExpr(rank + d);
      read.push_back(out * strides[d] + k * dilations[d]);
      windowExprs.push_back(k);
      outExprs.push_back(out);
    }
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineMap> maps = {AffineMap::get(2 * rank, 0, read, ctx),
                                   AffineMap::get(2 * rank, 0, windowExprs, ctx),
                                   AffineMap::get(2 * rank, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    iterators.append(rank, utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{padded, windowShape}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = lower::convertScalar(b, nested, args[0], element, acc);
          linalg::YieldOp::create(b, nested, lower::combine(b, nested, kind, acc, args[2], x));
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc,
                                             lower::convertElements(rewriter, loc, generic.getResult(0),
                                                             acc, element),
                                             type));
    return success();
  }
};

/// cumulative over a short static dim (at most kMaxTriangularScan): one linalg reduction
/// per output,
///   y[..., i, ...] = combine over j of (j <= i ? x[..., j, ...] : identity)
/// (j < i with `exclusive`; j >= i, j > i with `reverse`): n^2 combines where the loop form
/// does n, but one kernel instead of n steps of a loop around kernels, which is what costs
/// on a GPU (each step a launch) and on CPU threads (each step a dispatch) at these sizes
/// (a position-id cumsum over 128 tokens).
constexpr int64_t kMaxTriangularScan = 256;

struct CumulativeToTriangle : OpRewritePattern<prim::CumulativeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::CumulativeOp op, PatternRewriter &rewriter) const override {
    auto type = op.getType();
    int64_t rank = type.getRank(), dim = op.getDimension();
    if (type.isDynamicDim(dim) || type.getDimSize(dim) > kMaxTriangularScan)
      return failure();
    Location loc = op.getLoc();
    Value operand = lower::castToSignless(rewriter, loc, op.getOperand());
    int kind = static_cast<int>(op.getKind());
    Type element = type.getElementType();
    Type acc = lower::accumulatorType(element, op.getKind() == prim::ReduceKind::Sum ||
                                                    op.getKind() == prim::ReduceKind::Prod);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    SmallVector<Value> dynamicDims = lower::getDynamicDims(rewriter, loc, operand);
    Value init = lower::createFilled(rewriter, loc, RankedTensorType::get(type.getShape(), acc),
                                     dynamicDims, lower::createIdentity(rewriter, loc, kind, acc));
    MLIRContext *ctx = rewriter.getContext();
    // Loop dims: the output's (d0 .. d{rank-1}), then j (the position read along `dim`).
    SmallVector<AffineExpr> readExprs;
    for (int64_t d = 0; d < rank; ++d)
      readExprs.push_back(getAffineDimExpr(d == dim ? rank : d, ctx));
    SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, readExprs, ctx),
                                   AffineMap::getMultiDimIdentityMap(rank + 1, ctx)
                                       .getMajorSubMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    arith::CmpIPredicate keep = reverse ? (exclusive ? arith::CmpIPredicate::sgt
                                                     : arith::CmpIPredicate::sge)
                                        : (exclusive ? arith::CmpIPredicate::slt
                                                     : arith::CmpIPredicate::sle);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{operand}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
          Value i = linalg::IndexOp::create(b, nested, dim);
          Value j = linalg::IndexOp::create(b, nested, rank);
          Value inside = arith::CmpIOp::create(b, nested, keep, j, i);
          Value x = lower::convertScalar(b, nested, args[0], element, acc);
          Value combined = lower::combine(b, nested, kind, acc, args[1], x);
          linalg::YieldOp::create(
              b, nested, arith::SelectOp::create(b, nested, inside, combined, args[1]).getResult());
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc,
                                             lower::convertElements(rewriter, loc,
                                                                    generic.getResult(0), acc,
                                                                    element),
                                             type));
    return success();
  }
};

/// cumulative: an scf.for over the scanned dim carrying (result, running value). Step k
/// reads the unit slice at position p (k, or extent - 1 - k with `reverse`), stores the
/// running value (before the update with `exclusive`) at p and combines the slice into it.
struct CumulativeToLoop : OpRewritePattern<prim::CumulativeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::CumulativeOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = lower::castToSignless(rewriter, loc, op.getOperand());
    auto type = op.getType();
    int64_t rank = type.getRank(), dim = op.getDimension();
    int kind = static_cast<int>(op.getKind());
    Type element = type.getElementType();
    Type acc = lower::accumulatorType(element, op.getKind() == prim::ReduceKind::Sum ||
                                                    op.getKind() == prim::ReduceKind::Prod);
    bool exclusive = op.getExclusive(), reverse = op.getReverse();

    SmallVector<int64_t> sliceShape(type.getShape());
    sliceShape[dim] = 1;
    SmallVector<Value> sliceSizes, dynamicDims = lower::getDynamicDims(rewriter, loc, operand);
    for (int64_t d = 0; d < rank; ++d)
      if (d != dim && type.isDynamicDim(d))
        sliceSizes.push_back(tensor::DimOp::create(rewriter, loc, operand, d));
    Value running = lower::createFilled(rewriter, loc, RankedTensorType::get(sliceShape, acc), sliceSizes,
                                 lower::createIdentity(rewriter, loc, kind, acc));
    Value result = lower::createEmpty(rewriter, loc, lower::signless(type), dynamicDims);
    Value extent = getValueOrCreateConstantIndexOp(
        rewriter, loc, tensor::getMixedSize(rewriter, loc, operand, dim));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, operand);
    sizes[dim] = rewriter.getIndexAttr(1);
    SmallVector<OpFoldResult> unitStrides(rank, rewriter.getIndexAttr(1));
    Value last = reverse ? arith::SubIOp::create(rewriter, loc, extent, one).getResult() : Value();

    auto loop = scf::ForOp::create(
        rewriter, loc, zero, extent, one, ValueRange{result, running},
        [&](OpBuilder &b, Location nested, Value k, ValueRange iterArgs) {
          Value position = reverse ? arith::SubIOp::create(b, nested, last, k).getResult() : k;
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          offsets[dim] = position;
          Value slice =
              tensor::ExtractSliceOp::create(b, nested, operand, offsets, sizes, unitStrides);
          Value previous = iterArgs[1], stored = iterArgs[0];
          auto sliceType = cast<RankedTensorType>(previous.getType());
          auto store = [&](Value value) {
            stored =
                tensor::InsertSliceOp::create(b, nested, lower::convertElements(b, nested, value, acc, element),
                                              stored, offsets, sizes, unitStrides);
          };
          // Store before the update writes the running value in place.
          if (exclusive)
            store(previous);
          AffineMap identity = b.getMultiDimIdentityMap(rank);
          SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
          Value next =
              linalg::GenericOp::create(
                  b, nested, TypeRange{sliceType}, ValueRange{slice}, ValueRange{previous},
                  ArrayRef<AffineMap>{identity, identity}, iterators,
                  [&](OpBuilder &bb, Location l, ValueRange args) {
                    Value x = lower::convertScalar(bb, l, args[0], element, acc);
                    linalg::YieldOp::create(bb, l, lower::combine(bb, l, kind, acc, args[1], x));
                  })
                  .getResult(0);
          if (!exclusive)
            store(next);
          scf::YieldOp::create(b, nested, ValueRange{stored, next});
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, loop.getResult(0), type));
    return success();
  }
};

/// sort by counting: rank[p] = #{j : x[p with dim = j] sorts before x[p]} (ties: j < i) is a
/// linalg reduction over j, with no n x n buffer; values and source indices are then
/// scattered to their ranks (a permutation, so every place is written once). O(n^2) per
/// row: fine for TopK and ONNX's sorts of short rows; a merge sort is future work.
struct SortByRank : OpRewritePattern<prim::SortOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::SortOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value operand = lower::castToSignless(rewriter, loc, op.getOperand());
    auto type = op.getOperand().getType();
    int64_t rank = type.getRank(), dim = op.getDimension();
    Type element = type.getElementType(), i64 = rewriter.getI64Type();
    bool descending = op.getDescending();
    SmallVector<Value> sizes = lower::getDynamicDims(rewriter, loc, operand);
    auto countType = RankedTensorType::get(type.getShape(), i64);
    Value zeros = lower::createFilled(rewriter, loc, countType, sizes,
                                      arith::ConstantIntOp::create(rewriter, loc, i64, 0));
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> selfExprs, otherExprs;
    for (int64_t d = 0; d < rank; ++d) {
      selfExprs.push_back(getAffineDimExpr(d, context));
      otherExprs.push_back(getAffineDimExpr(d == dim ? rank : d, context));
    }
    AffineMap self = AffineMap::get(rank + 1, 0, selfExprs, context);
    AffineMap other = AffineMap::get(rank + 1, 0, otherExprs, context);
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    bool isFloat = isa<FloatType>(element);
    bool isUnsigned = element.isUnsignedInteger() || element.isInteger(1);
    auto counts = linalg::GenericOp::create(
        rewriter, loc, TypeRange{countType}, ValueRange{operand, operand}, ValueRange{zeros},
        ArrayRef<AffineMap>{self, other, self}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], y = args[1], acc = args[2];
          // strictly(y, x): y sorts strictly before x; equal(y, x): neither does.
          Value strictly, equal;
          if (isFloat) {
            Value xNaN = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
            Value yNaN = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, y, y);
            Value t = arith::ConstantIntOp::create(b, l, b.getI1Type(), 1);
            // NaN is larger than every number.
            Value yLarger = arith::OrIOp::create(
                b, l, arith::AndIOp::create(b, l, yNaN, arith::XOrIOp::create(b, l, xNaN, t)),
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, y, x));
            Value ySmaller = arith::OrIOp::create(
                b, l, arith::AndIOp::create(b, l, xNaN, arith::XOrIOp::create(b, l, yNaN, t)),
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, y, x));
            strictly = descending ? yLarger : ySmaller;
            equal = arith::OrIOp::create(b, l, arith::AndIOp::create(b, l, xNaN, yNaN),
                                         arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, y, x));
          } else {
            arith::CmpIPredicate predicate =
                descending ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                           : (isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
            strictly = arith::CmpIOp::create(b, l, predicate, y, x);
            equal = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, x);
          }
          Value i = linalg::IndexOp::create(b, l, dim), j = linalg::IndexOp::create(b, l, rank);
          Value earlier = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, j, i);
          Value before =
              arith::OrIOp::create(b, l, strictly, arith::AndIOp::create(b, l, equal, earlier));
          Value next = arith::AddIOp::create(b, l, acc, arith::ExtUIOp::create(b, l, i64, before));
          linalg::YieldOp::create(b, l, next);
        });
    // rows[p, e] = (e == dim ? rank[p] : p[e]): the place each element goes to.
    SmallVector<int64_t> rowShape(type.getShape());
    rowShape.push_back(rank);
    auto rowType = RankedTensorType::get(rowShape, i64);
    Value rowInit = lower::createEmpty(rewriter, loc, rowType, sizes);
    SmallVector<AffineMap> rowMaps = {self, rewriter.getMultiDimIdentityMap(rank + 1)};
    SmallVector<utils::IteratorType> parallel(rank + 1, utils::IteratorType::parallel);
    auto rows = linalg::GenericOp::create(
        rewriter, loc, TypeRange{rowType}, ValueRange{counts.getResult(0)}, ValueRange{rowInit},
        rowMaps, parallel, [&](OpBuilder &b, Location l, ValueRange args) {
          Value component = linalg::IndexOp::create(b, l, rank);
          Value result = args[0];
          for (int64_t e = 0; e < rank; ++e) {
            if (e == dim)
              continue;
            Value position =
                arith::IndexCastOp::create(b, l, i64, linalg::IndexOp::create(b, l, e));
            Value isE = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, component,
                                              arith::ConstantIndexOp::create(b, l, e));
            result = arith::SelectOp::create(b, l, isE, position, result);
          }
          linalg::YieldOp::create(b, l, result);
        });
    auto sourceType = RankedTensorType::get(type.getShape(), i64);
    Value source = prim::IotaOp::create(rewriter, loc, sourceType, sizes, dim);
    Value values = prim::ScatterOp::create(rewriter, loc, type, op.getOperand(),
                                           rows.getResult(0), op.getOperand(),
                                           prim::ReduceKindAttr());
    Value indices = prim::ScatterOp::create(rewriter, loc, sourceType, source, rows.getResult(0),
                                            source, prim::ReduceKindAttr());
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};

} // namespace

void tcc::lower::populateReductionLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceToGeneric, ArgReduceToGeneric, ReduceWindowToGeneric, CumulativeToLoop,
               SortByRank>(
      patterns.getContext());
  // Short static scans as one reduction, before the loop form.
  patterns.add<CumulativeToTriangle>(patterns.getContext(), /*benefit=*/2);
}
