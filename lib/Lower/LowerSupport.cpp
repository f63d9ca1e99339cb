//===- LowerSupport.cpp - scalar semantics shared by the lowering patterns ------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace tcc;

Type lower::signless(Type type) {
  if (auto shaped = dyn_cast<RankedTensorType>(type))
    return signless(shaped);
  if (auto integer = dyn_cast<IntegerType>(type); integer && !integer.isSignless())
    return IntegerType::get(type.getContext(), integer.getWidth());
  // A string is its tcc_string {data, size}: 16 bytes, data in the low half.
  if (isa<prim::StringType>(type))
    return IntegerType::get(type.getContext(), 128);
  return type;
}

RankedTensorType lower::signless(RankedTensorType type) {
  Type element = signless(type.getElementType());
  return element == type.getElementType() ? type : type.clone(element);
}

Value lower::castToSignless(OpBuilder &b, Location loc, Value value) {
  return castToType(b, loc, value, signless(value.getType()));
}

Value lower::castToType(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return UnrealizedConversionCastOp::create(b, loc, type, value).getResult(0);
}

SmallVector<Value> lower::getDynamicDims(OpBuilder &b, Location loc, Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<Value> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dims.push_back(tensor::DimOp::create(b, loc, like, d));
  return dims;
}

Value lower::createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(b, loc, type, dynamicSizes);
}

namespace {
Value floatConstant(OpBuilder &b, Location loc, FloatType type, double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}
Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}
} // namespace

Value lower::convertScalar(OpBuilder &b, Location loc, Value x, Type from, Type to) {
  if (from == to)
    return x;
  // Built on signless types; `from` and `to` only decide the semantics.
  Type fromSignless = signless(from), toSignless = signless(to);
  auto fromFloat = dyn_cast<FloatType>(from), toFloat = dyn_cast<FloatType>(to);
  auto fromInt = dyn_cast<IntegerType>(from), toInt = dyn_cast<IntegerType>(to);
  if (fromFloat && toFloat)
    return fromFloat.getWidth() < toFloat.getWidth()
               ? arith::ExtFOp::create(b, loc, to, x).getResult()
               : arith::TruncFOp::create(b, loc, to, x).getResult();
  if (fromInt && toFloat) {
    // i1 and unsigned read as non-negative.
    if (fromInt.getWidth() == 1 || fromInt.isUnsigned())
      return arith::UIToFPOp::create(b, loc, to, x);
    return arith::SIToFPOp::create(b, loc, to, x);
  }
  if (fromFloat && toInt) {
    if (toInt.getWidth() == 1) // x != 0 (NaN is true)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   floatConstant(b, loc, fromFloat, 0.0));
    unsigned width = toInt.getWidth();
    bool isUnsigned = toInt.isUnsigned();
    Type signless = IntegerType::get(b.getContext(), width);
    // Integers of at most 16 bits from f32 or f64 (a quantized model's bytes): clamped in
    // float to the target's range, then converted exactly,
    //   trunc(fptosi(min(max(x, lo), hi)) : i32)    (NaN -> 0: max(NaN, lo) is lo, and a
    //                                                 signed target's NaN is selected to 0),
    // the same integer as the compares below for every x (truncated toward zero, saturated),
    // in fewer vector instructions: no byte lanes under three compares and selects (x86:
    // max, min, convert, pack instead of convert, pack, three compares, two masked moves).
    if (width <= 16 && fromFloat.getWidth() >= 32) {
      double lo = isUnsigned ? 0.0 : -std::ldexp(1.0, width - 1);
      double hi = isUnsigned ? std::ldexp(1.0, width) - 1 : std::ldexp(1.0, width - 1) - 1;
      Value clamped = arith::MaxNumFOp::create(b, loc, x, floatConstant(b, loc, fromFloat, lo));
      clamped = arith::MinNumFOp::create(b, loc, clamped, floatConstant(b, loc, fromFloat, hi));
      Type i32 = b.getI32Type();
      Value wide = arith::FPToSIOp::create(b, loc, i32, clamped);
      if (!isUnsigned) {
        Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
        wide = arith::SelectOp::create(b, loc, isNan, intConstant(b, loc, i32, APInt(32, 0)),
                                       wide);
      }
      return arith::TruncIOp::create(b, loc, signless, wide);
    }
    // Truncate toward zero, saturate, NaN -> 0: compare against exact powers of two.
    double upper = std::ldexp(1.0, isUnsigned ? width : width - 1);
    double lower = isUnsigned ? -1.0 : -std::ldexp(1.0, width - 1);
    APInt maxValue = isUnsigned ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
    APInt minValue = isUnsigned ? APInt::getMinValue(width) : APInt::getSignedMinValue(width);
    Value converted = isUnsigned ? arith::FPToUIOp::create(b, loc, signless, x).getResult()
                                 : arith::FPToSIOp::create(b, loc, signless, x).getResult();
    Value tooLarge = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x,
                                           floatConstant(b, loc, fromFloat, upper));
    Value tooSmall = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x,
                                           floatConstant(b, loc, fromFloat, lower));
    Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value r = arith::SelectOp::create(b, loc, tooLarge, intConstant(b, loc, signless, maxValue),
                                      converted);
    r = arith::SelectOp::create(b, loc, tooSmall, intConstant(b, loc, signless, minValue), r);
    return arith::SelectOp::create(b, loc, isNan,
                                   intConstant(b, loc, signless, APInt::getZero(width)), r);
  }
  if (fromInt && toInt) {
    unsigned fw = fromInt.getWidth(), tw = toInt.getWidth();
    if (tw == 1)
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                   intConstant(b, loc, fromSignless, APInt::getZero(fw)));
    if (fw == tw)
      return x; // the same bits; signedness lives in the types only
    if (fw > tw)
      return arith::TruncIOp::create(b, loc, toSignless, x);
    if (fw == 1 || fromInt.isUnsigned())
      return arith::ExtUIOp::create(b, loc, toSignless, x);
    return arith::ExtSIOp::create(b, loc, toSignless, x);
  }
  return nullptr;
}

