//===- DecomposeOnnx.cpp - the pass: every onnx.node -> prim by its rule --------------===//
#include "tcc/Decompose/Passes.h"
#include "tcc/Decompose/RuleRegistry.h"

#include "NodeRewriter.h"
#include "PackedSequence.h"
#include "Subgraphs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
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
    } else if (ops.size() <= 24) {
      diag << "; the " << ops.size() << " supported ops of that domain are: "
           << llvm::join(ops, ", ");
    } else {
      // A long list would bury the message: name where it is instead.
      diag << "; tcc supports " << ops.size()
           << " ops of that domain (`tcc --list-ops` lists them, docs/ops.md explains them)";
    }
    diag.attachNote() << "`tcc --check model.onnx` lists every node tcc cannot compile, not "
                         "only the first";
    return;
  }
  diag << "tcc supports " << node.getOpType() << " at opsets "
       << rules.front()->sinceVersion << " to " << rules.back()->untilVersion;
  diag.attachNote() << "re-export the model at a supported opset (torch.onnx.export(..., "
                       "opset_version=N)) or convert it with "
                       "onnx.version_converter.convert_version(model, N)";
}

/// The name in a NameLoc (the ONNX value or node name), or "".
std::string getLocationName(Location loc) {
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  return "";
}

/// Erases the nodes (in every region) none of whose outputs are used, transitively.
void eraseDeadNodes(Block &block) {
  for (bool changed = true; changed;) {
    SmallVector<onnx::NodeOp> dead;
    block.walk([&](onnx::NodeOp node) {
      if (node->use_empty())
        dead.push_back(node);
    });
    for (onnx::NodeOp node : llvm::reverse(dead))
      node.erase();
    changed = !dead.empty();
  }
}

/// Whether `use` is one of the tensors a Gradient node (ai.onnx.preview.training)
/// differentiates with respect to (its first operands, as many as its `xs` names).
bool isGradientTarget(OpOperand &use) {
  auto node = dyn_cast<onnx::NodeOp>(use.getOwner());
  if (!node || node.getOpType() != "Gradient" || node.getDomain() != "ai.onnx.preview.training")
    return false;
  auto names = dyn_cast_or_null<ArrayAttr>(node.getNodeAttr("xs"));
  return names && use.getOperandNumber() < names.size();
}

/// A constant that a Gradient differentiates with respect to must stay a value of its own
/// until the Gradient is decomposed: rules fold ops on constants as they build them, and a y
/// folded to a constant has no path back to it (its gradient would be 0). Such a constant's
/// uses go through an identity cast, removed once the function is decomposed
/// (unshieldGradientTargets).
void shieldGradientTarget(Value value) {
  if (!matchPattern(value, m_Constant()) || !llvm::any_of(value.getUses(), isGradientTarget))
    return;
  OpBuilder b(value.getContext());
  b.setInsertionPointAfterValue(value);
  auto cast =
      UnrealizedConversionCastOp::create(b, value.getLoc(), value.getType(), ValueRange{value});
  value.replaceAllUsesExcept(cast.getResult(0), cast);
}

/// Removes the casts of shieldGradientTarget (identity casts of constants).
void unshieldGradientTargets(func::FuncOp func) {
  func.walk([](UnrealizedConversionCastOp cast) {
    if (cast.getNumOperands() == 1 && cast.getNumResults() == 1 &&
        cast.getOperand(0).getType() == cast.getResult(0).getType() &&
        matchPattern(cast.getOperand(0), m_Constant())) {
      cast.getResult(0).replaceAllUsesWith(cast.getOperand(0));
      cast.erase();
    }
  });
}

