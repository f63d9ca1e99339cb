//===- BlockTiles.cpp - contractions as block tiles staged through workgroup memory -----===//
//
// A contraction C[batch, m, n] = combine over k of X[batch, m, k] and Y[batch, n, k] (a
// matmul, a batched matmul, a convolution read as an implicit GEMM) where each thread
// reading X and Y from global memory for its own outputs would read each value as many
// times as it has neighbours. Here a block of 16 x 16 threads computes a tile of outputs
// together: per step of the reduction it copies a slice of X's rows and of Y's columns into
// workgroup memory once (each thread a few elements, neighbouring threads neighbouring
// addresses), waits at a barrier, and every thread computes its rows x columns outputs from
// there, in registers. A dim group (m: the parallel dims only X reads; n: only Y; k: the
// reduction dims) is numbered as one flat index and split back into its dims where memory
// is addressed, so any number of dims and any affine indexing (a convolution's
// `oh * stride + kh`) fits one scheme.
//
//===----------------------------------------------------------------------------------===//
#include "ContractionRoles.h"
#include "LoopBodies.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace tcc::gpu;

namespace {

/// Threads per side of a block: a block is kSide x kSide threads. A thread's outputs are
/// runs of 4 neighbours along both sides, the runs of the 16 lanes of a half-warp side by
/// side, so that a lane reads its run of workgroup memory as one 16-byte load (the lanes of
/// a quarter-warp read 128 neighbouring bytes: no bank conflict) and a half-warp's stores
/// cover 64 neighbouring outputs.
constexpr int64_t kSide = 16;
constexpr int64_t kThreads = kSide * kSide;
/// A thread's rows (and columns) come in runs of this many neighbours.
constexpr int64_t kRun = 4;

/// A block tile: each thread computes `rows` x `columns` outputs, the reduction advances
/// `depth` per step; the block's tile is (16 rows) x (16 columns), and each thread stages
/// (16 rows) x depth / 256 elements of X and as many of Y per step.
struct TileShape {
  int64_t rows, columns, depth;
  /// Workgroup buffers: 2 to store the next slice while the current one is computed (one
  /// barrier a slice), 1 to wait for every thread before storing (two barriers a slice).
  int64_t buffers;
  int64_t blockRows() const { return kSide * rows; }
  int64_t blockColumns() const { return kSide * columns; }
};

/// The shapes, and what a block of each costs. A problem of T tiles of a shape puts
/// ceil(T / kMultiprocessors) blocks on the busiest SM; `cost[b - 1]` is the time the busiest
/// SM then takes, in tenths of a microsecond for a reduction of 256, measured on the H200
/// (fp32, matmuls of 4096 and 6304 rows by 128 to 1024 columns, each shape forced: a block
/// alone on its SM is latency-bound, so two blocks of 128 x 128 take 1.6 times one, not 2),
/// and each block past the fourth adds `slope`. The host computes each shape's cost from the
/// problem's tiles and takes the cheapest shape that fits (the reduction's length scales
/// every shape alike). 128 x 128 outputs a block, 64 a thread (4 workgroup loads per 64
/// multiply-adds), 128 x 64 (32 a thread) and 64 x 64 (16 a thread, one workgroup buffer).
/// The smallest also needs `minTiles` tiles, else the plain loops.
struct TileChoice {
  TileShape shape;
  int64_t cost[4];
  int64_t slope;
  int64_t minTiles;
};
/// Measured on the H200 (gpt2, batch 32): two buffers took the 128 x 128 tiles of a
/// 4096 x 768 x 256 matmul from 79 to 67 us, but the 64 x 64 tiles of 4096 x 256 x 1024
/// from 105 to 127 us.
constexpr TileChoice kChoices[] = {{{8, 8, 8, 2}, {470, 770, 1155, 1540}, 385, 0},
                                   {{8, 4, 8, 2}, {420, 595, 770, 945}, 235, 0},
                                   {{4, 4, 16, 1}, {250, 390, 450, 500}, 160, 32}};
/// The H200's multiprocessors (an A100 has 108: the costs are the H200's too).
constexpr int64_t kMultiprocessors = 132;
constexpr TileShape kSmallest = kChoices[std::size(kChoices) - 1].shape;
/// Reductions shorter than this stay one output per thread (nothing to stage).
constexpr int64_t kMinDepth = 16;

/// The kernel of one tile shape: an scf.parallel over (batch dims, row tiles, column tiles,
/// the block's threads) marked `kernel.block_threads`.
void emitTiles(OpBuilder &b, Location loc, const Problem &p, const TileShape &shape) {
  MLIRContext *ctx = b.getContext();
  linalg::LinalgOp op = p.op;
  const Roles &roles = p.roles;
  auto cst = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  Value zero = cst(b, 0), one = cst(b, 1);

  OpOperand *x = roles.x, *y = roles.y;
  Type xType = cast<MemRefType>(x->get().getType()).getElementType();
  Type yType = cast<MemRefType>(y->get().getType()).getElementType();
  OpOperand *output = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(output);
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // Workgroup memory, one or two buffers (with two, one is computed from while the next
  // slice is stored into the other): [buffers][depth][block rows] of X and
  // [buffers][depth][block columns] of Y.
  auto xTileType = MemRefType::get({shape.buffers, shape.depth, shape.blockRows()}, xType,
                                   AffineMap(), workgroup);
  auto yTileType = MemRefType::get({shape.buffers, shape.depth, shape.blockColumns()}, yType,
                                   AffineMap(), workgroup);
  // Lanes (threads 16 apart in a warp's numbering: the fastest) run along the output's
  // innermost dim: stores of neighbouring lanes are neighbouring addresses.
  bool lanesAlongRows = false;
  if (auto last = dyn_cast<AffineDimExpr>(outMap.getResults().back()))
    lanesAlongRows = llvm::is_contained(roles.m, last.getPosition());
  bool xByK = reductionFastest(p, x, roles.m);
  bool yByK = reductionFastest(p, y, roles.n);

  BlockLoop blocks = createBlockLoop(b, loc, p, shape.blockRows(), shape.blockColumns(), kThreads);
  OpBuilder at = OpBuilder::atBlockTerminator(blocks.loop.getBody());
  Value thread = blocks.thread;
  Value xTile = memref::AllocaOp::create(at, loc, xTileType);
  Value yTile = memref::AllocaOp::create(at, loc, yTileType);
  Value lane = arith::RemUIOp::create(at, loc, thread, cst(at, kSide));
  Value group = arith::DivUIOp::create(at, loc, thread, cst(at, kSide));
  Value rowLane = lanesAlongRows ? lane : group;
  Value columnLane = lanesAlongRows ? group : lane;
  Value firstRow = arith::MulIOp::create(at, loc, blocks.rowTile, cst(at, shape.blockRows()));
  Value firstColumn =
      arith::MulIOp::create(at, loc, blocks.columnTile, cst(at, shape.blockColumns()));
  Value lastRow = arith::SubIOp::create(at, loc, p.rows, one);
  Value lastColumn = arith::SubIOp::create(at, loc, p.columns, one);
  Value lastDepth = arith::SubIOp::create(at, loc, p.depth, one);

  // This thread's rows and columns within the tile: runs of 4 neighbours (one 16-byte load
  // of workgroup memory each), 16 threads' runs side by side, then the next run.
  auto offsetsOf = [&](Value threadLane, int64_t count) {
    SmallVector<Value> offsets;
    Value start = arith::MulIOp::create(at, loc, threadLane, cst(at, kRun));
    for (int64_t i = 0; i < count; ++i)
      offsets.push_back(
          arith::AddIOp::create(at, loc, start, cst(at, (i / kRun) * kSide * kRun + i % kRun)));
    return offsets;
  };
  SmallVector<Value> rowOffsets = offsetsOf(rowLane, shape.rows);
  SmallVector<Value> columnOffsets = offsetsOf(columnLane, shape.columns);
  SmallVector<Value> rows, columns;
  for (Value offset : rowOffsets)
    rows.push_back(arith::AddIOp::create(at, loc, firstRow, offset));
  for (Value offset : columnOffsets)
    columns.push_back(arith::AddIOp::create(at, loc, firstColumn, offset));
  // The accumulators' start: the fill's value, else the output's.
  SmallVector<Value> start;
  for (Value row : rows)
    for (Value column : columns)
      start.push_back(accumulatorStart(at, loc, p, blocks, row, column));

  // The elements of a reduction slice a thread stages: for input `x` (or `y`) and its r-th
  // element, the place in the tile (step along the reduction, position along the rows or
  // columns), neighbouring threads at neighbouring addresses of the input's innermost dim.
  struct Staged {
    OpOperand *input;
    Value tile, first, last;
    ArrayRef<int64_t> own;
    int64_t width;
    bool byK;
  };
  Staged staged[] = {{x, xTile, firstRow, lastRow, roles.m, shape.blockRows(), xByK},
                     {y, yTile, firstColumn, lastColumn, roles.n, shape.blockColumns(), yByK}};
  auto placeOf = [&](OpBuilder &builder, const Staged &in, int64_t r) {
    Value element = arith::AddIOp::create(builder, loc, thread, cst(builder, kThreads * r));
    Value depth = cst(builder, shape.depth), width = cst(builder, in.width);
    if (in.byK)
      return std::pair<Value, Value>(arith::RemUIOp::create(builder, loc, element, depth),
                                     arith::DivUIOp::create(builder, loc, element, depth));
    return std::pair<Value, Value>(arith::DivUIOp::create(builder, loc, element, width),
                                   arith::RemUIOp::create(builder, loc, element, width));
  };
  // Loads this thread's elements of the reduction slice [from, from + depth) of X's block
  // rows and Y's block columns; indices past the end read the last one instead (rows and
  // columns are not stored, reduction steps not computed).
  auto fetch = [&](OpBuilder &builder, Value from) {
    SmallVector<Value> values;
    for (const Staged &in : staged) {
      AffineMap map = op.getMatchingIndexingMap(in.input);
      for (int64_t r = 0; r < in.width * shape.depth / kThreads; ++r) {
        auto [step, position] = placeOf(builder, in, r);
        Value index = arith::MinUIOp::create(
            builder, loc, arith::AddIOp::create(builder, loc, in.first, position), in.last);
        Value reduced = arith::MinUIOp::create(
            builder, loc, arith::AddIOp::create(builder, loc, from, step), lastDepth);
        SmallVector<Value> ivs = blocks.base;
        unflatten(builder, loc, p, in.own, index, ivs);
        unflatten(builder, loc, p, roles.k, reduced, ivs);
        values.push_back(memref::LoadOp::create(builder, loc, in.input->get(),
                                                tcc::gpu::indicesOf(builder, loc, map, ivs)));
      }
    }
    return values;
  };
  // Stores what `fetch` loaded into workgroup buffer `buffer`.
  auto deposit = [&](OpBuilder &builder, Value buffer, ValueRange values) {
    int64_t k = 0;
    for (const Staged &in : staged)
      for (int64_t r = 0; r < in.width * shape.depth / kThreads; ++r) {
        auto [step, position] = placeOf(builder, in, r);
        memref::StoreOp::create(builder, loc, values[k++], in.tile,
                                ValueRange{buffer, step, position});
      }
  };
  // One reduction step `s` of every accumulator, from workgroup buffer `buffer`.
  BlockArgument xArg = op.getMatchingBlockArgument(x), yArg = op.getMatchingBlockArgument(y);
  BlockArgument outArg = op.getMatchingBlockArgument(output);
  auto compute = [&](OpBuilder &builder, Value buffer, Value s, ValueRange acc) {
    SmallVector<Value> xs, ys, next;
    for (Value offset : rowOffsets)
      xs.push_back(memref::LoadOp::create(builder, loc, xTile, ValueRange{buffer, s, offset}));
    for (Value offset : columnOffsets)
      ys.push_back(memref::LoadOp::create(builder, loc, yTile, ValueRange{buffer, s, offset}));
    for (int64_t i = 0; i < shape.rows; ++i)
      for (int64_t j = 0; j < shape.columns; ++j) {
        IRMapping mapping;
        for (OpOperand *input : op.getDpsInputOperands())
          if (!isa<MemRefType>(input->get().getType()))
            mapping.map(op.getMatchingBlockArgument(input), input->get());
        mapping.map(xArg, xs[i]);
        mapping.map(yArg, ys[j]);
        mapping.map(outArg, acc[i * shape.columns + j]);
        next.push_back(tcc::gpu::cloneBody(builder, op, {}, mapping)[0]);
      }
    return next;
  };

  // Whole slices of `depth`, the reduction unrolled within each; the next slice is loaded
  // into registers before the current one is computed, so that its latency overlaps the
  // math, and stored into the other buffer after it (the last iteration loads and stores
  // the rest of the reduction, or a slice again, unused).
  Value depthStep = cst(at, shape.depth);
  Value whole = arith::MulIOp::create(at, loc, arith::DivUIOp::create(at, loc, p.depth, depthStep),
                                      depthStep);
  // Slice `from` is in buffer (from / depth) mod 2 (with two). One barrier a slice: the
  // buffer stored into in iteration i is the one computed from in iteration i - 1, which
  // every thread has finished once it passed the barrier ending i - 1.
  auto bufferOf = [&](OpBuilder &builder, Value from) -> Value {
    if (shape.buffers == 1)
      return cst(builder, 0);
    return arith::RemUIOp::create(
        builder, loc, arith::DivUIOp::create(builder, loc, from, depthStep), cst(builder, 2));
  };
  deposit(at, zero, fetch(at, zero));
  gpu::BarrierOp::create(at, loc);
  auto main =
      scf::ForOp::create(at, loc, zero, whole, depthStep, start,
                         [&](OpBuilder &inner, Location, Value from, ValueRange acc) {
                           Value following = arith::AddIOp::create(inner, loc, from, depthStep);
                           SmallVector<Value> next = fetch(inner, following);
                           Value buffer = bufferOf(inner, from);
                           SmallVector<Value> values(acc.begin(), acc.end());
                           for (int64_t s = 0; s < shape.depth; ++s)
                             values = compute(inner, buffer, cst(inner, s), values);
                           if (shape.buffers == 1) // every thread done with the buffer first
                             gpu::BarrierOp::create(inner, loc);
                           deposit(inner, bufferOf(inner, following), next);
                           gpu::BarrierOp::create(inner, loc);
                           scf::YieldOp::create(inner, loc, values);
                         });
  // The rest of the reduction (shorter than `depth`): the slice the last iteration staged.
  Value partial = arith::CmpIOp::create(at, loc, arith::CmpIPredicate::ult, whole, p.depth);
  auto rest = scf::IfOp::create(at, loc, main.getResultTypes(), partial, /*withElseRegion=*/true);
  {
    OpBuilder then = OpBuilder::atBlockEnd(rest.thenBlock());
    Value count = arith::SubIOp::create(then, loc, p.depth, whole);
    Value buffer = bufferOf(then, whole);
    auto steps =
        scf::ForOp::create(then, loc, zero, count, one, main.getResults(),
                           [&](OpBuilder &inner, Location, Value s, ValueRange acc) {
                             scf::YieldOp::create(inner, loc, compute(inner, buffer, s, acc));
                           });
    scf::YieldOp::create(then, loc, steps.getResults());
    OpBuilder otherwise = OpBuilder::atBlockEnd(rest.elseBlock());
    scf::YieldOp::create(otherwise, loc, main.getResults());
  }

  // The stores: outputs past the end are computed (from clamped indices) and not stored.
  for (auto [i, row] : llvm::enumerate(rows))
    for (auto [j, column] : llvm::enumerate(columns))
      storeOutput(at, loc, p, blocks, row, column, rest.getResult(i * shape.columns + j));
}

} // namespace

