//===- LowerElementwise.cpp - elementwise prim ops, broadcasts and iota -> linalg.generic ---===//
//
// One pattern lowers every elementwise op: a linalg.generic with identity maps whose body is
// the op's scalar semantics (buildScalar). broadcast_in_dim and iota are generics too.
//
//===----------------------------------------------------------------------------------===//
#include "LoweringPatterns.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tcc;

namespace {

Value zeroLike(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
}
Value intValue(OpBuilder &b, Location loc, Type type, const APInt &v) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
}
Value floatValue(OpBuilder &b, Location loc, Type type, double v) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, v));
}

/// A shift with prim's semantics: amounts >= the bit width (as unsigned) give 0, or the
/// sign fill for an arithmetic right shift.
template <typename ShiftOp>
Value guardedShift(OpBuilder &b, Location loc, Value x, Value amount, bool arithmetic) {
  unsigned width = x.getType().getIntOrFloatBitWidth();
  Value widthValue = intValue(b, loc, x.getType(), APInt(width, width));
  Value tooFar = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, amount, widthValue);
  Value shifted = ShiftOp::create(b, loc, x, amount);
  Value fill = arithmetic
                   ? arith::ShRSIOp::create(b, loc, x, intValue(b, loc, x.getType(), APInt(width, width - 1)))
                         .getResult()
                   : zeroLike(b, loc, x.getType());
  return arith::SelectOp::create(b, loc, tooFar, fill, shifted);
}

/// Integer division with prim's semantics: x / 0 = 0, INT_MIN / -1 = INT_MIN; remainder:
/// x rem 0 = x, INT_MIN rem -1 = 0.
Value guardedDivRem(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned, bool rem) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = zeroLike(b, loc, type), one = intValue(b, loc, type, APInt(width, 1));
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  // Divide by a safe divisor, then fix up the special cases.
  Value safe = arith::SelectOp::create(b, loc, isZero, one, y);
  Value special = isZero;
  if (!isUnsigned) {
    Value minusOne = intValue(b, loc, type, APInt::getAllOnes(width));
    Value intMin = intValue(b, loc, type, APInt::getSignedMinValue(width));
    Value overflow = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, intMin),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, minusOne));
    safe = arith::SelectOp::create(b, loc, overflow, one, safe);
    Value result = rem ? arith::RemSIOp::create(b, loc, x, safe).getResult()
                       : arith::DivSIOp::create(b, loc, x, safe).getResult();
    // INT_MIN / 1 = INT_MIN and INT_MIN rem 1 = 0 already give the defined results.
    return arith::SelectOp::create(b, loc, isZero, rem ? x : zero, result);
  }
  (void)special;
  Value result = rem ? arith::RemUIOp::create(b, loc, x, safe).getResult()
                     : arith::DivUIOp::create(b, loc, x, safe).getResult();
  return arith::SelectOp::create(b, loc, isZero, rem ? x : zero, result);
}

arith::CmpFPredicate floatPredicate(prim::CompareDirection d) {
  switch (d) {
  case prim::CompareDirection::Eq: return arith::CmpFPredicate::OEQ;
  case prim::CompareDirection::Ne: return arith::CmpFPredicate::UNE;
  case prim::CompareDirection::Lt: return arith::CmpFPredicate::OLT;
  case prim::CompareDirection::Le: return arith::CmpFPredicate::OLE;
  case prim::CompareDirection::Gt: return arith::CmpFPredicate::OGT;
  case prim::CompareDirection::Ge: return arith::CmpFPredicate::OGE;
  }
  return arith::CmpFPredicate::OEQ;
}

arith::CmpIPredicate intPredicate(prim::CompareDirection d, bool isUnsigned) {
  switch (d) {
  case prim::CompareDirection::Eq: return arith::CmpIPredicate::eq;
  case prim::CompareDirection::Ne: return arith::CmpIPredicate::ne;
  case prim::CompareDirection::Lt: return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case prim::CompareDirection::Le: return isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case prim::CompareDirection::Gt: return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case prim::CompareDirection::Ge: return isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  }
  return arith::CmpIPredicate::eq;
}

