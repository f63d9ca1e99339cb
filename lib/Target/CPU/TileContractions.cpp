//===- TileContractions.cpp - register-blocked vector code for contractions ------------===//
//
// A float contraction out[p...] += a[...] * b[...] whose output's fastest dim j is read
// contiguously (or with a constant stride) by exactly one operand ("the vector operand")
// and not at all by the other ("the scalar operand") is an outer product per reduction
// point: matmul (j = columns of B), batch matmul, dot_general's generics, and direct
// convolutions in NCHW (j = output columns, read from an input row with the conv's stride;
// the filter does not depend on it). Such an op becomes
//
//   scf.parallel over the other parallel dims, with a row dim i tiled by R
//     scf.for j0 over full blocks of V vectors:    R x V accumulators (vector registers)
//       scf.for over each reduction dim:           V vector loads of b, R broadcasts of a,
//                                                  R x V vector.fma
//     scf.for j0 over the rest, one masked vector at a time
//   with a one-row copy of the same for the rows past the last full tile of i.
//
// i is a parallel dim the scalar operand reads and the vector operand does not (matmul's
// rows, a convolution's output channels), so every vector load is used R times and every
// broadcast V times. Remainders are handled exactly: rows one at a time, columns with
// masked loads and stores, so dynamic extents need nothing else.
//
//===----------------------------------------------------------------------------------===//
#include "dialects/kernel/KernelDialect.h"
#include "tcc/Target/CPU/Passes.h"

#include "ParallelLoops.h"
#include "TileEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

