//===- Loss.cpp - rules for NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss -----===//
//
// Both losses pick each element's class entry with one prim.gather over the flattened input,
// at the linear index n*C*D + t*D + d (D the product of the trailing dims). Targets equal to
// ignore_index may lie outside [0, C), so they are replaced by 0 before the gather and their
// loss and weight are zeroed after it.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// What both losses share besides their input: reduction, ignore_index and class weights.
struct LossOptions {
  std::string reduction;
  std::optional<int64_t> ignoreIndex;
  Value weight; ///< (C) or null
};

std::optional<LossOptions> getLossOptions(NodeRewriter &n, unsigned weightInput) {
  LossOptions options{n.getString("reduction", "mean"), n.getOptionalInt("ignore_index"),
                      n.getOptionalInput(weightInput)};
  if (options.reduction != "none" && options.reduction != "sum" && options.reduction != "mean") {
    n.emitError() << "attribute 'reduction' must be \"none\", \"sum\" or \"mean\", got \""
                  << options.reduction << "\"";
    return std::nullopt;
  }
  if (n.hasFailed() || (n.hasInput(weightInput) && !options.weight))
    return std::nullopt;
  return options;
}

/// `value` (an index) as an i64 tensor of shape `dims`.
Value fillIndex(NodeRewriter &n, OpFoldResult value, ArrayRef<OpFoldResult> dims) {
  return fill(n, makeShapeTensor(n, {value}, n.getBuilder().getI64Type(), true), dims);
}

/// The sum of all elements of `v` (a 0-d tensor).
Value sumAll(NodeRewriter &n, Value v) {
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < rankOf(v); ++d)
    all.push_back(d);
  return prim::ReduceOp::create(n.getBuilder(), n.getLoc(), prim::ReduceKind::Sum, v,
                                ArrayRef<int64_t>(all));
}

// nll(x, t)[n, d...] = t == ii ? 0 : -x[n, t, d...] * w[t];
// reduced: none, sum, or mean = sum(loss) / sum(w[t] where t != ii) (w = 1 when absent)
Value negativeLogLikelihood(NodeRewriter &n, Value input, Value target,
                            const LossOptions &options) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t rank = rankOf(input);
  Type element = elementOf(input);
  if (rank < 2) {
    n.emitError() << "the input must have rank >= 2 (N, C, d...), got " << input.getType();
    return nullptr;
  }
  if (!isa<IntegerType>(elementOf(target)) || elementOf(target).isInteger(1)) {
    n.emitError() << "the target has type " << target.getType()
                  << ", expected an integer tensor";
    return nullptr;
  }
  if (rankOf(target) != rank - 1) {
    n.emitError() << "the target has rank " << rankOf(target) << ", expected " << rank - 1
                  << " (the input's rank without the class dim)";
    return nullptr;
  }
  if (options.weight && (rankOf(options.weight) != 1 || elementOf(options.weight) != element)) {
    n.emitError() << "the weight has type " << options.weight.getType()
                  << ", expected a 1-d tensor of " << element;
    return nullptr;
  }
  SmallVector<OpFoldResult> inDims = getDims(n, input), targetDims = getDims(n, target);
  SmallVector<OpFoldResult> outDims = {inDims[0]};
  outDims.append(inDims.begin() + 2, inDims.end());
  for (int64_t d = 0; d < rank - 1; ++d)
    checkEqual(n, targetDims[d], outDims[d],
               "target dim " + std::to_string(d) + " must equal input dim " +
                   std::to_string(d == 0 ? 0 : d + 1));
  if (options.weight)
    checkEqual(n, getDims(n, options.weight)[0], inDims[1],
               "the weight's extent must equal the number of classes");

  Value t = reshape(n, convert(n, target, b.getI64Type()), outDims);
  Value ignored;
  if (options.ignoreIndex) {
    ignored = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, t,
                                      splatLike(n, t, static_cast<double>(*options.ignoreIndex)));
    t = prim::SelectOp::create(b, loc, ignored, splatLike(n, t, 0.0), t);
  }
  // picked[n, d] = flat(x)[n * C * D + t[n, d] * D + d]
  OpFoldResult classes = inDims[1];
  OpFoldResult inner = product(n, ArrayRef<OpFoldResult>(inDims).drop_front(2));
  SmallVector<OpFoldResult> flatDims = {inDims[0], inner};
  RankedTensorType flatType = getTensorType(flatDims, b.getI64Type());
  Value rows = prim::IotaOp::create(b, loc, flatType, getDynamicExtents(n, flatDims), 0);
  Value cols = prim::IotaOp::create(b, loc, flatType, getDynamicExtents(n, flatDims), 1);
  Value linear = prim::AddOp::create(
      b, loc,
      prim::MulOp::create(b, loc, rows, fillIndex(n, mulIndex(n, classes, inner), flatDims)),
      prim::AddOp::create(b, loc,
                          prim::MulOp::create(b, loc, reshape(n, t, flatDims),
                                              fillIndex(n, inner, flatDims)),
                          cols));
  Value flatInput = reshape(n, input, {product(n, inDims)});
  Value picked = prim::GatherOp::create(b, loc, flatInput, linear, 0);
  Value loss = prim::NegOp::create(b, loc, reshape(n, picked, outDims));

  Value weights;
  if (ignored)
    loss = prim::SelectOp::create(b, loc, ignored, splatLike(n, loss, 0.0), loss);
  if (options.weight) {
    weights = prim::GatherOp::create(b, loc, options.weight, t, 0);
    if (ignored)
      weights = prim::SelectOp::create(b, loc, ignored, splatLike(n, weights, 0.0), weights);
    loss = prim::MulOp::create(b, loc, loss, weights);
  } else if (ignored) {
    weights = prim::SelectOp::create(b, loc, ignored, splatLike(n, loss, 0.0),
                                     splatLike(n, loss, 1.0));
  }
  if (options.reduction == "none")
    return loss;
  Value sum = sumAll(n, loss);
  if (options.reduction == "sum")
    return sum;
  Value count = weights ? sumAll(n, weights)
                        : convert(n, makeShapeTensor(n, {product(n, outDims)}, b.getI64Type(),
                                                     /*scalar=*/true),
                                  element);
  return prim::DivOp::create(b, loc, sum, count);
}