/// a^b for unsigned integers: the exponent reads as unsigned, so compute with both zero
/// extended to twice the width (where math.ipowi's exponent is never negative) and truncate;
/// the low bits of a wrapping product do not depend on the width.
Value unsignedPower(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  Type wide = IntegerType::get(b.getContext(), 2 * type.getIntOrFloatBitWidth());
  Value power = math::IPowIOp::create(b, loc, arith::ExtUIOp::create(b, loc, wide, x),
                                      arith::ExtUIOp::create(b, loc, wide, y));
  return arith::TruncIOp::create(b, loc, type, power);
}

/// float32 sigmoid, every SiLU's and gate's inner op, in about 20 vector instructions:
///   sigmoid(x) = m / (1 + e),  e = e^-|x| (at most 1: nothing overflows),
///                              m = 1 for x >= 0, e for x < 0 (1/(1+e^-x) = e^x/(e^x+1)).
/// e^z for z = max(-|x|, -87.33) (so e >= 2^-126 stays normal; for x < -87.33 the result,
/// below 1.2e-38, is off by at most that much):
///   k = round(z log2 e): t = z log2 e + (1.5 2^23 + 127) rounds it into t's low mantissa
///       bits, biased by 127, so 2^k = bits(t) << 23;
///   r = z - k ln2, with ln2 in two parts (k ln2_hi is exact), |r| <= ln2/2;
///   e^r = 1 + r (1 + r (c2 + r (c3 + r (c4 + r (c5 + r c6))))), coefficients fitted for
///       relative error on |r| <= ln2/2 (3e-9 in exact arithmetic, 1.2 ulp in float32).
/// The division is a reciprocal estimate and a Newton step (`arcp`). Error bounds are
/// tested by test/math/run.py; NaN stays NaN (every comparison with it is false).
Value logisticF32(OpBuilder &b, Location loc, Value x) {
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto c = [&](double v) { return floatValue(b, loc, f32, v); };
  auto bits = [&](uint32_t v) { return intValue(b, loc, i32, APInt(32, v)); };
  auto fma = [&](Value a, Value m, Value add) { return math::FmaOp::create(b, loc, a, m, add).getResult(); };
  // -|x|: the sign bit set.
  Value negative = arith::BitcastOp::create(
      b, loc, f32, arith::OrIOp::create(b, loc, arith::BitcastOp::create(b, loc, i32, x), bits(0x80000000u)));
  Value low = c(-87.33654);
  Value z = arith::SelectOp::create(
      b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, negative, low), low, negative);
  Value magic = c(12582912.0 + 127.0); // 1.5 2^23 + the exponent bias
  Value t = fma(z, c(1.4426950408889634), magic);
  Value k = arith::SubFOp::create(b, loc, t, magic);
  Value r = fma(k, c(-0.693359375), z);
  r = fma(k, c(2.12194440e-4), r);
  Value p = c(0.0013814615085721016);
  for (double coefficient : {0.008368710055947304, 0.04166838899254799, 0.1666652113199234,
                             0.4999999403953552, 1.0, 1.0})
    p = fma(p, r, c(coefficient));
  Value scale = arith::BitcastOp::create(
      b, loc, f32, arith::ShLIOp::create(b, loc, arith::BitcastOp::create(b, loc, i32, t), bits(23)));
  Value e = arith::MulFOp::create(b, loc, p, scale);
  Value one = c(1.0);
  Value m = arith::SelectOp::create(
      b, loc, arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, c(0.0)), e, one);
  auto flags = arith::FastMathFlagsAttr::get(b.getContext(),
                                             arith::FastMathFlags::arcp | arith::FastMathFlags::ninf);
  return arith::DivFOp::create(b, loc, m, arith::AddFOp::create(b, loc, one, e), flags);
}