namespace tcc {
#define GEN_PASS_DEF_TILECONTRACTIONS
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;
using namespace tcc::tiling;

void Emitter::emit(int64_t registers) {
  linalg::LinalgOp op = plan.op;
  // Loop extents, computed in front of the op (dims of its operands).
  for (Range range : op.createLoopRanges(b, loc))
    extents.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  type = plan.vectorType;
  SmallVector<std::optional<int64_t>> staticExtents;
  for (Value extent : extents)
    staticExtents.push_back(getConstantIntValue(extent));
  shape = chooseTileShape(plan, staticExtents, registers, splitWideFma);
  lanes = shape.lanes;

  Value one = constant(1);
  SmallVector<Value> lower, upper, steps;
  SmallVector<unsigned> order;
  // Stacked tiles in reduction chunks: threads split the stack tiles alone; the outer dims
  // (images), like the row tiles, loop inside each chunk (emitStackChunks).
  bool stackChunks = stackDim && chunkSize;
  for (unsigned d : plan.outer)
    if (d != stackDim && !stackChunks)
      order.push_back(d);
  // Threads split row tiles, or column panels when the vector operand is large (each
  // panel of it then read from memory once and reused by a group of row tiles from cache),
  // panel-major: one work item per panel and group of row tiles.
  // Stacked rows go after the row tiles (not split by threads in chunks): a dynamic batch
  // merges with those (more of them).
  if (panelWidth)
    order.push_back(kPanel);
  else if (plan.i && !stackChunks)
    order.push_back(*plan.i);
  if (stackDim)
    order.push_back(*stackDim);
  // The first dim is the one threads split: the first of static trip count >= 8 (tiles
  // for i), otherwise the outermost.
  auto tripCount = [&](unsigned d) -> std::optional<int64_t> {
    if (d == kPanel)
      return shape.panelCount(*getConstantIntValue(extents[plan.j])) * rowGroups;
    if (d == stackDim)
      return stackTiles();
    std::optional<int64_t> extent = getConstantIntValue(extents[d]);
    if (extent && plan.i && d == *plan.i)
      return (*extent + rows - 1) / rows;
    return extent;
  };
  // A dynamic first dim (the batch) stays first: tcc-range-kernels merges it with the next
  // static one, batch-major, so that threads split both.
  for (unsigned k = 0; k < order.size(); ++k) {
    std::optional<int64_t> trips = tripCount(order[k]);
    if (!trips && k == 0 && order.size() > 1)
      break;
    if (trips && *trips >= (order[k] == kPanel ? 2 : 8)) {
      std::rotate(order.begin(), order.begin() + k, order.begin() + k + 1);
      break;
    }
  }
  for (unsigned d : order) {
    lower.push_back(constant(0));
    steps.push_back(one);
    if (d == kPanel || d == stackDim)
      upper.push_back(constant(*tripCount(d)));
    else if (plan.i && d == *plan.i)
      upper.push_back(rowTiles());
    else
      upper.push_back(extents[d]);
  }
  if (order.empty()) {
    // No parallel dim but j: one row of vectors.
    emitRows(1, nullptr, DenseMap<unsigned, Value>());
    return;
  }
  auto parallel = scf::ParallelOp::create(
      b, loc, lower, upper, steps, [&](OpBuilder &nested, Location, ValueRange ivs) {
        OpBuilder::InsertionGuard guard(b);
        moveTo(nested);
        DenseMap<unsigned, Value> dims;
        Value tile, panel;
        for (auto [d, iv] : llvm::zip(order, ivs)) {
          if (d == kPanel)
            panel = iv;
          else if (plan.i && d == *plan.i)
            tile = iv;
          else
            dims[d] = iv;
        }
        if (stackChunks) {
          emitStacked(dims, [&] { emitStackChunks(dims); });
          return;
        }
        if (!panel) {
          if (stackDim)
            emitStacked(dims, [&] { emitTile(tile, dims); });
          else
            emitTile(tile, dims);
          return;
        }
        // One panel of columns and one group of row tiles.
        Value group;
        if (rowGroups > 1) {
          group = arith::RemUIOp::create(b, loc, panel, constant(rowGroups));
          panel = arith::DivUIOp::create(b, loc, panel, constant(rowGroups));
        }
        columnBegin = arith::MulIOp::create(b, loc, panel, constant(panelWidth));
        int64_t columns = *getConstantIntValue(extents[plan.j]);
        columnExtent = columns % panelWidth == 0
                           ? constant(panelWidth)
                           : arith::MinSIOp::create(
                                 b, loc, constant(panelWidth),
                                 arith::SubIOp::create(b, loc, constant(columns), columnBegin))
                                 .getResult();
        auto everyRowTile = [&] {
          Value first = constant(0), end = rowTiles();
          if (group) {
            first = arith::MulIOp::create(b, loc, group, constant(tilesPerGroup));
            end = arith::MinUIOp::create(
                b, loc, arith::AddIOp::create(b, loc, first, constant(tilesPerGroup)), end);
          }
          scf::ForOp::create(b, loc, first, end, constant(1), ValueRange{},
                             [&](OpBuilder &inner, Location, Value t, ValueRange) {
                               OpBuilder::InsertionGuard innerGuard(b);
                               moveTo(inner);
                               emitTile(t, dims);
                               scf::YieldOp::create(b, loc);
                             });
        };
        if (!chunkSize) {
          everyRowTile();
          return;
        }
        // One chunk of the reduction at a time, every row tile in it: the panel's rows
        // of that chunk stay in cache while all the row tiles read them.
        emitChunks(everyRowTile);
      });
  // A dynamic first dim (the batch) and a static second one become one dim, batch-major
  // (ParallelLoops.h): threads split it at any batch.
  if (order.size() > 1 && !tripCount(order[0]) && tripCount(order[1]))
    tcc::mergeIntoFirstDim(parallel, 1);
}

/// Body builders get a builder inside the new region; `b` follows it there.
void Emitter::moveTo(OpBuilder &nested) {
  b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
}

/// The number of row tiles of i.
Value Emitter::rowTiles() {
  return arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, extents[*plan.i], constant(rows - 1)), constant(rows));
}

/// One stack tile's reduction chunk by chunk; in each chunk every index of the outer dims
/// (the images) and every row tile, so that all of them read the chunk of the stacked rows
/// (a filter block) from cache.
void Emitter::emitStackChunks(DenseMap<unsigned, Value> dims) {
  SmallVector<unsigned> outerDims;
  for (unsigned d : plan.outer)
    if (d != *stackDim)
      outerDims.push_back(d);
  std::function<void(unsigned)> loop = [&](unsigned k) {
    if (k == outerDims.size()) {
      scf::ForOp::create(b, loc, constant(0), rowTiles(), constant(1), ValueRange{},
                         [&](OpBuilder &inner, Location, Value t, ValueRange) {
                           OpBuilder::InsertionGuard innerGuard(b);
                           moveTo(inner);
                           emitTile(t, dims);
                           scf::YieldOp::create(b, loc);
                         });
      return;
    }
    scf::ForOp::create(b, loc, constant(0), extents[outerDims[k]], constant(1), ValueRange{},
                       [&](OpBuilder &inner, Location, Value index, ValueRange) {
                         OpBuilder::InsertionGuard innerGuard(b);
                         moveTo(inner);
                         dims[outerDims[k]] = index;
                         loop(k + 1);
                         scf::YieldOp::create(b, loc);
                       });
  };
  emitChunks([&] { loop(0); });
}

