//===- OutlineKernels.cpp - each compute op of @main becomes a kernel function ----------===//
#include "tcc/Fuse/Passes.h"

#include "tcc/Support/Diagnostics.h"
#include "tcc/Support/LinalgBodies.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"

namespace tcc {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "tcc/Fuse/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

bool containsLinalg(Operation *op) {
  bool found = false;
  op->walk([&](linalg::LinalgOp) { found = true; });
  return found;
}

/// Ops that become kernels: linalg ops, attention, pads and slice inserts, loops, and tensor-valued
/// branches without linalg ops (a one-element scatter's guarded insert, once its loop of one
/// iteration is folded away: left in @main, bufferization would copy its operand inside it).
bool isKernelOp(Operation *op) {
  if (isa<scf::IfOp>(op))
    return op->getNumResults() > 0 && !containsLinalg(op) &&
           llvm::any_of(op->getResultTypes(), [](Type t) { return isa<RankedTensorType>(t); });
  return isa<linalg::LinalgOp, tensor::PadOp, tensor::InsertSliceOp, scf::ForOp,
             tcc::kernel::AttentionOp>(op);
}

/// A loop that runs kernels (one that contains linalg ops: prim.loop's time loops) stays on
/// the host, and its body's compute ops become kernels called once per iteration. Loops
/// without linalg ops (sort, scatter, compaction) are kernels themselves.
bool isHostLoop(Operation *op) {
  return isa<scf::ForOp>(op) && containsLinalg(op);
}

/// The ops of `block` to outline, looking into host loops.
void collectKernels(Block &block, SmallVectorImpl<Operation *> &kernels) {
  for (Operation &op : block) {
    if (isHostLoop(&op))
      collectKernels(*cast<scf::ForOp>(op).getBody(), kernels);
    else if (isKernelOp(&op))
      kernels.push_back(&op);
  }
}

/// A symbol-safe version of an ONNX node name: its end, where exporters put the op type.
std::string sanitize(StringRef name) {
  std::string out;
  for (char c : name.take_back(48))
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

/// Marks the view of a padded buffer's interior that writeIntoPadded gives the result's
/// other readers.
constexpr llvm::StringLiteral kInteriorAttr = "tcc.padded_interior";

/// Values cloned into a kernel instead of passed: scalar constants.
bool isClonable(Value v) {
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  return constant && !isa<ShapedType>(constant.getType());
}

/// A pooling window: `out = max/min/+(out, in)` where `in`'s last index follows the
/// output's last (the tiler keeps such accumulators in registers, starting from the fill).
bool isWindowReduction(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 || !body ||
      body->getOperations().size() != 2)
    return false;
  Operation *combine = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp, arith::AddFOp>(combine))
    return false;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0)
    return false;
  AffineExpr fastest = outMap.getResults().back();
  for (Value operand : combine->getOperands())
    if (auto arg = dyn_cast<BlockArgument>(operand); arg && arg.getArgNumber() < op.getNumDpsInputs()) {
      AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(arg.getArgNumber()));
      auto dim = dyn_cast<AffineDimExpr>(fastest);
      return dim && map.getNumResults() > 0 && map.getResults().back().isFunctionOfDim(dim.getPosition());
    }
  return false;
}

/// What a kernel formed from `group` computes (see #kernel.kernel); `computed` is the op
/// the kernel is about.
tcc::kernel::KernelKind kindOf(ArrayRef<Operation *> group, Operation *computed) {
  using tcc::kernel::KernelKind;
  for (Operation *op : group)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (tcc::accumulatesProducts(linalgOp))
        return KernelKind::contraction;
      if (isWindowReduction(linalgOp))
        return KernelKind::window;
    }
  if (isa<linalg::FillOp>(computed))
    return KernelKind::fill;
  if (isa<linalg::LinalgOp>(computed))
    return KernelKind::generic;
  if (isa<scf::ForOp>(computed))
    return KernelKind::loop;
  if (isa<tcc::kernel::AttentionOp>(computed))
    return KernelKind::attention;
  return KernelKind::copy;
}

