//===- EvaluateElementwise.cpp - reference semantics of the elementwise prim ops -------===//
//
// Floats compute in double and round once when stored, which is exact for + - * / and
// sqrt on every supported float type. Integers compute on 64-bit values sign- or
// zero-extended from the element type (`uiN` and i1 zero-extend) and wrap when stored.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "dialects/prim/PrimDialect.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;
namespace prim = tcc::prim;

namespace {
/// How the integers of one element type behave.
struct IntegerInfo {
  unsigned width;
  bool isUnsigned;

  static IntegerInfo of(Type type) { return {getIntegerWidth(type), isUnsignedElement(type)}; }
  /// The element's value as an unsigned 64-bit number (meaningful when isUnsigned).
  uint64_t asUnsigned(int64_t v) const { return truncateToWidth(v, width); }
};

using FloatUnaryFn = llvm::function_ref<double(double)>;
using FloatBinaryFn = llvm::function_ref<double(double, double)>;
using IntUnaryFn = llvm::function_ref<int64_t(int64_t, IntegerInfo)>;
using IntBinaryFn = llvm::function_ref<int64_t(int64_t, int64_t, IntegerInfo)>;

/// The input tensor of operand `index` of `op`.
const Tensor &input(Operation *op, const Environment &env, unsigned index) {
  return env.get(op->getOperand(index));
}

/// A result shaped like operand 0, after checking that every operand has its shape.
llvm::Expected<Tensor> makeElementwiseResult(Operation *op, const Environment &env) {
  const Tensor &first = input(op, env, 0);
  for (unsigned i = 1; i < op->getNumOperands(); ++i)
    if (llvm::Error error =
            checkSameShape(input(op, env, i), first, "operand " + std::to_string(i), "operand 0"))
      return std::move(error);
  return makeTensor(getResultElementType(op), first.shape);
}

/// result[i] = floatFn(x[i]) or intFn(x[i]); a null function rejects that element kind.
llvm::Expected<Results> mapUnary(Operation *op, const Environment &env, FloatUnaryFn floatFn,
                                 IntUnaryFn intFn) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &x = input(op, env, 0);
  bool isFloat = isa<FloatType>(x.elementType);
  if ((isFloat && !floatFn) || (!isFloat && !intFn))
    return makeError("unsupported element type for this op");
  IntegerInfo info = IntegerInfo::of(x.elementType);
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    if (isFloat)
      result->setDouble(i, floatFn(x.getDouble(i)));
    else
      result->setInt(i, intFn(x.getInt(i), info));
  }
  return Results{std::move(*result)};
}

/// result[i] = floatFn(a[i], b[i]) or intFn(a[i], b[i]).
llvm::Expected<Results> mapBinary(Operation *op, const Environment &env, FloatBinaryFn floatFn,
                                  IntBinaryFn intFn) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &a = input(op, env, 0), &b = input(op, env, 1);
  bool isFloat = isa<FloatType>(a.elementType);
  if ((isFloat && !floatFn) || (!isFloat && !intFn))
    return makeError("unsupported element type for this op");
  IntegerInfo info = IntegerInfo::of(a.elementType);
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i) {
    if (isFloat)
      result->setDouble(i, floatFn(a.getDouble(i), b.getDouble(i)));
    else
      result->setInt(i, intFn(a.getInt(i), b.getInt(i), info));
  }
  return Results{std::move(*result)};
}

/// Signed or unsigned `a < b`.
bool intLess(int64_t a, int64_t b, IntegerInfo info) {
  return info.isUnsigned ? info.asUnsigned(a) < info.asUnsigned(b) : a < b;
}

//===----------------------------------------------------------------------------------===//
// Integer semantics.
//===----------------------------------------------------------------------------------===//

int64_t negate(int64_t x, IntegerInfo) { return static_cast<int64_t>(0 - uint64_t(x)); }

// abs(INT_MIN) = INT_MIN: the negation wraps.
int64_t absolute(int64_t x, IntegerInfo info) {
  return (!info.isUnsigned && x < 0) ? negate(x, info) : x;
}

int64_t sign(int64_t x, IntegerInfo info) {
  if (x == 0)
    return 0;
  return (!info.isUnsigned && x < 0) ? -1 : 1;
}

// x / 0 = 0 and INT_MIN / -1 = INT_MIN; otherwise truncate toward zero.
int64_t divide(int64_t a, int64_t b, IntegerInfo info) {
  if (b == 0)
    return 0;
  if (info.isUnsigned)
    return static_cast<int64_t>(info.asUnsigned(a) / info.asUnsigned(b));
  if (b == -1)
    return negate(a, info); // wraps for INT_MIN
  return a / b;
}

