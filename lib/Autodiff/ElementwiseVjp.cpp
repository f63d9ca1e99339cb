//===- ElementwiseVjp.cpp - VJP rules of the elementwise prims -------------------------===//
//
// For y = f(x) elementwise with cotangent g: dx = g * f'(x). Formulas use y where it is
// cheaper (exp, tanh, logistic). Operands of elementwise prims have one shape (broadcasting
// is explicit in prim), so no reduction is needed here.
//
//===----------------------------------------------------------------------------------===//
#include "VjpRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

namespace {

using Cts = ArrayRef<Value>;
using Out = MutableArrayRef<Value>;

/// A unary rule: dx = derivative(b, x, y, g).
template <typename OpTy, Value (*Derivative)(VjpBuilder &, Value, Value, Value)>
LogicalResult unaryRule(VjpBuilder &b, Operation *op, Cts g, Out dx) {
  dx[0] = Derivative(b, op->getOperand(0), op->getResult(0), g[0]);
  return success();
}

// d/dx -x = -1
Value dNeg(VjpBuilder &b, Value, Value, Value g) { return b.neg(g); }
// d/dx |x| = sign(x)  (0 at 0, as JAX and torch)
Value dAbs(VjpBuilder &b, Value x, Value, Value g) { return b.mul(g, b.create<prim::SignOp>(x)); }
// floor, ceil, round, sign: piecewise constant, derivative 0 (almost everywhere)
Value dZero(VjpBuilder &b, Value x, Value, Value) { return b.splat(x, 0); }
// d/dx e^x = e^x = y
Value dExp(VjpBuilder &b, Value, Value y, Value g) { return b.mul(g, y); }
// d/dx (e^x - 1) = e^x = y + 1
Value dExpm1(VjpBuilder &b, Value, Value y, Value g) { return b.mul(g, b.add(y, b.splat(y, 1))); }
// d/dx log x = 1/x
Value dLog(VjpBuilder &b, Value x, Value, Value g) { return b.div(g, x); }
// d/dx log(1 + x) = 1 / (1 + x)
Value dLog1p(VjpBuilder &b, Value x, Value, Value g) { return b.div(g, b.add(x, b.splat(x, 1))); }
// d/dx sqrt x = 1 / (2 sqrt x) = 0.5 / y
Value dSqrt(VjpBuilder &b, Value, Value y, Value g) { return b.div(b.scale(g, 0.5), y); }
// d/dx x^-1/2 = -1/2 x^-3/2 = -0.5 y / x
Value dRsqrt(VjpBuilder &b, Value x, Value y, Value g) {
  return b.div(b.mul(b.scale(g, -0.5), y), x);
}
// sin' = cos, cos' = -sin, tan' = 1 + tan^2
Value dSin(VjpBuilder &b, Value x, Value, Value g) { return b.mul(g, b.create<prim::CosOp>(x)); }
Value dCos(VjpBuilder &b, Value x, Value, Value g) {
  return b.neg(b.mul(g, b.create<prim::SinOp>(x)));
}
Value dTan(VjpBuilder &b, Value, Value y, Value g) {
  return b.mul(g, b.add(b.splat(y, 1), b.mul(y, y)));
}
// asin' = 1/sqrt(1 - x^2), acos' = -1/sqrt(1 - x^2), atan' = 1/(1 + x^2)
Value dAsin(VjpBuilder &b, Value x, Value, Value g) {
  return b.div(g, b.create<prim::SqrtOp>(b.sub(b.splat(x, 1), b.mul(x, x))));
}
Value dAcos(VjpBuilder &b, Value x, Value y, Value g) { return b.neg(dAsin(b, x, y, g)); }
Value dAtan(VjpBuilder &b, Value x, Value, Value g) {
  return b.div(g, b.add(b.splat(x, 1), b.mul(x, x)));
}
// sinh' = cosh, cosh' = sinh, tanh' = 1 - tanh^2
Value dSinh(VjpBuilder &b, Value x, Value, Value g) { return b.mul(g, b.create<prim::CoshOp>(x)); }
Value dCosh(VjpBuilder &b, Value x, Value, Value g) { return b.mul(g, b.create<prim::SinhOp>(x)); }
Value dTanh(VjpBuilder &b, Value, Value y, Value g) {
  return b.mul(g, b.sub(b.splat(y, 1), b.mul(y, y)));
}
// asinh' = 1/sqrt(x^2 + 1), acosh' = 1/sqrt(x^2 - 1), atanh' = 1/(1 - x^2)
Value dAsinh(VjpBuilder &b, Value x, Value, Value g) {
  return b.div(g, b.create<prim::SqrtOp>(b.add(b.mul(x, x), b.splat(x, 1))));
}
Value dAcosh(VjpBuilder &b, Value x, Value, Value g) {
  return b.div(g, b.create<prim::SqrtOp>(b.sub(b.mul(x, x), b.splat(x, 1))));
}
Value dAtanh(VjpBuilder &b, Value x, Value, Value g) {
  return b.div(g, b.sub(b.splat(x, 1), b.mul(x, x)));
}
// erf' = 2/sqrt(pi) e^(-x^2)
Value dErf(VjpBuilder &b, Value x, Value, Value g) {
  Value e = b.create<prim::ExpOp>(b.neg(b.mul(x, x)));
  return b.mul(g, b.scale(e, 1.1283791670955126));
}
// logistic' = y (1 - y)
Value dLogistic(VjpBuilder &b, Value, Value y, Value g) {
  return b.mul(g, b.mul(y, b.sub(b.splat(y, 1), y)));
}

// add: da = g, db = g
LogicalResult addRule(VjpBuilder &, Operation *, Cts g, Out d) {
  d[0] = g[0];
  d[1] = g[0];
  return success();
}
// sub: da = g, db = -g
LogicalResult subRule(VjpBuilder &b, Operation *, Cts g, Out d) {
  d[0] = g[0];
  d[1] = b.neg(g[0]);
  return success();
}
// mul: da = g b, db = g a
LogicalResult mulRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  d[0] = b.mul(g[0], op->getOperand(1));
  d[1] = b.mul(g[0], op->getOperand(0));
  return success();
}
// div: y = a / b; da = g / b, db = -g y / b
LogicalResult divRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value den = op->getOperand(1), y = op->getResult(0);
  d[0] = b.div(g[0], den);
  d[1] = b.neg(b.div(b.mul(g[0], y), den));
  return success();
}
// rem (fmod): y = a - trunc(a/b) b; da = g, db = -g trunc(a/b)
LogicalResult remRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value a = op->getOperand(0), den = op->getOperand(1);
  Value q = b.div(b.sub(a, op->getResult(0)), den); // trunc(a/b), exactly representable
  d[0] = g[0];
  d[1] = b.neg(b.mul(g[0], q));
  return success();
}
// pow: y = a^b; da = g b a^(b-1), db = g y log(a) (0 where a == 0, as torch)
LogicalResult powRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value a = op->getOperand(0), e = op->getOperand(1), y = op->getResult(0);
  Value powLess = b.create<prim::PowOp>(a, b.sub(e, b.splat(e, 1)));
  d[0] = b.mul(g[0], b.mul(e, powLess));
  Value zero = b.splat(a, 0);
  Value logA = b.create<prim::LogOp>(
      b.select(b.cmp(prim::CompareDirection::Eq, a, zero), b.splat(a, 1), a));
  d[1] = b.mul(g[0], b.mul(y, logA));
  return success();
}
// atan2(a, b) = atan(a/b) in the right quadrant: da = g b / (a^2 + b^2), db = -g a / (a^2 + b^2)
LogicalResult atan2Rule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value a = op->getOperand(0), c = op->getOperand(1);
  Value r = b.add(b.mul(a, a), b.mul(c, c));
  d[0] = b.div(b.mul(g[0], c), r);
  d[1] = b.neg(b.div(b.mul(g[0], a), r));
  return success();
}
// max/min: the gradient goes to the chosen operand; ties split it evenly (as JAX).
template <prim::CompareDirection Wins>
LogicalResult extremumRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value a = op->getOperand(0), c = op->getOperand(1);
  Value half = b.scale(g[0], 0.5), zero = b.splat(g[0], 0);
  Value aWins = b.cmp(Wins, a, c), tie = b.cmp(prim::CompareDirection::Eq, a, c);
  d[0] = b.select(aWins, g[0], b.select(tie, half, zero));
  d[1] = b.select(aWins, zero, b.select(tie, half, g[0]));
  return success();
}
// select(p, t, f): dt = p ? g : 0, df = p ? 0 : g
LogicalResult selectRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value p = op->getOperand(0), zero = b.splat(g[0], 0);
  d[1] = b.select(p, g[0], zero);
  d[2] = b.select(p, zero, g[0]);
  return success();
}
// clamp(lo, x, hi): dx = g where lo <= x <= hi; dlo = g where x < lo; dhi = g where x > hi
LogicalResult clampRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Value lo = op->getOperand(0), x = op->getOperand(1), hi = op->getOperand(2);
  Value zero = b.splat(g[0], 0);
  Value below = b.cmp(prim::CompareDirection::Lt, x, lo);
  Value above = b.cmp(prim::CompareDirection::Gt, x, hi);
  d[0] = b.select(below, g[0], zero);
  d[2] = b.select(above, g[0], zero);
  d[1] = b.select(below, zero, b.select(above, zero, g[0]));
  return success();
}
// convert between float types: dx = convert(g) back; from an integer operand: none
LogicalResult convertRule(VjpBuilder &b, Operation *op, Cts g, Out d) {
  Type from = VjpBuilder::typeOf(op->getOperand(0)).getElementType();
  if (isa<FloatType>(from))
    d[0] = b.convert(g[0], from);
  return success();
}

} // namespace

