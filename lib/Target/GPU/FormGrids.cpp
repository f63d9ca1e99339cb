//===- FormGrids.cpp - each kernel's loop nests as 1-D GPU grids -------------------------===//
#include "tcc/Target/GPU/Passes.h"

#include "DeviceReads.h"
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
    // String functions run in the runtime, on the host (model_abi.h), never in kernels.
    WalkResult strings = module.walk([](tcc::prim::RuntimeCallOp call) {
      call.emitError() << "string operations ('" << call.getCallee()
                       << "') cannot run on a GPU yet; compile this model for the CPU";
      return WalkResult::interrupt();
    });
    if (strings.wasInterrupted())
      return signalPassFailure();
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
        // Bounds and conditions that kernels computed are read back (launchSerial).
        if (!isa<scf::ForOp, scf::IfOp, scf::WhileOp>(op))
          return op.emitError() << "a GPU model cannot yet run '" << op.getName()
                                << "' around kernels";
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
      if (isa<func::CallOp, func::ReturnOp, scf::YieldOp, scf::ConditionOp, tcc::prim::CheckOp>(
              op)) {
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
  /// operations between them read none of their results, so they can go first). Where host
  /// code needs some of their results (a data-dependent extent, a condition), the loads and
  /// the pure operations those results come from run on the host instead: each load reads
  /// its element from device memory (hostRead) once the operations before it have run, so
  /// the others are split into launches around the loads.
  LogicalResult launchSerial(ArrayRef<Operation *> ops,
                             const llvm::SmallPtrSetImpl<Operation *> &inSerial) {
    Block *block = ops.front()->getBlock();
    // The operations the host needs, and those they read (within the run).
    llvm::SmallPtrSet<Operation *, 8> onHost;
    SmallVector<Operation *> worklist;
    for (Operation *op : ops)
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          if (!inSerial.contains(block->findAncestorOpInBlock(*user)))
            worklist.push_back(op);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!onHost.insert(op).second)
        continue;
      auto load = dyn_cast<memref::LoadOp>(op);
      bool readable = load && isa<IntegerType, FloatType>(load.getType());
      if (!readable && (!isMemoryEffectFree(op) || op->getNumRegions() > 0))
        return op->emitError()
               << "a GPU model's host code would need a value computed in device memory (a "
                  "data-dependent extent or condition) by '"
               << op->getName() << "', which the host cannot run; only loads of numbers and "
               << "pure arithmetic on them are read back";
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && inSerial.contains(def))
          worklist.push_back(def);
    }
    // The device's operations in segments, a new one after each host read.
    SmallVector<SmallVector<Operation *>> segments(1);
    llvm::DenseMap<Operation *, size_t> segmentOf;
    for (Operation *op : ops) {
      if (!onHost.contains(op)) {
        segmentOf[op] = segments.size() - 1;
        segments.back().push_back(op);
      } else if (isa<memref::LoadOp>(op) && !segments.back().empty()) {
        segments.emplace_back();
      }
    }
    for (auto [op, segment] : segmentOf)
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers()) {
          auto it = segmentOf.find(block->findAncestorOpInBlock(*user));
          if (it != segmentOf.end() && it->second != segment)
            return op->emitError()
                   << "a GPU model's host code would need a value from device memory between "
                      "two steps of one kernel's sequential code, which is not supported yet";
        }
    // Each segment's launch goes before the load that ends it; the last after its end.
    size_t segment = 0;
    for (Operation *op : ops) {
      auto load = dyn_cast<memref::LoadOp>(op);
      if (!load || !onHost.contains(op))
        continue;
      // The segment that this load ends (pass one started a new one here only then).
      if (!segments[segment].empty() && segments[segment].front()->isBeforeInBlock(op)) {
        launchSegment(segments[segment], op);
        ++segment;
      }
      if (failed(hostRead(load)))
        return failure();
    }
    for (; segment < segments.size(); ++segment)
      if (!segments[segment].empty())
        launchSegment(segments[segment], nullptr);
    return success();
  }

  /// One thread runs `ops` in order, in a launch placed before `before`, else after the last
  /// of them.
  void launchSegment(ArrayRef<Operation *> ops, Operation *before) {
    OpBuilder b(ops.front()->getContext());
    if (before)
      b.setInsertionPoint(before);
    else
      b.setInsertionPointAfter(ops.back());
    Location loc = ops.front()->getLoc();
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    gpu::LaunchOp launch = createLaunch(b, loc, one, one);
    Operation *terminator = launch.getBody().front().getTerminator();
    for (Operation *op : ops)
      op->moveBefore(terminator);
    sinkConstants(launch);
  }

  /// `load` (of device memory, by host code) as a read of its element into a host stack slot
  /// (in the function's entry block, so that loops do not grow the stack), then a load of the
  /// slot.
  LogicalResult hostRead(memref::LoadOp load) {
    Location loc = load.getLoc();
    auto f = load->getParentOfType<func::FuncOp>();
    auto module = f->getParentOfType<ModuleOp>();
    Type element = load.getType();
    int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
    auto memref = cast<MemRefType>(load.getMemRef().getType());
    if (memref.getMemorySpace())
      return load.emitError() << "internal error: host code reads " << memref;
    OpBuilder entry(&f.getBody().front(), f.getBody().front().begin());
    auto slot = memref::AllocaOp::create(entry, loc, MemRefType::get({}, element));
    OpBuilder b(load);
    Type index = b.getIndexType();
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, load.getMemRef());
    Value position = metadata.getOffset();
    for (auto [i, stride] : llvm::zip(load.getIndices(), metadata.getStrides()))
      position = arith::AddIOp::create(b, loc, position, arith::MulIOp::create(b, loc, i, stride));
    Value size = arith::ConstantIndexOp::create(b, loc, bytes);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, load.getMemRef());
    Value device =
        arith::AddIOp::create(b, loc, base, arith::MulIOp::create(b, loc, position, size));
    Value host = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, slot);
    StringRef name = tcc::gpu::kDeviceReadFunction;
    auto type = b.getFunctionType({index, index, index}, {});
    if (!module.lookupSymbol<func::FuncOp>(name)) {
      OpBuilder top(module.getBodyRegion());
      func::FuncOp::create(top, loc, name, type).setPrivate();
    }
    func::CallOp::create(b, loc, name, TypeRange{}, ValueRange{host, device, size});
    Value value = memref::LoadOp::create(b, loc, slot, ValueRange{});
    load.replaceAllUsesWith(value);
    load.erase();
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
      // The stack slots of host reads (hostRead), which host code loads.
      auto isSlot = [](Value memref) {
        auto alloca = memref.getDefiningOp<memref::AllocaOp>();
        return alloca && !alloca.getType().getMemorySpace();
      };
      if (auto alloca = dyn_cast<memref::AllocaOp>(op); alloca && isSlot(alloca))
        return WalkResult::advance();
      if (auto load = dyn_cast<memref::LoadOp>(op); load && isSlot(load.getMemRef()))
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
          f.walk([](Operation *op) {
             auto call = dyn_cast<func::CallOp>(op);
             return isa<gpu::LaunchOp>(op) ||
                            (call && call.getCallee() == tcc::gpu::kDeviceReadFunction)
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           }).wasInterrupted())
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
