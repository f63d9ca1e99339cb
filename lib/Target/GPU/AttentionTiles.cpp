//===- AttentionTiles.cpp - kernel.attention as query tiles over staged key tiles -------===//
//
// A block computes 64 query rows of one batch index. With subgroups, G = 4 threads share a
// row and each thread takes R = 2 rows (64 / R rows apart), so a block is 128 threads;
// without, one thread a row (G = R = 1, 64 threads). Thread t takes part p = t % G of its
// rows' query and value columns, in runs of 4 (columns 4 (G c + p) + u, u < 4), so that it
// reads workgroup memory 16 bytes at a time, the G threads of a row read neighbouring bytes
// and each value read serves the products of its R rows. The block walks the keys in tiles
// of 32, each staged once into workgroup memory by every thread (coalesced reads; zeros past
// the keys), and folds them 8 keys at a time into each row's online softmax:
//
//   s_j = scale · Σ_d q[i, d] K[j, d] (+ bias(i, j))        (-inf past the keys)
//         each thread sums its columns, the G threads of the row combine their sums
//         (a clustered subgroup reduction)
//   s_j = softcap · tanh(s_j / softcap) before the bias, with a softcap
//   m' = max(m, max_j s_j)          (a NaN s_j is skipped here; its p_j makes the row NaN)
//   c = exp(m - m'), 1 when m = m'; p_j = exp(s_j - m'), 0 when s_j = -inf
//   l = l c + Σ_j p_j;  acc[e] = acc[e] c + Σ_j p_j V[j, e]
//   out[i, e] = acc[e] / l           (after the last tile)
//
// (j over the 8 keys of a step.) Every thread of the G of a row holds the same m and l, so the row
// needs no combining at the end. A row with no keys or whose scores are all -inf is NaN (0 · 1/0),
// or 0 with nan_to_zero or safe_softmax; with zero_masked_rows, a row whose bias values are all
// -inf is 0; with a causal diagonal t, s_j is -inf past j = i + t (every tile is still read). Rows
// past the end compute on the last row and store nothing (every thread must reach the barriers).
// The score matrix is never stored; workgroup memory is 32 (D + 4 + E) words whatever the sequence.
//
//===----------------------------------------------------------------------------------===//
#include "AttentionTiles.h"

#include "AttentionBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <limits>

using namespace mlir;

namespace {

using tcc::gpu::kAttentionBlockRows;
/// Keys a tile stages, and keys a step of the online softmax scores at once.
constexpr int64_t kTileKeys = 32, kChunkKeys = 8;
/// Query rows a thread computes with subgroups (R): each value read from workgroup memory
/// serves R rows' products (workgroup memory delivers a quarter of what the FMA units
/// consume when every product reads its own value).
constexpr int64_t kRowsPerThread = 2;
/// Columns a thread reads at once (16 bytes of float32).
constexpr int64_t kRun = 4;
/// The largest D and E (registers: D / G query values and E / G accumulators a thread).
constexpr int64_t kMaxDepth = 128;
/// Words after each staged key row: a transposed key is staged column by column, and rows
/// D + 4 words apart put 8 of a warp's 32 stores in different banks, not 1.
constexpr int64_t kKeyPad = 4;

/// What a thread carries from key tile to key tile, for each of its rows r: the running
/// maximum m[r], sum l[r], accumulators acc[r][a] (its columns of E) and, with
/// zero_masked_rows, the bias values' maximum.
struct RowState {
  SmallVector<Value> m, l, biasMax;
  SmallVector<SmallVector<Value>> acc;

  SmallVector<Value> flatten() const {
    SmallVector<Value> all(m);
    llvm::append_range(all, l);
    for (const SmallVector<Value> &a : acc)
      llvm::append_range(all, a);
    llvm::append_range(all, biasMax);
    return all;
  }
  static RowState unflatten(ValueRange range, int64_t rows, int64_t accumulators, bool masks) {
    SmallVector<Value> all(range);
    RowState state;
    state.m.assign(all.begin(), all.begin() + rows);
    state.l.assign(all.begin() + rows, all.begin() + 2 * rows);
    for (int64_t r = 0; r < rows; ++r) {
      auto first = all.begin() + 2 * rows + r * accumulators;
      state.acc.emplace_back(first, first + accumulators);
    }
    if (masks)
      state.biasMax.assign(all.end() - rows, all.end());
    return state;
  }
};

class AttentionTiles : tcc::gpu::AttentionBuilder {
public:
  AttentionTiles(OpBuilder &builder, tcc::kernel::AttentionOp op, int64_t lanes)
      : AttentionBuilder(builder, op), lanes(lanes), rowsPerThread(lanes > 1 ? kRowsPerThread : 1),
        threads(kAttentionBlockRows * lanes / rowsPerThread) {
    depth = cast<MemRefType>(op.getQuery().getType()).getDimSize(rank - 1);
    width = cast<MemRefType>(op.getInit().getType()).getDimSize(rank - 1);
  }

