//===- LoopBodies.cpp - a linalg op's payload inside hand-built GPU loops ----------------===//
#include "LoopBodies.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace tcc::gpu {

/// The indices `map` selects from the loop indices `ivs`.
SmallVector<Value> indicesOf(OpBuilder &b, Location loc, AffineMap map, ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), map.getNumSymbols(), expr), ivs));
  }
  return indices;
}

/// Maps each input of `op` that its body reads to its value at loop indices `ivs`: a load,
/// or the scalar itself. Operands for which `skip` holds are left to the caller.
void mapInputs(OpBuilder &b, Location loc, linalg::LinalgOp op, ArrayRef<Value> ivs,
               IRMapping &mapping, function_ref<bool(OpOperand &)> skip) {
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    if (arg.use_empty() || (skip && skip(*input)))
      continue;
    Value value = input->get();
    if (isa<MemRefType>(value.getType()))
      value = memref::LoadOp::create(b, loc, value,
                                     indicesOf(b, loc, op.getMatchingIndexingMap(input), ivs));
    mapping.map(arg, value);
  }
}

/// Clones the body of `op` (but `except`) with `mapping`, linalg.index as `ivs`; returns
/// what it yields.
SmallVector<Value> cloneBody(OpBuilder &b, linalg::LinalgOp op, ArrayRef<Value> ivs,
                             IRMapping &mapping, Operation *except) {
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (&inner == except)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> yielded;
  for (Value v : body->getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(v));
  return yielded;
}

/// The op's payload at loop indices `ivs`, with the outputs' current values `outputs`:
/// loads the inputs, clones the body, and returns what it yields.
SmallVector<Value> emitPayload(OpBuilder &b, Location loc, linalg::LinalgOp op, ArrayRef<Value> ivs,
                               ValueRange outputs) {
  IRMapping mapping;
  mapInputs(b, loc, op, ivs, mapping);
  for (auto [k, output] : llvm::enumerate(op.getDpsInitsMutable()))
    if (outputs[k]) // null: the body does not read this output
      mapping.map(op.getMatchingBlockArgument(&output), outputs[k]);
  return cloneBody(b, op, ivs, mapping);
}

/// Whether `map` is the identity on `rank` dims.
static bool isIdentity(AffineMap map, int64_t rank) {
  return map.isIdentity() && map.getNumDims() == rank;
}

/// The next (or previous) operation that touches memory, skipping constants and other pure
/// operations.
static Operation *neighbour(Operation *op, bool forward) {
  for (Operation *n = forward ? op->getNextNode() : op->getPrevNode(); n;
       n = forward ? n->getNextNode() : n->getPrevNode())
    if (!isMemoryEffectFree(n))
      return n;
  return nullptr;
}

/// The buffer a view (subview, reshape, cast, view) is of.
static Value baseOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    v = view.getViewSource();
  }
  return v;
}

/// The buffer under reshapes (tcc-collapse-dims merges a contraction's dims but not its
/// fill's): views of every element, so a fill of one fills the others.
static Value reshapedFrom(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def))
      v = collapse.getSrc();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
      v = expand.getSrc();
    else
      break;
  }
  return v;
}

Fusion findFusion(linalg::LinalgOp op, ArrayRef<int64_t> parallel) {
  Fusion fusion;
  if (op.getNumDpsInits() != 1 || parallel.empty())
    return fusion;
  Value out = op.getDpsInits()[0];
  auto outType = dyn_cast<MemRefType>(out.getType());
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  // The output is indexed by the parallel dims, in order.
  if (!outType || outMap.getNumResults() != static_cast<int64_t>(parallel.size()))
    return fusion;
  for (auto [k, expr] : llvm::enumerate(outMap.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != parallel[k])
      return fusion;
  }
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(neighbour(op, /*forward=*/false)))
    if (reshapedFrom(fill.getDpsInits()[0]) == reshapedFrom(out))
      fusion.fill = fill;
  auto epilogue = dyn_cast_or_null<linalg::GenericOp>(neighbour(op, /*forward=*/true));
  if (!epilogue || epilogue.getNumDpsInits() != 1 || epilogue.getDpsInits()[0] != out ||
      !epilogue.hasPureBufferSemantics() ||
      epilogue.getNumLoops() != static_cast<unsigned>(outType.getRank()) ||
      llvm::any_of(epilogue.getIteratorTypesArray(),
                   [](utils::IteratorType t) { return t != utils::IteratorType::parallel; }))
    return fusion;
  int64_t rank = outType.getRank();
  Value root = baseOf(out);
  SmallVector<Operation *> hoisted;
  for (OpOperand &operand : epilogue->getOpOperands()) {
    Value v = operand.get();
    if (v == out) {
      if (!isIdentity(epilogue.getMatchingIndexingMap(&operand), rank))
        return fusion;
      continue;
    }
    // Another view of the output would be read before the fused loop stores it.
    if (isa<MemRefType>(v.getType()) && baseOf(v) == root)
      return fusion;
    // Operands made between the two ops (views, constants) move before the contraction,
    // where the fused loop reads them; only those made of values defined before it.
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == op->getBlock() && op->isBeforeInBlock(def)) {
      if (!isMemoryEffectFree(def) || def->getNumRegions() ||
          llvm::any_of(def->getOperands(), [&](Value x) {
            Operation *d = x.getDefiningOp();
            return d && d->getBlock() == op->getBlock() && op->isBeforeInBlock(d);
          }))
        return fusion;
      hoisted.push_back(def);
    }
  }
  for (Operation *def : hoisted)
    def->moveBefore(op);
  fusion.epilogue = epilogue;
  return fusion;
}

/// The epilogue's payload at output indices `ivs`, where the contraction's output holds
/// `value` (not yet stored): its other inputs are loaded there.
SmallVector<Value> emitEpilogue(OpBuilder &b, Location loc, linalg::GenericOp epilogue,
                                ArrayRef<Value> ivs, Value value, Value out) {
  IRMapping mapping;
  // The output, as an input and as the init, is the value not yet stored.
  for (OpOperand &operand : epilogue->getOpOperands())
    if (operand.get() == out)
      mapping.map(epilogue.getMatchingBlockArgument(&operand), value);
  mapInputs(b, loc, epilogue, ivs, mapping,
            [&](OpOperand &operand) { return operand.get() == out; });
  return cloneBody(b, epilogue, ivs, mapping);
}

} // namespace tcc::gpu
