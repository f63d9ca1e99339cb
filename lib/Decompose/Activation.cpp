//===- Activation.cpp - rules for activations and softmax ----------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// The prim builder at the node, with `c(v)`: the constant v shaped like the input x.
struct Ops : RuleBuilder {
  Ops(NodeRewriter &n, Value x) : RuleBuilder(n), x(x) {}
  Value x;
  Value c(double v) { return splat(x, v); }
  /// softplus(v) = log(1 + exp(v)) = max(v, 0) + log1p(exp(-|v|)): the same value without
  /// exp overflowing (log1p(exp(100)) would be inf in float32, softplus(100) is 100).
  Value softplus(Value v) {
    Value tail = create<prim::Log1pOp>(exp(create<prim::NegOp>(create<prim::AbsOp>(v))));
    return add(create<prim::MaxOp>(v, c(0)), tail);
  }
};

template <typename Fn>
LogicalResult activation(NodeRewriter &n, Fn fn) {
  Value x = n.getFloatInput(0);
  if (!x)
    return failure();
  Ops ops(n, x);
  Value r = fn(ops, x);
  return r ? n.setResults(r) : failure();
}

// relu(x) = max(x, 0)  (integer inputs allowed from opset 14)
LogicalResult relu(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  return n.setResults(prim::MaxOp::create(n.getBuilder(), n.getLoc(), x, splatLike(n, x, 0.0))
                          .getResult());
}

// leaky_relu(x) = x < 0 ? alpha x : x
LogicalResult leakyRelu(NodeRewriter &n) {
  float alpha = n.getFloat("alpha", 0.01f);
  return activation(n, [&](Ops &o, Value x) {
    return o.select(o.cmp(prim::CompareDirection::Lt, x, o.c(0)), o.mul(x, o.c(alpha)), x);
  });
}

// elu(x) = x < 0 ? alpha (e^x - 1) : x
LogicalResult elu(NodeRewriter &n) {
  float alpha = n.getFloat("alpha", 1.0f);
  return activation(n, [&](Ops &o, Value x) {
    Value neg = o.mul(o.c(alpha), o.create<prim::Expm1Op>(x));
    return o.select(o.cmp(prim::CompareDirection::Lt, x, o.c(0)), neg, x);
  });
}

// selu(x) = gamma (x <= 0 ? alpha (e^x - 1) : x)
LogicalResult selu(NodeRewriter &n) {
  float alpha = n.getFloat("alpha", 1.67326319217681884765625f);
  float gamma = n.getFloat("gamma", 1.05070102214813232421875f);
  return activation(n, [&](Ops &o, Value x) {
    Value neg = o.mul(o.c(alpha), o.create<prim::Expm1Op>(x));
    return o.mul(o.c(gamma), o.select(o.cmp(prim::CompareDirection::Le, x, o.c(0)), neg, x));
  });
}

// celu(x) = max(0, x) + min(0, alpha (e^(x / alpha) - 1))
LogicalResult celu(NodeRewriter &n) {
  float alpha = n.getFloat("alpha", 1.0f);
  return activation(n, [&](Ops &o, Value x) {
    Value e = o.mul(o.c(alpha), o.create<prim::Expm1Op>(o.div(x, o.c(alpha))));
    return o.add(o.max(o.c(0), x), o.min(o.c(0), e));
  });
}

// hard_sigmoid(x) = max(0, min(1, alpha x + beta))
LogicalResult hardSigmoid(NodeRewriter &n) {
  float alpha = n.getFloat("alpha", 0.2f), beta = n.getFloat("beta", 0.5f);
  return activation(n, [&](Ops &o, Value x) {
    return o.max(o.c(0), o.min(o.c(1), o.add(o.mul(o.c(alpha), x), o.c(beta))));
  });
}

// hard_swish(x) = x max(0, min(1, x / 6 + 1 / 2))
LogicalResult hardSwish(NodeRewriter &n) {
  return activation(n, [&](Ops &o, Value x) {
    return o.mul(x, o.max(o.c(0), o.min(o.c(1), o.add(o.mul(o.c(1.0 / 6.0), x), o.c(0.5)))));
  });
}