  void emit() {
    MLIRContext *ctx = b.getContext();
    Value query = op.getQuery();
    rows = dim(query, rank - 2);
    keys = op.getKeyCount() ? op.getKeyCount()
                            : dim(op.getKey(), op.getKeyTransposed() ? rank - 1 : rank - 2);
    SmallVector<Value> lower(rank, index(0)), upper, step(rank, index(1));
    for (int64_t d = 0; d + 2 < rank; ++d)
      upper.push_back(dim(query, d));
    upper.push_back(arith::CeilDivUIOp::create(b, rows, index(kAttentionBlockRows)));
    upper.push_back(index(threads));
    auto parallel = scf::ParallelOp::create(b, lower, upper, step);
    parallel->setAttr(tcc::kernel::KernelDialect::kBlockThreadsAttrName,
                      b.getI64IntegerAttr(threads));
    b.setInsertionPointToStart(parallel.getBody());
    SmallVector<Value> ivs(parallel.getInductionVars());
    batch.assign(ivs.begin(), ivs.end() - 2);
    Value thread = ivs[rank - 1];

    auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    Type f32 = b.getF32Type();
    keyTile = memref::AllocaOp::create(
        b, MemRefType::get({kTileKeys, depth + kKeyPad}, f32, AffineMap(), workgroup));
    valueTile = memref::AllocaOp::create(
        b, MemRefType::get({kTileKeys, width}, f32, AffineMap(), workgroup));
    Value part = lanes == 1 ? index(0) : arith::RemUIOp::create(b, thread, index(lanes));
    // Row r of the thread: 64 / R rows apart, the first rows of the block in thread order.
    Value firstRow = arith::AddIOp::create(
        b, arith::MulIOp::create(b, ivs[rank - 2], index(kAttentionBlockRows)),
        lanes == 1 ? thread : arith::DivUIOp::create(b, thread, index(lanes)).getResult());
    Value lastRow = arith::SubIOp::create(b, rows, index(1));
    SmallVector<Value> threadRows, readRows;
    for (int64_t r = 0; r < rowsPerThread; ++r) {
      threadRows.push_back(
          arith::AddIOp::create(b, firstRow, index(r * kAttentionBlockRows / rowsPerThread)));
      readRows.push_back(arith::MinUIOp::create(b, threadRows.back(), lastRow));
    }
    Value runStart = arith::MulIOp::create(b, part, index(kRun));
    SmallVector<SmallVector<Value>> queryValues;
    for (Value row : readRows) {
      queryValues.emplace_back();
      for (Value d : columns(runStart, depth))
        queryValues.back().push_back(memref::LoadOp::create(b, query, indices({row, d})));
    }

    Value minusInf = constant(-std::numeric_limits<float>::infinity()), zero = constant(0.0f);
    RowState init;
    init.m.assign(rowsPerThread, minusInf);
    init.l.assign(rowsPerThread, zero);
    init.acc.assign(rowsPerThread, SmallVector<Value>(width / lanes, zero));
    if (op.getZeroMaskedRows())
      init.biasMax.assign(rowsPerThread, minusInf); // NaN-propagating
    // A causal diagonal t: the block's rows read keys up to its last row's i + t, so the
    // tiles past that (about half of them in a prefill) are not read at all.
    Value blockKeys = keys;
    if (std::optional<int64_t> causal = op.getCausal())
      blockKeys = arith::MinUIOp::create(
          b, keys,
          arith::AddIOp::create(b,
                                arith::MulIOp::create(b, ivs[rank - 2], index(kAttentionBlockRows)),
                                index(kAttentionBlockRows + *causal)));
    auto loop = scf::ForOp::create(b, index(0), blockKeys, index(kTileKeys), init.flatten());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      RowState next = keyTileStep(loop.getInductionVar(), thread, readRows, runStart, queryValues,
                                  unflatten(loop.getRegionIterArgs()));
      scf::YieldOp::create(b, next.flatten());
    }
    RowState final = unflatten(loop.getResults());
    for (int64_t r = 0; r < rowsPerThread; ++r)
      store(final, r, threadRows[r], runStart);
  }

private:
  RowState unflatten(ValueRange all) {
    return RowState::unflatten(all, rowsPerThread, width / lanes, op.getZeroMaskedRows());
  }

