//===- FormGrids.cpp - each kernel's loop nests as 1-D GPU grids -------------------------===//
#include "tcc/Target/GPU/Passes.h"

#include "ThreadArguments.h"

#include "dialects/kernel/KernelDialect.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_GPUFORMGRIDS
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Whether `op` holds a call (control flow around kernels).
bool holdsCall(Operation *op) {
  return op->getNumRegions() > 0 &&
         op->walk([](func::CallOp) { return WalkResult::interrupt(); }).wasInterrupted();
}

/// A launch of `grid` blocks of `block` threads (1-D), its body empty but for the
/// terminator; the builder is left inside, before it.
gpu::LaunchOp createLaunch(OpBuilder &b, Location loc, Value grid, Value block) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(b, loc, grid, one, one, block, one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  auto terminator = gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(terminator);
  return launch;
}

struct GpuFormGridsPass : tcc::impl::GpuFormGridsBase<GpuFormGridsPass> {
  using GpuFormGridsBase::GpuFormGridsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (blockSize < 1 || blockSize > 1024) {
      module.emitError() << "tcc-gpu-form-grids: block-size must be 1 to 1024, got " << blockSize;
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp f : functions)
      if (!f.isExternal() && failed(formGrids(f)))
        return signalPassFailure();
    guardLaunches(module);
    if (failed(checkHostCode(module)) || failed(passImports(module)))
      return signalPassFailure();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), UnitAttr::get(&getContext()));
  }

  /// A reshape whose shape the host stored into a buffer (the workspace: device memory)
  /// becomes a reinterpret_cast with those extents, and the stores go.
  void foldShapeBuffers(Block &body) {
    SmallVector<memref::ReshapeOp> reshapes;
    for (Operation &op : body)
      if (auto reshape = dyn_cast<memref::ReshapeOp>(op))
        reshapes.push_back(reshape);
    for (memref::ReshapeOp reshape : reshapes) {
      auto source = cast<MemRefType>(reshape.getSource().getType());
      auto result = cast<MemRefType>(reshape.getResult().getType());
      Value shape = reshape.getShape();
      int64_t rank = result.getRank();
      if (!source.getLayout().isIdentity() || !result.getLayout().isIdentity() ||
          shape.getParentBlock() != &body)
        continue;
      SmallVector<Value> extents(rank);
      bool known = true;
      for (Operation *user : shape.getUsers()) {
        if (isa<memref::ReshapeOp>(user))
          continue;
        auto store = dyn_cast<memref::StoreOp>(user);
        APInt index;
        if (!store || store->getBlock() != &body || !store->isBeforeInBlock(reshape) ||
            store.getIndices().size() != 1 ||
            !matchPattern(store.getIndices()[0], m_ConstantInt(&index)) ||
            index.getSExtValue() < 0 || index.getSExtValue() >= rank ||
            !store.getValue().getType().isIndex()) {
          known = false;
          break;
        }
        extents[index.getSExtValue()] = store.getValue();
      }
      if (!known || llvm::any_of(extents, [](Value v) { return !v; }))
        continue;
      OpBuilder b(reshape);
      Location loc = reshape.getLoc();
      SmallVector<OpFoldResult> sizes(rank), strides(rank);
      SmallVector<int64_t> staticStrides(rank);
      Value stride = arith::ConstantIndexOp::create(b, loc, 1);
      for (int64_t d = rank - 1; d >= 0; --d) {
        sizes[d] = result.isDynamicDim(d) ? OpFoldResult(extents[d])
                                          : OpFoldResult(b.getIndexAttr(result.getDimSize(d)));
        strides[d] = getAsOpFoldResult(stride);
        std::optional<int64_t> known = getConstantIntValue(strides[d]);
        staticStrides[d] = known ? *known : ShapedType::kDynamic;
        stride = b.createOrFold<arith::MulIOp>(loc, stride, extents[d]);
      }
      auto cast = memref::ReinterpretCastOp::create(
          b, loc,
          MemRefType::get(result.getShape(), result.getElementType(),
                          StridedLayoutAttr::get(b.getContext(), 0, staticStrides),
                          result.getMemorySpace()),
          reshape.getSource(), b.getIndexAttr(0), sizes, strides);
      // The reshape's type is the identity layout: a cast back to it (same strides).
      Value same = memref::CastOp::create(b, loc, result, cast);
      reshape.replaceAllUsesWith(same);
      reshape.erase();
      if (llvm::all_of(shape.getUsers(), [](Operation *u) { return isa<memref::StoreOp>(u); }))
        for (Operation *store : llvm::make_early_inc_range(shape.getUsers()))
          store->erase();
    }
  }

  LogicalResult formGrids(func::FuncOp f) {
    if (!f.getBody().hasOneBlock())
      return f.emitError() << "internal error: tcc-gpu-form-grids expects structured control "
                              "flow (one block per function)";
    foldShapeBuffers(f.getBody().front());
    return formGrids(f.getBody().front());
  }

  /// The launches of one block of host code. Host loops and branches around kernel calls
  /// (a CumSum's steps, a Loop with a known trip count) stay host control flow, their
  /// bodies formed the same way, as long as their bounds and conditions are host values.
  LogicalResult formGrids(Block &body) {
    SmallVector<Operation *> serial; // the current run of operations for one thread
    llvm::SmallPtrSet<Operation *, 16> inSerial;
    auto flush = [&]() -> LogicalResult {
      if (serial.empty())
        return success();
      LogicalResult result = launchSerial(serial, inSerial);
      serial.clear();
      inSerial.clear();
      return result;
    };
    for (Operation &op : llvm::make_early_inc_range(body)) {
      bool readsSerial = llvm::any_of(op.getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && inSerial.contains(def);
      });
      bool calls = holdsCall(&op);
      // A branch between loop nests on a host value (tcc-gpu-linalg-to-loops's choice of
      // tiles by size) is host control flow too.
      bool branches = isa<scf::IfOp>(op) && !readsSerial && op.walk([](scf::ParallelOp) {
                                                                return WalkResult::interrupt();
                                                              }).wasInterrupted();
      if (calls || branches) {
        if (!isa<scf::ForOp, scf::IfOp>(op) || readsSerial)
          return op.emitError()
                 << "a GPU model cannot yet run control flow around kernels whose bounds or "
                    "conditions are tensor values (ONNX If or Loop): '"
                 << op.getName() << "' holds kernel calls";
        if (failed(flush()))
          return failure();
        for (Region &region : op.getRegions())
          for (Block &block : region)
            if (failed(formGrids(block)))
              return failure();
        continue;
      }
      auto loop = dyn_cast<scf::ParallelOp>(&op);
      if (loop && loop.getInitVals().empty()) {
        if (failed(flush()))
          return failure();
        if (loop->hasAttr(tcc::kernel::KernelDialect::kBlockThreadsAttrName)) {
          if (failed(launchBlocks(loop)))
            return failure();
          continue;
        }
        // Threads of a grid are independent: a barrier or workgroup memory needs a block.
        if (loop.getBody()
                ->walk([](Operation *inner) {
                  auto alloca = dyn_cast<memref::AllocaOp>(inner);
                  bool shared = alloca && isa_and_nonnull<gpu::AddressSpaceAttr>(
                                              alloca.getType().getMemorySpace());
                  return isa<gpu::BarrierOp>(inner) || shared ? WalkResult::interrupt()
                                                              : WalkResult::advance();
                })
                .wasInterrupted())
          return loop.emitError() << "internal error: a parallel loop with barriers or "
                                     "workgroup buffers must be marked "
                                  << tcc::kernel::KernelDialect::kBlockThreadsAttrName;
        launchGrid(loop);
        continue;
      }
      // Host code, after the work before it: calls, returns, yields and checks of host
      // values.
      if (isa<func::CallOp, func::ReturnOp, scf::YieldOp, tcc::prim::CheckOp>(op)) {
        if (failed(flush()))
          return failure();
        continue;
      }
      if (isMemoryEffectFree(&op) && !readsSerial)
        continue;
      serial.push_back(&op);
      inSerial.insert(&op);
    }
    return flush();
  }

  /// One thread runs `ops` in order, in a launch placed after the last of them (the host
  /// operations between them read none of their results, so they can go first). Their
  /// results must not be needed outside.
  LogicalResult launchSerial(ArrayRef<Operation *> ops,
                             const llvm::SmallPtrSetImpl<Operation *> &inSerial) {
    Block *block = ops.front()->getBlock();
    for (Operation *op : ops)
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          if (!inSerial.contains(block->findAncestorOpInBlock(*user)))
            return op->emitError()
                   << "a GPU model's host code would need this value from device memory (a "
                      "data-dependent extent or condition), which is not supported yet";
    OpBuilder b(block, std::next(ops.back()->getIterator()));
    Location loc = ops.front()->getLoc();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    gpu::LaunchOp launch = createLaunch(b, loc, one, one);
    Operation *terminator = launch.getBody().front().getTerminator();
    for (Operation *op : ops)
      op->moveBefore(terminator);
    sinkConstants(launch);
    return success();
  }

  /// The parallel loop as a 1-D grid, its iterations numbered row-major.
  void launchGrid(scf::ParallelOp loop) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    SmallVector<Value> counts;
    Value total = arith::ConstantIndexOp::create(b, loc, 1);
    for (auto [lower, upper, step] :
         llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
      // Folded where the bounds are constants, so that the kernel divides by constants.
      // (Loops from a lower bound of 0 run to an extent, never negative.)
      Value extent = upper;
      if (!matchPattern(lower, m_Zero()))
        extent = b.createOrFold<arith::MaxSIOp>(
            loc, b.createOrFold<arith::SubIOp>(loc, upper, lower), zero);
      Value count = matchPattern(step, m_One())
                        ? extent
                        : b.createOrFold<arith::CeilDivUIOp>(loc, extent, step);
      counts.push_back(count);
      total = b.createOrFold<arith::MulIOp>(loc, total, count);
    }
    Value block = arith::ConstantIndexOp::create(b, loc, blockSize);
    Value grid = b.createOrFold<arith::CeilDivUIOp>(loc, total, block);
    Value nonempty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, total, zero);
    auto guard = scf::IfOp::create(b, loc, nonempty, /*withElseRegion=*/false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    gpu::LaunchOp launch = createLaunch(b, loc, grid, block);
    gpu::KernelDim3 blockIds = launch.getBlockIds(), threadIds = launch.getThreadIds();
    Value index = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, blockIds.x, block),
                                        threadIds.x);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, total);
    auto active = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    b.setInsertionPoint(active.thenBlock()->getTerminator());
    // Row-major: the last dim varies fastest.
    IRMapping mapping;
    Value rest = index;
    int64_t rank = counts.size();
    SmallVector<Value> ivs(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      Value position = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, counts[d]).getResult();
      if (d > 0)
        rest = arith::DivUIOp::create(b, loc, rest, counts[d]);
      Value step = loop.getStep()[d];
      Value scaled = b.createOrFold<arith::MulIOp>(loc, position, step);
      ivs[d] = b.createOrFold<arith::AddIOp>(loc, loop.getLowerBound()[d], scaled);
    }
    for (auto [iv, value] : llvm::zip(loop.getInductionVars(), ivs))
      mapping.map(iv, value);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
    loop.erase();
    sinkConstants(launch);
  }

  /// A loop marked `kernel.block_threads` (tcc-gpu-linalg-to-loops's block tiles): its last
  /// dim is one block's threads, the others number the blocks (row-major), so that every
  /// thread of a block runs its barriers. Its workgroup buffers (memref.alloca in the
  /// workgroup address space) become the launch's workgroup attributions.
  LogicalResult launchBlocks(scf::ParallelOp loop) {
    int64_t threads =
        cast<IntegerAttr>(loop->getAttr(tcc::kernel::KernelDialect::kBlockThreadsAttrName))
            .getInt();
    int64_t rank = loop.getNumLoops();
    for (int64_t d = 0; d < rank; ++d)
      if (!matchPattern(loop.getLowerBound()[d], m_Zero()) ||
          !matchPattern(loop.getStep()[d], m_One()))
        return loop.emitError() << "internal error: a loop of blocks must run from 0 by 1";
    APInt last;
    if (!matchPattern(loop.getUpperBound()[rank - 1], m_ConstantInt(&last)) ||
        last.getSExtValue() != threads)
      return loop.emitError() << "internal error: the last dim of a loop of blocks must be its "
                              << threads << " threads";
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value total = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < rank - 1; ++d)
      total = b.createOrFold<arith::MulIOp>(loc, total, loop.getUpperBound()[d]);
    Value nonempty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, total, zero);
    auto guard = scf::IfOp::create(b, loc, nonempty, /*withElseRegion=*/false);
    b.setInsertionPoint(guard.thenBlock()->getTerminator());
    gpu::LaunchOp launch =
        createLaunch(b, loc, total, arith::ConstantIndexOp::create(b, loc, threads));
    IRMapping mapping;
    Value rest = launch.getBlockIds().x;
    for (int64_t d = rank - 2; d >= 0; --d) {
      Value extent = loop.getUpperBound()[d];
      Value position = d == 0 ? rest : arith::RemUIOp::create(b, loc, rest, extent).getResult();
      if (d > 0)
        rest = arith::DivUIOp::create(b, loc, rest, extent);
      mapping.map(loop.getInductionVars()[d], position);
    }
    mapping.map(loop.getInductionVars()[rank - 1], launch.getThreadIds().x);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
    loop.erase();
    SmallVector<memref::AllocaOp> buffers;
    launch.getBody().walk([&](memref::AllocaOp alloca) {
      auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(alloca.getType().getMemorySpace());
      if (space && space.getValue() == gpu::AddressSpace::Workgroup)
        buffers.push_back(alloca);
    });
    for (memref::AllocaOp alloca : buffers) {
      if (alloca->getParentOp() != launch)
        return alloca.emitError() << "internal error: a workgroup buffer must be allocated at "
                                     "the top of its block's code";
      BlockArgument buffer = launch.addWorkgroupAttribution(alloca.getType(), alloca.getLoc());
      alloca.replaceAllUsesWith(buffer);
      alloca.erase();
    }
    sinkConstants(launch);
    return success();
  }

  /// Moves copies of the constants and globals a launch reads into it: a global's address
  /// must be the device's (outlining makes the gpu.module its own copy), and constants are
  /// better known to the kernel than passed.
  void sinkConstants(gpu::LaunchOp launch) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(launch.getBody(), above);
    OpBuilder b(&launch.getBody().front(), launch.getBody().front().begin());
    for (Value v : above) {
      Operation *def = v.getDefiningOp();
      if (!def || !(isa<memref::GetGlobalOp>(def) || matchPattern(v, m_Constant())))
        continue;
      Value copy = b.clone(*def)->getResult(0);
      replaceAllUsesInRegionWith(v, copy, launch.getBody());
    }
  }

  /// Host code may only name device memory, not read or write it.
  LogicalResult checkHostCode(ModuleOp module) {
    for (func::FuncOp f : module.getOps<func::FuncOp>())
      if (failed(checkHostCode(f)))
        return failure();
    return success();
  }

  LogicalResult checkHostCode(func::FuncOp f) {
    WalkResult result = f.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
        for (Operation *user : get->getUsers())
          if (!user->getParentOfType<gpu::LaunchOp>()) {
            get.emitError() << "the constant @" << get.getName() << " (" << get.getType()
                            << ") cannot be placed in device memory yet (only numbers of 8 "
                               "bits and more are packed into the device's weights)";
            return WalkResult::interrupt();
          }
        return WalkResult::advance();
      }
      if (isa<func::CallOp, tcc::prim::CheckOp>(op))
        return WalkResult::advance();
      if (!isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
          !isa<func::ReturnOp, memref::GlobalOp>(op)) {
        op->emitError() << "internal error: '" << op->getName()
                        << "' would touch device memory from host code";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  /// The functions that launch kernels, and their callers, take the import table first.
  LogicalResult passImports(ModuleOp module) {
    llvm::SetVector<func::FuncOp> launchers;
    for (func::FuncOp f : module.getOps<func::FuncOp>())
      if (f.getName() == "main" ||
          f.walk([](gpu::LaunchOp) { return WalkResult::interrupt(); }).wasInterrupted())
        launchers.insert(f);
    return tcc::gpu::threadArgument(module, launchers, LLVM::LLVMPointerType::get(&getContext()),
                                    tcc::gpu::ArgumentPosition::First);
  }

  /// With device-side checks (tcc-gpu-device-checks), every launch does nothing once a check
  /// has failed: its body runs only while the status word is 0.
  void guardLaunches(ModuleOp module) {
    using tcc::kernel::KernelDialect;
    module.walk([&](gpu::LaunchOp launch) {
      auto f = launch->getParentOfType<func::FuncOp>();
      std::optional<unsigned> statusIndex;
      for (unsigned i = 0; i < f.getNumArguments(); ++i)
        if (f.getArgAttr(i, KernelDialect::kDeviceStatusAttrName))
          statusIndex = i;
      if (!statusIndex)
        return;
      Block &body = launch.getBody().front();
      Location loc = launch.getLoc();
      OpBuilder b(&body, body.begin());
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      auto statusType = MemRefType::get({}, b.getI32Type());
      Value status = memref::ViewOp::create(b, loc, statusType, f.getArgument(*statusIndex), zero,
                                            ValueRange{});
      Value code = memref::LoadOp::create(b, loc, status, ValueRange{});
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code,
                                       arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
      auto guard = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
      Operation *yield = guard.thenBlock()->getTerminator();
      for (Operation &op : llvm::make_early_inc_range(
               llvm::make_range(std::next(guard->getIterator()), body.back().getIterator())))
        op.moveBefore(yield);
    });
  }
};
} // namespace
