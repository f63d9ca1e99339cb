//===- EvaluateUpstream.cpp - the arith and tensor ops that decomposed IR contains -----===//
//
// arith ops are signless: each op says how it reads its operands' bits (signed or
// unsigned), so values here are the raw low `width` bits. Where arith leaves a result
// undefined (division by zero, signed overflow of division), the evaluator reports an error
// rather than invent a value; float -> int conversions saturate as prim.convert does.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;

namespace {
/// An integer operand's bits, readable either way.
struct Bits {
  uint64_t bits;
  unsigned width;
  int64_t s() const { return signExtend(bits, width); }
  uint64_t u() const { return bits; }
};

using IntFn = llvm::function_ref<llvm::Expected<int64_t>(Bits, Bits)>;
using FloatFn = llvm::function_ref<double(double, double)>;

/// A result shaped like operand 0 after checking that the operands share its shape.
llvm::Expected<Tensor> makeElementwiseResult(Operation *op, const Environment &env,
                                             unsigned resultIndex = 0) {
  const Tensor &first = env.get(op->getOperand(0));
  for (unsigned i = 1; i < op->getNumOperands(); ++i)
    if (llvm::Error error = checkSameShape(env.get(op->getOperand(i)), first,
                                           "operand " + std::to_string(i), "operand 0"))
      return std::move(error);
  return makeTensor(getResultElementType(op, resultIndex), first.shape);
}

Bits bitsOf(const Tensor &t, int64_t i) {
  unsigned width = getIntegerWidth(t.elementType);
  return {truncateToWidth(static_cast<uint64_t>(t.getInt(i)), width), width};
}

/// result[i] = fn(a[i], b[i]) on the operands' bits.
llvm::Expected<Results> mapInt(Operation *op, const Environment &env, IntFn fn) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &a = env.get(op->getOperand(0)), &b = env.get(op->getOperand(1));
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i) {
    llvm::Expected<int64_t> value = fn(bitsOf(a, i), bitsOf(b, i));
    if (!value)
      return value.takeError();
    result->setInt(i, *value);
  }
  return Results{std::move(*result)};
}

/// result[i] = fn(a[i], b[i]) in double, rounded once; a unary op passes b = 0.
llvm::Expected<Results> mapFloat(Operation *op, const Environment &env, FloatFn fn) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &a = env.get(op->getOperand(0));
  bool isBinary = op->getNumOperands() > 1;
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i) {
    double b = isBinary ? env.get(op->getOperand(1)).getDouble(i) : 0.0;
    result->setDouble(i, fn(a.getDouble(i), b));
  }
  return Results{std::move(*result)};
}

llvm::Error divisionByZero() { return makeError("division by zero"); }

bool isSignedDivisionOverflow(Bits a, Bits b) {
  return b.s() == -1 && a.bits == (uint64_t(1) << (a.width - 1));
}

int64_t floorDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t ceilDivide(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/// The signed division family: b = 0 and INT_MIN / -1 are errors (undefined in arith).
llvm::Expected<Results> signedDivision(Operation *op, const Environment &env,
                                       int64_t (*fn)(int64_t, int64_t)) {
  return mapInt(op, env, [fn](Bits a, Bits b) -> llvm::Expected<int64_t> {
    if (b.bits == 0)
      return divisionByZero();
    if (isSignedDivisionOverflow(a, b))
      return makeError("signed division overflow");
    return fn(a.s(), b.s());
  });
}

bool compareInts(arith::CmpIPredicate predicate, Bits a, Bits b) {
  switch (predicate) {
  case arith::CmpIPredicate::eq: return a.u() == b.u();
  case arith::CmpIPredicate::ne: return a.u() != b.u();
  case arith::CmpIPredicate::slt: return a.s() < b.s();
  case arith::CmpIPredicate::sle: return a.s() <= b.s();
  case arith::CmpIPredicate::sgt: return a.s() > b.s();
  case arith::CmpIPredicate::sge: return a.s() >= b.s();
  case arith::CmpIPredicate::ult: return a.u() < b.u();
  case arith::CmpIPredicate::ule: return a.u() <= b.u();
  case arith::CmpIPredicate::ugt: return a.u() > b.u();
  case arith::CmpIPredicate::uge: return a.u() >= b.u();
  }
  return false;
}

/// Ordered predicates are false with a NaN operand, unordered ones true.
bool compareFloats(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (predicate) {
  case arith::CmpFPredicate::AlwaysFalse: return false;
  case arith::CmpFPredicate::OEQ: return !unordered && a == b;
  case arith::CmpFPredicate::OGT: return !unordered && a > b;
  case arith::CmpFPredicate::OGE: return !unordered && a >= b;
  case arith::CmpFPredicate::OLT: return !unordered && a < b;
  case arith::CmpFPredicate::OLE: return !unordered && a <= b;
  case arith::CmpFPredicate::ONE: return !unordered && a != b;
  case arith::CmpFPredicate::ORD: return !unordered;
  case arith::CmpFPredicate::UEQ: return unordered || a == b;
  case arith::CmpFPredicate::UGT: return unordered || a > b;
  case arith::CmpFPredicate::UGE: return unordered || a >= b;
  case arith::CmpFPredicate::ULT: return unordered || a < b;
  case arith::CmpFPredicate::ULE: return unordered || a <= b;
  case arith::CmpFPredicate::UNE: return unordered || a != b;
  case arith::CmpFPredicate::UNO: return unordered;
  case arith::CmpFPredicate::AlwaysTrue: return true;
  }
  return false;
}

/// result[i] = test(a[i], b[i]) as i1.
template <typename TestFn>
llvm::Expected<Results> mapCompare(Operation *op, const Environment &env, TestFn test) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &a = env.get(op->getOperand(0)), &b = env.get(op->getOperand(1));
  for (int64_t i = 0, e = a.getNumElements(); i < e; ++i)
    result->setInt(i, test(a, b, i));
  return Results{std::move(*result)};
}