// softplus(x) = log(1 + e^x) = max(x, 0) + log1p(e^-|x|)
LogicalResult softplus(NodeRewriter &n) {
  return activation(n, [&](Ops &o, Value x) { return o.softplus(x); });
}

// softsign(x) = x / (1 + |x|)
LogicalResult softsign(NodeRewriter &n) {
  return activation(n, [&](Ops &o, Value x) {
    return o.div(x, o.add(o.c(1), o.create<prim::AbsOp>(x)));
  });
}

// thresholded_relu(x) = x > alpha ? x : 0
LogicalResult thresholdedRelu(NodeRewriter &n) {
  float alpha = n.getFloat("alpha", 1.0f);
  return activation(n, [&](Ops &o, Value x) {
    return o.select(o.cmp(prim::CompareDirection::Gt, x, o.c(alpha)), x, o.c(0));
  });
}

// swish(x) = x sigmoid(alpha x)
LogicalResult swish(NodeRewriter &n) {
  float alpha = n.getFloat("alpha", 1.0f);
  return activation(n, [&](Ops &o, Value x) {
    return o.mul(x, o.create<prim::LogisticOp>(o.mul(o.c(alpha), x)));
  });
}

// swiglu(a, b) = a sigmoid(alpha a) * b
LogicalResult swiglu(NodeRewriter &n) {
  Value a = n.getFloatInput(0), b = n.getFloatInput(1);
  if (!a || !b)
    return failure();
  float alpha = n.getFloat("alpha", 1.0f);
  OpBuilder &bld = n.getBuilder();
  Value gate = prim::MulOp::create(
      bld, n.getLoc(), a,
      prim::LogisticOp::create(bld, n.getLoc(),
                               prim::MulOp::create(bld, n.getLoc(), splatLike(n, a, alpha), a)));
  Value y = buildBinary<prim::MulOp>(n, gate, b);
  return y ? n.setResults(y) : failure();
}

// mish(x) = x tanh(softplus(x))
LogicalResult mish(NodeRewriter &n) {
  return activation(n, [&](Ops &o, Value x) { return o.mul(x, o.tanh(o.softplus(x))); });
}

