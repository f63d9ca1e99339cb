//===- PlanBuffers.cpp - one workspace for all intermediates, offsets from liveness -----===//
#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <algorithm>

namespace tcc {
#define GEN_PASS_DEF_PLANBUFFERS
#include "tcc/Codegen/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

constexpr int64_t kAlignment = 64;

struct Buffer {
  memref::AllocOp alloc;
  int64_t bytes = 0;
  int64_t start = 0, end = 0; ///< positions of the first and last op that touch it
  int64_t offset = -1;
};

/// The position (in @main's block) of the last op that uses `value` or a view of it.
int64_t lastUse(Value value, const DenseMap<Operation *, int64_t> &position, Block &block) {
  int64_t last = 0;
  SmallVector<Value> work = {value};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *owner = block.findAncestorOpInBlock(*use.getOwner());
      if (!owner)
        continue;
      last = std::max(last, position.lookup(owner));
      // Views alias the buffer: their uses keep it alive.
      if (isa<ViewLikeOpInterface>(use.getOwner()) || isa<memref::CollapseShapeOp,
                                                           memref::ExpandShapeOp,
                                                           memref::CastOp>(use.getOwner()))
        for (Value result : use.getOwner()->getResults())
          work.push_back(result);
    }
  }
  return last;
}

struct PlanBuffersPass : tcc::impl::PlanBuffersBase<PlanBuffersPass> {
  void runOnOperation() override {
    auto main = getOperation().lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return;
    Block &block = main.getBody().front();
    DenseMap<Operation *, int64_t> position;
    int64_t index = 0;
    for (Operation &op : block)
      position[&op] = index++;

    std::vector<Buffer> buffers;
    bool ok = true;
    main.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity()) {
        alloc.emitError() << "code generation needs static shapes for now (dynamic dims come "
                             "with symbolic shapes end to end); this buffer has type "
                          << type;
        ok = false;
        return;
      }
      if (alloc->getParentOp() != main) {
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
      int64_t elementBits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
      buffer.bytes = std::max<int64_t>(type.getNumElements() * ((elementBits + 7) / 8), 1);
      buffer.start = position[alloc];
      buffer.end = lastUse(alloc, position, block);
      buffers.push_back(buffer);
    });
    if (!ok)
      return signalPassFailure();

    // Largest first, each at the lowest aligned offset free during its live range.
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
    workspace = (workspace + kAlignment - 1) / kAlignment * kAlignment;

    // The workspace is @main's new last argument.
    OpBuilder builder(main.getContext());
    auto workspaceType = MemRefType::get({std::max<int64_t>(workspace, kAlignment)},
                                         builder.getI8Type());
    if (failed(main.insertArgument(main.getNumArguments(), workspaceType,
                                   builder.getDictionaryAttr(
                                       {builder.getNamedAttr("tcc.workspace", builder.getUnitAttr())}),
                                   main.getLoc())))
      return signalPassFailure();
    Value ws = main.getArgument(main.getNumArguments() - 1);
    for (Buffer &b : buffers) {
      builder.setInsertionPoint(b.alloc);
      Value offset = arith::ConstantIndexOp::create(builder, b.alloc.getLoc(), b.offset);
      auto view = memref::ViewOp::create(builder, b.alloc.getLoc(), b.alloc.getType(), ws,
                                         offset, ValueRange{});
      for (Operation *user : llvm::make_early_inc_range(b.alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      b.alloc.replaceAllUsesWith(view.getResult());
      b.alloc.erase();
    }
    main->setAttr("tcc.workspace_size", builder.getI64IntegerAttr(workspace));
  }
};

} // namespace
