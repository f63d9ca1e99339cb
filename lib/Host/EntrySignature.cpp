//===- EntrySignature.cpp - @main takes symbol values and raw buffers -----------------===//
//
// The model ABI calls run(symbol_values, inputs, outputs, workspace) with plain pointers.
// This pass gives @main that shape while it is still on tensors:
//
//   func @main(%ids: tensor<?x?xi64>) -> tensor<?x?x128xf32>
//   // becomes
//   func @main(%batch: index {kernel.symbol = "batch"}, %seq: index {kernel.symbol = "seq"},
//              %ids_raw: memref<?xi8>, %out_raw: memref<?xi8>)
//     %ids = to_tensor (memref.view %ids_raw[0][%batch, %seq])
//     ...
//     materialize_in_destination %r in restrict writable (memref.view %out_raw[0][...])
//
// Every extent of @main becomes index arithmetic over the symbol arguments: the input dims
// come from their prim.bind_shape maps, the other dims are resolved through the ops'
// shape reification. Output extents must resolve so; they are also cloned into
// `@output_shapes(symbols...) -> (extents...)`, which the descriptor publishes.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Host/Passes.h"
#include "dialects/kernel/KernelDialect.h"

#include "InvariantLoops.h"
#include "SymbolExpressions.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_ENTRYSIGNATURE
#include "tcc/Host/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

namespace {

std::string nameOf(func::FuncOp main, unsigned index, bool result) {
  auto name = result ? main.getResultAttrOfType<StringAttr>(index, "onnx.name")
                     : main.getArgAttrOfType<StringAttr>(index, "onnx.name");
  return name ? name.getValue().str() : std::to_string(index);
}

/// Whether `value`, yielded by a loop body, has the shape of the iteration argument `arg`:
/// it is `arg` updated through destination-passing ops, scf.if branches that both keep the
/// shape, or inner loops over it.
bool keepsShapeOf(Value value, BlockArgument arg) {
  for (int depth = 0; depth < 64; ++depth) {
    if (value == arg)
      return true;
    auto result = dyn_cast<OpResult>(value);
    if (!result)
      return false;
    Operation *op = result.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      value = dps.getTiedOpOperand(result)->get();
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      value = loop.getInitArgs()[result.getResultNumber()];
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      unsigned k = result.getResultNumber();
      return branch.elseBlock() && keepsShapeOf(branch.thenYield().getOperand(k), arg) &&
             keepsShapeOf(branch.elseYield().getOperand(k), arg);
    } else {
      return false;
    }
  }
  return false;
}

/// Canonicalization everywhere plus dims of results resolved through reification: what
/// turns every extent into arithmetic over the inputs' dims.
LogicalResult resolveDims(func::FuncOp main) {
  MLIRContext *context = main.getContext();
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  memref::populateResolveShapedTypeResultDimsPatterns(patterns);
  patterns.add<tcc::DimOfInvariantLoop<tensor::DimOp>>(context);
  return applyPatternsGreedily(main, std::move(patterns));
}

/// `extent` as symbol arithmetic cloned at `b` (see cloneSymbolExpression), looking through
/// dims of loop results (sort, scatter and compaction loops keep their buffer's shape, which
/// upstream's folders do not see through scf.if), destination-passing results and
/// tensor.empty sizes. Only for published capacities: @main itself is not changed.
FailureOr<Value> cloneExtent(OpBuilder &b, Value extent, IRMapping &mapping) {
  for (int depth = 0; depth < 64; ++depth) {
    FailureOr<Value> cloned = tcc::cloneSymbolExpression(b, extent, mapping);
    if (succeeded(cloned))
      return cloned;
    auto dim = extent.getDefiningOp<tensor::DimOp>();
    std::optional<int64_t> d = dim ? dim.getConstantIndex() : std::nullopt;
    if (!d)
      return failure();
    Value source = dim.getSource();
    OpFoldResult next;
    while (!next) {
      auto result = dyn_cast<OpResult>(source);
      if (!result)
        return failure();
      Operation *op = result.getOwner();
      unsigned k = result.getResultNumber();
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        if (!keepsShapeOf(loop.getYieldedValues()[k], loop.getRegionIterArgs()[k]))
          return failure();
        source = loop.getInitArgs()[k];
      } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
        source = branch.thenYield().getOperand(k); // both branches have one type
      } else if (auto select = dyn_cast<arith::SelectOp>(op)) {
        source = select.getTrueValue(); // (what canonicalization makes of a small scf.if)
      } else if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
        next = empty.getMixedSizes()[*d];
      } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
        source = dps.getTiedOpOperand(result)->get();
      } else {
        return failure();
      }
    }
    if (auto attr = dyn_cast<Attribute>(next))
      return arith::ConstantIndexOp::create(b, extent.getLoc(),
                                            cast<IntegerAttr>(attr).getInt())
          .getResult();
    extent = cast<Value>(next);
  }
  return failure();
}