Block *tcc::gpu::lowerBlockTiled(linalg::LinalgOp op, const Fusion &fusion) {
  std::optional<Problem> problem = analyze(op, fusion);
  if (!problem)
    return nullptr;
  const Problem &p = *problem;
  OpBuilder b(op);
  Location loc = op.getLoc();
  // Static sizes too small to stage: the plain loops.
  auto below = [&](ArrayRef<int64_t> dims, int64_t minimum) {
    int64_t known = 1;
    for (int64_t d : dims)
      if (std::optional<int64_t> e = getConstantIntValue(p.extents[d]))
        known *= *e;
      else
        return false;
    return known < minimum;
  };
  if (below(p.roles.k, kMinDepth) || below(p.roles.m, kSmallest.blockRows() / 2) ||
      below(p.roles.n, kSmallest.blockColumns() / 2))
    return nullptr;
  Value batches = product(b, loc, p, p.roles.batch);
  // Tiles of a shape: batches x ceil(rows / block rows) x ceil(columns / block columns).
  auto tiles = [&](const TileShape &shape) {
    Value r = b.createOrFold<arith::CeilDivUIOp>(
        loc, p.rows, arith::ConstantIndexOp::create(b, loc, shape.blockRows()));
    Value c = b.createOrFold<arith::CeilDivUIOp>(
        loc, p.columns, arith::ConstantIndexOp::create(b, loc, shape.blockColumns()));
    return b.createOrFold<arith::MulIOp>(loc, batches, b.createOrFold<arith::MulIOp>(loc, r, c));
  };
  auto atLeast = [&](Value v, int64_t n) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, v,
                                 arith::ConstantIndexOp::create(b, loc, n));
  };
  Value deep = atLeast(p.depth, kMinDepth);
  auto cst = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(b, loc, v); };
  // Each shape: its tiles, whether it fits, and its cost (`never` where it does not fit).
  SmallVector<Value> counts, fits, costs;
  Value never = cst(std::numeric_limits<int32_t>::max());
  for (auto [i, choice] : llvm::enumerate(kChoices)) {
    const TileShape &shape = choice.shape;
    bool last = i + 1 == std::size(kChoices);
    int64_t minRows = last ? shape.blockRows() / 2 : shape.blockRows();
    int64_t minColumns = last ? shape.blockColumns() / 2 : shape.blockColumns();
    Value count = tiles(shape);
    Value fit = arith::AndIOp::create(
        b, loc,
        arith::AndIOp::create(b, loc, atLeast(p.rows, minRows), atLeast(p.columns, minColumns)),
        deep);
    if (choice.minTiles > 0)
      fit = arith::AndIOp::create(b, loc, fit, atLeast(count, choice.minTiles));
    // blocks = ceil(tiles / SMs); cost = cost[min(blocks, 4) - 1] + slope * max(blocks - 4, 0)
    Value blocks = b.createOrFold<arith::CeilDivUIOp>(loc, count, cst(kMultiprocessors));
    Value cost = cst(choice.cost[0]);
    for (int64_t k = 2; k <= 4; ++k)
      cost =
          b.createOrFold<arith::SelectOp>(loc, atLeast(blocks, k), cst(choice.cost[k - 1]), cost);
    Value beyond = b.createOrFold<arith::SubIOp>(
        loc, b.createOrFold<arith::MaxUIOp>(loc, blocks, cst(4)), cst(4));
    cost = b.createOrFold<arith::AddIOp>(
        loc, cost, b.createOrFold<arith::MulIOp>(loc, beyond, cst(choice.slope)));
    counts.push_back(count);
    fits.push_back(fit);
    costs.push_back(b.createOrFold<arith::SelectOp>(loc, fit, cost, never));
  }
  // The first shape that fits and costs no more than any later one. The costs are the
  // matmuls': a convolution (an input indexed by sums of dims: its index arithmetic weighs
  // differently) takes the first shape that fits with at least 132 tiles, else 64 x 64
  // (ViT's patch embedding, 6272 x 256 x 768: 134 us with 128 x 64, 168 with 64 x 64).
  bool matmul = llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    return op.getMatchingIndexingMap(input).isProjectedPermutation();
  });
  OpBuilder::InsertionGuard guard(b);
  for (auto [i, choice] : llvm::enumerate(kChoices)) {
    Value take = fits[i];
    bool last = i + 1 == std::size(kChoices);
    if (!matmul && !last)
      take = arith::AndIOp::create(b, loc, take, atLeast(counts[i], kMultiprocessors));
    for (size_t j = i + 1; matmul && j < std::size(kChoices); ++j)
      take = arith::AndIOp::create(
          b, loc, take,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, costs[i], costs[j]));
    auto choose = scf::IfOp::create(b, loc, take, /*withElseRegion=*/true);
    OpBuilder then = OpBuilder::atBlockTerminator(choose.thenBlock());
    emitTiles(then, loc, p, choice.shape);
    b.setInsertionPoint(choose.elseBlock()->getTerminator());
  }
  return b.getInsertionBlock();
}