/// The scalar computation of elementwise op `op` on `args` (one per operand). The
/// semantics come from the op's (prim) types; `args` and the result are signless.
Value buildScalar(OpBuilder &b, Location loc, Operation *op, ValueRange args) {
  Type operandElement = getElementTypeOrSelf(op->getOperand(0).getType());
  Type resultElement = getElementTypeOrSelf(op->getResult(0).getType());
  bool isFloat = isa<FloatType>(operandElement);
  bool isUnsigned = operandElement.isUnsignedInteger() || operandElement.isInteger(1);
  Value x = args.empty() ? Value() : args[0];
  Value y = args.size() > 1 ? args[1] : Value();
  auto ff = [&](auto floatOp, auto intOp) -> Value {
    if (isFloat)
      return decltype(floatOp)::create(b, loc, x, y);
    return decltype(intOp)::create(b, loc, x, y);
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](prim::AddOp) { return ff(arith::AddFOp(), arith::AddIOp()); })
      .Case([&](prim::SubOp) { return ff(arith::SubFOp(), arith::SubIOp()); })
      .Case([&](prim::MulOp) { return ff(arith::MulFOp(), arith::MulIOp()); })
      .Case([&](prim::DivOp) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, x, y);
        return guardedDivRem(b, loc, x, y, isUnsigned, /*rem=*/false);
      })
      .Case([&](prim::RemOp) -> Value {
        if (isFloat) {
          // fmod without libm: a - b * trunc(a / b), exact while |a / b| < 2^mantissa bits;
          // fmod(a, +-inf) = a for finite a (where the formula computes inf * 0).
          Value quotient = math::TruncOp::create(b, loc, arith::DivFOp::create(b, loc, x, y));
          Value rem =
              arith::SubFOp::create(b, loc, x, arith::MulFOp::create(b, loc, y, quotient));
          auto floatType = cast<FloatType>(x.getType());
          Value inf = arith::ConstantOp::create(
              b, loc, b.getFloatAttr(floatType, APFloat::getInf(floatType.getFloatSemantics())));
          Value yInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                             math::AbsFOp::create(b, loc, y), inf);
          Value xNotInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE,
                                                math::AbsFOp::create(b, loc, x), inf);
          Value keep = arith::AndIOp::create(b, loc, yInf, xNotInf);
          return arith::SelectOp::create(b, loc, keep, x, rem);
        }
        return guardedDivRem(b, loc, x, y, isUnsigned, /*rem=*/true);
      })
      .Case([&](prim::PowOp) -> Value {
        if (isFloat)
          return math::PowFOp::create(b, loc, x, y);
        if (operandElement.isUnsignedInteger())
          return unsignedPower(b, loc, x, y);
        return math::IPowIOp::create(b, loc, x, y);
      })
      .Case([&](prim::MaxOp) -> Value {
        if (isFloat)
          return arith::MaximumFOp::create(b, loc, x, y);
        return isUnsigned ? arith::MaxUIOp::create(b, loc, x, y).getResult()
                          : arith::MaxSIOp::create(b, loc, x, y).getResult();
      })
      .Case([&](prim::MinOp) -> Value {
        if (isFloat)
          return arith::MinimumFOp::create(b, loc, x, y);
        return isUnsigned ? arith::MinUIOp::create(b, loc, x, y).getResult()
                          : arith::MinSIOp::create(b, loc, x, y).getResult();
      })
      .Case([&](prim::Atan2Op) { return math::Atan2Op::create(b, loc, x, y).getResult(); })
      .Case([&](prim::AndOp) { return arith::AndIOp::create(b, loc, x, y).getResult(); })
      .Case([&](prim::OrOp) { return arith::OrIOp::create(b, loc, x, y).getResult(); })
      .Case([&](prim::XorOp) { return arith::XOrIOp::create(b, loc, x, y).getResult(); })
      .Case([&](prim::ShiftLeftOp) {
        return guardedShift<arith::ShLIOp>(b, loc, x, y, false);
      })
      .Case([&](prim::ShiftRightLogicalOp) {
        return guardedShift<arith::ShRUIOp>(b, loc, x, y, false);
      })
      .Case([&](prim::ShiftRightArithmeticOp) {
        return guardedShift<arith::ShRSIOp>(b, loc, x, y, true);
      })
      .Case([&](prim::CompareOp cmp) -> Value {
        if (isFloat)
          return arith::CmpFOp::create(b, loc, floatPredicate(cmp.getDirection()), x, y);
        return arith::CmpIOp::create(b, loc, intPredicate(cmp.getDirection(), isUnsigned), x, y);
      })
      .Case([&](prim::SelectOp) {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]).getResult();
      })
      .Case([&](prim::ClampOp) -> Value {
        // min(max(x, lo), hi) with operands (lo, x, hi)
        Value lo = args[0], v = args[1], hi = args[2];
        if (isa<FloatType>(v.getType()))
          return arith::MinimumFOp::create(b, loc, arith::MaximumFOp::create(b, loc, v, lo), hi);
        bool u = operandElement.isUnsignedInteger();
        Value m = u ? arith::MaxUIOp::create(b, loc, v, lo).getResult()
                    : arith::MaxSIOp::create(b, loc, v, lo).getResult();
        return u ? arith::MinUIOp::create(b, loc, m, hi).getResult()
                 : arith::MinSIOp::create(b, loc, m, hi).getResult();
      })
      .Case([&](prim::ConvertOp) {
        return lower::convertScalar(b, loc, x, operandElement, resultElement);
      })
      .Case([&](prim::BitcastConvertOp) {
        Type to = lower::signless(resultElement);
        if (to == x.getType()) // only the signedness differs
          return x;
        return arith::BitcastOp::create(b, loc, to, x).getResult();
      })
      .Case([&](prim::NegOp) -> Value {
        if (isFloat)
          return arith::NegFOp::create(b, loc, x);
        return arith::SubIOp::create(b, loc, zeroLike(b, loc, x.getType()), x);
      })
      .Case([&](prim::AbsOp) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, loc, x);
        if (operandElement.isUnsignedInteger())
          return x;
        return math::AbsIOp::create(b, loc, x);
      })
      .Case([&](prim::SignOp) -> Value {
        // sign(x) = x > 0 ? 1 : (x < 0 ? -1 : x)   (keeps 0, -0 and NaN)
        Type t = x.getType();
        Value zero = zeroLike(b, loc, t);
        Value one = isFloat ? floatValue(b, loc, t, 1.0)
                            : intValue(b, loc, t, APInt(t.getIntOrFloatBitWidth(), 1));
        // Unsigned values (and i1) are never negative: x != 0 ? 1 : x.
        Value gt = isFloat ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero).getResult()
                           : arith::CmpIOp::create(b, loc, isUnsigned ? arith::CmpIPredicate::ne
                                                                      : arith::CmpIPredicate::sgt,
                                                   x, zero)
                                 .getResult();
        if (!isFloat && isUnsigned)
          return arith::SelectOp::create(b, loc, gt, one, x);
        Value minusOne = isFloat ? floatValue(b, loc, t, -1.0)
                                 : intValue(b, loc, t, APInt::getAllOnes(t.getIntOrFloatBitWidth()));
        Value lt = isFloat ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero).getResult()
                           : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero).getResult();
        return arith::SelectOp::create(b, loc, gt, one,
                                       arith::SelectOp::create(b, loc, lt, minusOne, x));
      })
      .Case([&](prim::NotOp) {
        Type t = x.getType();
        return arith::XOrIOp::create(b, loc, x,
                                     intValue(b, loc, t, APInt::getAllOnes(t.getIntOrFloatBitWidth())))
            .getResult();
      })
      .Case([&](prim::PopcountOp) { return math::CtPopOp::create(b, loc, x).getResult(); })
      .Case([&](prim::IsNanOp) {
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x).getResult();
      })
      .Case([&](prim::IsInfOp) {
        Value inf = arith::ConstantOp::create(
            b, loc, x.getType(),
            b.getFloatAttr(x.getType(),
                           APFloat::getInf(cast<FloatType>(x.getType()).getFloatSemantics())));
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                     math::AbsFOp::create(b, loc, x), inf)
            .getResult();
      })
      .Case([&](prim::LogisticOp) -> Value {
        if (x.getType().isF32())
          return logisticF32(b, loc, x);
        // 1 / (1 + e^min(-x, 88)): e^88 < 2^127 keeps the denominator finite (for x < -88
        // the result is e^-88 ~ 6e-39 instead of a smaller number), so the division may be
        // a reciprocal estimate with a Newton step (`arcp ninf`: vector rcp14/rcpps + one
        // refinement on x86, within 2 ulp; a divide instruction per vector costs several
        // times more, and sigmoid is every SiLU's and gate's inner op).
        Value one = floatValue(b, loc, x.getType(), 1.0);
        Value exponent = arith::MinimumFOp::create(b, loc, arith::NegFOp::create(b, loc, x),
                                                   floatValue(b, loc, x.getType(), 88.0));
        Value e = math::ExpOp::create(b, loc, exponent);
        auto flags = arith::FastMathFlagsAttr::get(
            b.getContext(), arith::FastMathFlags::arcp | arith::FastMathFlags::ninf);
        return arith::DivFOp::create(b, loc, one, arith::AddFOp::create(b, loc, one, e), flags);
      })
      .Case([&](prim::ExpOp) { return math::ExpOp::create(b, loc, x).getResult(); })
      .Case([&](prim::Expm1Op) { return math::ExpM1Op::create(b, loc, x).getResult(); })
      .Case([&](prim::LogOp) { return math::LogOp::create(b, loc, x).getResult(); })
      .Case([&](prim::Log1pOp) { return math::Log1pOp::create(b, loc, x).getResult(); })
      .Case([&](prim::SqrtOp) { return math::SqrtOp::create(b, loc, x).getResult(); })
      .Case([&](prim::RsqrtOp) { return math::RsqrtOp::create(b, loc, x).getResult(); })
      .Case([&](prim::SinOp) { return math::SinOp::create(b, loc, x).getResult(); })
      .Case([&](prim::CosOp) { return math::CosOp::create(b, loc, x).getResult(); })
      .Case([&](prim::TanOp) { return math::TanOp::create(b, loc, x).getResult(); })
      .Case([&](prim::AsinOp) { return math::AsinOp::create(b, loc, x).getResult(); })
      .Case([&](prim::AcosOp) { return math::AcosOp::create(b, loc, x).getResult(); })
      .Case([&](prim::AtanOp) { return math::AtanOp::create(b, loc, x).getResult(); })
      .Case([&](prim::SinhOp) { return math::SinhOp::create(b, loc, x).getResult(); })
      .Case([&](prim::CoshOp) { return math::CoshOp::create(b, loc, x).getResult(); })
      .Case([&](prim::TanhOp) {
        // tanh is odd: the approximation's result takes x's sign (tanh(-0) = -0).
        return math::CopySignOp::create(b, loc, math::TanhOp::create(b, loc, x), x).getResult();
      })
      .Case([&](prim::AsinhOp) { return math::AsinhOp::create(b, loc, x).getResult(); })
      .Case([&](prim::AcoshOp) { return math::AcoshOp::create(b, loc, x).getResult(); })
      .Case([&](prim::AtanhOp) { return math::AtanhOp::create(b, loc, x).getResult(); })
      .Case([&](prim::ErfOp) {
        // erf is odd too: erf(-0) = -0.
        return math::CopySignOp::create(b, loc, math::ErfOp::create(b, loc, x), x).getResult();
      })
      .Case([&](prim::FloorOp) { return math::FloorOp::create(b, loc, x).getResult(); })
      .Case([&](prim::CeilOp) { return math::CeilOp::create(b, loc, x).getResult(); })
      .Case([&](prim::RoundEvenOp) { return math::RoundEvenOp::create(b, loc, x).getResult(); })
      .Default([](Operation *) { return Value(); });
}