  /// One tile of keys from `first`: staged, then folded into the carried state 8 keys at a
  /// time.
  RowState keyTileStep(Value first, Value thread, ArrayRef<Value> readRows, Value runStart,
                       ArrayRef<SmallVector<Value>> queryValues, const RowState &carried) {
    Value lastKey = arith::SubIOp::create(b, keys, index(1));
    stage(op.getKey(), keyTile, depth, op.getKeyTransposed(), first, lastKey, thread);
    stage(op.getValue(), valueTile, width, /*transposed=*/false, first, lastKey, thread);
    gpu::BarrierOp::create(b);

    auto chunks =
        scf::ForOp::create(b, index(0), index(kTileKeys), index(kChunkKeys), carried.flatten());
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(chunks.getBody());
      Value chunk = chunks.getInductionVar();
      RowState next = chunkStep(arith::AddIOp::create(b, first, chunk), chunk, lastKey, readRows,
                                runStart, queryValues, unflatten(chunks.getRegionIterArgs()));
      scf::YieldOp::create(b, next.flatten());
    }
    // Every thread done with the tiles before the next tile overwrites them.
    gpu::BarrierOp::create(b);
    return unflatten(chunks.getResults());
  }

  /// Keys [first, first + 8), at `offset` in the staged tiles: scored for each of the
  /// thread's rows (each staged value read once for all of them), folded into the state.
  RowState chunkStep(Value first, Value offset, Value lastKey, ArrayRef<Value> readRows,
                     Value runStart, ArrayRef<SmallVector<Value>> queryValues,
                     const RowState &carried) {
    Value minusInf = constant(-std::numeric_limits<float>::infinity());
    SmallVector<Value> depthColumns = columns(runStart, depth);
    SmallVector<SmallVector<Value>> scores(rowsPerThread);
    SmallVector<Value> places;
    RowState next = carried;
    for (int64_t j = 0; j < kChunkKeys; ++j) {
      Value place = arith::AddIOp::create(b, offset, index(j));
      places.push_back(place);
      SmallVector<Value> staged;
      for (Value d : depthColumns)
        staged.push_back(memref::LoadOp::create(b, keyTile, ValueRange{place, d}));
      Value key = arith::AddIOp::create(b, first, index(j));
      Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, key, keys);
      Value readKey = op.getBias() ? arith::MinUIOp::create(b, key, lastKey).getResult() : Value();
      for (int64_t r = 0; r < rowsPerThread; ++r) {
        Value partial;
        for (auto [q, k] : llvm::zip_equal(queryValues[r], staged))
          partial = partial ? fma(q, k, partial) : arith::MulFOp::create(b, q, k).getResult();
        if (lanes > 1)
          partial = gpu::SubgroupReduceOp::create(b, partial, gpu::AllReduceOperation::ADD,
                                                  /*uniform=*/true, lanes);
        Value s =
            capped(arith::MulFOp::create(b, partial, constant(op.getScale().convertToFloat())));
        if (op.getBias()) {
          Value bias = biasAt(readRows[r], readKey);
          s = arith::AddFOp::create(b, s, bias);
          if (!next.biasMax.empty())
            next.biasMax[r] =
                nanMax(next.biasMax[r], arith::SelectOp::create(b, valid, bias, minusInf));
        }
        scores[r].push_back(
            causalMasked(arith::SelectOp::create(b, valid, s, minusInf), readRows[r], key));
      }
    }

    // The online softmax's step over the chunk, row by row.
    SmallVector<SmallVector<Value>> weights(rowsPerThread);
    SmallVector<Value> rescale;
    for (int64_t r = 0; r < rowsPerThread; ++r) {
      Value m = carried.m[r], maximum = m;
      for (Value s : scores[r]) // max ignoring a NaN s: compare and select (no libdevice)
        maximum = arith::SelectOp::create(
            b, arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, s, maximum), s, maximum);
      Value same = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, m, maximum);
      Value c = arith::SelectOp::create(
          b, same, constant(1.0f), math::ExpOp::create(b, arith::SubFOp::create(b, m, maximum)));
      Value sum = arith::MulFOp::create(b, carried.l[r], c);
      for (Value s : scores[r]) {
        Value masked = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, s, minusInf);
        Value p =
            arith::SelectOp::create(b, masked, constant(0.0f),
                                    math::ExpOp::create(b, arith::SubFOp::create(b, s, maximum)));
        weights[r].push_back(p);
        sum = arith::AddFOp::create(b, sum, p);
      }
      next.m[r] = maximum;
      next.l[r] = sum;
      rescale.push_back(c);
    }
    for (auto [a, e] : llvm::enumerate(columns(runStart, width))) {
      SmallVector<Value> acc;
      for (int64_t r = 0; r < rowsPerThread; ++r)
        acc.push_back(arith::MulFOp::create(b, carried.acc[r][a], rescale[r]));
      for (auto [j, place] : llvm::enumerate(places)) {
        Value v = memref::LoadOp::create(b, valueTile, ValueRange{place, e});
        for (int64_t r = 0; r < rowsPerThread; ++r)
          acc[r] = fma(weights[r][j], v, acc[r]);
      }
      for (int64_t r = 0; r < rowsPerThread; ++r)
        next.acc[r][a] = acc[r];
    }
    return next;
  }

  /// Stages keys [first, first + 32) of `source` (`[B..., N, extent]`, or `[B..., extent,
  /// N]` when transposed) into `tile` ([32][extent + pad]); zeros past the keys. Thread t
  /// copies elements t, t + threads, ...: along the source's innermost dim, so that
  /// neighbouring threads read neighbouring addresses.
  void stage(Value source, Value tile, int64_t extent, bool transposed, Value first, Value lastKey,
             Value thread) {
    int64_t perThread = kTileKeys * extent / threads;
    for (int64_t r = 0; r < perThread; ++r) {
      Value element = arith::AddIOp::create(b, thread, index(r * threads));
      Value inner = arith::RemUIOp::create(b, element, index(transposed ? kTileKeys : extent));
      Value outer = arith::DivUIOp::create(b, element, index(transposed ? kTileKeys : extent));
      Value j = transposed ? inner : outer, column = transposed ? outer : inner;
      Value key = arith::AddIOp::create(b, first, j);
      Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, key, lastKey);
      Value readKey = arith::MinUIOp::create(b, key, lastKey);
      Value value =
          memref::LoadOp::create(b, source,
                                 keyIndices(transposed ? ArrayRef<Value>{column, readKey}
                                                       : ArrayRef<Value>{readKey, column}));
      value = arith::SelectOp::create(b, valid, value, constant(0.0f));
      memref::StoreOp::create(b, value, tile, ValueRange{j, column});
    }
  }

  /// out[row, e] = acc[e] / l for the thread's row r and its columns, if inside the output.
  void store(const RowState &state, int64_t r, Value row, Value runStart) {
    Value minusInf = constant(-std::numeric_limits<float>::infinity()), zero = constant(0.0f);
    Value inverse = arith::DivFOp::create(b, constant(1.0f), state.l[r]);
    Value zeroed = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, keys, index(0));
    if (op.getSafeSoftmax())
      zeroed = arith::OrIOp::create(
          b, zeroed, arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, state.m[r], minusInf));
    if (!state.biasMax.empty())
      zeroed = arith::OrIOp::create(
          b, zeroed,
          arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, state.biasMax[r], minusInf));
    Value inside = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, row, rows);
    auto guard = scf::IfOp::create(b, inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(guard.thenBlock());
    for (auto [a, e] : llvm::enumerate(columns(runStart, width))) {
      Value value = arith::MulFOp::create(b, state.acc[r][a], inverse);
      Value zeroThis = zeroed;
      if (op.getNanToZero())
        zeroThis = arith::OrIOp::create(
            b, zeroThis, arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, value, value));
      value = arith::SelectOp::create(b, zeroThis, zero, value);
      memref::StoreOp::create(b, value, op.getInit(), indices({row, e}));
    }
  }

  /// This thread's columns of `extent`: 4 (G c + p) + u for c < extent / 4G, u < 4, with
  /// `runStart` = 4p.
  SmallVector<Value> columns(Value runStart, int64_t extent) {
    SmallVector<Value> result;
    for (int64_t c = 0; c < extent / (kRun * lanes); ++c)
      for (int64_t u = 0; u < kRun; ++u)
        result.push_back(arith::AddIOp::create(b, runStart, index(kRun * lanes * c + u)));
    return result;
  }

  int64_t lanes, rowsPerThread, threads, depth, width;
  Value rows, keys, keyTile, valueTile;
};

} // namespace

bool tcc::gpu::canTileAttention(tcc::kernel::AttentionOp op, int64_t lanes) {
  int64_t rank = op.getRank();
  auto query = dyn_cast<MemRefType>(op.getQuery().getType());
  auto init = dyn_cast<MemRefType>(op.getInit().getType());
  if (!query || !init || !query.getElementType().isF32())
    return false;
  for (int64_t extent : {query.getDimSize(rank - 1), init.getDimSize(rank - 1)})
    if (ShapedType::isDynamic(extent) || extent <= 0 || extent > kMaxDepth ||
        extent % (kRun * lanes) != 0)
      return false;
  return true;
}

void tcc::gpu::emitAttentionTiles(OpBuilder &b, tcc::kernel::AttentionOp op, int64_t lanes) {
  AttentionTiles(b, op, lanes).emit();
}
