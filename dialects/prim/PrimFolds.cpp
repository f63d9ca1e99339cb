//===- PrimFolds.cpp - folding of prim ops --------------------------------------------===//
//
// Folders handle identities and small integer/float constants (shape arithmetic exported as
// int64 tensors, scalar constants). Anything larger is left to the weight evaluator:
// canonicalization never folds above kMaxFoldElements elements.
//
//===----------------------------------------------------------------------------------===//
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tcc::prim;

namespace {
constexpr int64_t kMaxFoldElements = 256;

bool allSmallConstants(ArrayRef<Attribute> operands) {
  for (Attribute a : operands) {
    auto elements = dyn_cast_or_null<DenseElementsAttr>(a);
    if (!elements || (!elements.isSplat() && elements.getNumElements() > kMaxFoldElements))
      return false;
  }
  return true;
}

bool isUnsigned(Type type) { return getElementTypeOrSelf(type).isUnsignedInteger(); }

/// True when `attr` is a splat integer constant equal to `value`.
bool isIntSplat(Attribute attr, int64_t value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat || !isa<IntegerType>(splat.getElementType()))
    return false;
  return splat.getSplatValue<APInt>().getSExtValue() == value;
}

/// True when `attr` is a splat float constant equal to `value`.
bool isFloatSplat(Attribute attr, double value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat || !isa<FloatType>(splat.getElementType()))
    return false;
  return splat.getSplatValue<APFloat>().convertToDouble() == value;
}

using IntFn = function_ref<std::optional<APInt>(const APInt &, const APInt &)>;
using FloatFn = function_ref<std::optional<APFloat>(const APFloat &, const APFloat &)>;

Attribute foldBinary(ArrayRef<Attribute> operands, Type type, IntFn intFn, FloatFn floatFn) {
  if (!allSmallConstants(operands))
    return {};
  Type element = getElementTypeOrSelf(type);
  if (isa<FloatType>(element) && floatFn)
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void>(
        operands, type, [&](APFloat a, APFloat b) { return floatFn(a, b); });
  if (isa<IntegerType>(element) && intFn)
    return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(
        operands, type, [&](APInt a, APInt b) { return intFn(a, b); });
  return {};
}

std::optional<APFloat> floatOp(APFloat a, const APFloat &b,
                               APFloat::opStatus (APFloat::*op)(const APFloat &,
                                                                APFloat::roundingMode)) {
  (a.*op)(b, APFloat::rmNearestTiesToEven);
  return a;
}
} // namespace

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + 0 = x only for integers: -0.0 + 0.0 is +0.0.
  if (isIntSplat(adaptor.getRhs(), 0))
    return getLhs();
  if (isIntSplat(adaptor.getLhs(), 0))
    return getRhs();
  return foldBinary(
      adaptor.getOperands(), getType(), [](const APInt &a, const APInt &b) { return a + b; },
      [](const APFloat &a, const APFloat &b) { return floatOp(a, b, &APFloat::add); });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (isIntSplat(adaptor.getRhs(), 0))
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(), [](const APInt &a, const APInt &b) { return a - b; },
      [](const APFloat &a, const APFloat &b) { return floatOp(a, b, &APFloat::subtract); });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (isIntSplat(adaptor.getRhs(), 1) || isFloatSplat(adaptor.getRhs(), 1.0))
    return getLhs();
  if (isIntSplat(adaptor.getLhs(), 1) || isFloatSplat(adaptor.getLhs(), 1.0))
    return getRhs();
  return foldBinary(
      adaptor.getOperands(), getType(), [](const APInt &a, const APInt &b) { return a * b; },
      [](const APFloat &a, const APFloat &b) { return floatOp(a, b, &APFloat::multiply); });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (isIntSplat(adaptor.getRhs(), 1) || isFloatSplat(adaptor.getRhs(), 1.0))
    return getLhs();
  bool isUnsignedType = isUnsigned(getType());
  return foldBinary(
      adaptor.getOperands(), getType(),
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        // Defined by prim: x / 0 = 0 and INT_MIN / -1 = INT_MIN (two's complement wrap).
        if (b.isZero())
          return APInt::getZero(a.getBitWidth());
        if (isUnsignedType)
          return a.udiv(b);
        if (a.isMinSignedValue() && b.isAllOnes())
          return a;
        return a.sdiv(b);
      },
      [](const APFloat &a, const APFloat &b) { return floatOp(a, b, &APFloat::divide); });
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  bool isUnsignedType = isUnsigned(getType());
  return foldBinary(
      adaptor.getOperands(), getType(),
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return (isUnsignedType ? a.uge(b) : a.sge(b)) ? a : b;
      },
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return llvm::maximum(a, b);
      });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  bool isUnsignedType = isUnsigned(getType());
  return foldBinary(
      adaptor.getOperands(), getType(),
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return (isUnsignedType ? a.ule(b) : a.sle(b)) ? a : b;
      },
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return llvm::minimum(a, b);
      });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (!allSmallConstants(adaptor.getOperands()))
    return {};
  if (isa<FloatType>(getType().getElementType()))
    return constFoldUnaryOp<FloatAttr, APFloat, void>(adaptor.getOperands(),
                                                      [](const APFloat &a) { return -a; });
  return constFoldUnaryOp<IntegerAttr, APInt, void>(adaptor.getOperands(),
                                                    [](const APInt &a) { return -a; });
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getOperands(), getType(),
                    [](const APInt &a, const APInt &b) { return a & b; }, nullptr);
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  return foldBinary(adaptor.getOperands(), getType(),
                    [](const APInt &a, const APInt &b) { return a | b; }, nullptr);
}

