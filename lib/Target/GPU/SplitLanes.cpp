//===- SplitLanes.cpp - contractions with few outputs: the reduction split across lanes -===//
//
// A contraction C = acc + sum over k of f(X[m, k], Y[n, k]) with few outputs and a long
// reduction (a transformer's projections at batch 1: 128 x 256 outputs over 1024) leaves
// most of a GPU idle as tiles (a handful of blocks) or as one thread per output (each
// walking the whole reduction). Here `kLanes` neighbouring lanes of a warp share each output:
// lane l sums f over reduction positions l, l + kLanes, ..., and the lanes combine their sums
// with shuffles (gpu.subgroup_reduce over a cluster of kLanes), the first adding the start
// (the fused fill's value or the output's) and running the epilogue before the one store.
// Each thread takes up to 4 neighbouring rows of one column, so that each load of Y serves
// them all, and 4 reduction positions an iteration, their loads in flight together. A warp's 32 /
// kLanes columns are neighbours: where Y is laid out along its columns (a matmul's [K, N] weight) a
// warp reads 4 of its rows as 32-byte runs; where Y runs along the reduction ([N, K]), 8 lanes a
// column read 32-byte runs of 4 columns.
//
//===----------------------------------------------------------------------------------===//
#include "ContractionRoles.h"
#include "LoopBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc::gpu;

namespace {

constexpr int64_t kWarp = 32;
/// Reduction positions a lane takes per iteration (their loads in flight together).
constexpr int64_t kUnroll = 4;
/// Threads the form aims for (rows a thread computes: 4, 2 or 1, the most that leave this
/// many threads).
constexpr int64_t kMinThreads = int64_t{1} << 16;
/// Problems with fewer outputs than this and a reduction of at least kMinDepth take lanes:
/// below it, the other forms give fewer than 2^16 threads.
constexpr int64_t kMaxOutputs = int64_t{1} << 18;
constexpr int64_t kMinDepth = 64;

/// Whether the body is acc + f(x, y), the accumulator used only there (a sum that lanes may
/// split); the addition's other operand is returned.
Value summand(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  BlockArgument out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  if (!isa<FloatType>(out.getType()) || !out.hasOneUse())
    return nullptr;
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || *out.getUsers().begin() != add.getOperation())
    return nullptr;
  return add.getLhs() == out ? add.getRhs() : add.getLhs();
}