Value lower::createIdentity(OpBuilder &b, Location loc, int kind, Type type) {
  auto k = static_cast<prim::ReduceKind>(kind);
  if (auto f = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    APFloat value = APFloat::getZero(sem);
    switch (k) {
    case prim::ReduceKind::Prod: value = APFloat::getOne(sem); break;
    case prim::ReduceKind::Max: value = APFloat::getInf(sem, /*Negative=*/true); break;
    case prim::ReduceKind::Min: value = APFloat::getInf(sem, /*Negative=*/false); break;
    default: break;
    }
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  bool isUnsigned = type.isUnsignedInteger() || width == 1;
  APInt value = APInt::getZero(width);
  switch (k) {
  case prim::ReduceKind::Prod: value = APInt(width, 1); break;
  case prim::ReduceKind::Max:
    value = isUnsigned ? APInt::getMinValue(width) : APInt::getSignedMinValue(width);
    break;
  case prim::ReduceKind::Min:
    value = isUnsigned ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
    break;
  case prim::ReduceKind::And: value = APInt::getAllOnes(width); break;
  default: break;
  }
  Type signlessType = signless(type);
  return arith::ConstantOp::create(b, loc, signlessType, b.getIntegerAttr(signlessType, value));
}

Value lower::combine(OpBuilder &b, Location loc, int kind, Type type, Value lhs, Value rhs) {
  auto k = static_cast<prim::ReduceKind>(kind);
  if (isa<FloatType>(type)) {
    switch (k) {
    case prim::ReduceKind::Sum: return arith::AddFOp::create(b, loc, lhs, rhs);
    case prim::ReduceKind::Prod: return arith::MulFOp::create(b, loc, lhs, rhs);
    case prim::ReduceKind::Max: return arith::MaximumFOp::create(b, loc, lhs, rhs);
    case prim::ReduceKind::Min: return arith::MinimumFOp::create(b, loc, lhs, rhs);
    default: return nullptr;
    }
  }
  bool isUnsigned = type.isUnsignedInteger() || type.isInteger(1);
  switch (k) {
  case prim::ReduceKind::Sum: return arith::AddIOp::create(b, loc, lhs, rhs);
  case prim::ReduceKind::Prod: return arith::MulIOp::create(b, loc, lhs, rhs);
  case prim::ReduceKind::Max:
    return isUnsigned ? arith::MaxUIOp::create(b, loc, lhs, rhs).getResult()
                      : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
  case prim::ReduceKind::Min:
    return isUnsigned ? arith::MinUIOp::create(b, loc, lhs, rhs).getResult()
                      : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
  case prim::ReduceKind::And: return arith::AndIOp::create(b, loc, lhs, rhs);
  case prim::ReduceKind::Or: return arith::OrIOp::create(b, loc, lhs, rhs);
  case prim::ReduceKind::Xor: return arith::XOrIOp::create(b, loc, lhs, rhs);
  }
  return nullptr;
}

Type lower::accumulatorType(Type element, bool arithmetic) {
  auto f = dyn_cast<FloatType>(element);
  if (f && arithmetic && f.getWidth() < 32)
    return Float32Type::get(element.getContext());
  return element;
}

Value lower::createFilled(OpBuilder &b, Location loc, RankedTensorType type, ValueRange sizes,
                          Value value) {
  Value empty = lower::createEmpty(b, loc, lower::signless(type), sizes);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty}).getResult(0);
}

Value lower::convertElements(OpBuilder &b, Location loc, Value value, Type from, Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  if (from == element)
    return value;
  auto resultType = type.clone(lower::signless(element));
  Value init = lower::createEmpty(b, loc, resultType, lower::getDynamicDims(b, loc, value));
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{value}, ValueRange{init},
             ArrayRef<AffineMap>{identity, identity}, iterators,
             [&](OpBuilder &nb, Location nested, ValueRange args) {
               linalg::YieldOp::create(nb, nested,
                                       lower::convertScalar(nb, nested, args[0], from, element));
             })
      .getResult(0);
}

Value lower::windowExtent(OpBuilder &b, Location loc, Value padded, OpFoldResult window,
                          int64_t stride, int64_t dilation) {
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  std::optional<int64_t> staticWindow = getConstantIntValue(window);
  if (staticWindow == 1 && stride == 1)
    return padded;
  // The window's span, dilation * (window - 1) + 1.
  Value effective =
      staticWindow ? cst(dilation * (*staticWindow - 1) + 1)
                   : arith::AddIOp::create(
                         b, loc,
                         arith::MulIOp::create(
                             b, loc, arith::SubIOp::create(b, loc, cast<Value>(window), cst(1)),
                             cst(dilation)),
                         cst(1))
                         .getResult();
  Value span = arith::SubIOp::create(b, loc, padded, effective);
  Value steps =
      arith::AddIOp::create(b, loc, arith::DivSIOp::create(b, loc, span, cst(stride)), cst(1));
  Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, span, cst(0));
  return arith::SelectOp::create(b, loc, fits, steps, cst(0));
}
