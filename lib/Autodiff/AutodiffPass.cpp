//===- AutodiffPass.cpp - tcc-autodiff: @main returns its gradients too ----------------===//
#include "tcc/Autodiff/Autodiff.h"
#include "dialects/kernel/KernelDialect.h"
#include "tcc/Autodiff/Passes.h"

#include "VjpRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

namespace tcc::autodiff {
#define GEN_PASS_DEF_AUTODIFF
#include "tcc/Autodiff/Passes.h.inc"
} // namespace tcc::autodiff

using namespace mlir;

namespace {

bool isFloatTensor(Type t) {
  auto type = dyn_cast<RankedTensorType>(t);
  return type && isa<FloatType>(type.getElementType());
}

/// Binds the dynamic dims of a new input (an output's cotangent) to the symbols of the
/// output's dims: each dim of the output, canonicalized to the input dim it comes from, must be
/// a dim bound to a lone symbol (else an error: the cotangent's extent could not be checked).
LogicalResult bindLikeOutput(func::FuncOp main, BlockArgument arg, Value output) {
  auto type = cast<RankedTensorType>(arg.getType());
  if (type.hasStaticShape())
    return success();
  OpBuilder b(main.getContext());
  b.setInsertionPointToStart(&main.front());
  SmallVector<Attribute> symbols;
  SmallVector<AffineExpr> exprs;
  DenseMap<Attribute, unsigned> position;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      exprs.push_back(b.getAffineConstantExpr(type.getDimSize(d)));
      continue;
    }
    // Follow the dim to an input's bound dim.
    OpBuilder at(output.getContext());
    at.setInsertionPointAfterValue(output);
    auto dim = tcc::prim::DimOp::create(at, output.getLoc(), output, d);
    Value v = dim.getResult();
    (void)applyOpPatternsGreedily(SmallVector<Operation *>{dim}, [&] {
      RewritePatternSet patterns(main.getContext());
      tcc::prim::DimOp::getCanonicalizationPatterns(patterns, main.getContext());
      return patterns;
    }());
    FlatSymbolRefAttr symbol;
    if (auto found = v.getDefiningOp<tcc::prim::DimOp>())
      if (auto first = tcc::prim::getFirstBinding(found.getOperand(), found.getIndex())) {
        for (auto bind : main.getOps<tcc::prim::BindShapeOp>())
          if (bind.getOperand() == first->first)
            if (auto s = dyn_cast<AffineSymbolExpr>(bind.getShape().getResult(first->second)))
              symbol = cast<FlatSymbolRefAttr>(bind.getSymbols()[s.getPosition()]);
      }
    if (!symbol) {
      return main.emitError() << "the cotangent of an output with a dynamic dim " << d
                              << " that is not an input's symbol cannot be an input; give --loss";
    }
    auto [it, inserted] = position.try_emplace(symbol, symbols.size());
    if (inserted)
      symbols.push_back(symbol);
    exprs.push_back(b.getAffineSymbolExpr(it->second));
  }
  auto map = AffineMap::get(0, symbols.size(), exprs, main.getContext());
  tcc::prim::BindShapeOp::create(b, arg.getLoc(), arg, b.getArrayAttr(symbols), map);
  return success();
}

struct AutodiffPass : tcc::autodiff::impl::AutodiffBase<AutodiffPass> {
  using AutodiffBase::AutodiffBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    Block &block = main.getBody().front();
    auto ret = cast<func::ReturnOp>(block.getTerminator());
    auto nameOf = [&](unsigned i, bool result) -> std::string {
      auto name = result ? main.getResultAttrOfType<StringAttr>(i, "onnx.name")
                         : main.getArgAttrOfType<StringAttr>(i, "onnx.name");
      return name ? name.getValue().str() : std::to_string(i);
    };

    // What to differentiate with respect to.
    SmallVector<Value> wrtValues;
    SmallVector<std::string> wrtNames;
    llvm::StringSet<> requested;
    bool inputs = wrt == "inputs", params = wrt == "params";
    if (!inputs && !params)
      for (StringRef name : llvm::split(StringRef(wrt), ','))
        if (!name.trim().empty())
          requested.insert(name.trim());
    llvm::StringSet<> found;
    for (BlockArgument arg : main.getArguments()) {
      std::string name = nameOf(arg.getArgNumber(), false);
      if (!(inputs || requested.contains(name)))
        continue;
      found.insert(name);
      if (!isFloatTensor(arg.getType())) {
        if (requested.contains(name)) {
          main.emitError() << "--wrt names input '" << name << "' of " << arg.getType()
                           << ": only floating-point tensors have gradients";
          return signalPassFailure();
        }
        continue;
      }
      wrtValues.push_back(arg);
      wrtNames.push_back(name);
    }
    // A differentiated initializer becomes a parameter: an argument of @main marked
    // kernel.parameter (holding its initial value), which code generation keeps in the
    // session's writable parameter buffer. As an argument it cannot be folded into other
    // constants, which would go stale when the parameter is written.
    for (auto constant : llvm::make_early_inc_range(main.getOps<arith::ConstantOp>())) {
      auto name = constant->getAttrOfType<StringAttr>("onnx.initializer");
      if (!name || !(params || requested.contains(name.getValue())))
        continue;
      found.insert(name.getValue());
      if (!isFloatTensor(constant.getType()))
        continue;
      OpBuilder attrs(constant);
      unsigned position = main.getNumArguments();
      if (failed(main.insertArgument(
              position, constant.getType(),
              attrs.getDictionaryAttr({attrs.getNamedAttr("onnx.name", name),
                                       attrs.getNamedAttr(tcc::kernel::KernelDialect::kParameterAttrName, constant.getValue())}),
              constant.getLoc())))
        return signalPassFailure();
      constant.getResult().replaceAllUsesWith(main.getArgument(position));
      constant.erase();
      wrtValues.push_back(main.getArgument(position));
      wrtNames.push_back(name.getValue().str());
    }
    for (const auto &name : requested)
      if (!found.contains(name.getKey())) {
        main.emitError() << "--wrt names '" << name.getKey()
                         << "', which is neither a graph input nor an initializer of the model";
        return signalPassFailure();
      }
    if (wrtValues.empty()) {
      main.emitError() << "nothing to differentiate: --wrt=" << wrt
                       << " selects no floating-point input or initializer";
      return signalPassFailure();
    }

