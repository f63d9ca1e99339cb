//===- LowerAttention.cpp - kernel.attention as block tiles or a warp per query row -----===//
//
// The pass chooses: block tiles (AttentionTiles.cpp) where the op has their form and at
// least 16 query rows, else (few rows: a decoding step) the warp per row below; a target
// without subgroups gets the tiles with one thread a row, and an error where they do not fit.
//
// One warp of 32 lanes per query row i; lane t takes keys j = t, t + 32, ... and keeps a
// running maximum m, sum l and E accumulators (flash attention's online softmax):
//
//   s = scale · q[i]·k[j] + bias(i, j)
//   m' = max(m, s);  c = exp(m - m');  p = exp(s - m')      (c = 1, p = 0 while m' = -inf)
//   l = l c + p;  acc[e] = acc[e] c + p v[j, e]
//
// then the warp combines its lanes with shuffles (gpu.subgroup_reduce): M = max m,
// L = Σ l exp(m - M), out[i, e] = Σ acc[e] exp(m - M) / L, stored by lane e mod 32. No
// scores are stored anywhere; keys transposed ([D, N]) are read coalesced across lanes.
// A row with no keys is 0; a row whose scores are all -inf or has a NaN score is NaN, or 0
// with nan_to_zero, as the decomposed softmax gives; with safe_softmax a row of -inf scores
// is 0; with zero_masked_rows, a row whose bias values are all -inf is 0 (each lane keeps
// the NaN-propagating maximum of the bias values it reads; the warp combines them). With a
// causal diagonal t, the row's loop stops at key i + t.
//
//===-------------------------------------------------------------------------------------===//
#include "AttentionBuilder.h"
#include "AttentionTiles.h"
#include "tcc/Target/GPU/Passes.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <limits>

namespace tcc {
#define GEN_PASS_DEF_GPULOWERATTENTION
#include "tcc/Target/GPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

constexpr int64_t kWarp = 32;

class AttentionLowering : tcc::gpu::AttentionBuilder {
public:
  AttentionLowering(OpBuilder &builder, tcc::kernel::AttentionOp op, int64_t width)
      : AttentionBuilder(builder, op), width(width) {}

  void lower() {
    Value query = op.getQuery(), key = op.getKey();
    Value rows = dim(query, rank - 2);
    depth = dim(query, rank - 1);
    keys =
        op.getKeyCount() ? op.getKeyCount() : dim(key, op.getKeyTransposed() ? rank - 1 : rank - 2);
    SmallVector<Value> lower(rank, index(0)), upper, step(rank, index(1));
    for (int64_t d = 0; d + 2 < rank; ++d)
      upper.push_back(dim(query, d));
    upper.push_back(rows);
    upper.push_back(index(kWarp)); // the lanes: innermost, so that a warp is one row
    auto parallel = scf::ParallelOp::create(b, lower, upper, step);
    b.setInsertionPointToStart(parallel.getBody());
    SmallVector<Value> ivs(parallel.getInductionVars());
    batch.assign(ivs.begin(), ivs.end() - 2);
    Value row = ivs[rank - 2], lane = ivs[rank - 1];

    Value minusInf = constant(-std::numeric_limits<float>::infinity()), zero = constant(0.0f);
    SmallVector<Value> init = {minusInf, zero};
    init.append(width, zero);
    bool masks = op.getZeroMaskedRows();
    if (masks)
      init.push_back(minusInf); // the bias values' maximum
    // A causal diagonal t: the row reads keys [0, min(N, row + t + 1)) only.
    Value rowKeys = keys;
    if (std::optional<int64_t> causal = op.getCausal())
      rowKeys = arith::MinUIOp::create(b, keys, arith::AddIOp::create(b, row, index(*causal + 1)));
    auto loop = scf::ForOp::create(b, lane, rowKeys, index(kWarp), init);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value j = loop.getInductionVar();
      ValueRange carried = loop.getRegionIterArgs();
      Value biasValue;
      Value s = score(row, j, &biasValue);
      Value m = carried[0], l = carried[1];
      // max(m, s) ignoring a NaN s (whose p is then NaN, and so the row): m is never NaN.
      // (arith.maxnumf would become libdevice's fmaxf on NVIDIA.)
      Value greater = arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, s, m);
      Value next = arith::SelectOp::create(b, greater, s, m);
      Value dead = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, next, minusInf);
      Value c = arith::SelectOp::create(b, dead, constant(1.0f),
                                        math::ExpOp::create(b, arith::SubFOp::create(b, m, next)));
      Value p = arith::SelectOp::create(b, dead, zero,
                                        math::ExpOp::create(b, arith::SubFOp::create(b, s, next)));
      SmallVector<Value> results = {next, fma(l, c, p)};
      for (int64_t e = 0; e < width; ++e) {
        Value v = memref::LoadOp::create(b, op.getValue(), keyIndices({j, index(e)}));
        results.push_back(fma(p, v, arith::MulFOp::create(b, carried[2 + e], c)));
      }
      if (masks) {
        results.push_back(nanMax(carried[2 + width], biasValue));
      }
      scf::YieldOp::create(b, results);
    }
    // The warp's lanes combined.
    Value m = loop.getResult(0);
    Value max = gpu::SubgroupReduceOp::create(b, m, gpu::AllReduceOperation::MAXIMUMF,
                                              /*uniform=*/true);
    Value allDead = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, max, minusInf);
    Value weight = arith::SelectOp::create(
        b, allDead, zero, math::ExpOp::create(b, arith::SubFOp::create(b, m, max)));
    Value sum = gpu::SubgroupReduceOp::create(
        b, arith::MulFOp::create(b, loop.getResult(1), weight), gpu::AllReduceOperation::ADD,
        /*uniform=*/true);
    Value inverse = arith::DivFOp::create(b, constant(1.0f), sum);
    Value noKeys = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, keys, index(0));
    if (op.getSafeSoftmax())
      noKeys = arith::OrIOp::create(b, noKeys, allDead);
    if (masks) {
      Value biasMax = gpu::SubgroupReduceOp::create(b, loop.getResult(2 + width),
                                                    gpu::AllReduceOperation::MAXIMUMF,
                                                    /*uniform=*/true);
      noKeys = arith::OrIOp::create(
          b, noKeys, arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, biasMax, minusInf));
    }
    for (int64_t e = 0; e < width; ++e) {
      Value total =
          gpu::SubgroupReduceOp::create(b, arith::MulFOp::create(b, loop.getResult(2 + e), weight),
                                        gpu::AllReduceOperation::ADD, /*uniform=*/true);
      Value value = arith::MulFOp::create(b, total, inverse);
      Value zeroed = noKeys;
      if (op.getNanToZero())
        zeroed = arith::OrIOp::create(
            b, zeroed, arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, value, value));
      value = arith::SelectOp::create(b, zeroed, zero, value);
      Value mine = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, index(e % kWarp));
      auto store = scf::IfOp::create(b, mine, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(store.thenBlock());
      memref::StoreOp::create(b, value, op.getInit(), indices({row, index(e)}));
    }
  }