/// Whether `op` may run in @data_symbols, before the model: scalar arithmetic, and reading
/// input elements through their views.
bool runsBeforeTheModel(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
  return dialect == "arith" || dialect == "math" || dialect == "index" ||
         isa<affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp, memref::ViewOp,
             bufferization::ToTensorOp, tensor::ExtractOp>(op);
}

/// Moves the computations of @main's prim.data_symbol values into a new public function
/// `@data_symbols(symbols..., inputs...) -> (one index per computed symbol, in the module's
/// order)` and replaces each prim.data_symbol with its symbol's argument. The computations
/// may only read input elements and do scalar arithmetic; anything else is an error at the
/// node that needs the symbol.
LogicalResult moveDataSymbols(ModuleOp module, func::FuncOp main,
                              MutableArrayRef<prim::SymbolOp> symbols, unsigned firstInput,
                              unsigned numInputs) {
  SmallVector<prim::DataSymbolOp> ops;
  main.walk([&](prim::DataSymbolOp op) { ops.push_back(op); });
  SmallVector<unsigned> computed;
  for (auto [i, symbol] : llvm::enumerate(symbols))
    if (symbol.getComputed())
      computed.push_back(i);
  if (computed.empty() && ops.empty())
    return success();
  OpBuilder b(main);
  Location loc = main.getLoc();
  Type index = b.getIndexType();
  SmallVector<Type> argTypes(symbols.size(), index);
  for (unsigned i = 0; i < numInputs; ++i)
    argTypes.push_back(main.getArgument(firstInput + i).getType());
  auto fn = func::FuncOp::create(b, loc, "data_symbols",
                                 b.getFunctionType(argTypes, SmallVector<Type>(computed.size(), index)));
  Block *body = fn.addEntryBlock();
  OpBuilder in = OpBuilder::atBlockBegin(body);
  IRMapping mapping;
  for (unsigned s = 0; s < symbols.size(); ++s)
    mapping.map(main.getArgument(s), fn.getArgument(s));
  for (unsigned i = 0; i < numInputs; ++i)
    mapping.map(main.getArgument(firstInput + i), fn.getArgument(symbols.size() + i));

  std::function<FailureOr<Value>(Value, prim::DataSymbolOp)> clone;
  // The element of a one-element tensor computed by arithmetic on other one-element tensors
  // (a 0-d linalg.generic: ONNX's Sub, Div, Ceil, Cast... on scalars), as scalar code: the
  // generic's body cloned with its block arguments bound to its operands' elements.
  std::function<FailureOr<Value>(Value, prim::DataSymbolOp)> element =
      [&](Value tensor, prim::DataSymbolOp user) -> FailureOr<Value> {
    auto type = dyn_cast<RankedTensorType>(tensor.getType());
    Operation *op = tensor.getDefiningOp();
    if (!type || !type.hasStaticShape() || type.getNumElements() != 1 || !op)
      return failure();
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense)
        return failure();
      return arith::ConstantOp::create(in, constant.getLoc(), type.getElementType(),
                                       cast<TypedAttr>(dense.getSplatValue<Attribute>()))
          .getResult();
    }
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
      return element(op->getOperand(0), user);
    if (isa<bufferization::ToTensorOp>(op)) {
      FailureOr<Value> source = clone(tensor, user);
      if (failed(source))
        return failure();
      SmallVector<Value> zeros(type.getRank(),
                               arith::ConstantIndexOp::create(in, op->getLoc(), 0));
      return tensor::ExtractOp::create(in, op->getLoc(), *source, zeros).getResult();
    }
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (!generic || generic.getNumLoops() != 0 || generic.getNumResults() != 1)
      return failure();
    IRMapping body;
    Block &block = generic.getRegion().front();
    for (OpOperand &operand : generic->getOpOperands()) {
      BlockArgument arg = block.getArgument(operand.getOperandNumber());
      if (arg.use_empty())
        continue;
      FailureOr<Value> scalar = element(operand.get(), user);
      if (failed(scalar))
        return failure();
      body.map(arg, *scalar);
    }
    for (Operation &inner : block.without_terminator()) {
      if (!runsBeforeTheModel(&inner))
        return failure();
      // Values the body captures from @main (constants, symbols) come along.
      for (Value operand : inner.getOperands())
        if (!body.contains(operand) && !generic->isAncestor(operand.getParentBlock()->getParentOp())) {
          FailureOr<Value> outside = clone(operand, user);
          if (failed(outside))
            return failure();
          body.map(operand, *outside);
        }
      in.clone(inner, body);
    }
    return body.lookupOrDefault(block.getTerminator()->getOperand(0));
  };
  clone = [&](Value v, prim::DataSymbolOp user) -> FailureOr<Value> {
    if (Value known = mapping.lookupOrNull(v))
      return known;
    Operation *op = v.getDefiningOp();
    if (auto extract = dyn_cast_or_null<tensor::ExtractOp>(op))
      if (!extract.getTensor().getDefiningOp<bufferization::ToTensorOp>()) {
        FailureOr<Value> scalar = element(extract.getTensor(), user);
        if (succeeded(scalar)) {
          mapping.map(v, *scalar);
          return *scalar;
        }
      }
    if (!op || !runsBeforeTheModel(op)) {
      InFlightDiagnostic diag = user.emitError()
          << "the extent named by symbol '" << user.getSymbol()
          << "' is computed at run time from ";
      if (op)
        diag << "'" << op->getName() << "'";
      else
        diag << "a value that is not a graph input";
      diag << "; tcc computes such extents (Range's length) only from graph inputs' "
              "elements and scalar arithmetic on them";
      return failure();
    }
    for (Value operand : op->getOperands())
      if (failed(clone(operand, user)))
        return failure();
    Operation *copy = in.clone(*op, mapping);
    return copy->getResult(cast<OpResult>(v).getResultNumber());
  };

  SmallVector<Value> results(computed.size());
  for (prim::DataSymbolOp op : ops) {
    auto it = llvm::find_if(computed, [&](unsigned s) {
      return symbols[s].getSymNameAttr() == op.getSymbolAttr().getAttr();
    });
    if (it == computed.end())
      return op.emitError() << "internal error: " << op.getSymbolAttr()
                            << " is not a computed symbol";
    unsigned k = it - computed.begin();
    FailureOr<Value> value = clone(op.getValue(), op);
    if (failed(value))
      return failure();
    if (results[k] && results[k] != *value)
      return op.emitError() << "internal error: two computations of " << op.getSymbolAttr();
    results[k] = *value;
    op.replaceAllUsesWith(main.getArgument(*it));
    op.erase();
  }
  for (Value &v : results)
    if (!v) // no longer used: any value in its range
      v = arith::ConstantIndexOp::create(in, loc, 0);
  func::ReturnOp::create(in, loc, results);
  return success();
}