/// `body` once per reduction chunk, with chunkBegin, chunkEnd, firstChunk and lastChunk set.
void Emitter::emitChunks(llvm::function_ref<void()> body) {
  int64_t chunks = chunkCount();
  scf::ForOp::create(
      b, loc, constant(0), constant(chunks), constant(1), ValueRange{},
      [&](OpBuilder &inner, Location, Value chunk, ValueRange) {
        OpBuilder::InsertionGuard innerGuard(b);
        moveTo(inner);
        int64_t reduction = *getConstantIntValue(extents[*chunkedDim]);
        chunkBegin = arith::MulIOp::create(b, loc, chunk, constant(chunkSize));
        Value end = arith::AddIOp::create(b, loc, chunkBegin, constant(chunkSize));
        chunkEnd = reduction % chunkSize == 0
                       ? end
                       : arith::MinSIOp::create(b, loc, end, constant(reduction)).getResult();
        firstChunk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, chunk, constant(0));
        lastChunk =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, chunk, constant(chunks - 1));
        body();
        scf::YieldOp::create(b, loc);
      });
}

/// The number of reduction chunks (the last may be shorter).
int64_t Emitter::chunkCount() {
  int64_t reduction = *getConstantIntValue(extents[*chunkedDim]);
  return (reduction + chunkSize - 1) / chunkSize;
}

int64_t Emitter::stackTiles() {
  int64_t extent = *getConstantIntValue(extents[*stackDim]);
  return (extent + stackVectors - 1) / stackVectors;
}

/// `body` for the stacked rows from dims[s] (the tile index, made the first row here):
/// `stackVectors` of them, or the exact remainder in the last tile.
void Emitter::emitStacked(DenseMap<unsigned, Value> &dims, llvm::function_ref<void()> body) {
  int64_t extent = *getConstantIntValue(extents[*stackDim]);
  Value first = arith::MulIOp::create(b, loc, dims[*stackDim], constant(stackVectors));
  dims[*stackDim] = first;
  stackCount = stackVectors;
  if (extent % stackVectors == 0) {
    body();
    return;
  }
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, offset(first, stackVectors),
                                     constant(extent));
  emitFullOrRest(
      full,
      [&] {
        stackCount = stackVectors;
        body();
      },
      [&] {
        stackCount = extent % stackVectors;
        body();
      });
}

/// `scf.if full { whole() } else { rest() }`: a full tile, else the exact rest of one.
void Emitter::emitFullOrRest(Value full, llvm::function_ref<void()> whole,
                             llvm::function_ref<void()> rest) {
  auto branch = [&](llvm::function_ref<void()> contents) {
    return [&, contents](OpBuilder &nested, Location) {
      OpBuilder::InsertionGuard guard(b);
      moveTo(nested);
      contents();
      scf::YieldOp::create(b, loc);
    };
  };
  scf::IfOp::create(b, loc, full, branch(whole), branch(rest));
}

/// The rows of tile `tile` of i: `rows` at once when the tile is full, else the rows
/// left (exact: a static count, or a switch over the possible ones).
void Emitter::emitTile(Value tile, DenseMap<unsigned, Value> dims) {
  if (!plan.i) {
    emitRows(1, nullptr, dims);
    return;
  }
  Value extent = extents[*plan.i];
  Value begin = arith::MulIOp::create(b, loc, tile, constant(rows));
  std::optional<int64_t> staticExtent = getConstantIntValue(extent);
  if (rows == 1 || (staticExtent && *staticExtent % rows == 0)) {
    emitRows(rows, begin, dims);
    return;
  }
  Value end = arith::AddIOp::create(b, loc, begin, constant(rows));
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, extent);
  emitFullOrRest(
      full, [&] { emitRows(rows, begin, dims); },
      [&] {
        if (staticExtent) {
          emitRows(*staticExtent % rows, begin, dims);
          return;
        }
        Value left = arith::SubIOp::create(b, loc, extent, begin);
        SmallVector<int64_t> cases;
        for (int64_t r = 1; r < rows; ++r)
          cases.push_back(r);
        auto switchOp = scf::IndexSwitchOp::create(b, loc, TypeRange{}, left, cases, cases.size());
        for (auto [r, region] : llvm::zip(cases, switchOp.getCaseRegions())) {
          b.setInsertionPointToStart(&region.emplaceBlock());
          emitRows(r, begin, dims);
          scf::YieldOp::create(b, loc);
        }
        b.setInsertionPointToStart(&switchOp.getDefaultRegion().emplaceBlock());
        scf::YieldOp::create(b, loc);
        b.setInsertionPointAfter(switchOp);
      });
}

