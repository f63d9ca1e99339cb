//===- KvCache.cpp - a decoder's past/present caches kept in the session, appended in place ===//
//
// tcc-kv-cache (Passes.td, tcc --kv-cache N). A decoding step exported with caches takes
// each layer's keys and values so far as an input ("past", [.., P, ..] along a symbol P) and
// returns them with its new positions appended ("present" = Concat(past, new)): every step
// copies the whole cache. Here each such pair becomes a parameter of N positions that the
// session keeps (zeros at first): the step reads its first P positions where they are and
// writes its own n positions at [P, P + n), in place. P becomes an input of its own (an int64
// scalar named after the symbol); the past inputs and present outputs leave the interface.
//
//   %present = prim.concatenate %past, %new dim = 2
//   // becomes (%cache: the parameter, P: the new input's value)
//   %updated = tensor.insert_slice %new into %cache[0, 0, P, 0] [...] [1, 1, 1, 1]
//   %present = prim.slice %updated [0, 0, 0, 0] [.., P + n, ..]      (the step's reads)
//   return ..., %updated {kernel.update_of = "present_key_0"}
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Decompose/Passes.h"

#include "dialects/kernel/KernelDialect.h"
#include "dialects/prim/PrimBuilder.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace tcc {
#define GEN_PASS_DEF_KVCACHE
#include "tcc/Decompose/Passes.h.inc"
} // namespace tcc

using namespace mlir;
namespace prim = tcc::prim;

