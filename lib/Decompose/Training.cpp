//===- Training.cpp - rules for the optimizers of ai.onnx.preview.training -----------===//
//
// Adagrad, Adam and Momentum compute one update step of their optimized tensors. Each takes
// the learning rate R and the update count T (0-d) and then, for n optimized tensors, n
// values X, n gradients G and n of each optimizer state, in that order; the outputs are the
// n new values followed by the n new states of each kind. The same update is applied to
// each tensor independently, in elementwise prim ops with numpy broadcasting. Gradient
// differentiates the graph itself (lib/Autodiff).
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Autodiff/Autodiff.h"
#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

constexpr llvm::StringLiteral kTrainingDomain = "ai.onnx.preview.training";

/// Elementwise arithmetic with numpy broadcasting (buildBinary) for the formulas below: a
/// null operand (an earlier error) gives null.
struct Arith {
  NodeRewriter &n;
  Type element;

  Value c(double value) { return scalarConstant(n, element, value); }
  Value add(Value a, Value b) { return a && b ? buildBinary<prim::AddOp>(n, a, b) : nullptr; }
  Value sub(Value a, Value b) { return a && b ? buildBinary<prim::SubOp>(n, a, b) : nullptr; }
  Value mul(Value a, Value b) { return a && b ? buildBinary<prim::MulOp>(n, a, b) : nullptr; }
  Value div(Value a, Value b) { return a && b ? buildBinary<prim::DivOp>(n, a, b) : nullptr; }
  Value pow(Value a, Value b) { return a && b ? buildBinary<prim::PowOp>(n, a, b) : nullptr; }
  Value sqrt(Value a) { return a ? n.prim().sqrt(a) : nullptr; }
  /// T > 0 ? ifPositive : otherwise, for the 0-d update count T.
  Value ifCountPositive(Value count, Value ifPositive, Value otherwise) {
    if (!ifPositive || !otherwise)
      return nullptr;
    RuleBuilder p = n.prim();
    return p.select(p.cmp(prim::CompareDirection::Gt, count, p.splat(count, 0.0)), ifPositive,
                    otherwise);
  }
};

/// The optimizer's common inputs: R and T (0-d), and `groups` groups of n tensors after
/// them (X, G and the states), converted to X's element type. std::nullopt after an error.
struct OptimizerInputs {
  Value rate, count, countFloat; ///< R, T and T as a float
  int64_t tensors = 0;           ///< n
  SmallVector<SmallVector<Value>> groups;
  Type element;
};

std::optional<OptimizerInputs> getOptimizerInputs(NodeRewriter &n, int64_t groups,
                                                  llvm::StringRef layout) {
  OptimizerInputs in;
  int64_t optimized = static_cast<int64_t>(n.getNumInputs()) - 2;
  if (optimized <= 0 || optimized % groups != 0 ||
      static_cast<int64_t>(n.getNumOutputs()) != optimized / groups * (groups - 1)) {
    n.emitError() << "expected inputs R, T, " << layout << " (" << groups
                  << " groups of n tensors) and as many outputs less the n gradients, got "
                  << n.getNumInputs() << " inputs and " << n.getNumOutputs() << " outputs";
    return std::nullopt;
  }
  in.tensors = optimized / groups;
  in.rate = n.getFloatInput(0);
  in.count = n.getInput(1);
  if (!in.rate || !in.count)
    return std::nullopt;
  if (rankOf(in.rate) != 0 || rankOf(in.count) != 0) {
    n.emitError() << "R and T must be 0-d tensors, got " << in.rate.getType() << " and "
                  << in.count.getType();
    return std::nullopt;
  }
  if (!isa<IntegerType>(elementOf(in.count))) {
    n.emitError() << "T must be an integer tensor, got " << in.count.getType();
    return std::nullopt;
  }
  for (int64_t g = 0; g < groups; ++g) {
    in.groups.emplace_back();
    for (int64_t i = 0; i < in.tensors; ++i) {
      Value v = n.getFloatInput(static_cast<unsigned>(2 + g * in.tensors + i));
      if (!v)
        return std::nullopt;
      in.groups.back().push_back(v);
    }
  }
  in.element = elementOf(in.groups[0][0]);
  for (auto &group : in.groups)
    for (Value &v : group)
      v = convert(n, v, in.element);
  in.rate = convert(n, in.rate, in.element);
  in.countFloat = convert(n, in.count, in.element);
  return in;
}