/// The elementwise op that reads a contraction's result once per element, in the same
/// order, and is its only user: the contraction's epilogue (bias, activation, residual).
linalg::GenericOp findEpilogue(linalg::LinalgOp contraction) {
  Value result = contraction->getResult(0);
  if (!result.hasOneUse())
    return nullptr;
  auto epilogue = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
  if (!epilogue || epilogue.getNumReductionLoops() != 0 || epilogue.getNumDpsInits() != 1 ||
      epilogue.hasIndexSemantics() || epilogue->getParentRegion() != contraction->getParentRegion())
    return nullptr;
  auto type = cast<ShapedType>(result.getType());
  if (epilogue.getNumLoops() != type.getRank())
    return nullptr;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(type.getRank(), epilogue.getContext());
  if (epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0)) != identity)
    return nullptr;
  int reads = 0;
  for (OpOperand *input : epilogue.getDpsInputOperands())
    if (input->get() == result) {
      if (epilogue.getMatchingIndexingMap(input) != identity)
        return nullptr;
      ++reads;
    }
  return reads == 1 ? epilogue : nullptr;
}

/// A kernel [fill, contraction, epilogue] whose fill starts from a slice of a buffer that
/// the epilogue's result is inserted back into, at the same place (a concatenation's
/// operand): the slice and the insert join the kernel, which then takes the whole buffer
/// and writes its part in place (one subview, as writeIntoPadded's), instead of writing a
/// buffer of its own that a copy kernel moves into the concatenation.
void absorbSlice(SmallVectorImpl<Operation *> &group) {
  auto fill = dyn_cast<linalg::FillOp>(group.front());
  Operation *last = group.back();
  if (!fill || last->getNumResults() != 1 || !last->getResult(0).hasOneUse())
    return;
  auto slice = fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::ExtractSliceOp>();
  auto insert = dyn_cast<tensor::InsertSliceOp>(*last->getResult(0).getUsers().begin());
  if (!slice || !insert || insert.getSource() != last->getResult(0) ||
      insert.getDest() != slice.getSource() || slice->getBlock() != fill->getBlock() ||
      insert->getBlock() != fill->getBlock() || insert.getSourceType() != slice.getResultType())
    return;
  auto same = [](ArrayRef<OpFoldResult> a, ArrayRef<OpFoldResult> b) {
    return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair), std::get<1>(pair));
           });
  };
  if (!same(slice.getMixedOffsets(), insert.getMixedOffsets()) ||
      !same(slice.getMixedSizes(), insert.getMixedSizes()) ||
      !same(slice.getMixedStrides(), insert.getMixedStrides()))
    return;
  // A slice CSE shared with another kernel (equal slices of one empty buffer): a copy of
  // its own.
  if (!slice->hasOneUse()) {
    OpBuilder b(slice);
    slice = cast<tensor::ExtractSliceOp>(b.clone(*slice));
    fill.getDpsInitOperand(0)->set(slice.getResult());
  }
  group.insert(group.begin(), slice);
  group.push_back(insert);
}