/// `count` rows from `firstRow` (null without i), all of j: full blocks of `vectors`
/// vectors, then the columns left, as masked vectors.
void Emitter::emitRows(int64_t count, Value firstRow, DenseMap<unsigned, Value> dims) {
  if (stackDim) {
    // All of j in one vector (masked unless full), once per stacked row.
    int64_t columns = *getConstantIntValue(extents[plan.j]);
    SmallVector<Value> lefts(stackCount, columns == lanes ? Value() : constant(columns));
    emitMicroKernel(count, lefts, firstRow, constant(0), dims);
    return;
  }
  int64_t block = lanes * vectors;
  Value extent = columnExtent ? columnExtent : extents[plan.j];
  // Columns are numbered from the panel's first (0 without panels).
  auto shift = [&](Value column) {
    return columnBegin ? arith::AddIOp::create(b, loc, columnBegin, column).getResult() : column;
  };
  std::optional<int64_t> staticExtent = getConstantIntValue(extent);
  Value fullEnd =
      staticExtent ? constant(*staticExtent - *staticExtent % block)
                   : arith::SubIOp::create(b, loc, extent,
                                           arith::RemUIOp::create(b, loc, extent, constant(block)))
                         .getResult();
  if (!staticExtent || *staticExtent >= block)
    scf::ForOp::create(b, loc, constant(0), fullEnd, constant(block), ValueRange{},
                       [&](OpBuilder &nested, Location, Value column, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         moveTo(nested);
                         emitMicroKernel(count, SmallVector<Value>(vectors), firstRow,
                                         shift(column), dims);
                         scf::YieldOp::create(b, loc);
                       });
  if (staticExtent) {
    int64_t tail = *staticExtent % block;
    if (tail == 0)
      return;
    if (narrowTail(tail)) {
      // The columns left fit half a vector (a 7x7 map's 49th): one half-width vector.
      VectorType wide = type;
      type = VectorType::get({lanes / 2}, type.getElementType());
      lanes /= 2;
      emitMicroKernel(count, {tail == lanes ? nullptr : constant(tail)}, firstRow, shift(fullEnd),
                      dims);
      type = wide;
      lanes = type.getNumElements();
      return;
    }
    SmallVector<Value> lefts;
    for (int64_t v = 0; v * lanes < tail; ++v)
      lefts.push_back(tail - v * lanes >= lanes ? nullptr : constant(tail - v * lanes));
    emitMicroKernel(count, lefts, firstRow, shift(fullEnd), dims);
    return;
  }
  // A dynamic tail: `vectors` masked vectors, some possibly empty.
  Value tail = arith::SubIOp::create(b, loc, extent, fullEnd);
  Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, tail, constant(0));
  scf::IfOp::create(b, loc, some, [&](OpBuilder &nested, Location) {
    OpBuilder::InsertionGuard guard(b);
    moveTo(nested);
    SmallVector<Value> lefts;
    for (int64_t v = 0; v < vectors; ++v)
      lefts.push_back(arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, tail, constant(v * lanes)), constant(0)));
    emitMicroKernel(count, lefts, firstRow, shift(fullEnd), dims);
    scf::YieldOp::create(b, loc);
  });
}

/// The indices `map` gives at the dim values `dims`.
SmallVector<Value> Emitter::indices(AffineMap map, const DenseMap<unsigned, Value> &dims) {
  SmallVector<OpFoldResult> operands;
  for (unsigned d = 0; d < map.getNumDims(); ++d) {
    auto it = dims.find(d);
    operands.push_back(it != dims.end() ? OpFoldResult(it->second)
                                        : OpFoldResult(b.getIndexAttr(0)));
  }
  SmallVector<Value> result;
  for (AffineExpr expr : map.getResults()) {
    AffineMap single = AffineMap::get(map.getNumDims(), 0, expr);
    result.push_back(getValueOrCreateConstantIndexOp(
        b, loc, affine::makeComposedFoldedAffineApply(b, loc, single, operands)));
  }
  return result;
}