LogicalResult decomposeNode(onnx::NodeOp node, OpBuilder &builder, const RuleRegistry &registry,
                            NodeRewriter::DimCache *dimCache) {
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
  NodeRewriter rewriter(node, builder, dimCache);
  // An op the rule builds whose operands disagree (a malformed model's shapes) reports an
  // error and is built anyway, softly (prim::SoftInferenceScope): any error reported while
  // the rule runs fails it, so the process never aborts on a model. Errors after an op was
  // built softly follow from it and are not shown.
  int errors = 0;
  int64_t softBefore = prim::SoftInferenceScope::softlyBuilt();
  LogicalResult applied = failure();
  {
    ScopedDiagnosticHandler counter(node->getContext(), [&](Diagnostic &diagnostic) {
      if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
        return failure(); // reported by the next handler as usual
      ++errors;
      return success(prim::SoftInferenceScope::softlyBuilt() > softBefore); // handled: hidden
    });
    prim::SoftInferenceScope soft;
    applied = rule->fn(rewriter);
  }
  if (failed(applied) || rewriter.hasFailed() || errors > 0)
    return failure();
  if (rewriter.getResults().size() != node.getNumResults())
    return rewriter.emitError() << "internal error: the rule produced "
                                << rewriter.getResults().size() << " results for "
                                << node.getNumResults() << " outputs";
  for (auto [from, to] : llvm::zip(node.getResults(), rewriter.getResults())) {
    from.replaceAllUsesWith(to);
    shieldGradientTarget(to);
  }
  node.erase();
  return success();
}

} // namespace

LogicalResult tcc::decompose::decomposeOps(ArrayRef<Operation *> ops,
                                           NodeRewriter::DimCache *dimCache) {
  const RuleRegistry &registry = RuleRegistry::get();
  bool anyFailed = false;
  for (Operation *op : ops) {
    OpBuilder builder(op);
    if (auto init = dyn_cast<onnx::InitializerOp>(op)) {
      Location loc = NameLoc::get(init.getNameAttr(), init.getLoc());
      auto constant = arith::ConstantOp::create(builder, loc, cast<TypedAttr>(init.getValue()));
      // Which constants are the model's weights (what --grad --wrt=params differentiates).
      constant->setAttr("onnx.initializer", init.getNameAttr());
      init.getResult().replaceAllUsesWith(constant.getResult());
      init.erase();
      shieldGradientTarget(constant.getResult());
      continue;
    }
    if (auto node = dyn_cast<onnx::NodeOp>(op))
      if (failed(decomposeNode(node, builder, registry, dimCache)))
        anyFailed = true;
  }
  return failure(anyFailed);
}

FailureOr<SmallVector<Value>> tcc::decompose::inlineSubgraph(NodeRewriter &n, Region &region,
                                                            ValueRange arguments) {
  if (!region.hasOneBlock())
    return n.emitError() << "a subgraph must have one block";
  Block &body = region.front();
  if (body.getNumArguments() != arguments.size())
    return n.emitError() << "the subgraph has " << body.getNumArguments()
                         << " inputs; expected " << arguments.size();
  // Clones of the body's ops before the node, the block arguments replaced by `arguments`;
  // values of the enclosing graphs stay as they are (already decomposed).
  IRMapping mapping;
  mapping.map(body.getArguments(), arguments);
  SmallVector<Operation *> cloned;
  OpBuilder &b = n.getBuilder();
  for (Operation &op : body.without_terminator())
    cloned.push_back(b.clone(op, mapping));
  // The cloned yield holds the results while the nodes that compute them are replaced.
  Operation *yield = b.clone(*body.getTerminator(), mapping);
  LogicalResult decomposed = decomposeOps(cloned, n.getDimCache());
  SmallVector<Value> results(yield->getOperands());
  yield->erase();
  if (failed(decomposed))
    return n.emitError() << "its subgraph failed to decompose (see the error before)";
  return results;
}