/// Integer casts: the operand's bits, sign- or zero-extended, then wrapped to the result.
llvm::Expected<Results> castInt(Operation *op, const Environment &env, bool isSigned) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &x = env.get(op->getOperand(0));
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    Bits bits = bitsOf(x, i);
    result->setInt(i, isSigned ? bits.s() : static_cast<int64_t>(bits.u()));
  }
  return Results{std::move(*result)};
}

/// Integer -> float (rounded to nearest even) and float -> integer (truncated, saturated).
llvm::Expected<Results> castNumeric(Operation *op, const Environment &env, bool isSigned) {
  llvm::Expected<Tensor> result = makeElementwiseResult(op, env);
  if (!result)
    return result.takeError();
  const Tensor &x = env.get(op->getOperand(0));
  for (int64_t i = 0, e = x.getNumElements(); i < e; ++i) {
    if (isa<FloatType>(x.elementType)) {
      unsigned width = getIntegerWidth(result->elementType);
      int64_t v = saturatingFloatToInt(x.getDouble(i), width, !isSigned);
      result->setInt(i, v);
    } else {
      Bits bits = bitsOf(x, i);
      setIntegerAsFloat(*result, i, isSigned ? bits.s() : static_cast<int64_t>(bits.u()),
                        !isSigned);
    }
  }
  return Results{std::move(*result)};
}

llvm::Expected<Results> constant(arith::ConstantOp op) {
  Attribute value = op.getValue();
  if (auto elements = dyn_cast<ElementsAttr>(value)) {
    llvm::Expected<Tensor> tensor = tensorFromAttr(elements);
    if (!tensor)
      return tensor.takeError();
    return Results{std::move(*tensor)};
  }
  llvm::Expected<Tensor> scalar = makeTensor(op.getType(), {});
  if (!scalar)
    return scalar.takeError();
  if (auto integer = dyn_cast<IntegerAttr>(value))
    scalar->setInt(0, static_cast<int64_t>(integer.getValue().getZExtValue()));
  else if (auto real = dyn_cast<FloatAttr>(value))
    storeBits(*scalar, 0, real.getValue().bitcastToAPInt().getZExtValue());
  else
    return makeError("unsupported constant attribute");
  return Results{std::move(*scalar)};
}

llvm::Expected<Results> select(arith::SelectOp op, const Environment &env) {
  const Tensor &condition = env.get(op.getCondition());
  const Tensor &onTrue = env.get(op.getTrueValue()), &onFalse = env.get(op.getFalseValue());
  if (llvm::Error error = checkSameShape(onTrue, onFalse, "true value", "false value"))
    return std::move(error);
  // A scalar condition picks a whole operand.
  if (condition.shape.empty())
    return Results{condition.getInt(0) ? onTrue : onFalse};
  if (llvm::Error error = checkSameShape(condition, onTrue, "condition", "true value"))
    return std::move(error);
  llvm::Expected<Tensor> result = makeTensor(onTrue.elementType, onTrue.shape);
  if (!result)
    return result.takeError();
  for (int64_t i = 0, e = onTrue.getNumElements(); i < e; ++i)
    copyElement(*result, i, condition.getInt(i) ? onTrue : onFalse, i);
  return Results{std::move(*result)};
}

