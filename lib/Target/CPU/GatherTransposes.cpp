//===- GatherTransposes.cpp - transposes as vector gathers and contiguous stores -------===//
//
// A transpose whose output's fastest dim comes from a strided dim of its input and whose
// input's fastest dim is at most a vector long (channel blocks [n, y, x, cb, 16] back to
// [n, c, y, x], of floats or of a quantized chain's bytes) lowers otherwise to scalar loops: one
// load and one store per element, the loads a whole stride apart. Here each run of `lanes`
// consecutive outputs is one masked gather (the input stride times the lane as offsets) and one
// masked contiguous store:
//
//   out[o_0, ..., o_{r-2}, x0 + j] = in[idx],  idx[perm[i]] = o_i, idx[perm[r-1]] = x0 + j
//
// for j < min(lanes, X - x0), in an scf.parallel over the output dims other than the row
// and the one the input's fastest dim feeds (a block's lanes), whose loop runs innermost;
// threads split the parallel loop like every kernel's. The same elements move: the result
// is the same bits.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

namespace tcc {
#define GEN_PASS_DEF_GATHERTRANSPOSES
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The static stride, in elements, of `type`'s dim `d`; nothing when it is dynamic.
std::optional<int64_t> staticStride(MemRefType type, int64_t d) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || ShapedType::isDynamic(strides[d]))
    return std::nullopt;
  return strides[d];
}

/// Whether a transpose of `in` to `out` (buffers of rank 3 or more) moves 32- or 8-bit
/// elements: the two forms below take those.
bool movesWordsOrBytes(MemRefType in, MemRefType out) {
  return in && out && in.getRank() >= 3 && in.getElementType().isIntOrFloat() &&
         (in.getElementType().getIntOrFloatBitWidth() == 32 ||
          in.getElementType().getIntOrFloatBitWidth() == 8);
}

/// The bounds of an scf.parallel over `output`'s dims other than its last (the row) and
/// `skip`: from 0 in steps of 1.
struct OuterLoops {
  SmallVector<Value> lower, steps, upper;
};
OuterLoops outerLoops(OpBuilder &b, Location loc, Value output, int64_t skip) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  OuterLoops loops;
  int64_t rank = cast<MemRefType>(output.getType()).getRank();
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (d != skip) {
      loops.lower.push_back(zero);
      loops.steps.push_back(one);
      loops.upper.push_back(memref::DimOp::create(b, loc, output, d));
    }
  return loops;
}

struct GatherTransposesPass : tcc::impl::GatherTransposesBase<GatherTransposesPass> {
  using GatherTransposesBase::GatherTransposesBase;

  void runOnOperation() override {
    if (vectorBits < 512)
      return;
    SmallVector<linalg::TransposeOp> transposes;
    getOperation().walk([&](linalg::TransposeOp op) { transposes.push_back(op); });
    for (linalg::TransposeOp op : transposes) {
      if (tileApplies(op))
        rewriteTiles(op);
      else if (applies(op))
        rewrite(op);
    }
  }

  /// Whether `op` moves a block of kTile along one of its two fastest dims (channel blocks
  /// [n, y, x, cb, 16] to NCHW and back): 32- or 8-bit elements on buffers, rank 3 at least,
  /// unit strides in both fastest dims, the output's fastest fed by an input dim other than
  /// the input's fastest, and that row or the input's fastest dim static and kTile long.
  bool tileApplies(linalg::TransposeOp op) const {
    auto in = dyn_cast<MemRefType>(op.getInput().getType());
    auto out = dyn_cast<MemRefType>(op.getInit().getType());
    if (!movesWordsOrBytes(in, out))
      return false;
    int64_t rank = out.getRank();
    int64_t source = op.getPermutation()[rank - 1];
    return source != rank - 1 && staticStride(in, rank - 1) == 1 &&
           staticStride(out, rank - 1) == 1 &&
           (in.getDimSize(rank - 1) == kTile || out.getDimSize(rank - 1) == kTile);
  }

  static constexpr int64_t kTile = 16;