/// The ops one kernel computes, in order: an op alone (a reduction gets a fill of its own
/// when CSE shared one), or a contraction with the fill of its accumulator and its epilogue (kernel formation: the tiler then starts from the fill
/// value in registers and applies the epilogue before storing, so the contraction's raw
/// result is never written). Marks the epilogue in place on the contraction's buffer.
SmallVector<Operation *> formKernel(Operation *op, const DenseSet<Operation *> &taken) {
  auto contraction = dyn_cast<linalg::LinalgOp>(op);
  if (!contraction || contraction.getNumReductionLoops() == 0 || contraction.getNumDpsInits() != 1 ||
      !contraction.hasPureTensorSemantics())
    return {op};
  SmallVector<Operation *> group;
  Value init = contraction.getDpsInitOperand(0)->get();
  // CSE merges equal fills of equal empty tensors: every contraction that accumulates into
  // the shared one would need a copy of it. Each gets its own, and absorbs it.
  if (auto fill = init.getDefiningOp<linalg::FillOp>(); fill && !fill->hasOneUse() && fill->getNumResults() == 1)
    if (auto empty = fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>()) {
      OpBuilder b(op);
      Operation *ownEmpty = b.clone(*empty);
      IRMapping mapping;
      mapping.map(empty.getResult(), ownEmpty->getResult(0));
      Operation *ownFill = b.clone(*fill, mapping);
      contraction.getDpsInitOperand(0)->set(ownFill->getResult(0));
      init = ownFill->getResult(0);
    }
  // Other reductions keep their fill as a kernel of its own: each is then one parallel loop
  // nest that threads can split (only the tiler folds a fill into the loops after it: for
  // contractions and pooling windows).
  if (!tcc::accumulatesProducts(contraction) && !isWindowReduction(contraction))
    return {op};
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    if (fill->hasOneUse() && fill->getBlock() == op->getBlock())
      group.push_back(fill);
  group.push_back(op);
  if (!tcc::accumulatesProducts(contraction))
    return group;
  linalg::GenericOp epilogue = findEpilogue(contraction);
  if (epilogue && !taken.contains(epilogue)) {
    // The epilogue writes where the contraction wrote, when its body ignores the old value.
    Value result = contraction->getResult(0);
    Block *body = epilogue.getBody();
    if (epilogue.getResult(0).getType() == result.getType() &&
        body->getArgument(body->getNumArguments() - 1).use_empty()) {
      // Where the epilogue wrote into a real destination (a model output, or its slice of a
      // concatenation's buffer), the contraction accumulates there from the start: no
      // scratch buffer, no copy into the output. The destination may be made after the
      // fill (a concatenation's slice is cut where its epilogue was): the kernel's call
      // takes the epilogue's place, where the destination is known.
      Value dest = epilogue.getDpsInitOperand(0)->get();
      auto fill = group.front() != op ? dyn_cast<linalg::FillOp>(group.front()) : nullptr;
      auto scratch = fill ? fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>() : nullptr;
      Operation *destOp = dest.getDefiningOp();
      if (scratch && !dest.getDefiningOp<tensor::EmptyOp>() &&
          dest.getType() == scratch.getType() &&
          (!destOp ? cast<BlockArgument>(dest).getOwner() == fill->getBlock()
                   : destOp->getBlock() == fill->getBlock())) {
        fill.getDpsInitOperand(0)->set(dest);
        epilogue.getDpsInitOperand(0)->set(result);
        group.push_back(epilogue);
        absorbSlice(group);
        return group;
      }
      epilogue.getDpsInitOperand(0)->set(result);
    }
    group.push_back(epilogue);
  }
  return group;
}

/// Whether two sizes are the same value: one SSA value, or the same dim of one tensor.
bool sameExtent(OpFoldResult a, OpFoldResult b) {
  if (a == b)
    return true;
  auto x = dyn_cast<Value>(a), y = dyn_cast<Value>(b);
  auto dx = x ? x.getDefiningOp<tensor::DimOp>() : nullptr, dy = y ? y.getDefiningOp<tensor::DimOp>() : nullptr;
  return dx && dy && dx.getSource() == dy.getSource() && dx.getConstantIndex() &&
         dx.getConstantIndex() == dy.getConstantIndex();
}