OpFoldResult CompareOp::fold(FoldAdaptor adaptor) {
  if (!allSmallConstants(adaptor.getOperands()))
    return {};
  CompareDirection direction = getDirection();
  Type element = getLhs().getType().getElementType();
  if (isa<FloatType>(element)) {
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void, IntegerAttr>(
        adaptor.getOperands(), getType(), [&](APFloat a, APFloat b) -> std::optional<APInt> {
          APFloat::cmpResult r = a.compare(b);
          bool value = false;
          switch (direction) {
          case CompareDirection::Eq: value = r == APFloat::cmpEqual; break;
          case CompareDirection::Ne: value = r != APFloat::cmpEqual; break;
          case CompareDirection::Lt: value = r == APFloat::cmpLessThan; break;
          case CompareDirection::Le:
            value = r == APFloat::cmpLessThan || r == APFloat::cmpEqual;
            break;
          case CompareDirection::Gt: value = r == APFloat::cmpGreaterThan; break;
          case CompareDirection::Ge:
            value = r == APFloat::cmpGreaterThan || r == APFloat::cmpEqual;
            break;
          }
          return APInt(1, value);
        });
  }
  bool isUnsignedType = element.isUnsignedInteger() || element.isInteger(1);
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void, IntegerAttr>(
      adaptor.getOperands(), getType(), [&](APInt a, APInt b) -> std::optional<APInt> {
        bool value = false;
        switch (direction) {
        case CompareDirection::Eq: value = a == b; break;
        case CompareDirection::Ne: value = a != b; break;
        case CompareDirection::Lt: value = isUnsignedType ? a.ult(b) : a.slt(b); break;
        case CompareDirection::Le: value = isUnsignedType ? a.ule(b) : a.sle(b); break;
        case CompareDirection::Gt: value = isUnsignedType ? a.ugt(b) : a.sgt(b); break;
        case CompareDirection::Ge: value = isUnsignedType ? a.uge(b) : a.sge(b); break;
        }
        return APInt(1, value);
      });
}

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getOnTrue() == getOnFalse())
    return getOnTrue();
  if (auto pred = dyn_cast_or_null<SplatElementsAttr>(adaptor.getPred()))
    return pred.getSplatValue<bool>() ? getOnTrue() : getOnFalse();
  return {};
}

OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // Integer -> integer of small constants (shape arithmetic): sign- or zero-extend, or wrap.
  auto elements = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getOperand());
  auto from = dyn_cast<IntegerType>(getOperand().getType().getElementType());
  auto to = dyn_cast<IntegerType>(getType().getElementType());
  if (!elements || !from || !to || from.getWidth() == 1 || to.getWidth() == 1 ||
      !getType().hasStaticShape() ||
      (!elements.isSplat() && elements.getNumElements() > kMaxFoldElements))
    return {};
  SmallVector<APInt> values;
  for (APInt v : elements.getValues<APInt>())
    values.push_back(from.isUnsigned() ? v.zextOrTrunc(to.getWidth())
                                       : v.sextOrTrunc(to.getWidth()));
  return DenseElementsAttr::get(getType(), values);
}

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor adaptor) {
  // An identity broadcast: same type, dims in order, each dynamic extent the operand's own.
  if (getOperand().getType() == getType()) {
    bool identity = true;
    unsigned next = 0;
    for (int64_t d = 0; d < getType().getRank() && identity; ++d) {
      identity = getBroadcastDimensions()[d] == d;
      if (identity && getType().isDynamicDim(d))
        identity = isDimOf(getDynamicSizes()[next++], getOperand(), d);
    }
    if (identity)
      return getOperand();
  }
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getOperand()))
    if (getType().hasStaticShape())
      return splat.resizeSplat(getType());
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType() && getType().hasStaticShape())
    return getOperand();
  auto elements = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand());
  if (elements && getType().hasStaticShape() &&
      (elements.isSplat() || elements.getNumElements() <= kMaxFoldElements))
    return elements.reshape(getType());
  // reshape(reshape(x)) = reshape(x)
  if (auto inner = getOperand().getDefiningOp<ReshapeOp>())
    if (inner.getOperand().getType() == getType() && getType().hasStaticShape())
      return inner.getOperand();
  return {};
}

/// transpose(x, identity) = x; transpose(transpose(z, q), p) = transpose(z, r) with
/// r[i] = q[p[i]] (result dim i is the inner result's dim p[i], which is z's dim q[p[i]]),
/// and z itself when r is the identity (a pair of inverse transposes, such as the channel
/// blocks' toChannelBlocks(toChannelsFirst(z)) once the reshapes between have folded).
OpFoldResult TransposeOp::fold(FoldAdaptor) {
  auto isIdentity = [](ArrayRef<int64_t> permutation) {
    for (auto [i, p] : llvm::enumerate(permutation))
      if (static_cast<int64_t>(i) != p)
        return false;
    return true;
  };
  if (isIdentity(getPermutation()))
    return getOperand();
  auto inner = getOperand().getDefiningOp<TransposeOp>();
  if (!inner)
    return {};
  SmallVector<int64_t> composed;
  for (int64_t p : getPermutation())
    composed.push_back(inner.getPermutation()[p]);
  if (isIdentity(composed))
    return inner.getOperand().getType() == getType() ? OpFoldResult(inner.getOperand())
                                                     : OpFoldResult();
  // In place: this op now reads z directly.
  getOperandMutable().assign(inner.getOperand());
  setPermutation(composed);
  return getResult();
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  auto type = getOperand().getType();
  if (type != getType() || !type.hasStaticShape())
    return {};
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (getStaticOffsets()[d] != 0 || getStaticStrides()[d] != 1)
      return {};
  return getOperand();
}

OpFoldResult ConcatenateOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return {};
}

OpFoldResult ReduceOp::fold(FoldAdaptor) {
  if (getDimensions().empty() && getOperand().getType() == getType())
    return getOperand();
  return {};
}

OpFoldResult DimOp::fold(FoldAdaptor) {
  auto type = getOperand().getType();
  int64_t index = getIndex();
  if (index >= 0 && index < type.getRank() && !type.isDynamicDim(index))
    return IntegerAttr::get(IndexType::get(getContext()), type.getDimSize(index));
  return {};
}