struct EntrySignaturePass : tcc::impl::EntrySignatureBase<EntrySignaturePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal() || module.lookupSymbol("output_shapes"))
      return;
    MLIRContext *context = &getContext();
    Location loc = main.getLoc();
    OpBuilder b(context);
    Type index = b.getIndexType();
    auto raw = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
    unsigned numInputs = main.getNumArguments(), numOutputs = main.getNumResults();

    // 1. One index argument per symbol, in the module's order, in front.
    SmallVector<prim::SymbolOp> symbols(module.getOps<prim::SymbolOp>());
    DenseMap<StringAttr, Value> symbolValue;
    for (auto [i, symbol] : llvm::enumerate(symbols)) {
      if (failed(main.insertArgument(
              i, index, b.getDictionaryAttr({b.getNamedAttr(tcc::kSymbolArgAttr, symbol.getSymNameAttr())}),
              symbol.getLoc())))
        return signalPassFailure();
      symbolValue[symbol.getSymNameAttr()] = main.getArgument(i);
    }
    unsigned firstInput = symbols.size();
    Block &entry = main.front();

    // 1b. Parameters (kernel.parameter arguments, see tcc-autodiff): views into one raw buffer,
    // the last argument, laid out 64-byte aligned in argument order; their initial values
    // and offsets go to the module attribute kernel.parameters for the packager.
    SmallVector<Attribute> parameterEntries;
    DenseMap<StringAttr, int64_t> parameterOffset;
    BlockArgument parametersRaw;
    {
      SmallVector<BlockArgument> params;
      for (BlockArgument arg : main.getArguments())
        if (main.getArgAttr(arg.getArgNumber(), tcc::kernel::KernelDialect::kParameterAttrName))
          params.push_back(arg);
      if (!params.empty()) {
        if (failed(main.insertArgument(main.getNumArguments(), raw,
                                       b.getDictionaryAttr({b.getNamedAttr(
                                           tcc::kernel::KernelDialect::kParametersAttrName, b.getUnitAttr())}),
                                       loc)))
          return signalPassFailure();
        parametersRaw = main.getArgument(main.getNumArguments() - 1);
        b.setInsertionPointToStart(&entry);
        int64_t offset = 0;
        for (BlockArgument arg : params) {
          auto type = cast<RankedTensorType>(arg.getType());
          auto name = main.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "onnx.name");
          auto initial = main.getArgAttrOfType<ElementsAttr>(arg.getArgNumber(), tcc::kernel::KernelDialect::kParameterAttrName);
          unsigned bits = type.getElementType().getIntOrFloatBitWidth();
          int64_t bytes = type.getNumElements() * ((bits + 7) / 8);
          offset = (offset + 63) / 64 * 64;
          Value at = arith::ConstantIndexOp::create(b, loc, offset);
          auto view = memref::ViewOp::create(
              b, loc, MemRefType::get(type.getShape(), type.getElementType()), parametersRaw, at,
              ValueRange{});
          // A KV cache is written in place (its new positions); other parameters are read,
          // their training update written over them at the end.
          bool cache = main.getArgAttr(arg.getArgNumber(),
                                       tcc::kernel::KernelDialect::kCacheAttrName) != nullptr;
          auto tensor = bufferization::ToTensorOp::create(b, loc, type, view, /*restrict=*/true,
                                                          /*writable=*/cache);
          arg.replaceAllUsesWith(tensor.getResult());
          parameterOffset[name] = offset;
          parameterEntries.push_back(b.getDictionaryAttr(
              {b.getNamedAttr("name", name), b.getNamedAttr("offset", b.getI64IntegerAttr(offset)),
               b.getNamedAttr("value", initial)}));
          offset += bytes;
        }
        for (BlockArgument arg : llvm::reverse(params))
          if (failed(main.eraseArgument(arg.getArgNumber())))
            return signalPassFailure();
        numInputs = main.getNumArguments() - firstInput - 1;
        module->setAttr(tcc::kernel::KernelDialect::kParametersAttrName, b.getArrayAttr(parameterEntries));
        module->setAttr(tcc::kernel::KernelDialect::kParametersSizeAttrName, b.getI64IntegerAttr((offset + 63) / 64 * 64));
      }
    }

    // 2. Inputs: raw buffers viewed with their dims from the bind_shape maps.
    DenseMap<Value, prim::BindShapeOp> binds;
    for (auto bind : llvm::make_early_inc_range(main.getOps<prim::BindShapeOp>()))
      binds[bind.getOperand()] = bind;
    b.setInsertionPointToStart(&entry);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    for (unsigned i = 0; i < numInputs; ++i) {
      unsigned position = firstInput + i;
      BlockArgument arg = main.getArgument(position);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type) {
        main.emitError() << "input '" << nameOf(main, position, false)
                         << "' is not a ranked tensor (" << arg.getType() << ")";
        return signalPassFailure();
      }
      SmallVector<Value> dims(type.getRank());
      SmallVector<Value> dynamic;
      prim::BindShapeOp bind = binds.lookup(arg);
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d)) {
          dims[d] = arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
          continue;
        }
        if (!bind) {
          main.emitError() << "input '" << nameOf(main, position, false) << "' dim " << d
                           << " is dynamic but bound to no symbol";
          return signalPassFailure();
        }
        AffineMap map = bind.getShape();
        // The runtime takes each symbol's value from an input dim that is that symbol alone.
        if (!isa<AffineSymbolExpr>(map.getResult(d))) {
          std::string text;
          llvm::raw_string_ostream os(text);
          map.getResult(d).print(os);
          main.emitError() << "input '" << nameOf(main, position, false) << "' dim " << d
                           << " is the expression " << text
                           << " of symbols; input dims must be a symbol alone (or static: "
                              "--dim NAME=VALUE)";
          return signalPassFailure();
        }
        SmallVector<Value> operands;
        for (Attribute s : bind.getSymbols())
          operands.push_back(symbolValue.lookup(cast<FlatSymbolRefAttr>(s).getAttr()));
        if (llvm::is_contained(operands, Value())) {
          bind.emitError() << "a symbol of this binding is not declared";
          return signalPassFailure();
        }
        dims[d] = affine::makeComposedAffineApply(
                      b, loc, AffineMap::get(0, map.getNumSymbols(), map.getResult(d)),
                      getAsOpFoldResult(operands))
                      .getResult();
        dynamic.push_back(dims[d]);
      }
      // The raw argument replaces the tensor one; the tensor is read through the view.
      if (failed(main.insertArgument(position, raw, main.getArgAttrDict(position), loc)))
        return signalPassFailure();
      BlockArgument rawArg = main.getArgument(position);
      BlockArgument old = main.getArgument(position + 1);
      auto view = memref::ViewOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()), rawArg, zero, dynamic);
      auto tensor = bufferization::ToTensorOp::create(b, loc, type, view, /*restrict=*/true,
                                                      /*writable=*/false);
      for (OpOperand &use : llvm::make_early_inc_range(old.getUses())) {
        if (auto dim = dyn_cast<tensor::DimOp>(use.getOwner()))
          if (std::optional<int64_t> d = dim.getConstantIndex()) {
            dim.replaceAllUsesWith(dims[*d]);
            dim.erase();
            continue;
          }
        use.set(tensor);
      }
      if (failed(main.eraseArgument(position + 1)))
        return signalPassFailure();
    }
    for (auto [value, bind] : binds)
      bind.erase();

    // 2b. Computed symbols (prim.data_symbol, Range with run-time bounds): their values are
    // computed from input elements by @data_symbols(symbols..., inputs...), which the
    // runtime calls before sizing anything; in @main they are symbol arguments like any.
    if (failed(moveDataSymbols(module, main, symbols, firstInput, numInputs)))
      return signalPassFailure();

    // 3. Output extents: dims of the returned values, resolved to symbol arithmetic.
    auto ret = cast<func::ReturnOp>(entry.getTerminator());
    b.setInsertionPoint(ret);
    SmallVector<SmallVector<Value>> outputDims(numOutputs);
    for (auto [o, value] : llvm::enumerate(ret.getOperands())) {
      if (main.getResultAttr(o, tcc::kernel::KernelDialect::kUpdateOfAttrName))
        continue; // written back into its parameter, not an output
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type) {
        main.emitError() << "output '" << nameOf(main, o, true) << "' is not a ranked tensor";
        return signalPassFailure();
      }
      for (int64_t d = 0; d < type.getRank(); ++d)
        outputDims[o].push_back(type.isDynamicDim(d)
                                    ? tensor::DimOp::create(b, loc, value, d).getResult()
                                    : arith::ConstantIndexOp::create(b, loc, type.getDimSize(d))
                                          .getResult());
    }
    // The dims are kept alive through the resolution by a call to a temporary declaration.
    SmallVector<Value> flat;
    for (auto &dims : outputDims)
      llvm::append_range(flat, dims);
    OpBuilder atModule(main);
    auto keep = func::FuncOp::create(atModule, loc, "tcc_keep_alive",
                                     b.getFunctionType(ValueRange(flat).getTypes(), {}));
    keep.setPrivate();
    Operation *holder = func::CallOp::create(b, loc, keep, flat);
    if (failed(resolveDims(main))) {
      main.emitError() << "internal error: resolving the extents did not converge";
      return signalPassFailure();
    }
    ret = cast<func::ReturnOp>(entry.getTerminator());

    // 4. Outputs become raw buffers written in place; their views need the extents at entry.
    // (The resolution may have erased the first constant zero: make another.)
    b.setInsertionPointToStart(&entry);
    zero = arith::ConstantIndexOp::create(b, loc, 0);
    IRMapping atEntry;
    for (unsigned s = 0; s < symbols.size(); ++s)
      atEntry.map(main.getArgument(s), main.getArgument(s));
    unsigned k = 0;
    SmallVector<Attribute> outputSymbols;
    // What @output_shapes returns: the extents, with capacities for data-dependent dims.
    SmallVector<Value> published(holder->getOperands());
    func::FuncOp reportExtent;
    for (unsigned o = 0; o < numOutputs; ++o) {
      auto type = cast<RankedTensorType>(ret.getOperand(o).getType());
      if (auto of = main.getResultAttrOfType<StringAttr>(o, tcc::kernel::KernelDialect::kUpdateOfAttrName)) {
        // A training step's new parameter value: written over the parameter, in place (all
        // reads of the parameter come before; the update itself reads it elementwise).
        auto it = parameterOffset.find(of);
        if (it == parameterOffset.end()) {
          main.emitError() << "internal error: an update of '" << of.getValue()
                           << "', which is not a parameter";
          return signalPassFailure();
        }
        OpBuilder atReturn(ret);
        Value at = arith::ConstantIndexOp::create(atReturn, loc, it->second);
        auto view = memref::ViewOp::create(
            atReturn, loc, MemRefType::get(type.getShape(), type.getElementType()), parametersRaw,
            at, ValueRange{});
        auto store = bufferization::MaterializeInDestinationOp::create(atReturn, loc, Type(),
                                                                       ret.getOperand(o), view);
        store.setRestrict(true);
        store.setWritable(true);
        continue;
      }
      SmallVector<Value> dynamic;
      SmallVector<int32_t> dimSymbols;
      SmallVector<std::pair<int64_t, Value>> dataDependent; // (dim, actual extent)
      for (int64_t d = 0; d < type.getRank(); ++d, ++k) {
        Value extent = holder->getOperand(k);
        dimSymbols.push_back(-1);
        if (!type.isDynamicDim(d))
          continue;
        if (tcc::isSymbolArgument(extent))
          dimSymbols.back() = cast<BlockArgument>(extent).getArgNumber();
        FailureOr<Value> cloned = tcc::cloneSymbolExpression(b, extent, atEntry);
        if (succeeded(cloned)) {
          dynamic.push_back(*cloned);
          continue;
        }
        // Known only after the computation: the view is made at the return, with the
        // actual extent, and the capacity is what @output_shapes publishes.
        FailureOr<Value> clonedCapacity = tcc::cloneUpperBound(
            b, extent, [&](Value v) { return cloneExtent(b, v, atEntry); });
        if (failed(clonedCapacity)) {
          InFlightDiagnostic diag = main.emitError();
          diag << "output '" << nameOf(main, o, true) << "' dim " << d
               << ": its extent depends on the data and has no known upper bound "
                  "(data-dependent extents come from NonZero, Compress, Unique and "
                  "other compactions, bounded by their input's size)";
          diag.attachNote() << "where the extent follows from an input's dims, give those dims "
                               "a range (tcc --dim NAME=MIN:MAX), which bounds it";
          return signalPassFailure();
        }
        dimSymbols.back() = kDataDependentDim;
        published[k] = *clonedCapacity;
        dataDependent.push_back({d, extent});
        dynamic.push_back(extent);
      }
      outputSymbols.push_back(b.getDenseI32ArrayAttr(dimSymbols));
      // Outputs come before the parameter buffer (the last argument), if any.
      unsigned position = main.getNumArguments() - (parametersRaw ? 1 : 0);
      if (failed(main.insertArgument(position, raw, main.getResultAttrDict(o), loc)))
        return signalPassFailure();
      OpBuilder atReturn(ret);
      OpBuilder &viewAt = dataDependent.empty() ? b : atReturn;
      auto view = memref::ViewOp::create(
          viewAt, loc, MemRefType::get(type.getShape(), type.getElementType()),
          main.getArgument(position), zero, dynamic);
      auto store = bufferization::MaterializeInDestinationOp::create(atReturn, loc, Type(),
                                                                     ret.getOperand(o), view);
      store.setRestrict(true);
      store.setWritable(true);
      // The runtime learns the actual extents through the import table (see
      // tcc::kReportOutputExtent; the packager routes the call there).
      for (auto [d, extent] : dataDependent) {
        if (!reportExtent) {
          OpBuilder atModule(main);
          reportExtent = func::FuncOp::create(
              atModule, loc, tcc::kReportOutputExtent,
              b.getFunctionType({index, index, index}, {}));
          reportExtent.setPrivate();
        }
        func::CallOp::create(atReturn, loc, reportExtent,
                             ValueRange{arith::ConstantIndexOp::create(atReturn, loc, o),
                                        arith::ConstantIndexOp::create(atReturn, loc, d),
                                        extent});
      }
    }
    module->setAttr(tcc::kernel::KernelDialect::kOutputSymbolsAttrName, b.getArrayAttr(outputSymbols));

    // 5. @output_shapes(symbols...) -> every output extent, output after output.
    b.setInsertionPoint(main);
    SmallVector<Type> symbolTypes(symbols.size(), index);
    auto shapes = func::FuncOp::create(
        b, loc, "output_shapes",
        b.getFunctionType(symbolTypes, SmallVector<Type>(holder->getNumOperands(), index)));
    // Public: drop-equivalent-buffer-results would otherwise drop results that are arguments.
    // (Packaging makes every function but the descriptor internal.)
    Block *body = shapes.addEntryBlock();
    b.setInsertionPointToStart(body);
    IRMapping inShapes;
    for (unsigned s = 0; s < symbols.size(); ++s)
      inShapes.map(main.getArgument(s), shapes.getArgument(s));
    SmallVector<Value> extents;
    for (Value extent : published)
      extents.push_back(*tcc::cloneSymbolExpression(b, extent, inShapes));
    func::ReturnOp::create(b, loc, extents);

    holder->erase();
    keep.erase();
    OpBuilder end(ret);
    func::ReturnOp::create(end, ret.getLoc());
    ret.erase();
    main.setFunctionType(b.getFunctionType(main.getArgumentTypes(), {}));
    main.removeResAttrsAttr();
  }
};

} // namespace