/// The pad extents of `insert` (a decomposed pad: its source into a buffer of the padded
/// sizes) per dim, when only the border needs the padding value: every padded dim static,
/// a dynamic one (the batch) only when it is the same size unpadded.
std::optional<std::pair<SmallVector<int64_t>, SmallVector<int64_t>>>
borderExtents(tensor::InsertSliceOp insert, ArrayRef<OpFoldResult> paddedSizes, ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> lows, highs;
  for (auto [d, offset] : llvm::enumerate(insert.getMixedOffsets())) {
    int64_t low = *getConstantIntValue(offset);
    std::optional<int64_t> padded = getConstantIntValue(paddedSizes[d]), size = getConstantIntValue(sizes[d]);
    if (padded && size) {
      lows.push_back(low);
      highs.push_back(*padded - low - *size);
    } else if (!padded && !size && low == 0 && sameExtent(paddedSizes[d], sizes[d])) {
      lows.push_back(0);
      highs.push_back(0);
    } else {
      return std::nullopt;
    }
  }
  return std::make_pair(lows, highs);
}

/// Fills the border of `current` (a padded buffer whose interior is written) with `value`,
/// slab by slab after `at`: dim d below or above the interior, the dims before d over the
/// interior, those after over the whole extent, so no element is filled twice. Returns the
/// filled buffer; the ops made are appended to `border`.
Value fillBorder(OpBuilder &at, Location loc, Value current, Value value, ArrayRef<int64_t> lows,
                 ArrayRef<int64_t> highs, ArrayRef<OpFoldResult> sizes, ArrayRef<OpFoldResult> paddedSizes,
                 SmallVectorImpl<Operation *> &border) {
  int64_t rank = static_cast<int64_t>(lows.size());
  for (int64_t d = 0; d < rank; ++d)
    for (bool high : {false, true}) {
      int64_t extent = high ? highs[d] : lows[d];
      if (extent <= 0)
        continue;
      SmallVector<OpFoldResult> offsets, slabSizes, strides(rank, at.getIndexAttr(1));
      for (int64_t k = 0; k < rank; ++k) {
        if (k < d) {
          offsets.push_back(at.getIndexAttr(lows[k]));
          slabSizes.push_back(sizes[k]);
        } else if (k == d) {
          offsets.push_back(at.getIndexAttr(high ? lows[d] + *getConstantIntValue(sizes[d]) : 0));
          slabSizes.push_back(at.getIndexAttr(extent));
        } else {
          offsets.push_back(at.getIndexAttr(0));
          slabSizes.push_back(paddedSizes[k]);
        }
      }
      auto slab = tensor::ExtractSliceOp::create(at, loc, current, offsets, slabSizes, strides);
      auto fill = linalg::FillOp::create(at, loc, ValueRange{value}, ValueRange{slab.getResult()});
      auto filled = tensor::InsertSliceOp::create(at, loc, fill.getResult(0), current, offsets, slabSizes, strides);
      border.append({slab, fill, filled});
      current = filled.getResult();
    }
  return current;
}

/// A decomposed pad that stays a copy (`insert_slice %x into fill(empty)`, the fill's only
/// use): the copy writes the interior, so only the border is filled, by the same kernel
/// (appended to `border`), instead of a fill of the whole buffer the copy then overwrites.
void copyIntoBorder(tensor::InsertSliceOp insert, SmallVectorImpl<Operation *> &dead,
                    SmallVectorImpl<Operation *> &border) {
  auto padFill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!padFill || !padFill->hasOneUse() || padFill->getNumResults() != 1 || !insert.hasUnitStride() ||
      insert.getSourceType().getRank() != insert.getResultType().getRank() ||
      llvm::any_of(insert.getMixedOffsets(), [](OpFoldResult o) { return !getConstantIntValue(o); }))
    return;
  auto padEmpty = padFill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>();
  if (!padEmpty || !padEmpty->hasOneUse())
    return;
  SmallVector<OpFoldResult> paddedSizes = padEmpty.getMixedSizes(), sizes = insert.getMixedSizes();
  auto extents = borderExtents(insert, paddedSizes, sizes);
  if (!extents)
    return;
  Value value = padFill.getDpsInputOperand(0)->get();
  if (auto def = value.getDefiningOp(); def && def->getBlock() == insert->getBlock() && !def->isBeforeInBlock(insert))
    return;
  insert.getDestMutable().assign(padEmpty.getResult());
  dead.push_back(padFill);
  OpBuilder at(insert->getBlock(), std::next(insert->getIterator()));
  SmallVector<Operation *> made;
  Value filled = fillBorder(at, insert.getLoc(), insert.getResult(), value, extents->first, extents->second,
                            sizes, paddedSizes, made);
  if (made.empty())
    return;
  DenseSet<Operation *> ops(made.begin(), made.end());
  insert.getResult().replaceUsesWithIf(filled, [&](OpOperand &use) { return !ops.contains(use.getOwner()); });
  border.append(made);
}