/// The first min(count, lanes) of `lanes` lanes.
Value Emitter::mask(Value count, int64_t lanes) {
  Value clamped = arith::MinUIOp::create(b, loc, count, constant(lanes));
  return vector::CreateMaskOp::create(b, loc, VectorType::get({lanes}, b.getI1Type()),
                                      ValueRange{clamped});
}

Value Emitter::offset(Value base, int64_t by) {
  return by == 0 ? base : arith::AddIOp::create(b, loc, base, constant(by)).getResult();
}

/// `count` rows x lefts.size() vectors of accumulators at (firstRow + m, column + v *
/// lanes); lefts[v], when not null, is how many columns are left from vector v's first
/// (masked loads and stores).
void Emitter::emitMicroKernel(int64_t count, ArrayRef<Value> lefts, Value firstRow, Value column,
                              DenseMap<unsigned, Value> dims) {
  SmallVector<Value> masks;
  for (Value left : lefts)
    masks.push_back(left ? mask(left, lanes) : nullptr);
  Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  auto at = [&](int64_t m, int64_t v) {
    DenseMap<unsigned, Value> point = dims;
    if (plan.i)
      point[*plan.i] = offset(firstRow, m);
    if (stackDim) {
      point[*stackDim] = offset(dims[*stackDim], v);
      point[plan.j] = column;
    } else {
      point[plan.j] = offset(column, v * lanes);
    }
    return point;
  };
  int64_t numVectors = lefts.size();
  auto load = [&](int64_t m, int64_t v) -> Value {
    SmallVector<Value> index = indices(plan.outMap, at(m, v));
    return masks[v] ? vector::MaskedLoadOp::create(b, loc, type, plan.out, index, masks[v], zero)
                          .getResult()
                    : vector::LoadOp::create(b, loc, type, plan.out, index).getResult();
  };
  // A float sum of products without a fill goes on from the values `out` holds (a residual
  // its epilogue used to add: tcc-accumulate-residuals). Those are added after the sum (after
  // the first chunk's), not before it: started from a large value, every product would
  // round at that value's scale.
  bool initAfter = !plan.fill && plan.combine == Plan::Combine::MultiplyAdd &&
                   isa<FloatType>(type.getElementType());
  Value start = plan.fill ? vector::BroadcastOp::create(b, loc, type,
                                                        linalg::FillOp(plan.fill).getInputs()[0])
                                .getResult()
                          : (initAfter ? zero : Value());
  SmallVector<Value> accumulators;
  for (int64_t m = 0; m < count; ++m)
    for (int64_t v = 0; v < numVectors; ++v) {
      // In chunks, the fill's value (or zero) starts the first; the others go on from `out`.
      if (start && chunkSize)
        accumulators.push_back(arith::SelectOp::create(b, loc, firstChunk, start, load(m, v)));
      else
        accumulators.push_back(start ? start : load(m, v));
    }
  SmallVector<Value> results =
      emitReductions(0, count, lefts, masks, firstRow, column, dims, accumulators);
  if (initAfter)
    for (int64_t m = 0; m < count; ++m)
      for (int64_t v = 0; v < numVectors; ++v) {
        Value &sum = results[m * numVectors + v];
        Value withInit = arith::AddFOp::create(b, loc, sum, load(m, v));
        sum = chunkSize ? arith::SelectOp::create(b, loc, firstChunk, withInit, sum).getResult()
                        : withInit;
      }
  auto store = [&](bool epilogue) {
    Value target = epilogue ? plan.epilogueOut : plan.out;
    for (int64_t m = 0; m < count; ++m)
      for (int64_t v = 0; v < numVectors; ++v) {
        SmallVector<Value> index = indices(plan.outMap, at(m, v));
        Value value = results[m * numVectors + v];
        if (epilogue)
          value = emitEpilogue(value, masks[v], at(m, v));
        if (masks[v])
          vector::MaskedStoreOp::create(b, loc, target, index, masks[v], value);
        else
          vector::StoreOp::create(b, loc, value, target, index);
      }
  };
  if (!plan.epilogue || !chunkSize) {
    store(bool(plan.epilogue));
    return;
  }
  // In chunks, the epilogue runs after the last; the others leave partial sums in `out`.
  scf::IfOp::create(
      b, loc, lastChunk,
      [&](OpBuilder &nested, Location) {
        OpBuilder::InsertionGuard guard(b);
        moveTo(nested);
        store(true);
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &nested, Location) {
        OpBuilder::InsertionGuard guard(b);
        moveTo(nested);
        store(false);
        scf::YieldOp::create(b, loc);
      });
}