// gelu(x) = 0.5 x (1 + erf(x / sqrt(2)));
// approximate="tanh": 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
LogicalResult gelu(NodeRewriter &n) {
  std::string approximate = n.getString("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    return n.emitError() << "attribute 'approximate' must be \"none\" or \"tanh\", got \""
                         << approximate << "\"";
  return activation(n, [&](Ops &o, Value x) {
    Value inner;
    if (approximate == "none") {
      inner = o.create<prim::ErfOp>(o.mul(x, o.c(M_SQRT1_2)));
    } else {
      Value cube = o.mul(o.mul(x, x), x);
      inner = o.tanh(o.mul(o.c(std::sqrt(2.0 / M_PI)), o.add(x, o.mul(o.c(0.044715), cube))));
    }
    return o.mul(o.mul(o.c(0.5), x), o.add(o.c(1), inner));
  });
}

// prelu(x, slope) = x < 0 ? slope x : x, slope broadcast to x
LogicalResult prelu(NodeRewriter &n) {
  Value x = n.getFloatInput(0), slope = n.getInput(1);
  if (!x || !slope)
    return failure();
  // Opset 6: a vector slope with one value per channel applies along dim 1.
  SmallVector<OpFoldResult> xDims = getDims(n, x);
  if (n.getVersion() < 7 && rankOf(slope) == 1 && rankOf(x) >= 2) {
    auto count = getConstantIntValue(getDims(n, slope)[0]);
    auto channels = getConstantIntValue(xDims[1]);
    if (count && channels && *count == *channels && *count != 1) {
      SmallVector<OpFoldResult> perChannel(rankOf(x) - 1, n.getBuilder().getIndexAttr(1));
      perChannel[0] = xDims[1];
      slope = reshape(n, slope, perChannel);
    }
  }
  slope = broadcastTo(n, slope, xDims);
  if (!slope)
    return failure();
  Ops o{n, x};
  return n.setResults(
      o.select(o.cmp(prim::CompareDirection::Lt, x, o.c(0)), o.mul(x, slope), x));
}

enum class SoftmaxKind { Softmax, LogSoftmax, Hardmax };

/// Softmax over one dim: exp(x - max) / sum(exp(x - max)); log_softmax = (x - max) -
/// log(sum(exp(x - max))); hardmax = one-hot of the first maximum.
Value softmaxOverDim(NodeRewriter &n, SoftmaxKind kind, Value x, int64_t dim) {
  Ops o{n, x};
  OpBuilder &b = n.getBuilder();
  if (kind == SoftmaxKind::Hardmax) {
    Value arg = prim::ArgReduceOp::create(b, n.getLoc(), prim::ArgReduceKind::Argmax, x, dim);
    Value argFull = restoreDim(n, arg, x, dim);
    Value iota = prim::IotaOp::create(b, n.getLoc(), argFull.getType(),
                                      getDynamicExtents(n, getDims(n, x)), dim);
    Value hit = o.cmp(prim::CompareDirection::Eq, iota, argFull);
    return o.select(hit, o.c(1), o.c(0));
  }
  Value shifted = o.sub(x, reduceKeep(n, prim::ReduceKind::Max, x, dim));
  Value e = o.exp(shifted);
  Value sum = reduceKeep(n, prim::ReduceKind::Sum, e, dim);
  if (kind == SoftmaxKind::Softmax)
    return o.div(e, sum);
  return o.sub(shifted, prim::LogOp::create(b, n.getLoc(), sum));
}

/// Opset 13+: along `axis` (default -1). Before 13: the input is coerced to 2-D at `axis`
/// (default 1) and the op runs over the flattened trailing dims.
template <SoftmaxKind Kind, bool Coerce2D>
LogicalResult softmaxRule(NodeRewriter &n) {
  Value x = n.getFloatInput(0);
  if (!x)
    return failure();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (rank == 0)
    return n.emitError() << "expected an input of rank >= 1";
  auto axis = normalizeAxis(n, n.getInt("axis", Coerce2D ? 1 : -1), rank);
  if (!axis)
    return failure();
  if (!Coerce2D)
    return n.setResults(softmaxOverDim(n, Kind, x, *axis));
  SmallVector<OpFoldResult> dims = getDims(n, x);
  ArrayRef<OpFoldResult> all(dims);
  Value flat = reshape(n, x, {product(n, all.take_front(*axis)), product(n, all.drop_front(*axis))});
  return n.setResults(reshape(n, softmaxOverDim(n, Kind, flat, 1), dims));
}

} // namespace

void tcc::decompose::registerActivationRules(RuleRegistry &r) {
  r.add("", "Relu", 6, relu);
  r.add("", "LeakyRelu", 6, leakyRelu);
  r.add("", "Elu", 6, elu);
  r.add("", "Selu", 6, selu);
  r.add("", "Celu", 12, celu);
  r.add("", "HardSigmoid", 6, hardSigmoid);
  r.add("", "HardSwish", 14, hardSwish);
  r.add("", "Softplus", 1, softplus);
  r.add("", "Softsign", 1, softsign);
  r.add("", "ThresholdedRelu", 10, thresholdedRelu);
  r.add("", "Mish", 18, mish);
  r.add("", "Swish", 24, swish);
  r.add("", "SwiGLU", 28, swiglu);
  r.add("", "Gelu", 20, gelu);
  r.add("", "PRelu", 6, prelu); // slope broadcast onto X, as 7 states explicitly
  r.add("", "PRelu", 7, prelu);
  r.add("", "Softmax", 1, softmaxRule<SoftmaxKind::Softmax, true>);
  r.add("", "Softmax", 13, softmaxRule<SoftmaxKind::Softmax, false>);
  r.add("", "LogSoftmax", 1, softmaxRule<SoftmaxKind::LogSoftmax, true>);
  r.add("", "LogSoftmax", 13, softmaxRule<SoftmaxKind::LogSoftmax, false>);
  r.add("", "Hardmax", 1, softmaxRule<SoftmaxKind::Hardmax, true>);
  r.add("", "Hardmax", 13, softmaxRule<SoftmaxKind::Hardmax, false>);
}
