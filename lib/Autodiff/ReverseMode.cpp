//===- ReverseMode.cpp - the reverse sweep that chains VJP rules -----------------------===//
#include "tcc/Autodiff/Autodiff.h"

#include "VjpRules.h"

#include "tcc/Support/Diagnostics.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::autodiff;

const VjpRegistry &VjpRegistry::get() {
  static const VjpRegistry registry = [] {
    VjpRegistry r;
    registerElementwiseVjps(r);
    registerDataMovementVjps(r);
    registerReductionVjps(r);
    registerContractionVjps(r);
    registerLoopVjps(r);
    registerWindowVjps(r);
    return r;
  }();
  return registry;
}

std::vector<std::string> tcc::autodiff::getDifferentiableOps() {
  std::vector<std::string> names;
  for (const auto &entry : VjpRegistry::get().rules)
    names.push_back(entry.getKey().str());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::pair<std::string, std::string>> tcc::autodiff::getNonDifferentiableOps() {
  std::vector<std::pair<std::string, std::string>> names;
  for (const auto &entry : VjpRegistry::get().nonDifferentiable)
    names.push_back({entry.getKey().str(), entry.getValue()});
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

/// Values that can carry a gradient: tensors of floating-point elements.
bool carriesGradient(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && isa<FloatType>(type.getElementType());
}

} // namespace

std::string tcc::autodiff::nodePrefix(Operation *op) {
  std::string node = tcc::getLocationNodeName(op->getLoc());
  return node.empty() ? std::string() : "node '" + node + "': ";
}

/// Makes every float value a prim.loop of `block` reads from outside it a carried value that
/// the body passes through unchanged, so that its gradient accumulates through the loop's
/// carried cotangents (the loop's VJP rule sees only operands).
static void closeLoops(Block &block, DenseMap<Value, Value> &replaced) {
  SmallVector<prim::LoopOp> loops(block.getOps<prim::LoopOp>());
  for (prim::LoopOp loop : loops) {
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(loop.getBody(), captured);
    SmallVector<Value> floats;
    for (Value v : captured)
      if (carriesGradient(v))
        floats.push_back(v);
    if (floats.empty())
      continue;
    OpBuilder b(loop);
    SmallVector<Value> inits(loop.getInits());
    llvm::append_range(inits, floats);
    auto closed = prim::LoopOp::create(b, loop.getLoc(), ValueRange(inits).getTypes(),
                                       loop.getCount(), inits, loop.getExitUnlessAttr());
    closed.getBody().takeBody(loop.getBody());
    Block &body = closed.getBody().front();
    Operation *yield = body.getTerminator();
    SmallVector<Value> yielded(yield->getOperands());
    for (Value v : floats) {
      BlockArgument arg = body.addArgument(v.getType(), loop.getLoc());
      v.replaceUsesWithIf(arg, [&](OpOperand &use) {
        return closed->isProperAncestor(use.getOwner());
      });
      yielded.push_back(arg);
    }
    yield->setOperands(yielded);
    for (auto [from, to] : llvm::zip(loop.getResults(), closed.getResults()))
      replaced[from] = to;
    loop.replaceAllUsesWith(closed.getResults().take_front(loop.getNumResults()));
    loop.erase();
  }
}

FailureOr<SmallVector<Value>> tcc::autodiff::buildGradients(OpBuilder &builder, Block &block,
                                                            ValueRange outputs, ValueRange seeds,
                                                            ValueRange wrt) {
  const VjpRegistry &registry = VjpRegistry::get();
  // (Closing loops replaces them: the caller's values are followed to the new results.)
  DenseMap<Value, Value> replaced;
  SmallVector<Value> outputValues(outputs), wrtValues(wrt);
  closeLoops(block, replaced);
  for (Value &v : outputValues)
    v = replaced.lookup(v) ? replaced.lookup(v) : v;
  for (Value &v : wrtValues)
    v = replaced.lookup(v) ? replaced.lookup(v) : v;
  outputs = outputValues;
  wrt = wrtValues;
  // Ops on a path from `wrt` to `outputs`: forward from wrt (in block order), then only
  // those some output depends on.
  DenseSet<Value> active(wrt.begin(), wrt.end());
  SmallVector<Operation *> forward;
  for (Operation &op : block) {
    bool reads = llvm::any_of(op.getOperands(), [&](Value v) { return active.contains(v); });
    // Values captured by regions count too (If/Loop bodies are inlined before this, but be
    // safe about ops with regions).
    if (!reads)
      op.walk([&](Operation *inner) {
        for (Value v : inner->getOperands())
          if (active.contains(v))
            reads = true;
      });
    if (!reads)
      continue;
    forward.push_back(&op);
    // A non-differentiable op stays on the path whatever its result types (e.g. a bitcast
    // to integers and back), so that asking for a gradient through it is an error.
    bool blocks = registry.whyNot(op.getName().getStringRef()) != nullptr;
    for (Value result : op.getResults())
      if (carriesGradient(result) || blocks)
        active.insert(result);
  }
  DenseSet<Value> needed(outputs.begin(), outputs.end());
  SmallVector<Operation *> backward;
  for (Operation *op : llvm::reverse(forward)) {
    if (llvm::none_of(op->getResults(), [&](Value r) { return needed.contains(r); }))
      continue;
    backward.push_back(op);
    for (Value operand : op->getOperands())
      if (active.contains(operand))
        needed.insert(operand);
  }

  // Cotangents, summed where a value has several uses.
  DenseMap<Value, Value> adjoint;
  auto accumulate = [&](Value v, Value ct, Location loc) {
    Value &slot = adjoint[v];
    slot = slot ? prim::AddOp::create(builder, loc, slot, ct).getResult() : ct;
  };
  for (auto [output, seed] : llvm::zip(outputs, seeds))
    if (carriesGradient(output))
      accumulate(output, seed, output.getLoc());

  for (Operation *op : backward) {
    SmallVector<Value> resultCts;
    bool any = false;
    for (Value r : op->getResults()) {
      resultCts.push_back(adjoint.lookup(r));
      any |= static_cast<bool>(resultCts.back());
    }
    if (!any)
      continue;
    StringRef name = op->getName().getStringRef();
    if (const std::string *why = registry.whyNot(name)) {
      op->emitError() << nodePrefix(op) << "a gradient is requested through " << name
                      << ", which is not differentiable: " << *why;
      return failure();
    }
    VjpFn rule = registry.lookup(name);
    if (!rule) {
      op->emitError() << nodePrefix(op) << "a gradient is requested through " << name
                      << ", which has no VJP rule in tcc";
      return failure();
    }
    SmallVector<Value> operandCts(op->getNumOperands());
    VjpBuilder vjp(builder, op->getLoc());
    if (failed(rule(vjp, op, resultCts, operandCts)))
      return failure();
    for (auto [operand, ct] : llvm::zip(op->getOperands(), operandCts)) {
      if (!ct || !needed.contains(operand) || !carriesGradient(operand))
        continue;
      if (ct.getType() != operand.getType()) {
        op->emitError() << "internal error: the VJP rule of " << name << " gave a cotangent of "
                        << ct.getType() << " for an operand of " << operand.getType();
        return failure();
      }
      accumulate(operand, ct, op->getLoc());
    }
  }

  SmallVector<Value> gradients;
  for (Value v : wrt) {
    Value g = adjoint.lookup(v);
    if (!g) {
      VjpBuilder zeros(builder, v.getLoc());
      g = zeros.splat(v, 0);
    }
    gradients.push_back(g);
  }
  return gradients;
}