/// The reduction loops from the `level`-th on, carrying the accumulators.
SmallVector<Value> Emitter::emitReductions(unsigned level, int64_t count, ArrayRef<Value> lefts,
                                           ArrayRef<Value> masks, Value firstRow, Value column,
                                           DenseMap<unsigned, Value> dims,
                                           ValueRange accumulators) {
  if (level == plan.reductions.size())
    return emitUpdate(count, lefts, masks, firstRow, column, dims, accumulators);
  unsigned d = plan.reductions[level];
  bool chunked = chunkSize && d == *chunkedDim;
  auto loop = scf::ForOp::create(
      b, loc, chunked ? chunkBegin : constant(0), chunked ? chunkEnd : extents[d], constant(1),
      accumulators, [&](OpBuilder &nested, Location, Value iv, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        moveTo(nested);
        DenseMap<unsigned, Value> inner = dims;
        inner[d] = iv;
        SmallVector<Value> updated =
            emitReductions(level + 1, count, lefts, masks, firstRow, column, inner, carried);
        scf::YieldOp::create(b, loc, updated);
      });
  return SmallVector<Value>(loop.getResults());
}

/// One reduction point: acc[m][v] += a[m] * b[v] (or a * b[m][v] when the rows are the
/// vector operand's; the pooling combines: acc[m][v] = max/min/+(acc[m][v], b[m][v])).
SmallVector<Value> Emitter::emitUpdate(int64_t count, ArrayRef<Value> lefts, ArrayRef<Value> masks,
                                       Value firstRow, Value column, DenseMap<unsigned, Value> dims,
                                       ValueRange accumulators) {
  int64_t numVectors = lefts.size();
  auto rowPoint = [&](int64_t m) {
    DenseMap<unsigned, Value> point = dims;
    if (plan.i)
      point[*plan.i] = offset(firstRow, m);
    return point;
  };
  // The vector operand: one set of vectors, or one per row.
  SmallVector<Value> operands;
  for (int64_t m = 0; m < (plan.rowsOnVector ? count : 1); ++m)
    for (int64_t v = 0; v < numVectors; ++v) {
      DenseMap<unsigned, Value> point = plan.rowsOnVector ? rowPoint(m) : dims;
      operands.push_back(packed() ? loadGroups(point, column, v, lefts[v])
                                  : loadVector(point, column, v, lefts[v], masks[v]));
    }
  auto operand = [&](int64_t m, int64_t v) {
    return operands[plan.rowsOnVector ? m * numVectors + v : v];
  };
  SmallVector<Value> updated;
  if (plan.combine != Plan::Combine::MultiplyAdd) {
    for (int64_t m = 0; m < count; ++m)
      for (int64_t v = 0; v < numVectors; ++v) {
        Value acc = accumulators[m * numVectors + v], x = operand(m, v);
        switch (plan.combine) {
        case Plan::Combine::Max:
          updated.push_back(extremum(acc, x, arith::CmpFPredicate::OGT));
          break;
        case Plan::Combine::Min:
          updated.push_back(extremum(acc, x, arith::CmpFPredicate::OLT));
          break;
        case Plan::Combine::MaxSigned:
          updated.push_back(arith::MaxSIOp::create(b, loc, acc, x));
          break;
        case Plan::Combine::MaxUnsigned:
          updated.push_back(arith::MaxUIOp::create(b, loc, acc, x));
          break;
        case Plan::Combine::MinSigned:
          updated.push_back(arith::MinSIOp::create(b, loc, acc, x));
          break;
        case Plan::Combine::MinUnsigned:
          updated.push_back(arith::MinUIOp::create(b, loc, acc, x));
          break;
        default:
          updated.push_back(arith::AddFOp::create(b, loc, acc, x));
          break;
        }
      }
    return updated;
  }
  if (plan.scalarVector) {
    // acc[m][v] += x[m][v] * w[v]: the scalar operand's vectors, shared by the rows.
    SmallVector<Value> weights;
    for (int64_t v = 0; v < numVectors; ++v)
      weights.push_back(loadScalarVector(dims, column, v, masks[v]));
    for (int64_t m = 0; m < count; ++m)
      for (int64_t v = 0; v < numVectors; ++v)
        updated.push_back(vector::FMAOp::create(b, loc, operand(m, v), weights[v],
                                                accumulators[m * numVectors + v]));
    return updated;
  }
  Value shared; // the scalar when no row reads it
  for (int64_t m = 0; m < count; ++m) {
    Value broadcast = shared;
    if (!broadcast) {
      SmallVector<Value> index = indices(plan.scalarMap, rowPoint(m));
      broadcast = packed() ? broadcastGroup(index)
                           : vector::BroadcastOp::create(
                                 b, loc, type,
                                 toTileType(memref::LoadOp::create(b, loc, plan.scalar, index)))
                                 .getResult();
      if (plan.rowsOnVector)
        shared = broadcast;
    }
    for (int64_t v = 0; v < numVectors; ++v) {
      Value acc = accumulators[m * numVectors + v];
      if (plan.pairs)
        updated.push_back(
            x86vector::DotBF16Op::create(b, loc, type, acc, broadcast, operand(m, v)));
      else if (plan.quads)
        updated.push_back(dotQuads(acc, plan.scalarUnsigned ? broadcast : operand(m, v),
                                   plan.scalarUnsigned ? operand(m, v) : broadcast));
      else
        updated.push_back(vector::FMAOp::create(b, loc, broadcast, operand(m, v), acc));
    }
  }
  return updated;
}

