//===- DecomposeOnnx.cpp - the pass: every onnx.node -> prim by its rule --------------===//
#include "tcc/Decompose/Passes.h"
#include "tcc/Decompose/RuleRegistry.h"

#include "NodeRewriter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace tcc {
#define GEN_PASS_DEF_DECOMPOSEONNX
#include "tcc/Decompose/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// The error for a node no rule covers: names what tcc supports instead.
void emitNoRuleError(onnx::NodeOp node, const RuleRegistry &registry) {
  std::string name = node.getNodeName();
  StringRef domain = node.getDomain();
  auto diag = node.emitError() << "node '" << name << "' (" << node.getOpType()
                               << (domain.empty() ? "" : ", domain " + domain.str())
                               << ", opset " << node.getVersion() << "): ";
  std::vector<const Rule *> rules = registry.getRules(domain, node.getOpType());
  if (rules.empty()) {
    std::vector<std::string> ops = registry.getOpTypes(domain);
    diag << "tcc has no decomposition rule for op type '" << node.getOpType()
         << "' in domain " << getDomainDisplayName(domain);
    if (ops.empty()) {
      diag << "; tcc supports no op of that domain";
    } else {
      diag << "; the " << ops.size() << " supported ops of that domain are: "
           << llvm::join(ops, ", ");
    }
    return;
  }
  diag << "tcc supports " << node.getOpType() << " at opsets "
       << rules.front()->sinceVersion << " to " << rules.back()->untilVersion;
}

struct DecomposeOnnxPass : tcc::impl::DecomposeOnnxBase<DecomposeOnnxPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkOpsets(module)))
      return signalPassFailure();
    const RuleRegistry &registry = RuleRegistry::get();
    bool anyFailed = false;
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(decomposeFunction(func, registry)))
        anyFailed = true;
    if (anyFailed)
      signalPassFailure();
  }

  LogicalResult checkOpsets(ModuleOp module) {
    auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import");
    if (!opsets)
      return success();
    for (NamedAttribute entry : opsets) {
      auto version = dyn_cast<IntegerAttr>(entry.getValue());
      StringRef domain = entry.getName().getValue();
      if (!version || (!domain.empty() && domain != "ai.onnx"))
        continue;
      int64_t v = version.getInt();
      if (v < kMinOpset || v > kMaxOpset)
        return module.emitError() << "the model imports opset " << v
                                  << " of domain ai.onnx; tcc supports opsets " << kMinOpset
                                  << " to " << kMaxOpset;
    }
    return success();
  }

  LogicalResult decomposeFunction(func::FuncOp func, const RuleRegistry &registry) {
    if (func.isExternal())
      return success();
    bool anyFailed = false;
    NodeRewriter::DimCache dimCache;
    // Nodes are visited in order: a node's inputs are already prim values when it is reached.
    for (Operation &op : llvm::make_early_inc_range(func.getBody().front())) {
      OpBuilder builder(&op);
      if (auto init = dyn_cast<onnx::InitializerOp>(op)) {
        Location loc = NameLoc::get(init.getNameAttr(), init.getLoc());
        auto constant = arith::ConstantOp::create(builder, loc, cast<TypedAttr>(init.getValue()));
        init.getResult().replaceAllUsesWith(constant.getResult());
        init.erase();
        continue;
      }
      if (auto node = dyn_cast<onnx::NodeOp>(op)) {
        if (failed(decomposeNode(node, builder, registry, dimCache)))
          anyFailed = true;
        continue;
      }
      if (auto yield = dyn_cast<onnx::YieldOp>(op)) {
        if (anyFailed)
          return failure();
        if (failed(finishFunction(func, yield)))
          return failure();
      }
    }
    if (anyFailed)
      return failure();
    // `onnx.none` values may remain unused.
    for (auto none : llvm::make_early_inc_range(func.getOps<onnx::NoneOp>()))
      if (none->use_empty())
        none.erase();
    return success();
  }

  LogicalResult decomposeNode(onnx::NodeOp node, OpBuilder &builder,
                              const RuleRegistry &registry,
                              NodeRewriter::DimCache &dimCache) {
    // A node whose inputs failed to decompose stays: report only the first failure.
    for (Value input : node.getInputs())
      if (isa<onnx::ValueType>(input.getType()))
        return failure();
    std::string refusal;
    const Rule *rule = registry.lookup(node.getDomain(), node.getOpType(),
                                       static_cast<int64_t>(node.getVersion()), &refusal);
    if (!rule && !refusal.empty())
      return NodeRewriter(node, builder).emitError() << refusal;
    if (!rule) {
      emitNoRuleError(node, registry);
      return failure();
    }
    NodeRewriter rewriter(node, builder, &dimCache);
    if (failed(rule->fn(rewriter)) || rewriter.hasFailed())
      return failure();
    if (rewriter.getResults().size() != node.getNumResults())
      return rewriter.emitError() << "internal error: the rule produced "
                                  << rewriter.getResults().size() << " results for "
                                  << node.getNumResults() << " outputs";
    for (auto [from, to] : llvm::zip(node.getResults(), rewriter.getResults()))
      from.replaceAllUsesWith(to);
    node.erase();
    return success();
  }

  /// `onnx.yield` -> `func.return`, with the function's result types made the computed
  /// ones. A declared output type is a hint: it must agree in rank and element type.
  LogicalResult finishFunction(func::FuncOp func, onnx::YieldOp yield) {
    SmallVector<Type> resultTypes;
    for (auto [index, value] : llvm::enumerate(yield.getValues())) {
      Type computed = value.getType();
      Type declared = index < func.getNumResults() ? func.getResultTypes()[index] : Type();
      auto computedTensor = dyn_cast<RankedTensorType>(computed);
      auto declaredTensor = dyn_cast_or_null<RankedTensorType>(declared);
      if (computedTensor && declaredTensor &&
          (computedTensor.getRank() != declaredTensor.getRank() ||
           computedTensor.getElementType() != declaredTensor.getElementType())) {
        auto name = func.getResultAttrOfType<StringAttr>(index, "onnx.name");
        return func.emitError() << "graph output '" << (name ? name.getValue() : "")
                                << "' is declared as " << declared << " but computes "
                                << computed;
      }
      resultTypes.push_back(computed);
    }
    OpBuilder builder(yield);
    func::ReturnOp::create(builder, yield.getLoc(), yield.getValues());
    yield.erase();
    func.setFunctionType(
        FunctionType::get(func.getContext(), func.getArgumentTypes(), resultTypes));
    return success();
  }
};

} // namespace