void emitLanes(OpBuilder &b, Location loc, const Problem &p, int64_t kLanes,
               int64_t rowsPerThread) {
  linalg::LinalgOp op = p.op;
  const Roles &roles = p.roles;
  auto cst = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  Value zero = cst(b, 0), one = cst(b, 1);
  int64_t columnLanes = kWarp / kLanes;
  // (batch dims, row groups, columns padded to whole warps, lanes): the lanes of a column
  // neighbours, whole warps throughout (every lane takes part in the shuffles).
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d : roles.batch) {
    lbs.push_back(zero);
    ubs.push_back(p.extents[d]);
    steps.push_back(one);
  }
  Value rowGroups = b.createOrFold<arith::CeilDivUIOp>(loc, p.rows, cst(b, rowsPerThread));
  Value paddedColumns = b.createOrFold<arith::MulIOp>(
      loc, b.createOrFold<arith::CeilDivUIOp>(loc, p.columns, cst(b, columnLanes)),
      cst(b, columnLanes));
  for (Value upper : {rowGroups, paddedColumns, cst(b, kLanes)}) {
    lbs.push_back(zero);
    ubs.push_back(upper);
    steps.push_back(one);
  }
  Value lastRow = b.createOrFold<arith::SubIOp>(loc, p.rows, one);
  Value lastColumn = b.createOrFold<arith::SubIOp>(loc, p.columns, one);
  BlockArgument xArg = op.getMatchingBlockArgument(roles.x);
  BlockArgument yArg = op.getMatchingBlockArgument(roles.y);
  BlockArgument outArg = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  FloatType type = cast<FloatType>(outArg.getType());
  scf::ParallelOp::create(b, loc, lbs, ubs, steps, [&](OpBuilder &at, Location, ValueRange ivs) {
    int64_t numBatch = roles.batch.size();
    BlockLoop blocks;
    blocks.base.assign(op.getNumLoops(), cst(at, 0));
    for (auto [i, d] : llvm::enumerate(roles.batch))
      blocks.base[d] = ivs[i];
    Value group = ivs[numBatch], column = ivs[numBatch + 1], lane = ivs[numBatch + 2];
    Value firstRow = arith::MulIOp::create(at, loc, group, cst(at, rowsPerThread));
    SmallVector<Value> rows;
    for (int64_t r = 0; r < rowsPerThread; ++r)
      rows.push_back(r == 0 ? firstRow
                            : arith::AddIOp::create(at, loc, firstRow, cst(at, r)).getResult());
    Value readColumn = arith::MinUIOp::create(at, loc, column, lastColumn);
    SmallVector<Value> zeros(rowsPerThread,
                             arith::ConstantOp::create(at, loc, FloatAttr::get(type, 0.0)));
    AffineMap xMap = op.getMatchingIndexingMap(roles.x);
    AffineMap yMap = op.getMatchingIndexingMap(roles.y);
    // One reduction position: partial[r] + f(X[row r, k], Y[column, k]).
    auto step = [&](OpBuilder &inner, Value k, ArrayRef<Value> partial) {
      SmallVector<Value> ivsK = blocks.base;
      unflatten(inner, loc, p, roles.k, k, ivsK);
      SmallVector<Value> yIvs = ivsK;
      unflatten(inner, loc, p, roles.n, readColumn, yIvs);
      Value y =
          memref::LoadOp::create(inner, loc, roles.y->get(), indicesOf(inner, loc, yMap, yIvs));
      SmallVector<Value> next;
      for (auto [r, row] : llvm::enumerate(rows)) {
        SmallVector<Value> xIvs = ivsK;
        unflatten(inner, loc, p, roles.m, arith::MinUIOp::create(inner, loc, row, lastRow), xIvs);
        Value x =
            memref::LoadOp::create(inner, loc, roles.x->get(), indicesOf(inner, loc, xMap, xIvs));
        IRMapping mapping;
        for (OpOperand *input : op.getDpsInputOperands())
          if (!isa<MemRefType>(input->get().getType()))
            mapping.map(op.getMatchingBlockArgument(input), input->get());
        mapping.map(xArg, x);
        mapping.map(yArg, y);
        mapping.map(outArg, partial[r]);
        next.push_back(cloneBody(inner, op, {}, mapping)[0]);
      }
      return next;
    };
    // kUnroll positions an iteration (their loads issued together), then the rest.
    Value stride = cst(at, kLanes * kUnroll);
    Value span = cst(at, kLanes * (kUnroll - 1));
    Value end =
        arith::SubIOp::create(at, loc, arith::MaxUIOp::create(at, loc, p.depth, span), span);
    auto unrolled = scf::ForOp::create(
        at, loc, lane, end, stride, zeros,
        [&](OpBuilder &inner, Location, Value k, ValueRange partial) {
          SmallVector<Value> values(partial.begin(), partial.end());
          for (int64_t u = 0; u < kUnroll; ++u)
            values = step(
                inner,
                u == 0 ? k
                       : arith::AddIOp::create(inner, loc, k, cst(inner, u * kLanes)).getResult(),
                values);
          scf::YieldOp::create(inner, loc, values);
        });
    // Where the unrolled loop stopped: the first of its positions past `end`.
    Value done = arith::AddIOp::create(
        at, loc, lane,
        arith::MulIOp::create(
            at, loc,
            arith::DivUIOp::create(
                at, loc,
                arith::AddIOp::create(
                    at, loc,
                    arith::SubIOp::create(at, loc, arith::MaxUIOp::create(at, loc, end, lane),
                                          lane),
                    cst(at, kLanes * kUnroll - 1)),
                stride),
            stride));
    auto sums = scf::ForOp::create(at, loc, done, p.depth, cst(at, kLanes), unrolled.getResults(),
                                   [&](OpBuilder &inner, Location, Value k, ValueRange partial) {
                                     SmallVector<Value> values(partial.begin(), partial.end());
                                     scf::YieldOp::create(inner, loc, step(inner, k, values));
                                   });
    SmallVector<Value> totals;
    for (Value partial : sums.getResults())
      totals.push_back(gpu::SubgroupReduceOp::create(at, loc, partial, gpu::AllReduceOperation::ADD,
                                                     /*uniform=*/true, kLanes));
    Value first = arith::CmpIOp::create(at, loc, arith::CmpIPredicate::eq, lane, cst(at, 0));
    auto store = scf::IfOp::create(at, loc, first, /*withElseRegion=*/false);
    OpBuilder inside = OpBuilder::atBlockTerminator(store.thenBlock());
    for (auto [row, total] : llvm::zip(rows, totals)) {
      // acc + the sum of the summands: the start added once, after the lanes' sums.
      Value start = accumulatorStart(inside, loc, p, blocks, row, column);
      storeOutput(inside, loc, p, blocks, row, column,
                  arith::AddFOp::create(inside, loc, start, total));
    }
  });
}

} // namespace

Block *tcc::gpu::lowerSplitLanes(linalg::LinalgOp op, const Fusion &fusion, bool &always) {
  always = false;
  if (op.getNumDpsInits() != 1 || !summand(op))
    return nullptr;
  std::optional<Problem> problem = analyze(op, fusion);
  if (!problem)
    return nullptr;
  const Problem &p = *problem;
  auto known = [](Value v) { return getConstantIntValue(v); };
  // Statically too few reduction steps or too many outputs: not this form.
  std::optional<int64_t> depth = known(p.depth);
  if (depth && *depth < kMinDepth)
    return nullptr;
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto cst = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
  Value outputs =
      b.createOrFold<arith::MulIOp>(loc, product(b, loc, p, p.roles.batch),
                                    b.createOrFold<arith::MulIOp>(loc, p.rows, p.columns));
  if (std::optional<int64_t> count = known(outputs); count && *count >= kMaxOutputs)
    return nullptr;
  // Lanes a column: 8 where Y runs along the reduction (32-byte runs of it), else 4.
  int64_t kLanes = reductionFastest(p, p.roles.y, p.roles.n) ? 8 : 4;
  int64_t rowsPerThread = 2;
  if (std::optional<int64_t> count = known(outputs)) {
    rowsPerThread = 4;
    while (rowsPerThread > 1 && *count * kLanes / rowsPerThread < kMinThreads)
      rowsPerThread /= 2;
  }
  std::optional<int64_t> n = known(outputs);
  if (n && depth) { // statically this form: no branch, no other form
    emitLanes(b, loc, p, kLanes, rowsPerThread);
    always = true;
    return nullptr;
  }
  Value few = arith::AndIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, outputs, cst(kMaxOutputs)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, p.depth, cst(kMinDepth)));
  auto choose = scf::IfOp::create(b, loc, few, /*withElseRegion=*/true);
  OpBuilder then = OpBuilder::atBlockTerminator(choose.thenBlock());
  emitLanes(then, loc, p, kLanes, rowsPerThread);
  return choose.elseBlock();
}