// x rem 0 = x; the result has the sign of a (C %).
int64_t integerRemainder(int64_t a, int64_t b, IntegerInfo info) {
  if (b == 0)
    return a;
  if (info.isUnsigned)
    return static_cast<int64_t>(info.asUnsigned(a) % info.asUnsigned(b));
  if (b == -1)
    return 0;
  return a % b;
}

// a^b by squaring, wrapping; b < 0 gives 0 unless a is 1 or -1.
int64_t power(int64_t a, int64_t b, IntegerInfo info) {
  if (!info.isUnsigned && b < 0) {
    if (a == 1)
      return 1;
    if (a == -1)
      return (b & 1) ? -1 : 1;
    return 0;
  }
  uint64_t base = static_cast<uint64_t>(a), result = 1;
  for (uint64_t exponent = info.isUnsigned ? info.asUnsigned(b) : static_cast<uint64_t>(b);
       exponent != 0; exponent >>= 1) {
    if (exponent & 1)
      result *= base;
    base *= base;
  }
  return static_cast<int64_t>(result);
}

/// True when shifting by `b` leaves the width (negative amounts count as too large).
bool shiftOutOfRange(int64_t b, IntegerInfo info) {
  if (info.isUnsigned)
    return info.asUnsigned(b) >= info.width;
  return b < 0 || b >= static_cast<int64_t>(info.width);
}

int64_t shiftLeft(int64_t a, int64_t b, IntegerInfo info) {
  if (shiftOutOfRange(b, info))
    return 0;
  return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
}

int64_t shiftRightLogical(int64_t a, int64_t b, IntegerInfo info) {
  if (shiftOutOfRange(b, info))
    return 0;
  return static_cast<int64_t>(info.asUnsigned(a) >> info.asUnsigned(b));
}

// Fills with the element's top bit, also for unsigned types.
int64_t shiftRightArithmetic(int64_t a, int64_t b, IntegerInfo info) {
  int64_t value = signExtend(static_cast<uint64_t>(a), info.width);
  if (shiftOutOfRange(b, info))
    return value < 0 ? -1 : 0;
  return value >> info.asUnsigned(b);
}

//===----------------------------------------------------------------------------------===//
// Float semantics.
//===----------------------------------------------------------------------------------===//

double roundHalfToEven(double x) {
  llvm::APFloat value(x);
  value.roundToIntegral(llvm::APFloat::rmNearestTiesToEven);
  return value.convertToDouble();
}

// -1, 0 or 1; NaN and signed zeros stay as they are.
double floatSign(double x) {
  if (std::isnan(x) || x == 0)
    return x;
  return x < 0 ? -1.0 : 1.0;
}

//===----------------------------------------------------------------------------------===//
// Ops that are not a plain map.
//===----------------------------------------------------------------------------------===//

llvm::Expected<Results> classify(Operation *op, const Environment &env, bool (*test)(double)) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &x = input(op, env, 0);
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    result->setInt(i, test(x.getDouble(i)));
  return Results{std::move(*result)};
}

/// Any comparison with NaN is false, except ne.
bool compareFloats(prim::CompareDirection direction, double a, double b) {
  switch (direction) {
  case prim::CompareDirection::Eq: return a == b;
  case prim::CompareDirection::Ne: return a != b;
  case prim::CompareDirection::Lt: return a < b;
  case prim::CompareDirection::Le: return a <= b;
  case prim::CompareDirection::Gt: return a > b;
  case prim::CompareDirection::Ge: return a >= b;
  }
  return false;
}

bool compareInts(prim::CompareDirection direction, int64_t a, int64_t b, IntegerInfo info) {
  switch (direction) {
  case prim::CompareDirection::Eq: return a == b;
  case prim::CompareDirection::Ne: return a != b;
  case prim::CompareDirection::Lt: return intLess(a, b, info);
  case prim::CompareDirection::Le: return !intLess(b, a, info);
  case prim::CompareDirection::Gt: return intLess(b, a, info);
  case prim::CompareDirection::Ge: return !intLess(a, b, info);
  }
  return false;
}

llvm::Expected<Results> compare(prim::CompareOp op, const Environment &env) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &a = env.get(op.getLhs()), &b = env.get(op.getRhs());
  IntegerInfo info = IntegerInfo::of(a.elementType);
  bool isFloat = isa<FloatType>(a.elementType);
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i) {
    bool value = isFloat ? compareFloats(op.getDirection(), a.getDouble(i), b.getDouble(i))
                         : compareInts(op.getDirection(), a.getInt(i), b.getInt(i), info);
    result->setInt(i, value);
  }
  return Results{std::move(*result)};
}

