//===- CollapseDims.cpp - a kernel's loops that walk memory together merged into one ----===//
#include "tcc/Codegen/Passes.h"
#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tcc {
#define GEN_PASS_DEF_COLLAPSEDIMS
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// An operand read with a constant 0 on unit dims (a broadcast of [n, c, 1, 1] over the
/// maps: the map (n, c, y, x) -> (n, c, 0, 0)) is read instead as the buffer without those
/// dims, [n, c] through (n, c, y, x) -> (n, c): the same elements, and a map made of loop
/// dims alone, so that the loops over y and x may merge. Elementwise generics only (every
/// loop parallel), on buffers with the identity layout; an operand made of unit dims alone
/// stays as it is.
void dropBroadcastUnitDims(linalg::GenericOp op, IRRewriter &rewriter) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() != 0)
    return;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = maps[operand->getOperandNumber()];
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    if (!type || !type.getLayout().isIdentity() || map.getNumResults() != type.getRank())
      continue;
    auto isUnitConstant = [&](unsigned k) {
      auto constant = dyn_cast<AffineConstantExpr>(map.getResult(k));
      return constant && constant.getValue() == 0 && type.getDimSize(k) == 1;
    };
    SmallVector<AffineExpr> kept;
    SmallVector<ReassociationIndices> groups;
    bool plain = true;
    int64_t leading = 0; // unit dims before the first kept one join its group
    for (unsigned k = 0; k < map.getNumResults(); ++k) {
      if (isUnitConstant(k)) {
        if (groups.empty())
          ++leading;
        else
          groups.back().push_back(k);
        continue;
      }
      if (!isa<AffineDimExpr>(map.getResult(k))) {
        plain = false;
        break;
      }
      kept.push_back(map.getResult(k));
      groups.push_back({});
      if (groups.size() == 1)
        for (int64_t u = 0; u < leading; ++u)
          groups.back().push_back(u);
      groups.back().push_back(k);
    }
    if (!plain || kept.empty() || static_cast<int64_t>(kept.size()) == type.getRank())
      continue;
    rewriter.setInsertionPoint(op);
    Value collapsed =
        memref::CollapseShapeOp::create(rewriter, op.getLoc(), operand->get(), groups);
    rewriter.modifyOpInPlace(op, [&] { operand->set(collapsed); });
    maps[operand->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
    changed = true;
  }
  if (changed)
    rewriter.modifyOpInPlace(op, [&] { op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps)); });
}

/// Whether every loop dim of `op` may be merged at all: a generic on buffers whose maps are
/// plain dims (no constants, no sums), without linalg.index.
bool isCollapsible(linalg::LinalgOp op) {
  return isa<linalg::GenericOp>(op.getOperation()) && op.hasPureBufferSemantics() &&
         !op.hasIndexSemantics() &&
         llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) { return map.isProjectedPermutation(); });
}

/// The result position of loop dim `d` in `map`, if it reads it.
std::optional<unsigned> position(AffineMap map, unsigned d) {
  return map.getResultPosition(getAffineDimExpr(d, map.getContext()));
}

/// Whether loop dims d - 1 and d can be one: the same iterator type, and every operand reads
/// both (d right after d - 1, from a buffer with the identity layout) or neither.
bool canMerge(linalg::LinalgOp op, unsigned d) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[d] != iterators[d - 1])
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> before = position(map, d - 1), after = position(map, d);
    if (!before && !after)
      continue;
    if (!before || !after || *after != *before + 1)
      return false;
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getLayout().isIdentity())
      return false;
  }
  return true;
}

/// Runs of adjacent loop dims that can be merged, as a reassociation (singletons included).
SmallVector<ReassociationIndices> collapsibleGroups(linalg::LinalgOp op) {
  SmallVector<ReassociationIndices> groups;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    if (d > 0 && canMerge(op, d))
      groups.back().push_back(d);
    else
      groups.push_back({static_cast<int64_t>(d)});
  }
  return groups;
}

bool mergesAny(ArrayRef<ReassociationIndices> groups) {
  return llvm::any_of(groups, [](const ReassociationIndices &g) { return g.size() > 1; });
}