llvm::Expected<Results> fromElements(tensor::FromElementsOp op, const Environment &env) {
  llvm::Expected<Tensor> result =
      makeTensor(op.getType().getElementType(), op.getType().getShape());
  if (!result)
    return result.takeError();
  if (result->getNumElements() != static_cast<int64_t>(op.getElements().size()))
    return makeError("expected " + llvm::Twine(result->getNumElements()) + " elements, got " +
                     llvm::Twine(op.getElements().size()));
  for (auto [i, value] : llvm::enumerate(op.getElements()))
    copyElement(*result, i, env.get(value), 0);
  return Results{std::move(*result)};
}

llvm::Expected<Results> extract(tensor::ExtractOp op, const Environment &env) {
  const Tensor &source = env.get(op.getTensor());
  if (op.getIndices().size() != source.shape.size())
    return makeError("expected " + llvm::Twine(source.shape.size()) + " indices");
  int64_t position = 0;
  for (auto [d, value] : llvm::enumerate(op.getIndices())) {
    int64_t index = env.get(value).getInt(0);
    if (index < 0 || index >= source.shape[d])
      return makeError("index " + llvm::Twine(index) + " of dim " + llvm::Twine(d) +
                       " is out of range [0, " + llvm::Twine(source.shape[d]) + ")");
    position = position * source.shape[d] + index;
  }
  llvm::Expected<Tensor> result = makeTensor(source.elementType, {});
  if (!result)
    return result.takeError();
  copyElement(*result, 0, source, position);
  return Results{std::move(*result)};
}

llvm::Expected<Results> tensorDim(tensor::DimOp op, const Environment &env) {
  const Tensor &source = env.get(op.getSource());
  int64_t index = env.get(op.getIndex()).getInt(0);
  if (index < 0 || index >= static_cast<int64_t>(source.shape.size()))
    return makeError("dim " + llvm::Twine(index) + " is out of range for rank " +
                     llvm::Twine(source.shape.size()));
  llvm::Expected<Tensor> result = makeTensor(op.getType(), {});
  if (!result)
    return result.takeError();
  result->setInt(0, source.shape[index]);
  return Results{std::move(*result)};
}

llvm::Expected<Results> empty(tensor::EmptyOp op, const Environment &env) {
  auto shape = resolveShape(op.getType(), op.getDynamicSizes(), env);
  if (!shape)
    return shape.takeError();
  llvm::Expected<Tensor> result = makeTensor(op.getType().getElementType(), *shape);
  if (!result)
    return result.takeError();
  return Results{std::move(*result)};
}

/// The integer ops of arith, by the formula each applies to its operands' bits.
FamilyResult evaluateArithIntegerOp(Operation *op, const Environment &env) {
  auto map = [&](IntFn fn) { return mapInt(op, env, fn); };
  auto plain = [](int64_t (*fn)(Bits, Bits)) {
    return [fn](Bits a, Bits b) -> llvm::Expected<int64_t> { return fn(a, b); };
  };
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case([&](arith::AddIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(a.u() + b.u()); }));
      })
      .Case([&](arith::SubIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(a.u() - b.u()); }));
      })
      .Case([&](arith::MulIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(a.u() * b.u()); }));
      })
      .Case([&](arith::DivSIOp) {
        return signedDivision(op, env, [](int64_t a, int64_t b) { return a / b; });
      })
      .Case([&](arith::RemSIOp) {
        return signedDivision(op, env, [](int64_t a, int64_t b) { return a % b; });
      })
      .Case([&](arith::FloorDivSIOp) { return signedDivision(op, env, floorDivide); })
      .Case([&](arith::CeilDivSIOp) { return signedDivision(op, env, ceilDivide); })
      .Case([&](arith::DivUIOp) {
        return map([](Bits a, Bits b) -> llvm::Expected<int64_t> {
          if (b.u() == 0)
            return divisionByZero();
          return int64_t(a.u() / b.u());
        });
      })
      .Case([&](arith::RemUIOp) {
        return map([](Bits a, Bits b) -> llvm::Expected<int64_t> {
          if (b.u() == 0)
            return divisionByZero();
          return int64_t(a.u() % b.u());
        });
      })
      .Case([&](arith::MaxSIOp) {
        return map(plain([](Bits a, Bits b) { return std::max(a.s(), b.s()); }));
      })
      .Case([&](arith::MinSIOp) {
        return map(plain([](Bits a, Bits b) { return std::min(a.s(), b.s()); }));
      })
      .Case([&](arith::MaxUIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(std::max(a.u(), b.u())); }));
      })
      .Case([&](arith::MinUIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(std::min(a.u(), b.u())); }));
      })
      .Case([&](arith::AndIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(a.u() & b.u()); }));
      })
      .Case([&](arith::OrIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(a.u() | b.u()); }));
      })
      .Case([&](arith::XOrIOp) {
        return map(plain([](Bits a, Bits b) { return int64_t(a.u() ^ b.u()); }));
      })
      .Case([&](arith::CmpIOp typed) {
        return mapCompare(op, env, [&](const Tensor &a, const Tensor &b, int64_t i) {
          return compareInts(typed.getPredicate(), bitsOf(a, i), bitsOf(b, i));
        });
      })
      .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(
          [&](auto) { return castInt(op, env, /*isSigned=*/true); })
      .Case<arith::IndexCastUIOp, arith::ExtUIOp>(
          [&](auto) { return castInt(op, env, /*isSigned=*/false); })
      .Default(std::nullopt);
}