void tcc::autodiff::registerElementwiseVjps(VjpRegistry &r) {
  r.add("prim.neg", unaryRule<prim::NegOp, dNeg>);
  r.add("prim.abs", unaryRule<prim::AbsOp, dAbs>);
  r.add("prim.sign", unaryRule<prim::SignOp, dZero>);
  r.add("prim.floor", unaryRule<prim::FloorOp, dZero>);
  r.add("prim.ceil", unaryRule<prim::CeilOp, dZero>);
  r.add("prim.round_even", unaryRule<prim::RoundEvenOp, dZero>);
  r.add("prim.exp", unaryRule<prim::ExpOp, dExp>);
  r.add("prim.expm1", unaryRule<prim::Expm1Op, dExpm1>);
  r.add("prim.log", unaryRule<prim::LogOp, dLog>);
  r.add("prim.log1p", unaryRule<prim::Log1pOp, dLog1p>);
  r.add("prim.sqrt", unaryRule<prim::SqrtOp, dSqrt>);
  r.add("prim.rsqrt", unaryRule<prim::RsqrtOp, dRsqrt>);
  r.add("prim.sin", unaryRule<prim::SinOp, dSin>);
  r.add("prim.cos", unaryRule<prim::CosOp, dCos>);
  r.add("prim.tan", unaryRule<prim::TanOp, dTan>);
  r.add("prim.asin", unaryRule<prim::AsinOp, dAsin>);
  r.add("prim.acos", unaryRule<prim::AcosOp, dAcos>);
  r.add("prim.atan", unaryRule<prim::AtanOp, dAtan>);
  r.add("prim.sinh", unaryRule<prim::SinhOp, dSinh>);
  r.add("prim.cosh", unaryRule<prim::CoshOp, dCosh>);
  r.add("prim.tanh", unaryRule<prim::TanhOp, dTanh>);
  r.add("prim.asinh", unaryRule<prim::AsinhOp, dAsinh>);
  r.add("prim.acosh", unaryRule<prim::AcoshOp, dAcosh>);
  r.add("prim.atanh", unaryRule<prim::AtanhOp, dAtanh>);
  r.add("prim.erf", unaryRule<prim::ErfOp, dErf>);
  r.add("prim.logistic", unaryRule<prim::LogisticOp, dLogistic>);
  r.add("prim.add", addRule);
  r.add("prim.sub", subRule);
  r.add("prim.mul", mulRule);
  r.add("prim.div", divRule);
  r.add("prim.rem", remRule);
  r.add("prim.pow", powRule);
  r.add("prim.atan2", atan2Rule);
  r.add("prim.max", extremumRule<prim::CompareDirection::Gt>);
  r.add("prim.min", extremumRule<prim::CompareDirection::Lt>);
  r.add("prim.select", selectRule);
  r.add("prim.clamp", clampRule);
  r.add("prim.convert", convertRule);
  r.addNonDifferentiable("prim.bitcast_convert",
                         "it reinterprets bits; no derivative relates input and output");
}