/// A FLOAT attribute the op requires (Momentum's have no default).
std::optional<float> getRequiredFloat(NodeRewriter &n, llvm::StringRef name) {
  if (!n.hasAttr(name)) {
    n.emitError() << "attribute '" << name << "' is required";
    return std::nullopt;
  }
  float value = n.getFloat(name, 0.0f);
  return n.hasFailed() ? std::nullopt : std::optional<float>(value);
}

// r = R / (1 + T * decay_factor)
// G_regularized = norm_coefficient * X + G
// H_new = H + G_regularized * G_regularized
// X_new = X - r * G_regularized / (sqrt(H_new) + epsilon)
LogicalResult adagrad(NodeRewriter &n) {
  auto in = getOptimizerInputs(n, 3, "X1..Xn, G1..Gn, H1..Hn");
  if (!in)
    return failure();
  float decay = n.getFloat("decay_factor", 0.0f), epsilon = n.getFloat("epsilon", 1e-6f);
  float norm = n.getFloat("norm_coefficient", 0.0f);
  if (n.hasFailed())
    return failure();
  Arith a{n, in->element};
  Value r = a.div(in->rate, a.add(a.c(1.0), a.mul(in->countFloat, a.c(decay))));
  SmallVector<Value> xs, hs;
  for (int64_t i = 0; i < in->tensors; ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], h = in->groups[2][i];
    Value gr = a.add(a.mul(a.c(norm), x), g);
    Value hNew = a.add(h, a.mul(gr, gr));
    Value xNew = a.sub(x, a.div(a.mul(r, gr), a.add(a.sqrt(hNew), a.c(epsilon))));
    if (!xNew)
      return failure();
    xs.push_back(xNew);
    hs.push_back(hNew);
  }
  xs.append(hs);
  return n.setResults(xs);
}

// G_regularized = norm_coefficient * X + G
// V_new = alpha * V + (1 - alpha) * G_regularized
// H_new = beta * H + (1 - beta) * G_regularized * G_regularized
// R_adjusted = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R
// X_new = (1 - norm_coefficient_post) * (X - R_adjusted * V_new / (sqrt(H_new) + epsilon))
LogicalResult adam(NodeRewriter &n) {
  auto in = getOptimizerInputs(n, 4, "X1..Xn, G1..Gn, V1..Vn, H1..Hn");
  if (!in)
    return failure();
  float alpha = n.getFloat("alpha", 0.9f), beta = n.getFloat("beta", 0.999f);
  float epsilon = n.getFloat("epsilon", 1e-6f), norm = n.getFloat("norm_coefficient", 0.0f);
  float normPost = n.getFloat("norm_coefficient_post", 0.0f);
  if (n.hasFailed())
    return failure();
  Arith a{n, in->element};
  Value t = in->countFloat;
  Value adjusted = a.div(a.mul(in->rate, a.sqrt(a.sub(a.c(1.0), a.pow(a.c(beta), t)))),
                         a.sub(a.c(1.0), a.pow(a.c(alpha), t)));
  Value rate = a.ifCountPositive(in->count, adjusted, in->rate);
  SmallVector<Value> xs, vs, hs;
  for (int64_t i = 0; i < in->tensors; ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], v = in->groups[2][i],
          h = in->groups[3][i];
    Value gr = a.add(a.mul(a.c(norm), x), g);
    Value vNew = a.add(a.mul(a.c(alpha), v), a.mul(a.c(1.0 - double(alpha)), gr));
    Value hNew =
        a.add(a.mul(a.c(beta), h), a.mul(a.c(1.0 - double(beta)), a.mul(gr, gr)));
    Value xNew = a.sub(x, a.div(a.mul(rate, vNew), a.add(a.sqrt(hNew), a.c(epsilon))));
    xNew = a.mul(a.c(1.0 - double(normPost)), xNew);
    if (!xNew || !hNew)
      return failure();
    xs.push_back(xNew);
    vs.push_back(vNew);
    hs.push_back(hNew);
  }
  xs.append(vs);
  xs.append(hs);
  return n.setResults(xs);
}