LogicalResult CheckOp::canonicalize(CheckOp op, PatternRewriter &rewriter) {
  if (!matchPattern(op.getCondition(), m_One()))
    return failure();
  rewriter.eraseOp(op);
  return success();
}


std::optional<std::pair<Value, int64_t>> tcc::prim::getFirstBinding(Value tensor,
                                                                     int64_t index) {
  auto arg = dyn_cast<BlockArgument>(tensor);
  if (!arg)
    return std::nullopt;
  FlatSymbolRefAttr symbol;
  for (Operation *user : arg.getUsers()) {
    auto bind = dyn_cast<BindShapeOp>(user);
    if (!bind || bind.getOperand() != arg ||
        index >= static_cast<int64_t>(bind.getShape().getNumResults()))
      continue;
    if (auto expr = dyn_cast<AffineSymbolExpr>(bind.getShape().getResult(index)))
      symbol = cast<FlatSymbolRefAttr>(bind.getSymbols()[expr.getPosition()]);
  }
  if (!symbol)
    return std::nullopt;
  for (auto bind : arg.getOwner()->getOps<BindShapeOp>()) {
    AffineMap map = bind.getShape();
    for (unsigned d = 0; d < map.getNumResults(); ++d) {
      auto expr = dyn_cast<AffineSymbolExpr>(map.getResult(d));
      if (expr && bind.getSymbols()[expr.getPosition()] == symbol)
        return std::make_pair(bind.getOperand(), static_cast<int64_t>(d));
    }
  }
  return std::nullopt;
}

bool tcc::prim::isDimOf(Value extent, Value tensor, int64_t index) {
  auto dim = extent.getDefiningOp<DimOp>();
  if (!dim)
    return false;
  if (dim.getOperand() == tensor && static_cast<int64_t>(dim.getIndex()) == index)
    return true;
  auto a = getFirstBinding(tensor, index);
  auto b = getFirstBinding(dim.getOperand(), dim.getIndex());
  return a && b && *a == *b;
}

LogicalResult DimOp::canonicalize(DimOp op, PatternRewriter &rewriter) {
  int64_t index = op.getIndex();
  Value operand = op.getOperand();
  if (index < 0 || index >= op.getOperand().getType().getRank())
    return failure();
  // A prim.loop's carried values keep their extents (its semantics): dims of the body's
  // arguments and of the loop's results are the inits' dims.
  if (auto arg = dyn_cast<BlockArgument>(operand))
    if (auto loop = dyn_cast<LoopOp>(arg.getOwner()->getParentOp()); loop && arg.getArgNumber() > 0) {
      rewriter.replaceOpWithNewOp<DimOp>(op, loop.getInits()[arg.getArgNumber() - 1], index);
      return success();
    }
  if (auto result = dyn_cast<OpResult>(operand))
    if (auto loop = dyn_cast<LoopOp>(result.getOwner())) {
      rewriter.replaceOpWithNewOp<DimOp>(op, loop.getInits()[result.getResultNumber()], index);
      return success();
    }
  if (auto arg = dyn_cast<BlockArgument>(operand)) {
    auto first = getFirstBinding(arg, index);
    if (!first || (first->first == operand && first->second == index))
      return failure();
    rewriter.replaceOpWithNewOp<DimOp>(op, first->first, first->second);
    return success();
  }
  auto result = cast<OpResult>(operand);
  auto reify = dyn_cast<ReifyRankedShapedTypeOpInterface>(result.getOwner());
  if (!reify)
    return failure();
  ReifiedRankedShapedTypeDims shapes;
  if (failed(reify.reifyResultShapes(rewriter, shapes)) ||
      shapes.size() <= result.getResultNumber() ||
      static_cast<int64_t>(shapes[result.getResultNumber()].size()) <= index)
    return failure();
  OpFoldResult dim = shapes[result.getResultNumber()][index];
  if (auto value = dyn_cast<Value>(dim)) {
    if (value == op.getResult())
      return failure();
    rewriter.replaceOp(op, value);
    return success();
  }
  rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, *getConstantIntValue(dim));
  return success();
}