    // Seeds: 1 for the loss, or a cotangent input per output.
    OpBuilder b(ret);
    SmallVector<Value> outputs, seeds;
    SmallVector<std::string> cotangentNames;
    tcc::autodiff::VjpBuilder helper(b, main.getLoc());
    if (!loss.empty()) {
      std::optional<unsigned> index;
      for (unsigned i = 0; i < main.getNumResults(); ++i)
        if (nameOf(i, true) == loss)
          index = i;
      if (!index) {
        main.emitError() << "--loss names '" << loss << "', which is not an output of the model";
        return signalPassFailure();
      }
      Value out = ret.getOperand(*index);
      auto type = dyn_cast<RankedTensorType>(out.getType());
      if (!isFloatTensor(out.getType()) || !type.hasStaticShape() || type.getNumElements() != 1) {
        main.emitError() << "--loss output '" << loss << "' must be one floating-point element, got "
                         << out.getType();
        return signalPassFailure();
      }
      outputs.push_back(out);
      seeds.push_back(helper.splat(out, 1));
    } else {
      for (unsigned i = 0; i < main.getNumResults(); ++i) {
        Value out = ret.getOperand(i);
        if (!isFloatTensor(out.getType()))
          continue;
        std::string name = "cotangent." + nameOf(i, true);
        unsigned position = main.getNumArguments();
        if (failed(main.insertArgument(position, out.getType(),
                                       b.getDictionaryAttr({b.getNamedAttr(
                                           "onnx.name", b.getStringAttr(name))}),
                                       out.getLoc())))
          return signalPassFailure();
        outputs.push_back(out);
        seeds.push_back(main.getArgument(position));
        if (failed(bindLikeOutput(main, main.getArgument(position), out)))
          return signalPassFailure();
      }
    }

    FailureOr<SmallVector<Value>> grads =
        tcc::autodiff::buildGradients(b, block, outputs, seeds, wrtValues);
    if (failed(grads))
      return signalPassFailure();
    SmallVector<Value> results(ret.getOperands());
    llvm::append_range(results, *grads);
    // Differentiated initializers live in the session's writable parameter buffer.
    SmallVector<std::pair<std::string, Value>> updates;
    for (auto [value, name, grad] : llvm::zip(wrtValues, wrtNames, *grads)) {
      auto arg = dyn_cast<BlockArgument>(value);
      if (!arg || !main.getArgAttr(arg.getArgNumber(), tcc::kernel::KernelDialect::kParameterAttrName))
        continue;
      // p' = p - learning_rate * dL/dp (SGD)
      if (learningRate > 0)
        updates.push_back({name, helper.sub(value, helper.scale(grad, learningRate))});
    }
    if (learningRate > 0 && (loss.empty() || updates.size() != wrtValues.size())) {
      // (the parameters were made arguments above)
      main.emitError() << "a training step (learning rate " << learningRate
                       << ") needs --loss and differentiates initializers only (--wrt=params "
                          "or initializer names)";
      return signalPassFailure();
    }
    for (auto &[name, update] : updates)
      results.push_back(update);
    SmallVector<Attribute> resultAttrs;
    for (unsigned i = 0; i < main.getNumResults(); ++i)
      resultAttrs.push_back(main.getResultAttrDict(i) ? Attribute(main.getResultAttrDict(i))
                                                      : Attribute(b.getDictionaryAttr({})));
    for (const std::string &name : wrtNames)
      resultAttrs.push_back(
          b.getDictionaryAttr({b.getNamedAttr("onnx.name", b.getStringAttr("grad." + name))}));
    for (auto &[name, update] : updates)
      resultAttrs.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("onnx.name", b.getStringAttr("update." + name)),
           b.getNamedAttr(tcc::kernel::KernelDialect::kUpdateOfAttrName, b.getStringAttr(name))}));
    func::ReturnOp::create(b, ret.getLoc(), results);
    ret.erase();
    main.setFunctionType(
        b.getFunctionType(main.getArgumentTypes(), ValueRange(results).getTypes()));
    main.setAllResultAttrs(resultAttrs);
  }
};

} // namespace