/// The float ops of arith.
FamilyResult evaluateArithFloatOp(Operation *op, const Environment &env) {
  auto map = [&](FloatFn fn) { return mapFloat(op, env, fn); };
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case([&](arith::AddFOp) { return map([](double a, double b) { return a + b; }); })
      .Case([&](arith::SubFOp) { return map([](double a, double b) { return a - b; }); })
      .Case([&](arith::MulFOp) { return map([](double a, double b) { return a * b; }); })
      .Case([&](arith::DivFOp) { return map([](double a, double b) { return a / b; }); })
      .Case([&](arith::NegFOp) { return map([](double a, double) { return -a; }); })
      // maxnumf/minnumf return the number when one operand is NaN.
      .Case(
          [&](arith::MaxNumFOp) { return map([](double a, double b) { return std::fmax(a, b); }); })
      .Case(
          [&](arith::MinNumFOp) { return map([](double a, double b) { return std::fmin(a, b); }); })
      .Case([&](arith::MaximumFOp) { return map(maximumPropagatingNaN); })
      .Case([&](arith::MinimumFOp) { return map(minimumPropagatingNaN); })
      .Case([&](arith::CmpFOp typed) {
        return mapCompare(op, env, [&](const Tensor &a, const Tensor &b, int64_t i) {
          return compareFloats(typed.getPredicate(), a.getDouble(i), b.getDouble(i));
        });
      })
      .Case<arith::SIToFPOp, arith::FPToSIOp>(
          [&](auto) { return castNumeric(op, env, /*isSigned=*/true); })
      .Case<arith::UIToFPOp, arith::FPToUIOp>(
          [&](auto) { return castNumeric(op, env, /*isSigned=*/false); })
      .Case([&](arith::ExtFOp) { return map([](double a, double) { return a; }); })
      .Case([&](math::CeilOp) { return map([](double a, double) { return std::ceil(a); }); })
      .Case([&](arith::TruncFOp typed) -> llvm::Expected<Results> {
        if (typed.getRoundingmode() &&
            *typed.getRoundingmode() != arith::RoundingMode::to_nearest_even)
          return makeError("only the to_nearest_even rounding mode is supported");
        return map([](double a, double) { return a; });
      })
      .Default(std::nullopt);
}
} // namespace

FamilyResult tcc::eval::detail::evaluateUpstreamOp(Operation *op, const Environment &env) {
  if (FamilyResult r = evaluateArithIntegerOp(op, env))
    return r;
  if (FamilyResult r = evaluateArithFloatOp(op, env))
    return r;
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case([&](arith::ConstantOp typed) { return constant(typed); })
      .Case([&](arith::SelectOp typed) { return select(typed, env); })
      .Case([&](tensor::FromElementsOp typed) { return fromElements(typed, env); })
      .Case([&](tensor::ExtractOp typed) { return extract(typed, env); })
      .Case([&](tensor::DimOp typed) { return tensorDim(typed, env); })
      .Case([&](tensor::CastOp typed) { return Results{env.get(typed.getSource())}; })
      .Case([&](tensor::EmptyOp typed) { return empty(typed, env); })
      .Default(std::nullopt);
}
