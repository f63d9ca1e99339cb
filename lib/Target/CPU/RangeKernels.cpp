//===- RangeKernels.cpp - kernels that run a range of their outermost parallel loop -----===//
#include "tcc/Target/CPU/Passes.h"

#include "ParallelLoops.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tcc {
#define GEN_PASS_DEF_RANGEKERNELS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Views tcc-collapse-dims makes of the kernel's arguments (no data moves).
bool isView(Operation *op) { return isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(op); }

/// Threads split a loop's first dim. A dynamic first extent is usually the batch, 1 at
/// batch 1: then it is merged with the first later dim of static extent >= 4 (channels)
/// other than the innermost (ParallelLoops.h), batch-major.
void mergeBatchDim(scf::ParallelOp loop) {
  SmallVector<Value> lower = loop.getLowerBound(), upper = loop.getUpperBound(),
                     step = loop.getStep();
  if (matchPattern(upper[0], m_Constant()) || !matchPattern(lower[0], m_Zero()) ||
      !matchPattern(step[0], m_One()))
    return;
  // Never the innermost dim: it is the one that walks memory contiguously (vectorized).
  for (unsigned k = 1; k + 1 < upper.size(); ++k) {
    APInt extent;
    if (!matchPattern(upper[k], m_ConstantInt(&extent)) || extent.getSExtValue() < 4 ||
        !matchPattern(lower[k], m_Zero()) || !matchPattern(step[k], m_One()))
      continue;
    tcc::mergeIntoFirstDim(loop, k);
    return;
  }
}

/// The buffer `v` views, through subviews and reshapes.
Value rootBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// Whether `loop` only stores values defined outside it into buffers defined outside it (a
/// pad's border fill); its buffers are added to `targets`.
bool isFill(scf::ParallelOp loop, SmallVectorImpl<Value> &targets) {
  Region &body = loop.getRegion();
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store || body.isAncestor(store.getValueToStore().getParentRegion()) ||
        body.isAncestor(store.getMemRef().getParentRegion()))
      return false;
    targets.push_back(store.getMemRef());
  }
  return true;
}

/// Whether two subviews of one buffer with unit strides are disjoint: some dim where both
/// have static offsets and sizes whose ranges do not meet.
bool disjoint(memref::SubViewOp a, memref::SubViewOp b) {
  if (a.getSource() != b.getSource() || !a.hasUnitStride() || !b.hasUnitStride())
    return false;
  for (auto [ao, as, bo, bs] : llvm::zip(a.getStaticOffsets(), a.getStaticSizes(),
                                         b.getStaticOffsets(), b.getStaticSizes())) {
    if (ShapedType::isDynamic(ao) || ShapedType::isDynamic(as) || ShapedType::isDynamic(bo) ||
        ShapedType::isDynamic(bs))
      continue;
    if (ao + as <= bo || bo + bs <= ao)
      return true;
  }
  return false;
}

/// Whether nothing `main` reads or writes meets what the fills write: the buffers it
/// accesses (the views defined outside it) are other buffers, or subviews of the filled one
/// disjoint from every fill's.
bool independentOfFills(scf::ParallelOp main, ArrayRef<Value> fillTargets) {
  bool independent = true;
  Region &body = main.getRegion();
  main.walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      // The view as defined outside the loop (views made inside are of one made outside).
      Value outside = operand;
      while (body.isAncestor(outside.getParentRegion())) {
        Operation *def = outside.getDefiningOp();
        if (!def || !isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp>(def)) {
          independent = false;
          return;
        }
        outside = def->getOperand(0);
      }
      for (Value target : fillTargets) {
        if (rootBuffer(outside) != rootBuffer(target))
          continue;
        auto a = outside.getDefiningOp<memref::SubViewOp>();
        auto b = target.getDefiningOp<memref::SubViewOp>();
        if (!a || !b || !disjoint(a, b))
          independent = false;
      }
    }
  });
  return independent;
}