  /// The transpose in tiles of kTile x kTile: per tile, kTile vector loads along the input's
  /// fastest dim (f), one per point r of the output's row, the tile transposed in registers,
  /// and kTile vector stores along the output's row, one per f:
  ///
  ///   out[o..., f0 + k (dim t), r0 + i (row)] = in[...]  with  idx[perm[row]] = r0 + i,
  ///                                                           idx[rank - 1] = f0 + k,
  ///
  /// in an scf.parallel over the output's other dims, then r0 and f0 in steps of kTile.
  /// Loads of points past the row's end and stores of f past its extent are masked off
  /// entirely, at indices clamped inside the buffer (no address outside it is formed); a
  /// partial tile masks the other dim too. The transpose is four rounds of kTile
  /// interleaves of two vectors (unpacklo / unpackhi of elements: after log2(16) rounds of
  /// the perfect shuffle, lane j of vector i holds element i of vector j), 64 two-vector
  /// shuffles that x86 does as punpck{l,h}bw on bytes, vpermt2ps on 32-bit elements.
  /// The gathers this replaces took some 24 cycles a vector on Zen 4, and the other way
  /// round (NCHW to blocks) the transpose was scalar loops.
  void rewriteTiles(linalg::TransposeOp op) const {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value input = op.getInput(), output = op.getInit();
    auto in = cast<MemRefType>(input.getType());
    ArrayRef<int64_t> permutation = op.getPermutation();
    int64_t rank = in.getRank();
    // The output dim the input's fastest dim feeds.
    int64_t fDim = llvm::find(permutation, rank - 1) - permutation.begin();
    auto vectorType = VectorType::get({kTile}, in.getElementType());
    auto maskType = VectorType::get({kTile}, b.getI1Type());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value tile = arith::ConstantIndexOp::create(b, loc, kTile);
    auto [lower, steps, upper] = outerLoops(b, loc, output, fDim);
    Value rows = memref::DimOp::create(b, loc, output, rank - 1);
    Value fs = memref::DimOp::create(b, loc, output, fDim);
    Value rowsLast = arith::SubIOp::create(b, loc, rows, one);
    Value fsLast = arith::SubIOp::create(b, loc, fs, one);
    Value passThrough = arith::ConstantOp::create(b, loc, b.getZeroAttr(vectorType));

    auto body = [&](OpBuilder &lb, Location lloc, ValueRange outer, Value r0, Value f0) {
      Value rowCount =
          arith::MinSIOp::create(lb, lloc, arith::SubIOp::create(lb, lloc, rows, r0), tile);
      Value fCount =
          arith::MinSIOp::create(lb, lloc, arith::SubIOp::create(lb, lloc, fs, f0), tile);
      // The output's indices at (f, r), then the input's through the permutation.
      auto outputIndex = [&](Value f, Value r) {
        SmallVector<Value> to;
        for (int64_t d = 0, k = 0; d + 1 < rank; ++d)
          to.push_back(d == fDim ? f : outer[k++]);
        to.push_back(r);
        return to;
      };
      // Lane-count of vector i: `count` while i < `limit`, else none (at a clamped index).
      auto laneMask = [&](int64_t i, Value limit, Value count) {
        Value inside = arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::slt,
                                             arith::ConstantIndexOp::create(lb, lloc, i), limit);
        Value lanes = arith::SelectOp::create(lb, lloc, inside, count, zero);
        return vector::CreateMaskOp::create(lb, lloc, maskType, ValueRange{lanes});
      };
      SmallVector<Value> vectors;
      for (int64_t i = 0; i < kTile; ++i) {
        Value r = arith::MinSIOp::create(
            lb, lloc,
            arith::AddIOp::create(lb, lloc, r0, arith::ConstantIndexOp::create(lb, lloc, i)),
            rowsLast);
        SmallVector<Value> to = outputIndex(f0, r);
        SmallVector<Value> from(rank);
        for (int64_t d = 0; d < rank; ++d)
          from[permutation[d]] = to[d];
        vectors.push_back(vector::MaskedLoadOp::create(lb, lloc, vectorType, input, from,
                                                       laneMask(i, rowCount, fCount), passThrough));
      }
      SmallVector<int64_t> low, high;
      for (int64_t k = 0; k < kTile / 2; ++k) {
        low.append({k, k + kTile});
        high.append({k + kTile / 2, k + kTile / 2 + kTile});
      }
      for (int64_t round = 1; round < kTile; round *= 2) {
        SmallVector<Value> next(kTile);
        for (int64_t i = 0; i < kTile / 2; ++i) {
          Value a = vectors[i], c = vectors[i + kTile / 2];
          next[2 * i] = vector::ShuffleOp::create(lb, lloc, a, c, low);
          next[2 * i + 1] = vector::ShuffleOp::create(lb, lloc, a, c, high);
        }
        vectors = std::move(next);
      }
      for (int64_t k = 0; k < kTile; ++k) {
        Value f = arith::MinSIOp::create(
            lb, lloc,
            arith::AddIOp::create(lb, lloc, f0, arith::ConstantIndexOp::create(lb, lloc, k)),
            fsLast);
        vector::MaskedStoreOp::create(lb, lloc, output, outputIndex(f, r0),
                                      laneMask(k, fCount, rowCount), vectors[k]);
      }
    };
    scf::ParallelOp::create(
        b, loc, lower, upper, steps, [&](OpBuilder &nb, Location nloc, ValueRange outer) {
          scf::ForOp::create(nb, nloc, zero, rows, tile, ValueRange{},
                             [&](OpBuilder &rb, Location rloc, Value r0, ValueRange) {
                               scf::ForOp::create(
                                   rb, rloc, zero, fs, tile, ValueRange{},
                                   [&](OpBuilder &fb, Location floc, Value f0, ValueRange) {
                                     body(fb, floc, outer, r0, f0);
                                     scf::YieldOp::create(fb, floc);
                                   });
                               scf::YieldOp::create(rb, rloc);
                             });
          scf::ReduceOp::create(nb, nloc);
        });
    op->erase();
  }

  /// The lanes of one gather: a vector of 32-bit elements; bytes (a quantized chain's
  /// blocks back to NCHW) take as many, 16 bytes (their loop order is what pays).
  int64_t lanesOf() const { return vectorBits / 32; }

  /// 32- or 8-bit elements on buffers, an output row with unit stride, the input dim that feeds
  /// it other than the input's fastest, with a static stride that fits the gather's 32-bit
  /// offsets, and the input's fastest dim at most a vector long (a 2-D transpose of such a
  /// matrix stays as it is: a gradient's small weight transposes).
  bool applies(linalg::TransposeOp op) const {
    auto in = dyn_cast<MemRefType>(op.getInput().getType());
    auto out = dyn_cast<MemRefType>(op.getInit().getType());
    // Rank 3 at least: a dim besides the row and the lanes for the parallel loop.
    if (!movesWordsOrBytes(in, out))
      return false;
    int64_t rank = out.getRank();
    int64_t source = op.getPermutation()[rank - 1];
    std::optional<int64_t> stride = staticStride(in, source);
    std::optional<int64_t> inner = staticStride(in, rank - 1);
    std::optional<int64_t> outInner = staticStride(out, rank - 1);
    int64_t lanes = lanesOf();
    // The input's fastest dim at most a vector long (a block's lanes): its loop runs
    // innermost, its rows stay few. (Longer ones, a channels-last product's 960 channels,
    // made that loop's stores scatter over as many rows: slower than the scalar loops.)
    int64_t fastest = in.getDimSize(rank - 1);
    return source != rank - 1 && stride && inner == 1 && outInner == 1 &&
           !ShapedType::isDynamic(fastest) && fastest <= lanes &&
           *stride * (lanes - 1) <= std::numeric_limits<int32_t>::max();
  }

  void rewrite(linalg::TransposeOp op) const {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value input = op.getInput(), output = op.getInit();
    auto in = cast<MemRefType>(input.getType());
    ArrayRef<int64_t> permutation = op.getPermutation();
    int64_t rank = in.getRank(), lanes = lanesOf();
    int64_t source = permutation[rank - 1];
    int64_t stride = *staticStride(in, source);
    Type element = in.getElementType();
    auto vectorType = VectorType::get({lanes}, element);
    auto maskType = VectorType::get({lanes}, b.getI1Type());

    // The output dim the input's fastest dim feeds (a block's lanes): innermost, so that
    // each gathered cache line serves all its lanes while it is in L1 (the blocks' rows are
    // a power of two apart and share few sets of it).
    int64_t lanesDim = llvm::find(permutation, rank - 1) - permutation.begin();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value step = arith::ConstantIndexOp::create(b, loc, lanes);
    auto [lower, steps, upper] = outerLoops(b, loc, output, lanesDim);
    Value row = memref::DimOp::create(b, loc, output, rank - 1);
    Value inner = memref::DimOp::create(b, loc, output, lanesDim);
    // Offsets of the lanes: j * stride.
    SmallVector<int32_t> offsets;
    for (int64_t j = 0; j < lanes; ++j)
      offsets.push_back(static_cast<int32_t>(j * stride));
    auto offsetType = VectorType::get({lanes}, b.getI32Type());
    Value offsetVector =
        arith::ConstantOp::create(b, loc, DenseIntElementsAttr::get(offsetType, offsets));
    Value passThrough = arith::ConstantOp::create(b, loc, b.getZeroAttr(vectorType));

    scf::ParallelOp::create(
        b, loc, lower, upper, steps, [&](OpBuilder &nb, Location nloc, ValueRange outer) {
          scf::ForOp::create(
              nb, nloc, zero, row, step, ValueRange{},
              [&](OpBuilder &fb, Location floc, Value x0, ValueRange) {
                Value left = arith::SubIOp::create(fb, floc, row, x0);
                Value count = arith::MinSIOp::create(fb, floc, left, step);
                Value mask = vector::CreateMaskOp::create(fb, floc, maskType, ValueRange{count});
                scf::ForOp::create(
                    fb, floc, zero, inner, one, ValueRange{},
                    [&](OpBuilder &lb, Location lloc, Value lane, ValueRange) {
                      // The output's indices, then the input's through the permutation.
                      SmallVector<Value> to;
                      for (int64_t d = 0, k = 0; d + 1 < rank; ++d)
                        to.push_back(d == lanesDim ? lane : outer[k++]);
                      to.push_back(x0);
                      SmallVector<Value> from(rank);
                      for (int64_t i = 0; i < rank; ++i)
                        from[permutation[i]] = to[i];
                      Value gathered = vector::GatherOp::create(lb, lloc, vectorType, input, from,
                                                                offsetVector, mask, passThrough);
                      vector::MaskedStoreOp::create(lb, lloc, output, to, mask, gathered);
                      scf::YieldOp::create(lb, lloc);
                    });
                scf::YieldOp::create(fb, floc);
              });
          scf::ReduceOp::create(nb, nloc);
        });
    op->erase();
  }
};

} // namespace