namespace {

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
      if (v < kMinOpset || v > kMaxOpset) {
        InFlightDiagnostic diag = module.emitError();
        diag << "the model imports opset " << v << " of domain ai.onnx; tcc supports opsets "
             << kMinOpset << " to " << kMaxOpset;
        diag.attachNote() << "convert it with onnx.version_converter.convert_version(model, "
                          << std::min<int64_t>(std::max<int64_t>(v, kMinOpset), kMaxOpset)
                          << "), or re-export it at that opset";
        return diag;
      }
    }
    return success();
  }

  LogicalResult decomposeFunction(func::FuncOp func, const RuleRegistry &registry) {
    if (func.isExternal())
      return success();
    // Dead nodes first: exporters leave nodes whose outputs nothing reads; they must not
    // cost time, nor fail the compile when tcc cannot decompose them.
    eraseDeadNodes(func.getBody().front());
    NodeRewriter::DimCache dimCache;
    SmallVector<Operation *> ops;
    for (Operation &op : func.getBody().front())
      ops.push_back(&op);
    auto yield = dyn_cast<onnx::YieldOp>(ops.back());
    if (yield)
      ops.pop_back();
    // Constants that Gradients differentiate with respect to: shielded from folding (below,
    // and as initializers and nodes become them), until every node is decomposed.
    for (Operation *op : ops)
      if (isa<arith::ConstantOp>(op))
        shieldGradientTarget(op->getResult(0));
    // Nodes are visited in order: a node's inputs are already prim values when it is reached.
    LogicalResult decomposed = decomposeOps(ops, &dimCache);
    unshieldGradientTargets(func);
    if (failed(decomposed))
      return failure();
    if (yield && failed(finishFunction(func, yield)))
      return failure();
    // `onnx.none` values and sequences may remain unused; a used sequence is an error.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(func.getBody().front()))) {
      if (!isa<onnx::NoneOp, onnx::SequenceOp, onnx::PackedSequenceOp,
               onnx::RuntimeOptionalOp>(op))
        continue;
      if (op.use_empty()) {
        op.erase();
        continue;
      }
      if (isa<onnx::RuntimeOptionalOp>(op))
        return op.emitError() << "the optional '" << getLocationName(op.getLoc())
                              << "' is still used by " << op.getUses().begin()->getOwner()->getName()
                              << " after decomposition";
      if (isa<onnx::SequenceOp, onnx::PackedSequenceOp>(op))
        return op.emitError() << "the sequence '" << getLocationName(op.getLoc())
                              << "' is still used by " << op.getUses().begin()->getOwner()->getName()
                              << " after decomposition; sequences must be resolved while "
                                 "compiling";
    }
    return success();
  }

  /// Adds graph output `value` (`outputName`, declared as `declared`, a hint) through
  /// `add`: a tensor as it is, a sequence packed into NAME.shapes and NAME.data; `extra` is
  /// one more attribute for each result.
  template <typename Add>
  LogicalResult addValue(func::FuncOp func, onnx::YieldOp yield, Value value,
                         const std::string &outputName, Type declared,
                         ArrayRef<NamedAttribute> extra, Add &add) {
    Builder builder(func.getContext());
    if (isa<onnx::SequenceType>(value.getType())) {
      // A sequence output is packed: NAME.shapes and NAME.data (docs/control-flow.md).
      std::optional<PackedSequence> packed = getPackedSequence(value);
      if (auto sequence = value.getDefiningOp<onnx::SequenceOp>()) {
        ValueRange elements = sequence.getElements();
        Type element = elements.empty() ? Type(builder.getF32Type()) : elementOf(elements[0]);
        int64_t rank = elements.empty() ? 0 : rankOf(elements[0]);
        if (auto k = findMismatch(elements, element, rank))
          return func.emitError() << "graph output '" << outputName << "' is a sequence whose "
                                  << "element " << *k << " has type " << elements[*k].getType()
                                  << " but element 0 " << elements[0].getType()
                                  << "; a sequence output holds tensors of one element type "
                                     "and rank";
        OpBuilder at(yield);
        prim::PrimBuilder p(at, yield.getLoc());
        packed = packElements(p, elements, element, rank);
      }
      if (!packed)
        return func.emitError() << "graph output '" << outputName
                                << "' is a sequence whose elements are not known";
      for (auto [part, v] : {std::pair<StringRef, Value>{".shapes", packed->shapes},
                             std::pair<StringRef, Value>{".data", packed->data}}) {
        SmallVector<NamedAttribute> tags(extra);
        tags.push_back(NamedAttribute(builder.getStringAttr(onnx::kSequenceAttrName),
                                      builder.getStringAttr(outputName)));
        add(v, outputName + part.str(), tags);
      }
      return success();
    }
    Type computed = value.getType();
    auto computedTensor = dyn_cast<RankedTensorType>(computed);
    auto declaredTensor = dyn_cast_or_null<RankedTensorType>(declared);
    if (!computedTensor)
      return func.emitError() << "graph output '" << outputName << "' has type " << computed
                              << "; expected a tensor, a sequence or an optional";
    if (declaredTensor && (computedTensor.getRank() != declaredTensor.getRank() ||
                           computedTensor.getElementType() != declaredTensor.getElementType()))
      return func.emitError() << "graph output '" << outputName << "' is declared as "
                              << declared << " but computes " << computed;
    add(value, outputName, extra);
    return success();
  }

  /// `onnx.yield` -> `func.return`, with the function's result types made the computed
  /// ones. A declared output type is a hint: it must agree in rank and element type.
  LogicalResult finishFunction(func::FuncOp func, onnx::YieldOp yield) {
    // A sequence output is packed (NAME.shapes, NAME.data); an optional one present or empty
    // at run time is its value's results and NAME.present; an empty optional known while
    // compiling and not declared optional leaves the signature.
    SmallVector<Value> results;
    SmallVector<Type> resultTypes;
    SmallVector<DictionaryAttr> resultAttrs;
    Builder builder(func.getContext());
    auto add = [&](Value v, const std::string &name, ArrayRef<NamedAttribute> extra) {
      NamedAttrList attrs;
      if (!name.empty())
        attrs.append("onnx.name", builder.getStringAttr(name));
      attrs.append(extra);
      results.push_back(v);
      resultTypes.push_back(v.getType());
      resultAttrs.push_back(attrs.getDictionary(func.getContext()));
    };
    for (auto [index, value] : llvm::enumerate(yield.getValues())) {
      auto name = index < func.getNumResults()
                      ? func.getResultAttrOfType<StringAttr>(index, "onnx.name")
                      : StringAttr();
      std::string outputName = name ? name.getValue().str() : "";
      Type declared = index < func.getNumResults() ? func.getResultTypes()[index] : Type();
      bool declaredOptional =
          index < func.getNumResults() && func.getResultAttr(index, onnx::kOptionalAttrName);
      std::optional<RuntimeOptional> runtime = getRuntimeOptional(value);
      if (!runtime && !declaredOptional) {
        if (isa<NoneType>(value.getType()))
          continue;
        if (failed(addValue(func, yield, value, outputName, declared, {}, add)))
          return failure();
        continue;
      }
      // An optional output: its value (zeros of the declared type when it is always
      // empty), then its flag.
      OpBuilder at(yield);
      Value present = runtime ? runtime->present : Value();
      Value inner = runtime ? runtime->value : value;
      if (!runtime) {
        bool empty = isa<NoneType>(value.getType());
        present = arith::ConstantOp::create(
            at, yield.getLoc(),
            DenseElementsAttr::get(RankedTensorType::get({}, at.getI1Type()), !empty));
        if (empty) {
          auto tensor = dyn_cast_or_null<RankedTensorType>(declared);
          if (!tensor)
            return func.emitError()
                   << "graph output '" << outputName << "' is an optional that is always "
                   << "empty and whose type is not a tensor of known element type and rank; "
                      "tcc cannot give it a value to stand in its place";
          SmallVector<int64_t> shape;
          for (int64_t d : tensor.getShape())
            shape.push_back(ShapedType::isDynamic(d) ? 0 : d);
          auto type = RankedTensorType::get(shape, tensor.getElementType());
          TypedAttr zero = at.getZeroAttr(tensor.getElementType());
          if (!zero)
            return func.emitError() << "graph output '" << outputName << "' is an optional "
                                    << "that is always empty, of element type "
                                    << tensor.getElementType()
                                    << ", which tcc cannot fill with zeros in its place";
          inner = arith::ConstantOp::create(at, yield.getLoc(), DenseElementsAttr::get(type, zero));
        }
      }
      NamedAttribute tag(builder.getStringAttr(onnx::kOptionalAttrName),
                         builder.getStringAttr(outputName));
      if (failed(addValue(func, yield, inner, outputName, declared, {tag}, add)))
        return failure();
      NamedAttribute flag(builder.getStringAttr(onnx::kOptionalPresentAttrName),
                          builder.getStringAttr(outputName));
      add(present, outputName + ".present", {flag});
    }
    OpBuilder returnBuilder(yield);
    func::ReturnOp::create(returnBuilder, yield.getLoc(), results);
    yield.erase();
    func.setFunctionType(
        FunctionType::get(func.getContext(), func.getArgumentTypes(), resultTypes));
    func.setAllResultAttrs(resultAttrs);
    return success();
  }
};

} // namespace