/// A padded copy of the group's result (a decomposed pad: `insert_slice %result into
/// fill(empty)`, the fill's only use) is written in place: the group computes into a slice of
/// the padded buffer, so the copy disappears. The padded buffer's empty + fill move up to the
/// group's root buffer (the empty the group's inits lead back to), the group starts with
/// `extract_slice` of it and ends with the `insert_slice`, which bufferize into one subview.
void writeIntoPadded(SmallVectorImpl<Operation *> &group, DominanceInfo &dominance,
                     SmallVectorImpl<Operation *> &dead, SmallVectorImpl<Operation *> &border,
                     int64_t minRow) {
  auto last = dyn_cast<linalg::LinalgOp>(group.back());
  if (!last || last->getNumResults() != 1 || last.getNumDpsInits() != 1 || last->getResult(0).use_empty() ||
      !last.hasPureTensorSemantics())
    return;
  // The pad: the one use that is an insert_slice of the whole result. Other uses (a residual
  // branch reading the same activation) then read the padded buffer's interior.
  tensor::InsertSliceOp insert;
  for (Operation *user : last->getResult(0).getUsers()) {
    auto candidate = dyn_cast<tensor::InsertSliceOp>(user);
    if (!candidate || candidate.getSource() != last->getResult(0))
      continue;
    if (insert)
      return;
    insert = candidate;
  }
  bool shared = !last->getResult(0).hasOneUse();
  if (!insert || insert.getSource() != last->getResult(0) || insert->getBlock() != last->getBlock() ||
      !insert.hasUnitStride() || insert.getSourceType() != insert.getResultType().clone(insert.getSourceType().getShape()) ||
      insert.getSourceType().getRank() != insert.getResultType().getRank() ||
      llvm::any_of(insert.getMixedOffsets(), [](OpFoldResult o) { return !getConstantIntValue(o); }))
    return;
  // Rows of the slice are what the tiler's vectors then run along: short ones (7, 14 wide)
  // waste lanes, where the contiguous result lets it merge rows; their copy is small. (The
  // target's TargetInfo::minInPlacePadRow: 24 on x86-64, where at 28, 56, 112 mobilenet_v2
  // and efficientnet_b0 were as fast or faster.)
  // A row: the innermost padded dim with the dims inside it, which the padding leaves
  // whole (bf16 pairs, tcc-pair-bf16-contractions: [..., W, 2] padded along W).
  ArrayRef<int64_t> sourceShape = insert.getSourceType().getShape();
  ArrayRef<int64_t> destShape = insert.getResultType().getShape();
  int64_t width = 1;
  for (int64_t d = sourceShape.size() - 1; d >= 0; --d) {
    if (ShapedType::isDynamic(sourceShape[d])) {
      width = ShapedType::kDynamic;
      break;
    }
    width *= sourceShape[d];
    if (sourceShape[d] != destShape[d] || !isConstantIntValue(insert.getMixedOffsets()[d], 0))
      break;
  }
  if (ShapedType::isDynamic(width) || width < minRow)
    return;
  auto padFill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!padFill || !padFill->hasOneUse() || padFill->getNumResults() != 1)
    return;
  auto padEmpty = padFill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>();
  if (!padEmpty || !padEmpty->hasOneUse() || !isClonable(padFill.getDpsInputOperand(0)->get()))
    return;
  // The root buffer: follow inits through the group's members.
  DenseSet<Operation *> members(group.begin(), group.end());
  Value root = last.getDpsInitOperand(0)->get();
  while (Operation *def = root.getDefiningOp()) {
    if (!members.contains(def))
      break;
    auto dps = dyn_cast<DestinationStyleOpInterface>(def);
    if (!dps || dps.getNumDpsInits() != 1)
      return;
    root = dps.getDpsInitOperand(0)->get();
  }
  auto empty = root.getDefiningOp<tensor::EmptyOp>();
  if (!empty || empty.getType() != insert.getSourceType())
    return;
  // The padded buffer goes right after the root buffer, so its sizes must be known there.
  // (Sizes computed after it from values known there, as the dims resolved from the
  // group's own sizes are, move with it.)
  Operation *point = empty->getNextNode();
  std::function<bool(Value)> available = [&](Value v) {
    if (dominance.properlyDominates(v, point))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || !isPure(def) || def->getNumRegions() != 0 || def->getBlock() != empty->getBlock() ||
        !llvm::all_of(def->getOperands(), available))
      return false;
    def->moveBefore(point);
    return true;
  };
  if (!llvm::all_of(padEmpty.getDynamicSizes(), available))
    return;
  // Only the border needs the padding value when every padded dim is static (a dynamic dim,
  // the batch, must be the same size unpadded: then it has no border).
  SmallVector<OpFoldResult> paddedSizes = padEmpty.getMixedSizes(), sizes = empty.getMixedSizes();
  auto extents = borderExtents(insert, paddedSizes, sizes);
  bool borderOnly = extents.has_value();
  padEmpty->moveBefore(point);
  Operation *constant = padFill.getDpsInputOperand(0)->get().getDefiningOp();
  if (!dominance.properlyDominates(constant->getResult(0), point))
    constant->moveBefore(point);
  if (!borderOnly)
    padFill->moveBefore(point);
  OpBuilder b(point);
  Value padded = borderOnly ? Value(padEmpty.getResult()) : padFill->getResult(0);
  auto slice = tensor::ExtractSliceOp::create(b, insert.getLoc(), insert.getSourceType(), padded,
                                              insert.getMixedOffsets(), empty.getMixedSizes(),
                                              insert.getMixedStrides());
  empty.getResult().replaceUsesWithIf(slice.getResult(), [&](OpOperand &use) {
    return members.contains(use.getOwner());
  });
  // The same sizes on both slices, so bufferization sees one subview written in place.
  // (Right after the group when the result has other uses, which the interior's view made
  // after the border must dominate.)
  OpBuilder after(insert);
  if (shared)
    after.setInsertionPointAfter(last);
  auto reinsert = tensor::InsertSliceOp::create(after, insert.getLoc(), insert.getSource(), padded,
                                                insert.getMixedOffsets(), empty.getMixedSizes(),
                                                insert.getMixedStrides());
  insert.replaceAllUsesWith(reinsert.getResult());
  dead.push_back(insert);
  group.insert(group.begin(), slice);
  group.push_back(reinsert);
  Value current = reinsert.getResult();
  if (borderOnly) {
    // The border, filled in place after the group: one kernel of small fills instead of a
    // fill of the whole buffer.
    dead.push_back(padFill);
    OpBuilder at(reinsert->getBlock(), std::next(reinsert->getIterator()));
    current = fillBorder(at, insert.getLoc(), reinsert.getResult(), padFill.getDpsInputOperand(0)->get(),
                         extents->first, extents->second, sizes, paddedSizes, border);
    if (!border.empty()) {
      DenseSet<Operation *> borderOps(border.begin(), border.end());
      reinsert.getResult().replaceUsesWithIf(current, [&](OpOperand &use) {
        return !borderOps.contains(use.getOwner());
      });
    }
  }
  if (!shared)
    return;
  // The result's other readers read the interior of the padded buffer (a view), not a copy.
  OpBuilder view(current.getContext());
  view.setInsertionPointAfterValue(current);
  auto interior = tensor::ExtractSliceOp::create(view, insert.getLoc(), insert.getSourceType(), current,
                                                 insert.getMixedOffsets(), empty.getMixedSizes(),
                                                 insert.getMixedStrides());
  // Kernels reading it take the padded buffer and the view inside (see outline): a view
  // passed in would be copied to a buffer of its own layout at the call.
  interior->setAttr(kInteriorAttr, UnitAttr::get(interior.getContext()));
  last->getResult(0).replaceUsesWithIf(interior.getResult(), [&](OpOperand &use) {
    return use.getOwner() != reinsert.getOperation();
  });
}