/// The loop a kernel's threads split: its one top-level scf.parallel whose first dim runs
/// from 0 by 1; or, beside a pad's border fills (loops that store constants into parts of the
/// buffer that loop does not touch), the one other loop, the fills then run by the range
/// that starts at 0 (`fills`).
scf::ParallelOp rangeLoop(func::FuncOp kernel, SmallVectorImpl<scf::ParallelOp> &fills) {
  SmallVector<scf::ParallelOp> loops;
  for (Operation &op : kernel.getBody().front()) {
    // Extent arithmetic (tcc-tile-contractions' tile counts) may precede the loop.
    // Views of the arguments (collapse_shape, a pad's subview) too: nothing that touches memory.
    if (isa<func::ReturnOp>(op) || (op.getNumRegions() == 0 && isMemoryEffectFree(&op)))
      continue;
    auto parallel = dyn_cast<scf::ParallelOp>(op);
    if (!parallel)
      return nullptr;
    loops.push_back(parallel);
  }
  scf::ParallelOp found;
  SmallVector<Value> targets;
  for (scf::ParallelOp loop : loops) {
    SmallVector<Value> written;
    if (loops.size() > 1 && isFill(loop, written)) {
      fills.push_back(loop);
      targets.append(written);
      continue;
    }
    if (found)
      return nullptr;
    found = loop;
  }
  if (!found || (!fills.empty() && !independentOfFills(found, targets)))
    return nullptr;
  mergeBatchDim(found);
  if (!matchPattern(found.getLowerBound()[0], m_Zero()) ||
      !matchPattern(found.getStep()[0], m_One()))
    return nullptr;
  APInt upper;
  if (matchPattern(found.getUpperBound()[0], m_ConstantInt(&upper)) && upper.getSExtValue() < 2)
    return nullptr;
  return found;
}

/// An index value's estimate: constants as they are, products, sums, differences, quotients,
/// remainders, minima and maxima of estimates, a loop's induction variable the middle of its
/// range (so that bounds that follow it, a group of row tiles [g * 43, min(g * 43 + 43,
/// 171)), count their own trips), anything else (a dynamic extent) 64.
double estimatedValue(Value v) {
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return double(constant.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast_or_null<scf::ForOp>(owner); loop && arg == loop.getInductionVar())
      return (estimatedValue(loop.getLowerBound()) + estimatedValue(loop.getUpperBound())) / 2;
    if (auto parallel = dyn_cast_or_null<scf::ParallelOp>(owner);
        parallel && arg.getArgNumber() < parallel.getNumLoops())
      return (estimatedValue(parallel.getLowerBound()[arg.getArgNumber()]) +
              estimatedValue(parallel.getUpperBound()[arg.getArgNumber()])) /
             2;
    return 64;
  }
  Operation *op = v.getDefiningOp();
  auto operand = [&](unsigned k) { return estimatedValue(op->getOperand(k)); };
  if (isa_and_nonnull<arith::MulIOp>(op))
    return operand(0) * operand(1);
  if (isa_and_nonnull<arith::AddIOp>(op))
    return operand(0) + operand(1);
  if (isa_and_nonnull<arith::SubIOp>(op))
    return operand(0) - operand(1);
  if (isa_and_nonnull<arith::DivUIOp, arith::DivSIOp>(op))
    return operand(0) / std::max(1.0, operand(1));
  if (isa_and_nonnull<arith::RemUIOp, arith::RemSIOp>(op))
    return std::min(operand(0), std::max(0.0, operand(1) - 1));
  if (isa_and_nonnull<arith::MinUIOp, arith::MinSIOp>(op))
    return std::min(operand(0), operand(1));
  if (isa_and_nonnull<arith::MaxUIOp, arith::MaxSIOp>(op))
    return std::max(operand(0), operand(1));
  // A dim of a buffer: its static extent, or the extents a collapse_shape merged.
  if (auto dim = dyn_cast_or_null<memref::DimOp>(op))
    if (std::optional<int64_t> d = dim.getConstantIndex()) {
      auto type = dyn_cast<MemRefType>(dim.getSource().getType());
      if (!type || *d < 0 || *d >= type.getRank())
        return 64;
      if (!type.isDynamicDim(*d))
        return double(type.getDimSize(*d));
      if (auto collapse = dim.getSource().getDefiningOp<memref::CollapseShapeOp>()) {
        double product = 1;
        SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
        for (int64_t k : groups[*d]) {
          int64_t extent = collapse.getSrcType().getDimSize(k);
          product *= ShapedType::isDynamic(extent) ? 64 : double(extent);
        }
        return product;
      }
    }
  return 64;
}