/// max (OGT) or min (OLT) of a window's accumulator and a new value, NaN from either side
/// kept: `acc > x ? acc : x` (one vmaxps/vminps on x86, which yields x when either is
/// NaN), then a NaN accumulator stays. (arith.maximumf also orders -0 below +0, which
/// x86 has no instruction for: about six instructions per window point.)
Value Emitter::extremum(Value acc, Value x, arith::CmpFPredicate predicate) {
  Value pick =
      arith::SelectOp::create(b, loc, arith::CmpFOp::create(b, loc, predicate, acc, x), acc, x);
  Value nan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, acc, acc);
  return arith::SelectOp::create(b, loc, nan, acc, pick);
}

namespace {

struct TileContractionsPass : tcc::impl::TileContractionsBase<TileContractionsPass> {
  using TileContractionsBase::TileContractionsBase;

  void runOnOperation() override {
    std::vector<Plan> plans;
    getOperation().walk([&](func::FuncOp function) {
      if (!tcc::kernel::isKernel(function))
        return;
      function.walk([&](linalg::LinalgOp op) {
        if (std::optional<Plan> plan = planContraction(op, vectorBits)) {
          // Rows of at most half a wide vector (a 7x7 map's 7 columns fill 7 of 16 lanes)
          // take half-width vectors: twice the lanes in use, never slower (at best as fast
          // per FLOP where the core runs 512-bit FMAs at full width; twice as fast where it
          // splits them in two, as this machine's measured FMA peak shows).
          int64_t j = op.getStaticLoopRanges()[plan->j];
          int64_t lanes = plan->vectorType.getNumElements();
          if (!ShapedType::isDynamic(j) && vectorBits >= 512 && lanes >= 4 && j <= lanes / 2)
            if (std::optional<Plan> narrow = planContraction(op, vectorBits / 2))
              plan = narrow;
          absorbNeighbours(*plan);
          plans.push_back(*plan);
        }
      });
    });
    OpBuilder builder(&getContext());
    for (Plan &plan : plans) {
      // With an epilogue, the code goes where the epilogue was: views of its operands are
      // made between the two.
      builder.setInsertionPoint(plan.epilogue ? plan.epilogue.getOperation()
                                              : plan.op.getOperation());
      // The registers are the target's (x86-64 has 32 with AVX-512, for any vector width).
      Emitter(plan, builder, plan.op.getLoc(), splitWideFma, wordPermutes).emit(vectorRegisters);
      plan.op->erase();
      if (plan.fill)
        plan.fill->erase();
      if (plan.epilogue)
        plan.epilogue->erase();
    }
  }
};

} // namespace