/// Any elementwise prim op -> linalg.generic with identity maps.
struct ElementwiseToGeneric : RewritePattern {
  ElementwiseToGeneric(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rewriter) const override {
    if (!isa<prim::PrimDialect>(op->getDialect()) || !op->hasTrait<OpTrait::Elementwise>() ||
        op->getNumResults() != 1)
      return failure();
    Location loc = op->getLoc();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    auto signlessType = lower::signless(type);
    // Splat constants (the zero of a Relu, a scale) become scalars in the body instead of
    // tensors the kernel reads.
    SmallVector<Value> operands;
    SmallVector<TypedAttr> splats;
    for (Value operand : op->getOperands()) {
      DenseElementsAttr constant;
      TypedAttr scalar;
      if (matchPattern(operand, m_Constant(&constant)) && constant.isSplat()) {
        Type element = lower::signless(constant.getElementType());
        Attribute value = constant.getSplatValue<Attribute>();
        if (auto i = dyn_cast<IntegerAttr>(value))
          scalar = IntegerAttr::get(element, i.getValue());
        else if (auto f = dyn_cast<FloatAttr>(value))
          scalar = f;
      }
      splats.push_back(scalar);
      if (!scalar)
        operands.push_back(lower::castToSignless(rewriter, loc, operand));
    }
    Value shapeSource = op->getOperand(0);
    for (auto [operand, scalar] : llvm::zip(op->getOperands(), splats))
      if (!scalar) {
        shapeSource = operand;
        break;
      }
    Value init = lower::createEmpty(rewriter, loc, signlessType,
                                    lower::getDynamicDims(rewriter, loc, shapeSource));
    SmallVector<AffineMap> maps(operands.size() + 1,
                                rewriter.getMultiDimIdentityMap(type.getRank()));
    SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
    bool failedBody = false;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{signlessType}, operands, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange blockArgs) {
          SmallVector<Value> args;
          unsigned next = 0;
          for (TypedAttr scalar : splats)
            args.push_back(scalar ? arith::ConstantOp::create(b, nested, scalar).getResult()
                                  : blockArgs[next++]);
          Value r = buildScalar(b, nested, op, args);
          if (!r) {
            failedBody = true;
            r = args.back();
          }
          linalg::YieldOp::create(b, nested, r);
        });
    if (failedBody) {
      rewriter.eraseOp(generic);
      for (Value cast : operands)
        if (auto castOp = cast.getDefiningOp<UnrealizedConversionCastOp>())
          rewriter.eraseOp(castOp);
      return rewriter.notifyMatchFailure(op, "no scalar lowering");
    }
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, generic.getResult(0), type));
    return success();
  }
};