/// Ops `region` runs, counting each loop's body times its trip count (see estimatedValue): an
/// estimate of a kernel's work.
double estimatedWork(Region &region) {
  double work = 0;
  for (Block &block : region)
    for (Operation &op : block) {
      double trips = 1;
      auto tripCount = [](Value lower, Value upper, Value step) -> double {
        APInt s;
        if (!matchPattern(step, m_ConstantInt(&s)) || s.getSExtValue() <= 0)
          return 64;
        return std::max<double>(0, (estimatedValue(upper) - estimatedValue(lower)) /
                                       double(s.getSExtValue()));
      };
      if (auto loop = dyn_cast<scf::ForOp>(op))
        trips = tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
      else if (auto parallel = dyn_cast<scf::ParallelOp>(op))
        for (auto [l, u, s] :
             llvm::zip(parallel.getLowerBound(), parallel.getUpperBound(), parallel.getStep()))
          trips *= tripCount(l, u, s);
      double inner = 0;
      for (Region &nested : op.getRegions())
        inner += estimatedWork(nested);
      work += 1 + trips * inner;
    }
  return work;
}

/// Integer arithmetic the caller can redo on the values it passes.
bool isExtentArithmetic(Operation *op) {
  return op && isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp, arith::DivSIOp>(op);
}

/// A kernel buffer as the caller has it: an argument, or a view of one made again.
Value bufferAtCall(Value buffer, tcc::kernel::LaunchOp call, OpBuilder &at) {
  if (auto arg = dyn_cast<BlockArgument>(buffer))
    return call.getKernelOperands()[arg.getArgNumber()];
  Operation *view = buffer.getDefiningOp();
  // Only views of the buffer alone (an expand_shape's dynamic extents are kernel values).
  if (!view || !isView(view) || view->getNumOperands() != 1)
    return nullptr;
  Value source = bufferAtCall(view->getOperand(0), call, at);
  if (!source)
    return nullptr;
  IRMapping mapping;
  mapping.map(view->getOperand(0), source);
  return at.clone(*view, mapping)->getResult(0);
}

/// The loop's extent as the caller computes it: a constant, an argument, a dim of an
/// argument, or integer arithmetic on those; null otherwise.
Value extentAtCall(Value bound, tcc::kernel::LaunchOp call, OpBuilder &at) {
  if (Operation *op = bound.getDefiningOp(); isExtentArithmetic(op)) {
    IRMapping mapping;
    for (Value operand : op->getOperands()) {
      Value atCall = extentAtCall(operand, call, at);
      if (!atCall)
        return nullptr;
      mapping.map(operand, atCall);
    }
    return at.clone(*op, mapping)->getResult(0);
  }
  APInt constant;
  if (matchPattern(bound, m_ConstantInt(&constant)))
    return arith::ConstantIndexOp::create(at, call.getLoc(), constant.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(bound))
    return call.getKernelOperands()[arg.getArgNumber()];
  if (auto dim = bound.getDefiningOp<memref::DimOp>()) {
    std::optional<int64_t> d = dim.getConstantIndex();
    Value source = d ? bufferAtCall(dim.getSource(), call, at) : Value();
    if (source)
      return memref::DimOp::create(at, call.getLoc(), source, *d);
  }
  return nullptr;
}

/// Whether every call of `kernel` can compute the loop's extent.
bool extentComputable(Value bound) {
  if (matchPattern(bound, m_Constant()) || isa<BlockArgument>(bound))
    return true;
  if (Operation *op = bound.getDefiningOp(); isExtentArithmetic(op))
    return llvm::all_of(op->getOperands(), extentComputable);
  auto dim = bound.getDefiningOp<memref::DimOp>();
  if (!dim || !dim.getConstantIndex())
    return false;
  Value source = dim.getSource();
  while (Operation *view = source.getDefiningOp()) {
    if (!isView(view) || view->getNumOperands() != 1)
      return false;
    source = view->getOperand(0);
  }
  return isa<BlockArgument>(source);
}

