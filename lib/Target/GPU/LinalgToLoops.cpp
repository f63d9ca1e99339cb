//===- LinalgToLoops.cpp - linalg ops as a parallel loop over outputs, reductions in registers ===//
#include "tcc/Target/GPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace tcc {
#define GEN_PASS_DEF_GPULINALGTOLOOPS
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

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

/// The op's payload at loop indices `ivs`, with the outputs' current values `outputs`:
/// loads the inputs, clones the body, and returns what it yields.
SmallVector<Value> emitPayload(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               ArrayRef<Value> ivs, ValueRange outputs) {
  Block *body = op.getBlock();
  IRMapping mapping;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    if (arg.use_empty())
      continue;
    Value value = input->get();
    if (isa<MemRefType>(value.getType()))
      value = memref::LoadOp::create(
          b, loc, value, indicesOf(b, loc, maps[input->getOperandNumber()], ivs));
    mapping.map(arg, value);
  }
  for (auto [k, output] : llvm::enumerate(op.getDpsInitsMutable()))
    if (outputs[k]) // null: the body does not read this output
      mapping.map(op.getMatchingBlockArgument(&output), outputs[k]);
  for (Operation &inner : body->without_terminator()) {
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

struct GpuLinalgToLoopsPass : tcc::impl::GpuLinalgToLoopsBase<GpuLinalgToLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op.emitError() << "internal error: tcc-gpu-linalg-to-loops expects buffers";
        return signalPassFailure();
      }
      lower(op);
    }
  }

  void lower(linalg::LinalgOp op) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Range> ranges = op.createLoopRanges(b, loc);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> parallel, reduction;
    for (auto [d, kind] : llvm::enumerate(iterators))
      (kind == utils::IteratorType::parallel ? parallel : reduction).push_back(d);
    auto bound = [&](OpFoldResult v) { return getValueOrCreateConstantIndexOp(b, loc, v); };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    int64_t numLoops = iterators.size();

    // The body at fixed parallel indices `outer` (reduction positions unset).
    auto emitOutputs = [&](OpBuilder &at, SmallVector<Value> ivs) {
      // The outputs' indices use parallel dims only; reduction positions may hold anything.
      for (int64_t d : reduction)
        ivs[d] = zero;
      SmallVector<Value> current;
      bool reads = !reduction.empty();
      for (OpOperand &output : op.getDpsInitsMutable()) {
        bool used = reads || !op.getMatchingBlockArgument(&output).use_empty();
        current.push_back(used ? memref::LoadOp::create(
                                     at, loc, output.get(),
                                     indicesOf(at, loc, maps[output.getOperandNumber()], ivs))
                                     .getResult()
                               : Value());
      }
      SmallVector<Value> results;
      if (reduction.empty()) {
        // Unused outputs stay unmapped; the body never reads them.
        SmallVector<Value> mapped;
        for (Value v : current)
          mapped.push_back(v);
        results = emitPayload(at, loc, op, ivs, mapped);
      } else {
        SmallVector<Value> lbs, ubs, steps;
        for (int64_t d : reduction) {
          lbs.push_back(bound(ranges[d].offset));
          ubs.push_back(bound(ranges[d].size));
          steps.push_back(bound(ranges[d].stride));
        }
        scf::LoopNest nest = scf::buildLoopNest(
            at, loc, lbs, ubs, steps, current,
            [&](OpBuilder &inner, Location, ValueRange inductions, ValueRange accumulators) {
              SmallVector<Value> all = ivs;
              for (auto [k, d] : llvm::enumerate(reduction))
                all[d] = inductions[k];
              return scf::ValueVector(emitPayload(inner, loc, op, all, accumulators));
            });
        results.assign(nest.results.begin(), nest.results.end());
      }
      for (auto [k, output] : llvm::enumerate(op.getDpsInitsMutable()))
        memref::StoreOp::create(at, loc, results[k], output.get(),
                                indicesOf(at, loc, maps[output.getOperandNumber()], ivs));
    };

    if (parallel.empty()) {
      emitOutputs(b, SmallVector<Value>(numLoops, zero));
    } else {
      SmallVector<Value> lbs, ubs, steps;
      for (int64_t d : parallel) {
        lbs.push_back(bound(ranges[d].offset));
        ubs.push_back(bound(ranges[d].size));
        steps.push_back(bound(ranges[d].stride));
      }
      scf::ParallelOp::create(b, loc, lbs, ubs, steps,
                              [&](OpBuilder &inner, Location, ValueRange inductions) {
                                SmallVector<Value> ivs(numLoops, zero);
                                for (auto [k, d] : llvm::enumerate(parallel))
                                  ivs[d] = inductions[k];
                                emitOutputs(inner, ivs);
                              });
    }
    op->erase();
  }
};
} // namespace