/// broadcast_in_dim: result[j] = operand[k] with k[i] = j[dims[i]] (or 0 for a static
/// extent of 1 broadcast to a larger one).
struct BroadcastToGeneric : OpRewritePattern<prim::BroadcastInDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::BroadcastInDimOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    auto operandType = op.getOperand().getType();
    Value init = lower::createEmpty(rewriter, loc, type, op.getDynamicSizes());
    SmallVector<AffineExpr> exprs;
    for (auto [i, d] : llvm::enumerate(op.getBroadcastDimensions())) {
      bool stretched = operandType.getDimSize(i) == 1 && type.getDimSize(d) != 1;
      exprs.push_back(stretched ? rewriter.getAffineConstantExpr(0) : rewriter.getAffineDimExpr(d));
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(type.getRank(), 0, exprs, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(type.getRank())};
    SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{op.getOperand()}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
          linalg::YieldOp::create(b, nested, args[0]);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// iota: result[j] = j[dimension], converted to the element type.
struct IotaToGeneric : OpRewritePattern<prim::IotaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(prim::IotaOp op, PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getType();
    auto signlessType = lower::signless(type);
    Value init = lower::createEmpty(rewriter, loc, signlessType, op.getDynamicSizes());
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(type.getRank())};
    SmallVector<utils::IteratorType> iterators(type.getRank(), utils::IteratorType::parallel);
    int64_t dim = op.getDimension();
    Type element = type.getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{signlessType}, ValueRange{}, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange) {
          Value index = linalg::IndexOp::create(b, nested, dim);
          Value i64 = arith::IndexCastOp::create(b, nested, b.getI64Type(), index);
          linalg::YieldOp::create(b, nested,
                                  lower::convertScalar(b, nested, i64, b.getI64Type(), element));
        });
    rewriter.replaceOp(op, lower::castToType(rewriter, loc, generic.getResult(0), type));
    return success();
  }
};

} // namespace

void lower::populateElementwiseLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<ElementwiseToGeneric, BroadcastToGeneric, IotaToGeneric>(patterns.getContext());
}