/// One thread runs each kernel that is not split: its launches of the whole kernel become
/// plain calls.
void callWholeLaunches(ModuleOp module) {
  SmallVector<tcc::kernel::LaunchOp> whole;
  module.walk([&](tcc::kernel::LaunchOp launch) {
    if (!launch.getRange())
      whole.push_back(launch);
  });
  for (tcc::kernel::LaunchOp launch : whole) {
    OpBuilder at(launch);
    func::CallOp::create(at, launch.getLoc(), launch.getKernelAttr(), TypeRange{},
                         launch.getKernelOperands());
    launch.erase();
  }
}

struct RangeKernelsPass : tcc::impl::RangeKernelsBase<RangeKernelsPass> {
  using RangeKernelsBase::RangeKernelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto main = module.lookupSymbol<func::FuncOp>("main");
    if (!main || main.isExternal())
      return callWholeLaunches(module);
    OpBuilder builder(&getContext());
    for (auto kernel : module.getOps<func::FuncOp>()) {
      if (!tcc::kernel::isKernel(kernel))
        continue;
      SmallVector<scf::ParallelOp> fills;
      scf::ParallelOp loop = rangeLoop(kernel, fills);
      if (!loop || !extentComputable(loop.getUpperBound()[0]) ||
          estimatedWork(kernel.getBody()) < double(minParallelWork))
        continue;
      Value bound = loop.getUpperBound()[0];
      Type index = builder.getIndexType();
      unsigned first = kernel.getNumArguments();
      if (failed(kernel.insertArgument(first, index, {}, kernel.getLoc())) ||
          failed(kernel.insertArgument(first + 1, index, {}, kernel.getLoc())))
        return signalPassFailure();
      Value begin = kernel.getArgument(first), end = kernel.getArgument(first + 1);
      loop.getLowerBoundMutable()[0].set(begin);
      if (fills.empty()) {
        loop.getUpperBoundMutable()[0].set(end);
      } else {
        // The launch always runs the range that starts at 0 (its extent at least 1), which
        // also runs the fills; the loop stops at its own extent.
        OpBuilder at(loop);
        loop.getUpperBoundMutable()[0].set(
            arith::MinUIOp::create(at, loop.getLoc(), end, bound).getResult());
        for (scf::ParallelOp fill : fills) {
          OpBuilder before(fill);
          Value zero = arith::ConstantIndexOp::create(before, fill.getLoc(), 0);
          Value isFirst =
              arith::CmpIOp::create(before, fill.getLoc(), arith::CmpIPredicate::eq, begin, zero);
          auto onFirst = scf::IfOp::create(before, fill.getLoc(), isFirst, /*withElse=*/false);
          fill->moveBefore(onFirst.thenBlock()->getTerminator());
        }
      }
      // Every launch of the whole kernel becomes a launch over the range.
      auto uses = SymbolTable::getSymbolUses(kernel, module);
      SmallVector<tcc::kernel::LaunchOp> launches;
      for (SymbolTable::SymbolUse use : *uses)
        if (auto launch = dyn_cast<tcc::kernel::LaunchOp>(use.getUser());
            launch && !launch.getRange())
          launches.push_back(launch);
      for (tcc::kernel::LaunchOp launch : launches) {
        OpBuilder at(launch);
        Value extent = extentAtCall(bound, launch, at);
        if (!fills.empty())
          extent = arith::MaxUIOp::create(at, launch.getLoc(), extent,
                                          arith::ConstantIndexOp::create(at, launch.getLoc(), 1))
                       .getResult();
        launch.getRangeMutable().assign(extent);
      }
    }
    callWholeLaunches(module);
    // The host passes the import table on to parallel_for.
    if (failed(
            main.insertArgument(0, LLVM::LLVMPointerType::get(&getContext()), {}, main.getLoc())))
      return signalPassFailure();
  }
};

} // namespace