namespace {

/// One cache: graph input `past`, graph output `result` = `concat`(past, new) along `axis`.
struct CachePair {
  BlockArgument past;
  prim::ConcatenateOp concat;
  unsigned result;
  int64_t axis;
  StringAttr inputName, outputName;
};

/// The symbol that dim `d` of `arg` is, alone (its prim.bind_shape's expression is that
/// symbol), or null.
FlatSymbolRefAttr symbolOfDim(BlockArgument arg, int64_t d) {
  for (Operation *user : arg.getUsers())
    if (auto bind = dyn_cast<prim::BindShapeOp>(user)) {
      if (d >= static_cast<int64_t>(bind.getShape().getNumResults()))
        return {};
      auto symbol = dyn_cast<AffineSymbolExpr>(bind.getShape().getResult(d));
      if (!symbol || symbol.getPosition() >= bind.getSymbols().size())
        return {};
      return cast<FlatSymbolRefAttr>(bind.getSymbols()[symbol.getPosition()]);
    }
  return {};
}

struct KvCachePass : public tcc::impl::KvCacheBase<KvCachePass> {
  using KvCacheBase::KvCacheBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || capacity <= 0)
      return;
    if (failed(rewrite(module, main)))
      signalPassFailure();
  }

  LogicalResult rewrite(ModuleOp module, func::FuncOp main) {
    Block &entry = main.front();
    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    auto outputName = [&](unsigned i) {
      auto name = main.getResultAttrOfType<StringAttr>(i, "onnx.name");
      return name ? name : StringAttr::get(main.getContext(), "output " + std::to_string(i));
    };
    auto inputName = [&](BlockArgument arg) {
      auto name = main.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "onnx.name");
      return name ? name
                  : StringAttr::get(main.getContext(),
                                    "input " + std::to_string(arg.getArgNumber()));
    };

    // 1. The pairs: outputs that are Concat(graph input, new) along a symbol's dim.
    SmallVector<CachePair> pairs;
    FlatSymbolRefAttr symbol;
    for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
      auto concat = operand.getDefiningOp<prim::ConcatenateOp>();
      if (!concat || concat.getInputs().size() != 2)
        continue;
      auto past = dyn_cast<BlockArgument>(concat.getInputs()[0]);
      if (!past || past.getOwner() != &entry ||
          llvm::any_of(pairs, [&](const CachePair &p) { return p.past == past; }))
        continue;
      int64_t axis = concat.getDimension();
      FlatSymbolRefAttr dimSymbol = symbolOfDim(past, axis);
      if (!dimSymbol)
        continue;
      if (symbol && symbol != dimSymbol)
        return main.emitError() << "--kv-cache: the caches grow along different symbols: '"
                                << symbol.getValue() << "' and '" << dimSymbol.getValue()
                                << "' (output '" << outputName(i).getValue() << "')";
      symbol = dimSymbol;
      auto type = cast<RankedTensorType>(past.getType());
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (d != axis && type.isDynamicDim(d)) {
          FlatSymbolRefAttr other = symbolOfDim(past, d);
          InFlightDiagnostic diag = main.emitError()
                                    << "--kv-cache: the cache input '" << inputName(past).getValue()
                                    << "' has a dynamic dim " << d;
          if (other)
            diag << " ('" << other.getValue() << "')";
          diag << "; the session keeps caches of a fixed size";
          if (other)
            diag.attachNote() << "give it a value: tcc --dim " << other.getValue() << "=N";
          return failure();
        }
      pairs.push_back(
          {past, concat, static_cast<unsigned>(i), axis, inputName(past), outputName(i)});
    }
    if (pairs.empty())
      return main.emitError() << "--kv-cache: no output is a cache: Concat(an input, the new "
                                 "positions) along a dim that is a symbol (the cached length)";

    // The cached length is an input of its own now: no other input may state it.
    for (BlockArgument arg : entry.getArguments()) {
      if (llvm::any_of(pairs, [&](const CachePair &p) { return p.past == arg; }))
        continue;
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      for (int64_t d = 0; type && d < type.getRank(); ++d)
        for (Operation *user : arg.getUsers())
          if (auto bind = dyn_cast<prim::BindShapeOp>(user))
            if (d < static_cast<int64_t>(bind.getShape().getNumResults()) &&
                bind.getShape().getResult(d).isFunctionOfSymbol(
                    llvm::find(bind.getSymbols(), symbol) - bind.getSymbols().begin()))
              return main.emitError()
                     << "--kv-cache: input '" << inputName(arg).getValue() << "' dim " << d
                     << " depends on the cached length '" << symbol.getValue()
                     << "' (not supported: the caches' length becomes an input of its own)";
    }
    for (BlockArgument arg : entry.getArguments())
      if (auto name = main.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "onnx.name");
          name && name.getValue() == symbol.getValue())
        return main.emitError() << "--kv-cache: an input is already named '" << symbol.getValue()
                                << "', the name of the cached length";

    MLIRContext *context = main.getContext();
    Location loc = main.getLoc();
    OpBuilder b(context);
    // 2. The length input, where the first cache input was.
    unsigned lengthPosition = pairs.front().past.getArgNumber();
    for (const CachePair &p : pairs)
      lengthPosition = std::min(lengthPosition, p.past.getArgNumber());
    auto i64 = RankedTensorType::get({}, b.getI64Type());
    if (failed(main.insertArgument(
            lengthPosition, i64,
            b.getDictionaryAttr({b.getNamedAttr("onnx.name", b.getStringAttr(symbol.getValue()))}),
            loc)))
      return failure();
    Value lengthInput = main.getArgument(lengthPosition);
    b.setInsertionPointToStart(&entry);
    Value length = arith::IndexCastOp::create(
        b, loc, b.getIndexType(), tensor::ExtractOp::create(b, loc, lengthInput, ValueRange{}));
    Value nonNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, length,
                                              arith::ConstantIndexOp::create(b, loc, 0));
    prim::CheckOp::create(b, loc, nonNegative,
                          b.getStringAttr("input '" + symbol.getValue() +
                                          "' (the positions the KV caches hold) must be >= 0"));
    // The extents read from the length input become computed symbols named after it
    // (tcc-data-extents names them after the location: "past_dim2").
    Location named = NameLoc::get(b.getStringAttr(symbol.getValue()), loc);
    prim::PrimBuilder prims(b, named);

    // 3. Each pair: a parameter of `capacity` positions, read and appended in place.
    SmallVector<Value> updates;
    SmallVector<StringAttr> updateNames;
    for (CachePair &p : pairs) {
      auto pastType = cast<RankedTensorType>(p.past.getType());
      SmallVector<int64_t> shape(pastType.getShape());
      shape[p.axis] = capacity;
      auto cacheType = RankedTensorType::get(shape, pastType.getElementType());
      TypedAttr zero = b.getZeroAttr(pastType.getElementType());
      unsigned position = main.getNumArguments();
      if (failed(main.insertArgument(
              position, cacheType,
              b.getDictionaryAttr(
                  {b.getNamedAttr("onnx.name", p.outputName),
                   b.getNamedAttr(tcc::kernel::KernelDialect::kParameterAttrName,
                                  DenseElementsAttr::get(cacheType, zero)),
                   b.getNamedAttr(tcc::kernel::KernelDialect::kCacheAttrName, b.getUnitAttr())}),
              loc)))
        return failure();
      Value cache = main.getArgument(position);

      // The positions so far: the cache's first `length`.
      b.setInsertionPointAfterValue(length);
      Value past = prims.slice(cache, p.axis, b.getIndexAttr(0), length);
      for (Operation *user : llvm::make_early_inc_range(p.past.getUsers()))
        if (isa<prim::BindShapeOp>(user))
          user->erase();
      p.past.replaceAllUsesWith(past);

      // The new positions written at [length, length + n), then the first length + n read.
      b.setInsertionPoint(p.concat);
      Value added = p.concat.getInputs()[1];
      auto addedType = cast<RankedTensorType>(added.getType());
      SmallVector<OpFoldResult> offsets(shape.size(), b.getIndexAttr(0)), sizes, strides;
      offsets[p.axis] = length;
      for (int64_t d = 0; d < addedType.getRank(); ++d) {
        sizes.push_back(addedType.isDynamicDim(d)
                            ? OpFoldResult(prim::DimOp::create(b, loc, added, d).getResult())
                            : OpFoldResult(b.getIndexAttr(addedType.getDimSize(d))));
        strides.push_back(b.getIndexAttr(1));
      }
      Value count = getValueOrCreateConstantIndexOp(b, loc, sizes[p.axis]);
      Value end = arith::AddIOp::create(b, loc, length, count);
      // length <= capacity - n (not length + n <= capacity, which a huge length overflows).
      Value room =
          arith::SubIOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, capacity), count);
      Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, length, room);
      prim::CheckOp::create(
          b, loc, fits,
          b.getStringAttr("the KV cache '" + p.outputName.getValue() + "' holds " +
                          std::to_string(capacity) + " positions (tcc --kv-cache): input '" +
                          symbol.getValue() + "' plus the step's new positions must be at most " +
                          std::to_string(capacity)));
      Value updated = tensor::InsertSliceOp::create(b, loc, added, cache, offsets, sizes, strides);
      Value present = prims.slice(updated, p.axis, b.getIndexAttr(0), end);
      p.concat.getResult().replaceAllUsesWith(present);
      p.concat.erase();
      updates.push_back(updated);
      updateNames.push_back(p.outputName);
    }

    // 4. The interface: no past inputs, no present outputs; the updates are results that
    // code generation writes over their parameters.
    SmallVector<Value> results;
    SmallVector<unsigned> removed;
    for (unsigned i = 0; i < ret.getNumOperands(); ++i) {
      if (llvm::any_of(pairs, [&](const CachePair &p) { return p.result == i; }))
        removed.push_back(i);
      else
        results.push_back(ret.getOperand(i));
    }
    llvm::append_range(results, updates);
    llvm::BitVector erase(main.getNumResults());
    for (unsigned i : removed)
      erase.set(i);
    if (failed(main.eraseResults(erase)))
      return failure();
    for (auto [k, update] : llvm::enumerate(updates)) {
      unsigned index = main.getNumResults();
      if (failed(main.insertResult(
              index, update.getType(),
              b.getDictionaryAttr({b.getNamedAttr(tcc::kernel::KernelDialect::kUpdateOfAttrName,
                                                  updateNames[k])}))))
        return failure();
    }
    ret->setOperands(results);
    llvm::BitVector pastArgs(main.getNumArguments());
    for (const CachePair &p : pairs)
      pastArgs.set(p.past.getArgNumber());
    if (failed(main.eraseArguments(pastArgs)))
      return failure();

    // The symbol no input states any more.
    bool bound = false;
    module.walk(
        [&](prim::BindShapeOp bind) { bound |= llvm::is_contained(bind.getSymbols(), symbol); });
    if (!bound)
      if (auto declared = module.lookupSymbol<prim::SymbolOp>(symbol.getAttr()))
        declared.erase();
    return success();
  }
};

} // namespace
