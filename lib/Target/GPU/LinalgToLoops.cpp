//===- LinalgToLoops.cpp - linalg ops as a parallel loop over outputs, reductions in registers ===//
#include "tcc/Target/GPU/Passes.h"

#include "LoopBodies.h"
#include "MatrixTiles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tcc {
#define GEN_PASS_DEF_GPULINALGTOLOOPS
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc::gpu;

namespace {

/// How many outputs a thread of a contraction computes: `columns` neighbours along
/// `columnDim` (a static extent, divided exactly) times `rows` along `rowDim` (any extent: a
/// row past the end is computed from the last one and not stored). A dim is tiled only when
/// an input does not depend on it, so that each value of that input a thread loads feeds
/// several accumulators: a matmul's A for its columns and B for its rows, a convolution's
/// input for its output channels and its filter for its pixels.
struct Tiling {
  int64_t columnDim = -1, columns = 1;
  int64_t rowDim = -1, rows = 1;
};

/// Outputs of a contraction below which rows are not tiled (a quarter of the threads would
/// leave SMs idle): an H200 runs 132 x 2048 threads at once, and tiling pays from about four
/// outputs per thread slot.
constexpr int64_t kMinTiledOutputs = 1 << 20;

Tiling chooseTiling(linalg::LinalgOp op, ArrayRef<int64_t> parallel, ArrayRef<int64_t> reduction,
                    ArrayRef<Range> ranges) {
  constexpr int64_t kFactor = 4;
  Tiling tiling;
  if (reduction.empty() || parallel.empty())
    return tiling;
  auto reused = [&](int64_t d) {
    return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
      return isa<MemRefType>(input->get().getType()) &&
             !op.getMatchingIndexingMap(input).isFunctionOfDim(d);
    });
  };
  // Columns: the innermost dim that divides (memory order: neighbouring outputs).
  for (int64_t d : llvm::reverse(parallel)) {
    std::optional<int64_t> extent = getConstantIntValue(ranges[d].size);
    std::optional<int64_t> step = getConstantIntValue(ranges[d].stride);
    if (extent && step && *step == 1 && *extent % kFactor == 0 && *extent >= 4 * kFactor &&
        reused(d)) {
      tiling.columnDim = d;
      tiling.columns = kFactor;
      break;
    }
  }
  // Rows: the innermost other dim with a reused input.
  for (int64_t d : llvm::reverse(parallel))
    if (d != tiling.columnDim && getConstantIntValue(ranges[d].stride) == 1 && reused(d)) {
      tiling.rowDim = d;
      tiling.rows = kFactor;
      break;
    }
  return tiling;
}

struct GpuLinalgToLoopsPass : tcc::impl::GpuLinalgToLoopsBase<GpuLinalgToLoopsPass> {
  using GpuLinalgToLoopsBase::GpuLinalgToLoopsBase;

  const MatrixUnit *unit = nullptr;

  void getDependentDialects(DialectRegistry &registry) const override {
    GpuLinalgToLoopsBase::getDependentDialects(registry);
    if (const MatrixUnit *named = lookupMatrixUnit(matrixUnit))
      named->dialects(registry);
  }