// negative_log_likelihood_loss(input, target, weight?) = nll(input, target)
LogicalResult negativeLogLikelihoodLoss(NodeRewriter &n) {
  Value input = n.getFloatInput(0), target = n.getInput(1);
  auto options = getLossOptions(n, 2);
  if (!input || !target || !options)
    return failure();
  Value loss = negativeLogLikelihood(n, input, target, *options);
  return loss ? n.setResults(loss) : failure();
}

// softmax_cross_entropy_loss(scores, labels, weights?) = (nll(log_prob, labels), log_prob),
// log_prob = log_softmax(scores) over dim 1 = (x - max) - log(sum(exp(x - max)))
LogicalResult softmaxCrossEntropyLoss(NodeRewriter &n) {
  Value scores = n.getFloatInput(0), labels = n.getInput(1);
  auto options = getLossOptions(n, 2);
  if (!scores || !labels || !options)
    return failure();
  if (rankOf(scores) < 2)
    return n.emitError() << "the scores must have rank >= 2 (N, C, d...), got "
                         << scores.getType();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value shifted =
      prim::SubOp::create(b, loc, scores, reduceKeep(n, prim::ReduceKind::Max, scores, 1));
  Value sum = reduceKeep(n, prim::ReduceKind::Sum, prim::ExpOp::create(b, loc, shifted), 1);
  Value logProb = prim::SubOp::create(b, loc, shifted, prim::LogOp::create(b, loc, sum));
  Value loss = negativeLogLikelihood(n, logProb, labels, *options);
  if (!loss)
    return failure();
  return n.setResults({loss, logProb});
}

} // namespace

void tcc::decompose::registerLossRules(RuleRegistry &r) {
  // Opset 13 only adds bfloat16, which these rules accept as any float.
  r.add("", "NegativeLogLikelihoodLoss", 12, negativeLogLikelihoodLoss);
  r.add("", "SoftmaxCrossEntropyLoss", 12, softmaxCrossEntropyLoss);
}