/// In a kernel that kernel formation gave an epilogue (contraction, then an elementwise op
/// on its result), both merge the same output dims or neither merges: the tiler applies the
/// epilogue to the contraction's registers only when they index the same buffer the same way.
/// Returns the epilogue's reassociation, or nothing.
std::optional<SmallVector<ReassociationIndices>>
epilogueGroups(linalg::LinalgOp contraction, linalg::LinalgOp epilogue,
               ArrayRef<ReassociationIndices> contractionGroups) {
  AffineMap outMap = contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  if (!isCollapsible(epilogue) || epilogue.getNumLoops() != outMap.getNumResults())
    return std::nullopt;
  // Epilogue loop k is output index k, which the contraction's loop outMap(k) walks.
  auto groupOf = [&](unsigned k) {
    unsigned d = cast<AffineDimExpr>(outMap.getResult(k)).getPosition();
    for (auto [index, group] : llvm::enumerate(contractionGroups))
      if (llvm::is_contained(group, d))
        return index;
    return contractionGroups.size();
  };
  SmallVector<ReassociationIndices> groups;
  for (unsigned k = 0; k < epilogue.getNumLoops(); ++k) {
    if (k > 0 && groupOf(k) == groupOf(k - 1)) {
      if (!canMerge(epilogue, k))
        return std::nullopt;
      groups.back().push_back(k);
    } else {
      groups.push_back({static_cast<int64_t>(k)});
    }
  }
  return groups;
}

void collapse(linalg::LinalgOp op, ArrayRef<ReassociationIndices> groups, IRRewriter &rewriter) {
  if (!mergesAny(groups))
    return;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed = linalg::collapseOpIterationDims(op, groups, rewriter);
  if (succeeded(collapsed))
    rewriter.replaceOp(op, collapsed->results);
}

/// A kernel that only fills a buffer (a padded buffer's border value) fills it as one flat
/// run, so that threads can split it whatever its leading extent (a batch of 1).
void flattenFill(linalg::FillOp fill, IRRewriter &rewriter) {
  auto type = dyn_cast<MemRefType>(fill.getDpsInitOperand(0)->get().getType());
  if (!type || type.getRank() < 2 || !type.getLayout().isIdentity() || !fill.hasPureBufferSemantics())
    return;
  rewriter.setInsertionPoint(fill);
  ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  Value flat = memref::CollapseShapeOp::create(rewriter, fill.getLoc(), fill.getDpsInitOperand(0)->get(),
                                               ArrayRef<ReassociationIndices>{all});
  linalg::FillOp::create(rewriter, fill.getLoc(), ValueRange{fill.getDpsInputOperand(0)->get()}, ValueRange{flat});
  rewriter.eraseOp(fill);
}

struct CollapseDimsPass : tcc::impl::CollapseDimsBase<CollapseDimsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](func::FuncOp function) {
      if (!tcc::kernel::isKernel(function))
        return;
      function.walk([&](linalg::GenericOp op) { dropBroadcastUnitDims(op, rewriter); });
      SmallVector<linalg::LinalgOp> ops;
      function.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
      if (ops.size() == 1)
        if (auto fill = dyn_cast<linalg::FillOp>(ops.front().getOperation()))
          return flattenFill(fill, rewriter);
      // An epilogue kernel: fill?, contraction, epilogue (see tcc-outline-kernels).
      linalg::LinalgOp contraction, epilogue;
      if (tcc::kernel::getKernelAttr(function).getEpilogue())
        for (auto [k, op] : llvm::enumerate(ops))
          if (op.getNumReductionLoops() > 0 && k + 1 < ops.size()) {
            contraction = op;
            epilogue = ops[k + 1];
            break;
          }
      for (linalg::LinalgOp op : ops) {
        if (op == epilogue)
          continue;
        if (!isCollapsible(op))
          continue;
        SmallVector<ReassociationIndices> groups = collapsibleGroups(op);
        if (op == contraction) {
          std::optional<SmallVector<ReassociationIndices>> tail = epilogueGroups(op, epilogue, groups);
          if (!tail)
            continue;
          collapse(epilogue, *tail, rewriter);
        }
        collapse(op, groups, rewriter);
      }
    });
  }
};

} // namespace