struct OutlineKernelsPass : tcc::impl::OutlineKernelsBase<OutlineKernelsPass> {
  using OutlineKernelsBase::OutlineKernelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    // A pad has no destination: as fill + insert_slice, every kernel writes into one.
    RewritePatternSet patterns(&getContext());
    linalg::populateDecomposePadPatterns(patterns);
    // Sizes of the padded buffers from the sizes their inputs were made with (so they can
    // move up, see writeIntoPadded); a model input's dims through its view to the symbols
    // (`dim (to_tensor %view)` -> the view's size), as the other buffers' sizes are.
    memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
    tensor::DimOp::getCanonicalizationPatterns(patterns, &getContext());
    bufferization::ToTensorOp::getCanonicalizationPatterns(patterns, &getContext());
    memref::DimOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(main, std::move(patterns))))
      return signalPassFailure();
    SymbolTable symbols(module);
    SmallVector<Operation *> ops;
    collectKernels(main.getBody().front(), ops);
    // Contractions claim their fill and epilogue first; then every op not claimed is a
    // kernel alone, and each group is one kernel in the contraction's place.
    DenseMap<Operation *, SmallVector<Operation *>> groups;
    DenseSet<Operation *> taken;
    DominanceInfo dominance(main);
    SmallVector<Operation *> dead; // replaced ops, erased once the kernels are known
    DenseMap<Operation *, SmallVector<Operation *>> borders; // a padded buffer's border fills
    for (Operation *op : ops) {
      if (taken.contains(op) || llvm::is_contained(dead, op))
        continue;
      SmallVector<Operation *> group = formKernel(op, taken);
      SmallVector<Operation *> border;
      writeIntoPadded(group, dominance, dead, border, minInPlacePadRow);
      if (auto insert = dyn_cast<tensor::InsertSliceOp>(op); insert && group.size() == 1)
        copyIntoBorder(insert, dead, border);
      if (group.size() > 1) {
        taken.insert(group.begin(), group.end());
        groups[op] = group;
      }
      if (!border.empty())
        borders[op] = border;
    }
    SmallVector<SmallVector<Operation *>> kernels;
    taken.insert(dead.begin(), dead.end());
    for (Operation *op : ops) {
      auto it = groups.find(op);
      if (it != groups.end()) {
        kernels.push_back(it->second);
        if (auto b = borders.find(op); b != borders.end())
          kernels.push_back(b->second);
      }
      else if (!taken.contains(op)) {
        // A pad's copy fills the border too (copyIntoBorder).
        kernels.push_back({op});
        if (auto b = borders.find(op); b != borders.end())
          llvm::append_range(kernels.back(), b->second);
      }
    }
    unsigned index = 0;
    for (Operation *op : dead)
      op->erase();
    for (SmallVector<Operation *> &group : kernels)
      outline(group, index++, module, symbols);
  }

  /// `group` (ops of one block, in order; only the last one's results are used outside)
  /// becomes one kernel function, called where the last op was.
  void outline(ArrayRef<Operation *> group, unsigned index, ModuleOp module, SymbolTable &symbols) {
    Operation *last = group.back();
    DenseSet<Operation *> members(group.begin(), group.end());
    // What the kernel reads from outside: operands and values its regions capture.
    SetVector<Value> captured;
    for (Operation *op : group) {
      for (Value v : op->getOperands())
        if (!members.contains(v.getDefiningOp()))
          captured.insert(v);
      for (Region &region : op->getRegions())
        getUsedValuesDefinedAbove(region, captured);
    }
    // A padded buffer's interior is read through a view made inside the kernel: the buffer
    // and the view's extents are passed instead.
    SmallVector<tensor::ExtractSliceOp> interiors;
    SetVector<Value> passed;
    for (Value v : captured) {
      auto slice = v.getDefiningOp<tensor::ExtractSliceOp>();
      if (slice && slice->hasAttr(kInteriorAttr)) {
        interiors.push_back(slice);
        for (Value operand : slice->getOperands())
          passed.insert(operand);
        continue;
      }
      passed.insert(v);
    }
    SmallVector<Value> arguments;
    for (Value v : passed)
      if (!isClonable(v))
        arguments.push_back(v);

    // The op the kernel is about: the last one that computes (not the insert of a result
    // written into a padded buffer).
    Operation *computed = last;
    if (group.size() > 1 && isa<tensor::InsertSliceOp>(last))
      computed = group[group.size() - 2];
    std::string node = tcc::getLocationNodeName(computed->getLoc());
    std::string name = "kernel_" + std::to_string(index) + (node.empty() ? "" : "_" + sanitize(node));
    OpBuilder builder(module.getBodyRegion());
    builder.setInsertionPoint(module.lookupSymbol<func::FuncOp>("main"));
    auto type = builder.getFunctionType(ValueRange(arguments).getTypes(), last->getResultTypes());
    auto kernel = func::FuncOp::create(builder, last->getLoc(), name, type);
    kernel.setPrivate();
    tcc::kernel::KernelKind kind = kindOf(group, computed);
    bool epilogue = kind == tcc::kernel::KernelKind::contraction && group.size() > 1 &&
                    isa<linalg::GenericOp>(computed) &&
                    cast<linalg::LinalgOp>(computed).getNumReductionLoops() == 0;
    // Every ONNX node the kernel computes (several once fusion merged their ops).
    SmallVector<Attribute> nodes;
    for (Operation *op : llvm::reverse(group)) {
      if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(op) && op != computed)
        continue;
      op->getLoc()->walk([&](Location inner) {
        if (auto nameLoc = dyn_cast<NameLoc>(inner)) {
          Attribute nodeName = builder.getStringAttr(nameLoc.getName().strref());
          if (!llvm::is_contained(nodes, nodeName))
            nodes.push_back(nodeName);
        }
        return WalkResult::advance();
      });
    }
    tcc::kernel::setKernelAttr(kernel, tcc::kernel::KernelAttr::get(builder.getContext(), kind,
                                                                    epilogue,
                                                                    builder.getArrayAttr(nodes)));
    symbols.insert(kernel);
    Block *body = kernel.addEntryBlock();
    builder.setInsertionPointToStart(body);
    IRMapping mapping;
    for (auto [value, arg] : llvm::zip(arguments, body->getArguments()))
      mapping.map(value, arg);
    for (Value v : passed)
      if (isClonable(v))
        mapping.map(v, builder.clone(*v.getDefiningOp())->getResult(0));
    for (tensor::ExtractSliceOp slice : interiors)
      builder.clone(*slice, mapping);
    Operation *clone = nullptr;
    for (Operation *op : group)
      clone = builder.clone(*op, mapping);
    func::ReturnOp::create(builder, last->getLoc(), clone->getResults());

    OpBuilder host(last);
    auto call = func::CallOp::create(host, last->getLoc(), kernel, arguments);
    last->replaceAllUsesWith(call.getResults());
    for (Operation *op : llvm::reverse(group))
      op->erase();
  }
};

} // namespace