llvm::Expected<Results> select(prim::SelectOp op, const Environment &env) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &pred = env.get(op.getPred());
  const Tensor &onTrue = env.get(op.getOnTrue()), &onFalse = env.get(op.getOnFalse());
  for (int64_t i = 0, e = pred.getNumElements(); i < e; ++i)
    copyElement(*result, i, pred.getInt(i) ? onTrue : onFalse, i);
  return Results{std::move(*result)};
}

// clamp = min(max(x, lo), hi); NaN anywhere gives NaN.
llvm::Expected<Results> clamp(prim::ClampOp op, const Environment &env) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &lo = env.get(op.getLo()), &x = env.get(op.getOperand()), &hi = env.get(op.getHi());
  IntegerInfo info = IntegerInfo::of(x.elementType);
  bool isFloat = isa<FloatType>(x.elementType);
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    if (isFloat) {
      double v = maximumPropagatingNaN(x.getDouble(i), lo.getDouble(i));
      result->setDouble(i, minimumPropagatingNaN(v, hi.getDouble(i)));
      continue;
    }
    int64_t v = x.getInt(i), low = lo.getInt(i), high = hi.getInt(i);
    if (intLess(v, low, info))
      v = low;
    if (intLess(high, v, info))
      v = high;
    result->setInt(i, v);
  }
  return Results{std::move(*result)};
}

/// Converts element `i` of `x` into element `i` of `result` (prim.convert's rules).
void convertElement(const Tensor &x, Tensor &result, int64_t i) {
  Type from = x.elementType, to = result.elementType;
  if (to.isInteger(1)) { // anything -> i1 is x != 0
    result.setInt(i, isa<FloatType>(from) ? x.getDouble(i) != 0 : x.getInt(i) != 0);
    return;
  }
  if (isa<FloatType>(from)) {
    // float -> float rounds to nearest even; float -> int truncates and saturates.
    result.setDouble(i, x.getDouble(i));
    return;
  }
  if (isa<FloatType>(to)) {
    setIntegerAsFloat(result, i, x.getInt(i), isUnsignedElement(from));
    return;
  }
  result.setInt(i, x.getInt(i)); // integer -> integer wraps
}

llvm::Expected<Results> convert(prim::ConvertOp op, const Environment &env) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &x = env.get(op.getOperand());
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
    convertElement(x, *result, i);
  return Results{std::move(*result)};
}

llvm::Expected<Results> bitcastConvert(prim::BitcastConvertOp op, const Environment &env) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &x = env.get(op.getOperand());
  if (result->bytes.size() != x.bytes.size())
    return makeError("element types have different sizes");
  result->bytes = x.bytes;
  return Results{std::move(*result)};
}
} // namespace

