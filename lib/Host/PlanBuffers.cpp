//===- PlanBuffers.cpp - one workspace for all intermediates, offsets from liveness -----===//
#include "tcc/Host/Passes.h"
#include "dialects/kernel/KernelDialect.h"

#include "InvariantLoops.h"
#include "SymbolExpressions.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <algorithm>
#include <limits>

namespace tcc {
#define GEN_PASS_DEF_PLANBUFFERS
#include "tcc/Host/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc;

namespace {

constexpr int64_t kAlignment = 64;

/// Sizes computed at run time saturate here (256 TiB, more than any machine maps): an extent
/// computed from the inputs' data (a Reshape's shape, an Expand's...) has no upper bound, and a
/// product of such extents must not wrap around to a small buffer. A workspace this large or
/// larger is refused at run time (@workspace_size returns -1).
constexpr int64_t kSaturated = int64_t(1) << 48;

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes = 0;     ///< exact when the shape is static, else an estimate (for ordering)
  Value wideBytes;       ///< the size at run time as i128, at most kSaturated (dynamic shapes)
  Value dynamicBytes;    ///< the size at run time, computed at entry (dynamic shapes)
  Value dynamicOffset;
  int64_t start = 0, end = 0; ///< positions of the first and last op that touch it
  int64_t offset = -1;
};

/// The positions (in @main's block) of the first and the last op that use `value` or a view
/// of it.
std::pair<int64_t, int64_t> useSpan(Value value, const DenseMap<Operation *, int64_t> &position,
                                    Block &block) {
  int64_t first = std::numeric_limits<int64_t>::max(), last = 0;
  SmallVector<Value> work = {value};
  DenseSet<Value> seen = {value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *owner = block.findAncestorOpInBlock(*use.getOwner());
      if (!owner)
        continue;
      last = std::max(last, position.lookup(owner));
      if (!isa<ViewLikeOpInterface, memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(
              owner))
        first = std::min(first, position.lookup(owner));
      // Views alias the buffer: their uses keep it alive.
      auto follow = [&](Value alias) {
        if (seen.insert(alias).second)
          work.push_back(alias);
      };
      // So does a select between buffers (a branch folded into one, e.g. a compaction of
      // one element): its result may be this one.
      if (isa<ViewLikeOpInterface>(use.getOwner()) || isa<memref::CollapseShapeOp,
                                                           memref::ExpandShapeOp,
                                                           memref::CastOp, arith::SelectOp>(use.getOwner()))
        for (Value result : use.getOwner()->getResults())
          follow(result);
      // A loop-carried buffer lives on in the loop's iteration argument and result.
      if (auto loop = dyn_cast<scf::ForOp>(use.getOwner())) {
        if (use.getOperandNumber() >= loop.getNumControlOperands()) {
          unsigned k = use.getOperandNumber() - loop.getNumControlOperands();
          follow(loop.getResult(k));
          follow(loop.getRegionIterArgs()[k]);
        }
      } else if (auto yield = dyn_cast<scf::YieldOp>(use.getOwner())) {
        if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp())) {
          follow(loop.getResult(use.getOperandNumber()));
          follow(loop.getRegionIterArgs()[use.getOperandNumber()]);
        } else if (auto branch = dyn_cast<scf::IfOp>(yield->getParentOp())) {
          follow(branch.getResult(use.getOperandNumber()));
        }
      }
    }
  }
  return {first, last};
}

/// Estimated symbol values for ordering buffers by size: the symbol's maximum when it has
/// one, else a typical extent.
DenseMap<Value, int64_t> estimateSymbols(func::FuncOp main) {
  DenseMap<Value, int64_t> estimates;
  auto module = main->getParentOfType<ModuleOp>();
  for (BlockArgument arg : main.getArguments()) {
    auto name = main.getArgAttrOfType<StringAttr>(arg.getArgNumber(), tcc::kSymbolArgAttr);
    if (!name)
      continue;
    int64_t estimate = 64;
    if (auto symbol = module.lookupSymbol<prim::SymbolOp>(name.getValue())) {
      if (symbol.getMax())
        estimate = static_cast<int64_t>(*symbol.getMax());
      estimate = std::max<int64_t>(estimate, symbol.getMin());
    }
    estimates[arg] = estimate;
  }
  return estimates;
}

