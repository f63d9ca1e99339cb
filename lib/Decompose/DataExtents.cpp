//===- DataExtents.cpp - extents read from input elements become computed symbols -----===//
//
// tcc-data-extents (Passes.td): the sizes that prim ops take as operands, when computed
// from graph inputs' elements by scalar arithmetic, become computed symbols
// (ComputedSymbols.cpp), which the runtime evaluates before the run.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"

#include "tcc/Decompose/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_DATAEXTENTS
#include "tcc/Decompose/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

namespace {

/// What an index value is computed from.
enum class Source {
  Static, ///< constants, symbols and the graph inputs' dims alone
  Data,   ///< also graph inputs' elements, by scalar arithmetic: computable before a run
  Other,  ///< anything else (the model's intermediates): only known while it runs
};

Source combine(Source a, Source b) { return std::max(a, b); }

class Classifier {
public:
  explicit Classifier(Block &entry) : entry(entry) {}

  Source classify(Value v) {
    if (auto it = memo.find(v); it != memo.end())
      return it->second;
    Source source = compute(v);
    memo[v] = source;
    return source;
  }

private:
  bool isInput(Value v) const {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &entry;
  }

  Source compute(Value v) {
    Operation *op = v.getDefiningOp();
    if (!op || op->getBlock() != &entry)
      return Source::Other;
    if (isa<arith::ConstantOp, prim::DataSymbolOp>(op))
      return Source::Static;
    if (auto dim = dyn_cast<prim::DimOp>(op))
      return isInput(dim.getOperand()) ? Source::Static : Source::Other;
    if (auto dim = dyn_cast<tensor::DimOp>(op))
      return isInput(dim.getSource()) ? Source::Static : Source::Other;
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      if (!isInput(extract.getTensor()))
        return Source::Other;
      Source source = Source::Data;
      for (Value index : extract.getIndices())
        source = combine(source, classify(index));
      return source;
    }
    if (op->getDialect() && op->getDialect()->getNamespace() == "arith" &&
        op->getNumRegions() == 0) {
      Source source = Source::Static;
      for (Value operand : op->getOperands())
        source = combine(source, classify(operand));
      return source;
    }
    return Source::Other;
  }

  Block &entry;
  DenseMap<Value, Source> memo;
};

/// The operands of `op` that are extents of its result: the dynamic sizes of the prim ops
/// that take them.
SmallVector<OpOperand *> extentOperands(Operation *op) {
  SmallVector<OpOperand *> operands;
  auto add = [&](MutableOperandRange range) {
    for (OpOperand &operand : range)
      operands.push_back(&operand);
  };
  if (auto reshape = dyn_cast<prim::ReshapeOp>(op))
    add(reshape.getDynamicSizesMutable());
  else if (auto broadcast = dyn_cast<prim::BroadcastInDimOp>(op))
    add(broadcast.getDynamicSizesMutable());
  else if (auto iota = dyn_cast<prim::IotaOp>(op))
    add(iota.getDynamicSizesMutable());
  else if (auto slice = dyn_cast<prim::SliceOp>(op))
    add(slice.getSizesMutable());
  return operands;
}

/// The name of the ONNX node `loc` names, or "extent".
std::string nodeNameOf(Location loc) {
  if (auto named = dyn_cast<NameLoc>(loc))
    if (!named.getName().getValue().empty())
      return named.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto named = dyn_cast<NameLoc>(inner))
        return named.getName().str();
  return "extent";
}

struct DataExtentsPass : tcc::impl::DataExtentsBase<DataExtentsPass> {
  /// One round: every data extent of @main's top level gets a symbol. Returns whether any
  /// did.
  bool wrapExtents(ModuleOp module, Block &entry) {
    Classifier classifier(entry);
    DenseMap<Value, Value> symbolOf;
    bool changed = false;
    for (Operation &op : entry.without_terminator()) {
      SmallVector<OpOperand *> extents = extentOperands(&op);
      auto type = op.getNumResults() == 1 ? dyn_cast<RankedTensorType>(op.getResult(0).getType())
                                          : RankedTensorType();
      if (extents.empty() || !type)
        continue;
      // The k-th dynamic size is the extent of the k-th dynamic dim.
      SmallVector<int64_t> dynamicDims;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          dynamicDims.push_back(d);
      for (auto [k, operand] : llvm::enumerate(extents)) {
        Value extent = operand->get();
        if (classifier.classify(extent) != Source::Data)
          continue;
        Value &symbol = symbolOf[extent];
        if (!symbol) {
          OpBuilder b(&op);
          if (Operation *def = extent.getDefiningOp())
            b.setInsertionPointAfter(def);
          int64_t dim = k < dynamicDims.size() ? dynamicDims[k] : static_cast<int64_t>(k);
          symbol = decompose::createDataSymbol(
              b, module, op.getLoc(), nodeNameOf(op.getLoc()) + "_dim" + std::to_string(dim),
              extent);
        }
        operand->set(symbol);
        changed = true;
      }
    }
    return changed;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    Block &entry = main.front();
    // Dims of results that got symbols become those symbols (prim.dim's canonicalization),
    // which may make more extents computable from the inputs: a few rounds.
    RewritePatternSet patterns(&getContext());
    prim::DimOp::getCanonicalizationPatterns(patterns, &getContext());
    tensor::DimOp::getCanonicalizationPatterns(patterns, &getContext());
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (int round = 0; round < 8 && wrapExtents(module, entry); ++round)
      (void)applyPatternsGreedily(main, frozen);
  }
};

} // namespace