FamilyResult tcc::eval::detail::evaluateElementwiseOp(Operation *op, const Environment &env) {
  using llvm::TypeSwitch;
  auto unary = [&](FloatUnaryFn f) { return mapUnary(op, env, f, nullptr); };
  auto binary = [&](FloatBinaryFn f, IntBinaryFn i) { return mapBinary(op, env, f, i); };
  return TypeSwitch<Operation *, FamilyResult>(op)
      // Unary, numeric.
      .Case([&](prim::NegOp) {
        return mapUnary(
            op, env, [](double x) { return -x; }, negate);
      })
      .Case([&](prim::AbsOp) {
        return mapUnary(
            op, env, [](double x) { return std::fabs(x); }, absolute);
      })
      .Case([&](prim::SignOp) { return mapUnary(op, env, floatSign, sign); })
      // Unary, floating point.
      .Case([&](prim::FloorOp) { return unary([](double x) { return std::floor(x); }); })
      .Case([&](prim::CeilOp) { return unary([](double x) { return std::ceil(x); }); })
      .Case([&](prim::RoundEvenOp) { return unary(roundHalfToEven); })
      .Case([&](prim::ExpOp) { return unary([](double x) { return std::exp(x); }); })
      .Case([&](prim::Expm1Op) { return unary([](double x) { return std::expm1(x); }); })
      .Case([&](prim::LogOp) { return unary([](double x) { return std::log(x); }); })
      .Case([&](prim::Log1pOp) { return unary([](double x) { return std::log1p(x); }); })
      .Case([&](prim::SqrtOp) { return unary([](double x) { return std::sqrt(x); }); })
      .Case([&](prim::RsqrtOp) { return unary([](double x) { return 1.0 / std::sqrt(x); }); })
      .Case([&](prim::SinOp) { return unary([](double x) { return std::sin(x); }); })
      .Case([&](prim::CosOp) { return unary([](double x) { return std::cos(x); }); })
      .Case([&](prim::TanOp) { return unary([](double x) { return std::tan(x); }); })
      .Case([&](prim::AsinOp) { return unary([](double x) { return std::asin(x); }); })
      .Case([&](prim::AcosOp) { return unary([](double x) { return std::acos(x); }); })
      .Case([&](prim::AtanOp) { return unary([](double x) { return std::atan(x); }); })
      .Case([&](prim::SinhOp) { return unary([](double x) { return std::sinh(x); }); })
      .Case([&](prim::CoshOp) { return unary([](double x) { return std::cosh(x); }); })
      .Case([&](prim::TanhOp) { return unary([](double x) { return std::tanh(x); }); })
      .Case([&](prim::AsinhOp) { return unary([](double x) { return std::asinh(x); }); })
      .Case([&](prim::AcoshOp) { return unary([](double x) { return std::acosh(x); }); })
      .Case([&](prim::AtanhOp) { return unary([](double x) { return std::atanh(x); }); })
      .Case([&](prim::ErfOp) { return unary([](double x) { return std::erf(x); }); })
      .Case([&](prim::LogisticOp) {
        return unary([](double x) { return 1.0 / (1.0 + std::exp(-x)); });
      })
      // Unary, integer and boolean.
      .Case([&](prim::NotOp) {
        return mapUnary(op, env, nullptr, [](int64_t x, IntegerInfo) { return ~x; });
      })
      .Case([&](prim::PopcountOp) {
        return mapUnary(op, env, nullptr, [](int64_t x, IntegerInfo info) -> int64_t {
          return llvm::popcount(info.asUnsigned(x));
        });
      })
      // Classification.
      .Case([&](prim::IsNanOp) {
        return classify(op, env, [](double x) -> bool { return std::isnan(x); });
      })
      .Case([&](prim::IsInfOp) {
        return classify(op, env, [](double x) -> bool { return std::isinf(x); });
      })
      // Binary, numeric.
      .Case([&](prim::AddOp) {
        return binary([](double a, double b) { return a + b; },
                      [](int64_t a, int64_t b, IntegerInfo) {
                        return static_cast<int64_t>(uint64_t(a) + uint64_t(b));
                      });
      })
      .Case([&](prim::SubOp) {
        return binary([](double a, double b) { return a - b; },
                      [](int64_t a, int64_t b, IntegerInfo) {
                        return static_cast<int64_t>(uint64_t(a) - uint64_t(b));
                      });
      })
      .Case([&](prim::MulOp) {
        return binary([](double a, double b) { return a * b; },
                      [](int64_t a, int64_t b, IntegerInfo) {
                        return static_cast<int64_t>(uint64_t(a) * uint64_t(b));
                      });
      })
      .Case([&](prim::DivOp) { return binary([](double a, double b) { return a / b; }, divide); })
      .Case([&](prim::RemOp) {
        return binary([](double a, double b) { return std::fmod(a, b); }, integerRemainder);
      })
      .Case([&](prim::PowOp) {
        return binary([](double a, double b) { return std::pow(a, b); }, power);
      })
      .Case([&](prim::MaxOp) {
        return binary(maximumPropagatingNaN, [](int64_t a, int64_t b, IntegerInfo info) {
          return intLess(a, b, info) ? b : a;
        });
      })
      .Case([&](prim::MinOp) {
        return binary(minimumPropagatingNaN, [](int64_t a, int64_t b, IntegerInfo info) {
          return intLess(b, a, info) ? b : a;
        });
      })
      .Case([&](prim::Atan2Op) {
        return binary([](double a, double b) { return std::atan2(a, b); }, nullptr);
      })
      // Binary, integer and boolean.
      .Case([&](prim::AndOp) {
        return binary(nullptr, [](int64_t a, int64_t b, IntegerInfo) { return a & b; });
      })
      .Case([&](prim::OrOp) {
        return binary(nullptr, [](int64_t a, int64_t b, IntegerInfo) { return a | b; });
      })
      .Case([&](prim::XorOp) {
        return binary(nullptr, [](int64_t a, int64_t b, IntegerInfo) { return a ^ b; });
      })
      .Case([&](prim::ShiftLeftOp) { return binary(nullptr, shiftLeft); })
      .Case([&](prim::ShiftRightLogicalOp) { return binary(nullptr, shiftRightLogical); })
      .Case([&](prim::ShiftRightArithmeticOp) { return binary(nullptr, shiftRightArithmetic); })
      // The rest.
      .Case([&](prim::CompareOp typed) { return compare(typed, env); })
      .Case([&](prim::SelectOp typed) { return select(typed, env); })
      .Case([&](prim::ClampOp typed) { return clamp(typed, env); })
      .Case([&](prim::ConvertOp typed) { return convert(typed, env); })
      .Case([&](prim::BitcastConvertOp typed) { return bitcastConvert(typed, env); })
      .Default(std::nullopt);
}