/// `(value + 63) & -64`
Value alignUp(OpBuilder &b, Location loc, Value value) {
  Value sum = arith::AddIOp::create(b, loc, value,
                                    arith::ConstantIndexOp::create(b, loc, kAlignment - 1));
  return arith::AndIOp::create(b, loc, sum, arith::ConstantIndexOp::create(b, loc, -kAlignment));
}

/// Static shapes: largest first, each at the lowest aligned offset free during its live
/// range. Returns the workspace size.
int64_t placeStatic(std::vector<Buffer> &buffers) {
  std::vector<Buffer *> order;
  for (Buffer &b : buffers)
    order.push_back(&b);
  std::stable_sort(order.begin(), order.end(),
                   [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
  std::vector<Buffer *> placed;
  int64_t workspace = 0;
  for (Buffer *b : order) {
    std::vector<std::pair<int64_t, int64_t>> taken;
    for (Buffer *other : placed)
      if (!(other->end < b->start || b->end < other->start))
        taken.push_back({other->offset, other->offset + other->bytes});
    std::sort(taken.begin(), taken.end());
    int64_t offset = 0;
    for (auto [begin, finish] : taken) {
      if (offset + b->bytes <= begin)
        break;
      offset = std::max(offset, (finish + kAlignment - 1) / kAlignment * kAlignment);
    }
    b->offset = offset;
    workspace = std::max(workspace, offset + b->bytes);
    placed.push_back(b);
  }
  return (workspace + kAlignment - 1) / kAlignment * kAlignment;
}

/// Dynamic shapes: sizes are expressions of the symbols, so offsets are too. In order of
/// estimated size, each buffer goes right above every earlier-placed buffer whose live range
/// overlaps its own: offset = max(align(offset' + bytes')) over those. This holds for every
/// symbol value (no two live buffers overlap), and buffers with disjoint live ranges still
/// share bytes. The offsets and the total are computed once, at @main's entry.
Value placeDynamic(std::vector<Buffer> &buffers, OpBuilder &b, Location loc) {
  std::vector<Buffer *> order;
  for (Buffer &buffer : buffers)
    order.push_back(&buffer);
  std::stable_sort(order.begin(), order.end(),
                   [](Buffer *x, Buffer *y) { return x->bytes > y->bytes; });
  std::vector<Buffer *> placed;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value workspace = zero;
  for (Buffer *buffer : order) {
    Value offset = zero;
    for (Buffer *other : placed)
      if (!(other->end < buffer->start || buffer->end < other->start))
        offset = arith::MaxUIOp::create(
            b, loc, offset,
            alignUp(b, loc, arith::AddIOp::create(b, loc, other->dynamicOffset, other->dynamicBytes)));
    buffer->dynamicOffset = offset;
    workspace = arith::MaxUIOp::create(
        b, loc, workspace, arith::AddIOp::create(b, loc, offset, buffer->dynamicBytes));
    placed.push_back(buffer);
  }
  return alignUp(b, loc, workspace);
}


/// memref.dim of a collapse_shape: the product of the source dims of its group (upstream
/// resolves dims of tensor reshapes only).
struct DimOfCollapse : OpRewritePattern<memref::DimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::DimOp dim, PatternRewriter &rewriter) const override {
    auto collapse = dim.getSource().getDefiningOp<memref::CollapseShapeOp>();
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!collapse || !index)
      return failure();
    Location loc = dim.getLoc();
    Value extent = arith::ConstantIndexOp::create(rewriter, loc, 1);
    // The groups are returned by value: keep them alive while iterating one.
    SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
    for (int64_t d : groups[*index])
      extent = arith::MulIOp::create(
          rewriter, loc, extent, memref::DimOp::create(rewriter, loc, collapse.getSrc(), d));
    rewriter.replaceOp(dim, extent);
    return success();
  }
};