// G_regularized = norm_coefficient * X + G
// V_new = alpha * V + (T > 0 ? beta : 1) * G_regularized
// standard: X_new = X - R * V_new
// nesterov: X_new = X - R * (G_regularized + alpha * V_new)
LogicalResult momentum(NodeRewriter &n) {
  auto in = getOptimizerInputs(n, 3, "X1..Xn, G1..Gn, V1..Vn");
  if (!in)
    return failure();
  auto alpha = getRequiredFloat(n, "alpha"), beta = getRequiredFloat(n, "beta");
  auto norm = getRequiredFloat(n, "norm_coefficient");
  if (!alpha || !beta || !norm)
    return failure();
  if (!n.hasAttr("mode"))
    return n.emitError() << "attribute 'mode' is required (\"standard\" or \"nesterov\")";
  auto nesterov = getChoice<bool>(n, "mode", "standard",
                                  {{"standard", false}, {"nesterov", true}});
  if (!nesterov)
    return failure();
  Arith a{n, in->element};
  Value betaAdjusted = a.ifCountPositive(in->count, a.c(*beta), a.c(1.0));
  SmallVector<Value> xs, vs;
  for (int64_t i = 0; i < in->tensors; ++i) {
    Value x = in->groups[0][i], g = in->groups[1][i], v = in->groups[2][i];
    Value gr = a.add(a.mul(a.c(*norm), x), g);
    Value vNew = a.add(a.mul(a.c(*alpha), v), a.mul(betaAdjusted, gr));
    Value step = *nesterov ? a.add(gr, a.mul(a.c(*alpha), vNew)) : vNew;
    Value xNew = a.sub(x, a.mul(in->rate, step));
    if (!xNew)
      return failure();
    xs.push_back(xNew);
    vs.push_back(vNew);
  }
  xs.append(vs);
  return n.setResults(xs);
}

} // namespace

// Gradient(xs..., zs..., y) (the importer appends y, named by attribute `y`): the
// gradients dy/dx_i of the sum of y's elements (seed 1) with respect to each x_i, from the
// prim ops that compute y, by reverse-mode autodiff (lib/Autodiff, one VJP rule per prim).
LogicalResult gradient(NodeRewriter &n) {
  auto xs = n.getNode().getNodeAttr("xs");
  auto names = dyn_cast_or_null<ArrayAttr>(xs);
  if (!names || names.empty())
    return n.emitError() << "attribute 'xs' must name the tensors to differentiate with respect to";
  if (!n.hasAttr("y"))
    return n.emitError() << "attribute 'y' must name the tensor to differentiate";
  unsigned count = names.size();
  if (n.getNumInputs() < count + 1)
    return n.emitError() << "expected the " << count << " tensors named by 'xs' as inputs";
  SmallVector<Value> wrt;
  for (unsigned i = 0; i < count; ++i) {
    Value x = n.getFloatInput(i);
    if (!x)
      return failure();
    wrt.push_back(x);
  }
  Value y = n.getFloatInput(n.getNumInputs() - 1);
  if (!y)
    return failure();
  OpBuilder &b = n.getBuilder();
  Value ones = splatLike(n, y, 1);
  FailureOr<SmallVector<Value>> grads = tcc::autodiff::buildGradients(
      b, *n.getNode()->getBlock(), ValueRange{y}, ValueRange{ones}, wrt);
  if (failed(grads))
    return n.emitError() << "the gradient of '"
                         << n.getString("y", "") << "' cannot be formed (see the error above)";
  return n.setResults(*grads);
}

void tcc::decompose::registerTrainingRules(RuleRegistry &r) {
  r.add(kTrainingDomain, "Gradient", 1, gradient);
  r.add(kTrainingDomain, "Adagrad", 1, adagrad);
  r.add(kTrainingDomain, "Adam", 1, adam);
  r.add(kTrainingDomain, "Momentum", 1, momentum);
}