private:
  /// scale · q[i]·k[j] + bias(i, j); `*bias` gets the bias value (null without a bias).
  Value score(Value i, Value j, Value *bias) {
    auto loop = scf::ForOp::create(b, index(0), depth, index(1), ValueRange{constant(0.0f)});
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value d = loop.getInductionVar();
      Value q = memref::LoadOp::create(b, op.getQuery(), indices({i, d}));
      Value k = memref::LoadOp::create(
          b, op.getKey(),
          keyIndices(op.getKeyTransposed() ? ArrayRef<Value>{d, j} : ArrayRef<Value>{j, d}));
      scf::YieldOp::create(b, fma(q, k, loop.getRegionIterArgs()[0]));
    }
    Value s = capped(
        arith::MulFOp::create(b, loop.getResult(0), constant(op.getScale().convertToFloat())));
    if (!op.getBias())
      return s;
    *bias = biasAt(i, j);
    return arith::AddFOp::create(b, s, *bias);
  }

  int64_t width;
  Value depth, keys;
};

struct GpuLowerAttentionPass : public tcc::impl::GpuLowerAttentionBase<GpuLowerAttentionPass> {
  using GpuLowerAttentionBase::GpuLowerAttentionBase;
  void runOnOperation() override {
    SmallVector<tcc::kernel::AttentionOp> ops;
    getOperation().walk([&](tcc::kernel::AttentionOp op) { ops.push_back(op); });
    for (tcc::kernel::AttentionOp op : ops) {
      auto out = cast<ShapedType>(op.getInit().getType());
      int64_t width = out.getDimSize(out.getRank() - 1);
      if (op.getNumResults() != 0 || ShapedType::isDynamic(width) || width > kMaxWidth) {
        op.emitOpError() << "must be on buffers with a static value depth of at most " << kMaxWidth
                         << " when a GPU target lowers it";
        return signalPassFailure();
      }
      if (failed(lower(op, width)))
        return signalPassFailure();
      op.erase();
    }
  }

  /// With subgroups, the block tiles where the op has the form and at least 16 query rows
  /// (chosen on the host when the rows are known only at run time), else a warp per row;
  /// without subgroups, the tiles (G = 1) only.
  LogicalResult lower(tcc::kernel::AttentionOp op, int64_t width) {
    OpBuilder b(op);
    int64_t lanes = subgroups ? kTileLanes : 1;
    bool tiles = tcc::gpu::canTileAttention(op, lanes);
    if (!subgroups) {
      if (!tiles)
        return op.emitOpError() << "must have static query and value depths of at most 128 "
                                   "and multiples of 4 when a GPU target without subgroups "
                                   "lowers it";
      tcc::gpu::emitAttentionTiles(b, op, lanes);
      return success();
    }
    if (!tiles) {
      AttentionLowering(b, op, width).lower();
      return success();
    }
    auto query = cast<MemRefType>(op.getQuery().getType());
    int64_t rows = query.getDimSize(op.getRank() - 2);
    if (!ShapedType::isDynamic(rows)) {
      if (rows >= kMinTileRows)
        tcc::gpu::emitAttentionTiles(b, op, lanes);
      else
        AttentionLowering(b, op, width).lower();
      return success();
    }
    Location loc = op.getLoc();
    Value extent = memref::DimOp::create(b, loc, op.getQuery(), op.getRank() - 2);
    Value many = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, extent,
                                       arith::ConstantIndexOp::create(b, loc, kMinTileRows));
    auto choose = scf::IfOp::create(b, loc, many, /*withElseRegion=*/true);
    OpBuilder then = OpBuilder::atBlockTerminator(choose.thenBlock());
    tcc::gpu::emitAttentionTiles(then, op, lanes);
    OpBuilder otherwise = OpBuilder::atBlockTerminator(choose.elseBlock());
    AttentionLowering(otherwise, op, width).lower();
    return success();
  }
  /// Threads a query row in the tiles with subgroups, and the fewest rows that take them.
  static constexpr int64_t kTileLanes = 4, kMinTileRows = 16;
  /// Accumulators a lane keeps in registers (tcc-match-attention's max-width for GPUs).
  static constexpr int64_t kMaxWidth = 128;
};

} // namespace
