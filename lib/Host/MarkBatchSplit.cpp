//===- MarkBatchSplit.cpp - prove that a model computes each image alone ----------------===//
//
// A model whose inputs and outputs all lead with one symbol (the batch) and whose ops never
// mix two images can run image by image: out[b] = model(in[b : b+1]). The runtime then
// keeps one image's intermediates in cache instead of the whole batch's, and gives each of
// its threads whole images instead of splitting every kernel (model_abi.h, batch_symbol).
//
// The proof (BatchProof.h) walks @main in order; any op it does not understand ends it, and
// the model runs whole batches.
//
// Running image by image repeats the weights' reads per image. So the model is marked only
// when each weight element is used at least `min-weight-reuse` times per image on average
// (multiply-adds of the contractions per image / weight elements): a convolutional network
// (~100) or a transformer over a sequence (its length) is, an MLP (1) or a decoder step is
// not.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Host/Passes.h"
#include "dialects/kernel/KernelDialect.h"

#include "BatchProof.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {
#define GEN_PASS_DEF_MARKBATCHSPLIT
#include "tcc/Host/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

namespace {

struct MarkBatchSplitPass : tcc::impl::MarkBatchSplitBase<MarkBatchSplitPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    module->removeAttr(kAttr);
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal() || main.getNumArguments() == 0 || main.getNumResults() == 0 ||
        !llvm::hasSingleElement(main.getBody()))
      return;
    std::optional<StringAttr> symbol = batchSymbol(module, main);
    if (!symbol)
      return;
    // A symbol computed from the inputs' data (Range's length) is computed for the whole
    // batch; the runtime would not compute it per image.
    for (auto s : module.getOps<prim::SymbolOp>())
      if (s.getComputed()) {
        if (explain)
          s.emitRemark("the batch is not split: the model has a symbol computed from data");
        return;
      }
    BatchProof proof;
    for (BlockArgument arg : main.getArguments())
      proof.setBatched(arg, BatchProof::Batched{0, 1});
    uint64_t weights = 0;
    for (Operation &op : main.getBody().front()) {
      if (isa<prim::BindShapeOp>(op))
        continue;
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (Value v : ret.getOperands())
          if (proof.batched(v) != std::optional<BatchProof::Batched>(BatchProof::Batched{0, 1})) {
            if (explain)
              op.emitRemark("the batch is not split: an output does not lead with the batch");
            return;
          }
        continue;
      }
      if (!proof.visit(&op)) {
        if (explain)
          op.emitRemark("the batch is not split: this op does not keep the images apart (or is "
                        "not understood)");
        return;
      }
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto elements = dyn_cast<ElementsAttr>(constant.getValue()))
          if (!elements.isSplat())
            weights = llvm::SaturatingAdd<uint64_t>(weights, elements.getNumElements());
    }
    if (weights > 0 && proof.work / weights < static_cast<uint64_t>(minWeightReuse)) {
      if (explain)
        main.emitRemark() << "the batch is not split: each weight element is used "
                          << proof.work / weights << " times per image, below "
                          << static_cast<int64_t>(minWeightReuse);
      return;
    }
    module->setAttr(kAttr, FlatSymbolRefAttr::get(*symbol));
  }

  /// The symbol that is dim 0 of every input, alone, and appears in no other input dim; it
  /// must admit the value 1 (min <= 1, divisor 1). Parameters (tcc --grad/--train) update
  /// across images, so such models have none.
  std::optional<StringAttr> batchSymbol(ModuleOp module, func::FuncOp main) {
    DenseMap<Value, prim::BindShapeOp> binds;
    for (auto bind : main.getOps<prim::BindShapeOp>())
      binds[bind.getOperand()] = bind;
    std::optional<StringAttr> symbol;
    for (BlockArgument arg : main.getArguments()) {
      if (main.getArgAttr(arg.getArgNumber(), tcc::kernel::KernelDialect::kParameterAttrName))
        return std::nullopt;
      prim::BindShapeOp bind = binds.lookup(arg);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!bind || !type || type.getRank() == 0 || !type.isDynamicDim(0))
        return std::nullopt;
      AffineMap map = bind.getShape();
      auto first = dyn_cast<AffineSymbolExpr>(map.getResult(0));
      if (!first)
        return std::nullopt;
      auto name = cast<FlatSymbolRefAttr>(bind.getSymbols()[first.getPosition()]).getAttr();
      if (symbol && *symbol != name)
        return std::nullopt;
      symbol = name;
      for (AffineExpr expr : map.getResults().drop_front())
        if (expr.isFunctionOfSymbol(first.getPosition()))
          return std::nullopt;
    }
    auto declared = symbol ? module.lookupSymbol<prim::SymbolOp>(*symbol) : nullptr;
    if (!declared || declared.getMin() > 1 || declared.getDivisor() != 1)
      return std::nullopt;
    return symbol;
  }

  static constexpr llvm::StringLiteral kAttr = tcc::kernel::KernelDialect::kBatchSplitAttrName;
};

} // namespace