struct PlanBuffersPass : tcc::impl::PlanBuffersBase<PlanBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    {
      RewritePatternSet patterns(&getContext());
      patterns.add<tcc::DimOfInvariantLoop<memref::DimOp>, DimOfCollapse>(&getContext());
      arith::MulIOp::getCanonicalizationPatterns(patterns, &getContext());
      memref::DimOp::getCanonicalizationPatterns(patterns, &getContext());
      memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
      if (failed(applyPatternsGreedily(main, std::move(patterns))))
        return signalPassFailure();
    }
    // Kernels write only into the buffers their caller passes: a kernel that allocates
    // would materialize an intermediate of its own (a fused group that did not stay fused,
    // a copy bufferization inserted) outside the plan, at every call.
    bool kernelsAllocate = false;
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!tcc::kernel::isKernel(kernel))
        continue;
      kernel.walk([&](Operation *op) {
        if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
          op->emitError() << "internal error: kernel @" << kernel.getSymName()
                          << " allocates a buffer of its own (an intermediate its fused ops "
                             "should have kept in registers or in the caller's buffers)";
          kernelsAllocate = true;
        }
      });
    }
    if (kernelsAllocate)
      return signalPassFailure();
    Block &block = main.getBody().front();
    DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : block)
      position[&op] = index++;

    DenseMap<Value, int64_t> estimates = estimateSymbols(main);
    OpBuilder entry = OpBuilder::atBlockBegin(&block);
    IRMapping atEntry;
    for (auto [arg, estimate] : estimates)
      atEntry.map(arg, arg);
    std::vector<Buffer> buffers;
    bool ok = true, dynamic = false;
    main.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity()) {
        alloc.emitError() << "internal error: an allocation with a layout: " << type;
        ok = false;
        return;
      }
      // An allocation inside a host loop (prim.loop) is one buffer for every iteration: it
      // lives from the loop's start to its end (at least), and its size must not depend on
      // the iteration (it is computed at entry like the others). (Host-level branches with
      // allocations, from single-row loops folded by canonicalization, are not planned:
      // test_unique_length_1 gives wrong numbers that way; an error instead.)
      Operation *topLevel = block.findAncestorOpInBlock(*alloc);
      if (!topLevel || (alloc->getParentOp() != main && !isa<scf::ForOp>(topLevel))) {
        alloc.emitError() << "internal error: an allocation inside a region of @main";
        ok = false;
        return;
      }
      Buffer buffer;
      buffer.alloc = alloc;
      Type element = type.getElementType();
      if (!element.isIntOrIndexOrFloat()) {
        alloc.emitError() << "internal error: a buffer of " << element << " elements";
        ok = false;
        return;
      }
      int64_t elementBytes = ((element.isIndex() ? 64 : element.getIntOrFloatBitWidth()) + 7) / 8;
      int64_t staticElements = 1;
      for (int64_t d : type.getShape())
        if (!ShapedType::isDynamic(d))
          staticElements *= d;
      buffer.bytes = std::max<int64_t>(staticElements * elementBytes, 1);
      if (!type.hasStaticShape()) {
        dynamic = true;
        Location loc = alloc.getLoc();
        // bytes = min(elementBytes * static extents * prod(max(extent, 0)), kSaturated),
        // multiplied in i128 (no factor exceeds 2^63, no partial product 2^48), so that no
        // product wraps.
        Type wide = entry.getIntegerType(128);
        Value zero = arith::ConstantIndexOp::create(entry, loc, 0);
        Value saturated = arith::ConstantOp::create(entry, loc, IntegerAttr::get(wide, kSaturated));
        Value bytes = arith::ConstantOp::create(entry, loc, IntegerAttr::get(wide, buffer.bytes));
        for (Value size : alloc.getDynamicSizes()) {
          // A data-dependent extent is planned at its upper bound (the capacity).
          FailureOr<Value> extent = tcc::cloneUpperBound(entry, size, [&](Value v) {
            return tcc::cloneSymbolExpression(entry, v, atEntry);
          });
          if (failed(extent)) {
            alloc.emitError() << "the size of this buffer depends on data and has no upper "
                                 "bound in the input shapes: "
                              << type;
            ok = false;
            return;
          }
          Value factor = arith::IndexCastUIOp::create(
              entry, loc, wide, arith::MaxSIOp::create(entry, loc, *extent, zero));
          bytes = arith::MinUIOp::create(entry, loc,
                                         arith::MulIOp::create(entry, loc, bytes, factor),
                                         saturated);
          std::optional<int64_t> estimate = tcc::evaluateSymbolExpression(size, estimates);
          buffer.bytes *= estimate ? std::max<int64_t>(*estimate, 1) : 64;
        }
        // A negative extent (only possible when a run-time check is about to fail) must not
        // make the plan overlap buffers: it counts as 0, and a buffer has at least 1 byte.
        buffer.wideBytes = bytes;
      }
      // Live from the first op that touches it (an alloc may sit far above that: CSE merges
      // equal empties) to the last.
      auto [first, last] = useSpan(alloc, position, block);
      buffer.end = std::max(position[topLevel], last);
      buffer.start = std::min(std::max(position[topLevel], first), buffer.end);
      buffers.push_back(buffer);
    });
    if (!ok)
      return signalPassFailure();

    Location loc = main.getLoc();
    Value workspaceSize;
    int64_t staticWorkspace = 0;
    if (dynamic) {
      // Each buffer at most `limit` bytes, and their sum (at most the workspace, with the
      // alignment) at most 2^61: no offset wraps. A workspace of `limit` bytes or more is
      // refused: @workspace_size returns -1.
      int64_t limit = std::min<int64_t>(kSaturated, (int64_t(1) << 61) /
                                                        static_cast<int64_t>(buffers.size()));
      Value one = arith::ConstantIndexOp::create(entry, loc, 1);
      Value limitBytes = arith::ConstantIndexOp::create(entry, loc, limit);
      for (Buffer &buffer : buffers) {
        if (!buffer.wideBytes) {
          buffer.dynamicBytes = arith::ConstantIndexOp::create(entry, loc, buffer.bytes);
          continue;
        }
        Value wideBytes = buffer.wideBytes;
        if (limit < kSaturated)
          wideBytes = arith::MinUIOp::create(
              entry, loc, wideBytes,
              arith::ConstantOp::create(entry, loc, IntegerAttr::get(wideBytes.getType(), limit)));
        Value narrow =
            arith::IndexCastUIOp::create(entry, loc, entry.getIndexType(), wideBytes);
        buffer.dynamicBytes = arith::MaxSIOp::create(entry, loc, narrow, one);
      }
      Value placed = placeDynamic(buffers, entry, loc);
      Value tooLarge =
          arith::CmpIOp::create(entry, loc, arith::CmpIPredicate::uge, placed, limitBytes);
      workspaceSize = arith::SelectOp::create(
          entry, loc, tooLarge, arith::ConstantIndexOp::create(entry, loc, -1), placed);
    } else {
      staticWorkspace = placeStatic(buffers);
    }

    // The workspace is @main's new last argument.
    OpBuilder builder(main.getContext());
    auto workspaceType = MemRefType::get({ShapedType::kDynamic}, builder.getI8Type());
    if (failed(main.insertArgument(main.getNumArguments(), workspaceType,
                                   builder.getDictionaryAttr(
                                       {builder.getNamedAttr(tcc::kernel::KernelDialect::kWorkspaceAttrName, builder.getUnitAttr())}),
                                   main.getLoc())))
      return signalPassFailure();
    Value ws = main.getArgument(main.getNumArguments() - 1);
    for (Buffer &b : buffers) {
      builder.setInsertionPoint(b.alloc);
      Value offset = b.dynamicOffset
                         ? b.dynamicOffset
                         : arith::ConstantIndexOp::create(builder, b.alloc.getLoc(), b.offset);
      auto view = memref::ViewOp::create(builder, b.alloc.getLoc(), b.alloc.getType(), ws,
                                         offset, b.alloc.getDynamicSizes());
      for (Operation *user : llvm::make_early_inc_range(b.alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      b.alloc.replaceAllUsesWith(view.getResult());
      b.alloc.erase();
    }

    // @workspace_size(symbols...) -> bytes, for the descriptor.
    SmallVector<BlockArgument> symbols;
    for (BlockArgument arg : main.getArguments())
      if (main.getArgAttr(arg.getArgNumber(), tcc::kSymbolArgAttr))
        symbols.push_back(arg);
    builder.setInsertionPoint(main);
    SmallVector<Type> symbolTypes(symbols.size(), builder.getIndexType());
    auto sizeFunction = func::FuncOp::create(
        builder, loc, "workspace_size",
        builder.getFunctionType(symbolTypes, {builder.getIndexType()}));
    builder.setInsertionPointToStart(sizeFunction.addEntryBlock());
    Value total;
    if (workspaceSize) {
      IRMapping inFunction;
      for (auto [arg, param] : llvm::zip(symbols, sizeFunction.getArguments()))
        inFunction.map(arg, param);
      total = *tcc::cloneSymbolExpression(builder, workspaceSize, inFunction);
    } else {
      total = arith::ConstantIndexOp::create(builder, loc, staticWorkspace);
      main->setAttr(tcc::kernel::KernelDialect::kWorkspaceSizeAttrName,
                    builder.getI64IntegerAttr(staticWorkspace));
    }
    func::ReturnOp::create(builder, loc, total);
  }
};

} // namespace