  void runOnOperation() override {
    if (!matrixUnit.empty()) {
      unit = lookupMatrixUnit(matrixUnit);
      if (!unit) {
        getOperation().emitError()
            << "tcc-gpu-linalg-to-loops: no matrix unit named '" << matrixUnit << "'";
        return signalPassFailure();
      }
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    // Which fills and epilogues run inside a contraction's loop nest, decided before any
    // op is lowered (a fill comes first in the kernel).
    llvm::DenseMap<Operation *, Fusion> fusions;
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op.emitError() << "internal error: tcc-gpu-linalg-to-loops expects buffers";
        return signalPassFailure();
      }
      SmallVector<int64_t> parallel;
      bool reduces = false;
      for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray())) {
        if (kind == utils::IteratorType::parallel)
          parallel.push_back(d);
        else
          reduces = true;
      }
      if (!reduces || fused.contains(op))
        continue;
      Fusion fusion = findFusion(op, parallel);
      if (fusion.fill && fused.contains(fusion.fill))
        fusion.fill = nullptr;
      for (Operation *f :
           {static_cast<Operation *>(fusion.fill), static_cast<Operation *>(fusion.epilogue)})
        if (f)
          fused.insert(f);
      fusions[op] = fusion;
    }
    for (linalg::LinalgOp op : ops) {
      if (fused.contains(op))
        continue;
      Fusion fusion = fusions.lookup(op);
      lower(op, fusion);
      for (Operation *f :
           {static_cast<Operation *>(fusion.fill), static_cast<Operation *>(fusion.epilogue)})
        if (f)
          f->erase();
    }
  }

  /// A reduction to one flag with `and` (or `or`): "every index is in range", the run-time
  /// checks' kind. Each thread tests one element and, when it fails, stores the answer
  /// (false for `and`, true for `or`); all writers write the same value, so the threads need
  /// no order, and the reduction is a grid rather than one thread's loop.
  bool lowerFlagReduction(linalg::LinalgOp op) {
    if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
      return false;
    Block *body = op.getBlock();
    BlockArgument out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
    if (!out.getType().isInteger(1) || !out.hasOneUse())
      return false;
    Operation *combine = *out.getUsers().begin();
    if (!isa<arith::AndIOp, arith::OrIOp>(combine) ||
        body->getTerminator()->getOperand(0) != combine->getResult(0))
      return false;
    bool isAnd = isa<arith::AndIOp>(combine);
    Value tested = combine->getOperand(0) == out ? combine->getOperand(1) : combine->getOperand(0);
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Range> ranges = op.createLoopRanges(b, loc);
    SmallVector<Value> lbs, ubs, steps;
    for (Range &r : ranges) {
      lbs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.offset));
      ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, r.size));
      steps.push_back(getValueOrCreateConstantIndexOp(b, loc, r.stride));
    }
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    scf::ParallelOp::create(
        b, loc, lbs, ubs, steps, [&](OpBuilder &at, Location, ValueRange inductions) {
          SmallVector<Value> ivs(inductions.begin(), inductions.end());
          IRMapping mapping;
          mapInputs(at, loc, op, ivs, mapping);
          cloneBody(at, op, ivs, mapping, /*except=*/combine);
          Value value = mapping.lookupOrDefault(tested);
          // `and` answers false where an element fails; `or` true where one holds.
          Value decides =
              isAnd ? arith::XOrIOp::create(
                          at, loc, value, arith::ConstantIntOp::create(at, loc, at.getI1Type(), 1))
                          .getResult()
                    : value;
          auto write = scf::IfOp::create(at, loc, decides, /*withElseRegion=*/false);
          OpBuilder inside = OpBuilder::atBlockTerminator(write.thenBlock());
          Value answer = arith::ConstantIntOp::create(inside, loc, inside.getI1Type(), !isAnd);
          OpOperand *output = op.getDpsInitOperand(0);
          memref::StoreOp::create(inside, loc, answer, output->get(),
                                  indicesOf(inside, loc, maps[output->getOperandNumber()], ivs));
        });
    op->erase();
    return true;
  }

  /// A row reduction (one reduction dim, every input read along all the other dims, so no
  /// tiles: a softmax's max and sum, a norm's mean) with an add, max or min: a warp of 32
  /// threads per output, each lane reducing every 32nd element into a partial result, the
  /// warp combining them with shuffles (gpu.subgroup_reduce), lane 0 applying the fill's
  /// start value or the output's, the fused epilogue, and the one store. 32 times the threads
  /// of one output per thread, each walking its row in coalesced strides.
  bool lowerRowReduction(linalg::LinalgOp op, const Fusion &fusion, ArrayRef<int64_t> parallel,
                         ArrayRef<int64_t> reduction) {
    constexpr int64_t kWarp = 32;
    if (op.getNumDpsInits() != 1 || reduction.size() != 1 || parallel.empty())
      return false;
    Block *body = op.getBlock();
    OpOperand *outOperand = op.getDpsInitOperand(0);
    BlockArgument out = op.getMatchingBlockArgument(outOperand);
    if (!isa<FloatType>(out.getType()) || !out.hasOneUse())
      return false;
    Operation *combine = *out.getUsers().begin();
    std::optional<gpu::AllReduceOperation> kind;
    TypedAttr identity;
    auto floatType = cast<FloatType>(out.getType());
    auto infinity = [&](bool negative) {
      return FloatAttr::get(floatType, APFloat::getInf(floatType.getFloatSemantics(), negative));
    };
    if (isa<arith::AddFOp>(combine)) {
      kind = gpu::AllReduceOperation::ADD;
      identity = FloatAttr::get(floatType, 0.0);
    } else if (isa<arith::MaximumFOp>(combine)) {
      kind = gpu::AllReduceOperation::MAXIMUMF;
      identity = infinity(true);
    } else if (isa<arith::MinimumFOp>(combine)) {
      kind = gpu::AllReduceOperation::MINIMUMF;
      identity = infinity(false);
    } else if (isa<arith::MaxNumFOp>(combine)) {
      kind = gpu::AllReduceOperation::MAXNUMF;
      identity = infinity(true);
    } else if (isa<arith::MinNumFOp>(combine)) {
      kind = gpu::AllReduceOperation::MINNUMF;
      identity = infinity(false);
    }
    if (!kind || body->getTerminator()->getOperand(0) != combine->getResult(0))
      return false;
    AffineMap outMap = op.getMatchingIndexingMap(outOperand);
    if (outMap.getNumResults() != static_cast<int64_t>(parallel.size()))
      return false;
    for (auto [k, expr] : llvm::enumerate(outMap.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim || dim.getPosition() != parallel[k])
        return false;
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Range> ranges = op.createLoopRanges(b, loc);
    int64_t r = reduction.front();
    std::optional<int64_t> extent = getConstantIntValue(ranges[r].size);
    if ((extent && *extent < kWarp) || getConstantIntValue(ranges[r].offset) != 0 ||
        getConstantIntValue(ranges[r].stride) != 1)
      return false;
    Value tested = combine->getOperand(0) == out ? combine->getOperand(1) : combine->getOperand(0);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<Value> lbs, ubs, steps;
    for (int64_t d : parallel) {
      lbs.push_back(getValueOrCreateConstantIndexOp(b, loc, ranges[d].offset));
      ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, ranges[d].size));
      steps.push_back(getValueOrCreateConstantIndexOp(b, loc, ranges[d].stride));
    }
    // The lanes: the innermost, fastest dim, so that a warp is one output's 32 threads.
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(arith::ConstantIndexOp::create(b, loc, kWarp));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    Value size = getValueOrCreateConstantIndexOp(b, loc, ranges[r].size);
    scf::ParallelOp::create(
        b, loc, lbs, ubs, steps, [&](OpBuilder &at, Location, ValueRange inductions) {
          int64_t numLoops = op.getNumLoops();
          SmallVector<Value> ivs(numLoops);
          for (auto [k, d] : llvm::enumerate(parallel))
            ivs[d] = inductions[k];
          Value lane = inductions.back();
          Value start = arith::ConstantOp::create(at, loc, identity);
          auto loop = scf::ForOp::create(
              at, loc, lane, size, arith::ConstantIndexOp::create(at, loc, kWarp), start,
              [&](OpBuilder &inner, Location, Value k, ValueRange acc) {
                SmallVector<Value> all = ivs;
                all[r] = k;
                IRMapping mapping;
                mapInputs(inner, loc, op, all, mapping);
                mapping.map(out, acc.front());
                cloneBody(inner, op, all, mapping);
                scf::YieldOp::create(inner, loc, mapping.lookup(combine->getResult(0)));
              });
          (void)tested;
          Value total = gpu::SubgroupReduceOp::create(at, loc, loop.getResult(0), *kind,
                                                      /*uniform=*/true);
          Value first = arith::CmpIOp::create(at, loc, arith::CmpIPredicate::eq, lane,
                                              arith::ConstantIndexOp::create(at, loc, 0));
          auto store = scf::IfOp::create(at, loc, first, /*withElseRegion=*/false);
          OpBuilder inside = OpBuilder::atBlockTerminator(store.thenBlock());
          SmallVector<Value> outIvs = ivs;
          outIvs[r] = arith::ConstantIndexOp::create(inside, loc, 0);
          SmallVector<Value> outIndices = indicesOf(inside, loc, outMap, outIvs);
          Value init =
              fusion.fill
                  ? linalg::FillOp(fusion.fill).getInputs()[0]
                  : memref::LoadOp::create(inside, loc, outOperand->get(), outIndices).getResult();
          IRMapping combineMapping;
          combineMapping.map(out, init);
          combineMapping.map(tested, total);
          Value value = inside.clone(*combine, combineMapping)->getResult(0);
          if (fusion.epilogue) {
            SmallVector<Value> outputIvs;
            for (int64_t d : parallel)
              outputIvs.push_back(ivs[d]);
            value = emitEpilogue(inside, loc, linalg::GenericOp(fusion.epilogue), outputIvs, value,
                                 outOperand->get())[0];
          }
          memref::StoreOp::create(inside, loc, value, outOperand->get(), outIndices);
        });
    op->erase();
    return true;
  }

  void lower(linalg::LinalgOp op, const Fusion &fusion) {
    if (!fusion.fill && !fusion.epilogue && lowerFlagReduction(op))
      return;
    // Few outputs over a long reduction: lanes split each output's reduction (before the
    // tiles, which would leave most of the GPU idle).
    bool always = false;
    if (Block *other = lanes ? lowerSplitLanes(op, fusion, always) : nullptr)
      op->moveBefore(other->getTerminator());
    if (always) {
      op->erase();
      return;
    }
    // With a matrix unit (--precision), float32 multiply-adds run on it where large enough.
    if (unit)
      if (Block *other = lowerMatrixTiled(op, fusion, *unit))
        op->moveBefore(other->getTerminator());
    // Contractions large enough to share inputs through workgroup memory become block
    // tiles; the loops below serve the small problems, in the branch that chooses them.
    if (Block *small = lowerBlockTiled(op, fusion))
      op->moveBefore(small->getTerminator());
    {
      SmallVector<int64_t> parallel, reduction;
      for (auto [d, kind] : llvm::enumerate(op.getIteratorTypesArray()))
        (kind == utils::IteratorType::parallel ? parallel : reduction).push_back(d);
      OpBuilder probe(op);
      SmallVector<Range> ranges = op.createLoopRanges(probe, op.getLoc());
      Tiling tiling = chooseTiling(op, parallel, reduction, ranges);
      // Tiles pay where the op is a product of two inputs that each miss an output dim (a
      // matmul, a max-plus product); a reduction of which only one input is broadcast over
      // a parallel dim (ViT's x + position embedding, summed for a norm: 6304 rows of 256
      // took 69 us as 4 rows a thread) is a row reduction.
      int64_t broadcast = llvm::count_if(op.getDpsInputOperands(), [&](OpOperand *input) {
        AffineMap map = op.getMatchingIndexingMap(input);
        return isa<MemRefType>(input->get().getType()) &&
               llvm::any_of(parallel, [&](int64_t d) { return !map.isFunctionOfDim(d); });
      });
      bool tiled = (tiling.columns > 1 || tiling.rows > 1) && broadcast >= 2;
      if (lanes && !tiled && lowerRowReduction(op, fusion, parallel, reduction))
        return;
    }
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Range> ranges = op.createLoopRanges(b, loc);
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> parallel, reduction;
    for (auto [d, kind] : llvm::enumerate(iterators))
      (kind == utils::IteratorType::parallel ? parallel : reduction).push_back(d);
    Tiling tiling = chooseTiling(op, parallel, reduction, ranges);
    // A bound as a value, made where `at` builds (inside the loops or the branch that use it).
    auto bound = [&](OpBuilder &at, OpFoldResult v) {
      return getValueOrCreateConstantIndexOp(at, loc, v);
    };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    int64_t numLoops = iterators.size();
    int64_t numOutputs = op.getNumDpsInits();

    // One output a thread computes: the loop indices its loads and payload use (a row past
    // the end is clamped to the last one, so that nothing is read out of bounds), the row it
    // stores to, and whether that row exists (null: always).
    struct Copy {
      SmallVector<Value> ivs, storeIvs;
      Value valid;
    };

    // The outputs at fixed parallel indices `ivs`: `rows` x `columns` neighbours along the
    // second-to-last and last parallel dims when coarsened.
    auto emitOutputs = [&](OpBuilder &at, SmallVector<Value> ivs, int64_t rows, int64_t columns) {
      // The outputs' indices use parallel dims only; reduction positions may hold anything.
      for (int64_t d : reduction)
        ivs[d] = zero;
      SmallVector<Copy> copies;
      for (int64_t r = 0; r < rows; ++r) {
        Value row, clamped, valid;
        if (r > 0) {
          int64_t d = tiling.rowDim;
          row = arith::AddIOp::create(at, loc, ivs[d], arith::ConstantIndexOp::create(at, loc, r));
          Value extent = bound(at, ranges[d].size);
          Value last =
              arith::SubIOp::create(at, loc, extent, arith::ConstantIndexOp::create(at, loc, 1));
          clamped = arith::MinUIOp::create(at, loc, row, last);
          valid = arith::CmpIOp::create(at, loc, arith::CmpIPredicate::ult, row, extent);
        }
        for (int64_t c = 0; c < columns; ++c) {
          Copy copy{ivs, ivs, valid};
          if (r > 0) {
            copy.ivs[tiling.rowDim] = clamped;
            copy.storeIvs[tiling.rowDim] = row;
          }
          if (c > 0) {
            Value column = arith::AddIOp::create(at, loc, ivs[tiling.columnDim],
                                                 arith::ConstantIndexOp::create(at, loc, c));
            copy.ivs[tiling.columnDim] = column;
            copy.storeIvs[tiling.columnDim] = column;
          }
          copies.push_back(copy);
        }
      }
      int64_t count = copies.size();
      auto outputIndices = [&](OpOperand &output, ArrayRef<Value> at_ivs, OpBuilder &builder) {
        return indicesOf(builder, loc, maps[output.getOperandNumber()], at_ivs);
      };
      // The accumulators' start: the fill's value, else the outputs' current values.
      SmallVector<Value> current;
      bool reads = !reduction.empty();
      for (int64_t c = 0; c < count; ++c)
        for (OpOperand &output : op.getDpsInitsMutable()) {
          if (fusion.fill) {
            current.push_back(linalg::FillOp(fusion.fill).getInputs()[0]);
            continue;
          }
          bool used = reads || !op.getMatchingBlockArgument(&output).use_empty();
          current.push_back(used ? memref::LoadOp::create(at, loc, output.get(),
                                                          outputIndices(output, copies[c].ivs, at))
                                       .getResult()
                                 : Value());
        }
      SmallVector<Value> results;
      if (reduction.empty()) {
        results = emitPayload(at, loc, op, ivs, current);
      } else {
        SmallVector<Value> lbs, ubs, steps;
        for (int64_t d : reduction) {
          lbs.push_back(bound(at, ranges[d].offset));
          ubs.push_back(bound(at, ranges[d].size));
          steps.push_back(bound(at, ranges[d].stride));
        }
        scf::LoopNest nest = scf::buildLoopNest(
            at, loc, lbs, ubs, steps, current,
            [&](OpBuilder &inner, Location, ValueRange inductions, ValueRange accumulators) {
              scf::ValueVector yielded;
              for (int64_t c = 0; c < count; ++c) {
                SmallVector<Value> all = copies[c].ivs;
                for (auto [k, d] : llvm::enumerate(reduction))
                  all[d] = inductions[k];
                llvm::append_range(yielded,
                                   emitPayload(inner, loc, op, all,
                                               accumulators.slice(c * numOutputs, numOutputs)));
              }
              return yielded;
            });
        results.assign(nest.results.begin(), nest.results.end());
      }
      for (int64_t c = 0; c < count; ++c) {
        SmallVector<Value> values(results.begin() + c * numOutputs,
                                  results.begin() + (c + 1) * numOutputs);
        OpBuilder::InsertionGuard guard(at);
        if (copies[c].valid) // a row past the end: computed (clamped), not stored
          at.setInsertionPoint(scf::IfOp::create(at, loc, copies[c].valid, /*withElseRegion=*/false)
                                   .thenBlock()
                                   ->getTerminator());
        if (fusion.epilogue) {
          // The epilogue's loop indices are the output's, i.e. the parallel ones.
          SmallVector<Value> outputIvs;
          for (int64_t d : parallel)
            outputIvs.push_back(copies[c].ivs[d]);
          values = emitEpilogue(at, loc, linalg::GenericOp(fusion.epilogue), outputIvs, values[0],
                                op.getDpsInits()[0]);
          memref::StoreOp::create(
              at, loc, values[0], op.getDpsInits()[0],
              outputIndices(op.getDpsInitsMutable()[0], copies[c].storeIvs, at));
          continue;
        }
        for (auto [k, output] : llvm::enumerate(op.getDpsInitsMutable()))
          memref::StoreOp::create(at, loc, values[k], output.get(),
                                  outputIndices(output, copies[c].storeIvs, at));
      }
    };

    if (parallel.empty()) {
      emitOutputs(b, SmallVector<Value>(numLoops, zero), 1, 1);
      op->erase();
      return;
    }
    // The loop over the outputs, each iteration `rows` x `columns` of them.
    auto emitLoop = [&](OpBuilder &at, int64_t rows, int64_t columns) {
      SmallVector<Value> lbs, ubs, steps;
      for (int64_t d : parallel) {
        lbs.push_back(bound(at, ranges[d].offset));
        ubs.push_back(bound(at, ranges[d].size));
        int64_t step = d == tiling.columnDim ? columns : d == tiling.rowDim ? rows : 1;
        steps.push_back(step > 1 ? arith::ConstantIndexOp::create(at, loc, step).getResult()
                                 : bound(at, ranges[d].stride));
      }
      scf::ParallelOp::create(at, loc, lbs, ubs, steps,
                              [&](OpBuilder &inner, Location, ValueRange inductions) {
                                SmallVector<Value> ivs(numLoops, zero);
                                for (auto [k, d] : llvm::enumerate(parallel))
                                  ivs[d] = inductions[k];
                                emitOutputs(inner, ivs, rows, columns);
                              });
    };
    if (tiling.rows == 1) {
      emitLoop(b, 1, tiling.columns);
    } else {
      // Tiles of rows x columns outputs only where there are enough of them to keep the GPU
      // busy with a quarter of the threads; one row per thread otherwise.
      Value outputs = arith::ConstantIndexOp::create(b, loc, 1);
      for (int64_t d : parallel)
        outputs = arith::MulIOp::create(b, loc, outputs, bound(b, ranges[d].size));
      Value large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, outputs,
                                          arith::ConstantIndexOp::create(b, loc, kMinTiledOutputs));
      auto choice = scf::IfOp::create(b, loc, large, /*withElseRegion=*/true);
      OpBuilder then = OpBuilder::atBlockTerminator(choice.thenBlock());
      emitLoop(then, tiling.rows, tiling.columns);
      OpBuilder otherwise = OpBuilder::atBlockTerminator(choice.elseBlock());
      emitLoop(otherwise, 1, tiling.columns);
    }
    op->erase();
  }
};
} // namespace
