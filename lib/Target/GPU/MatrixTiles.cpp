//===- MatrixTiles.cpp - float32 contractions on warp matrix instructions ---------------===//
//
// A block of 8 warps computes 128 x 128 outputs: warp w takes rows 64 (w / 4) .. + 64 and
// columns 32 (w % 4) .. + 32, i.e. 4 x 4 instructions of 16 x 8, 64 float32 accumulators a
// lane. The reduction advances one slice of 16 words at a time (32 bf16 or 16 tf32
// elements): each thread loads its 8 words of X's and of Y's slice from global memory
// (rounded and packed by the unit), stores them into one of two workgroup buffers, and the
// warps compute the previous slice from the other one; one barrier a slice. Reduction
// positions past the end are staged as zeros, which add nothing to acc + x * y. The fill
// starts the accumulators; the epilogue runs on them before the guarded stores.
//
//===----------------------------------------------------------------------------------===//
#include "MatrixTiles.h"

#include "ContractionRoles.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tcc::gpu;

namespace {

constexpr int64_t kThreads = 256;
constexpr int64_t kLanes = 32;
constexpr int64_t kTileRows = 128, kTileColumns = 128;
/// Warps as 2 rows x 4 columns; each 64 x 32 outputs: 4 x 4 instructions of 16 x 8.
constexpr int64_t kWarpColumnsPerRow = 4;
constexpr int64_t kWarpRows = 64, kWarpColumns = 32;
constexpr int64_t kInstructionRows = 16, kInstructionColumns = 8, kInstructionWords = 8;
constexpr int64_t kRowInstructions = kWarpRows / kInstructionRows;          // 4
constexpr int64_t kColumnInstructions = kWarpColumns / kInstructionColumns; // 4
/// Words of the reduction staged per slice, and per staged row (4 more: the 8 rows a warp
/// reads at once then start in banks 20 words apart, so their 4 words each never collide).
constexpr int64_t kSliceWords = 16;
constexpr int64_t kPitch = kSliceWords + 4;
/// Words a thread stages per slice, of X and of Y each: 128 x 16 / 256.
constexpr int64_t kWordsPerThread = kTileRows * kSliceWords / kThreads;
/// float32 elements in one 16-byte load.
constexpr int64_t kVector = 4;

llvm::StringMap<MatrixUnit> &registry() {
  static llvm::StringMap<MatrixUnit> units;
  return units;
}

/// Whether the body is acc + x * y on float32 (either order of either).
bool isMultiplyAdd(linalg::LinalgOp op, const Roles &roles) {
  Block *body = op.getBlock();
  if (body->getOperations().size() != 3)
    return false;
  BlockArgument out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
  BlockArgument x = op.getMatchingBlockArgument(roles.x);
  BlockArgument y = op.getMatchingBlockArgument(roles.y);
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || !out.getType().isF32() || !x.getType().isF32() || !y.getType().isF32())
    return false;
  Value other = add.getLhs() == out ? add.getRhs() : add.getRhs() == out ? add.getLhs() : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
  return mul &&
         ((mul.getLhs() == x && mul.getRhs() == y) || (mul.getLhs() == y && mul.getRhs() == x));
}

/// The tiles' kernel; `vectorized[i]` stages X (0) or Y (1) with 16-byte loads.
void emitMatrixTiles(OpBuilder &b, Location loc, const Problem &p, const MatrixUnit &unit,
                     std::array<bool, 2> vectorized) {
  MLIRContext *ctx = b.getContext();
  linalg::LinalgOp op = p.op;
  const Roles &roles = p.roles;
  int64_t perWord = unit.elementsPerWord;
  int64_t sliceDepth = kSliceWords * perWord;
  auto cst = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  Value zero = cst(b, 0), one = cst(b, 1);
  Value slices = b.createOrFold<arith::CeilDivUIOp>(loc, p.depth, cst(b, sliceDepth));

  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  Type word = b.getI32Type();
  // Two buffers of [rows or columns][kPitch words] for X and for Y.
  auto tileType = MemRefType::get({2, kTileRows, kPitch}, word, AffineMap(), workgroup);

  BlockLoop blocks = createBlockLoop(b, loc, p, kTileRows, kTileColumns, kThreads);
  OpBuilder at = OpBuilder::atBlockTerminator(blocks.loop.getBody());
  Value thread = blocks.thread;
  Value xTile = memref::AllocaOp::create(at, loc, tileType);
  Value yTile = memref::AllocaOp::create(at, loc, tileType);
  Value warp = arith::DivUIOp::create(at, loc, thread, cst(at, kLanes));
  Value lane = arith::RemUIOp::create(at, loc, thread, cst(at, kLanes));
  Value group = arith::DivUIOp::create(at, loc, lane, cst(at, 4));   // g
  Value inGroup = arith::RemUIOp::create(at, loc, lane, cst(at, 4)); // t
  Value warpRow = arith::MulIOp::create(
      at, loc, arith::DivUIOp::create(at, loc, warp, cst(at, kWarpColumnsPerRow)),
      cst(at, kWarpRows));
  Value warpColumn = arith::MulIOp::create(
      at, loc, arith::RemUIOp::create(at, loc, warp, cst(at, kWarpColumnsPerRow)),
      cst(at, kWarpColumns));
  Value firstRow = arith::MulIOp::create(at, loc, blocks.rowTile, cst(at, kTileRows));
  Value firstColumn = arith::MulIOp::create(at, loc, blocks.columnTile, cst(at, kTileColumns));
  Value lastRow = arith::SubIOp::create(at, loc, p.rows, one);
  Value lastColumn = arith::SubIOp::create(at, loc, p.columns, one);
  Value lastDepth = arith::SubIOp::create(at, loc, p.depth, one);
  auto plus = [&](OpBuilder &builder, Value v, int64_t c) -> Value {
    return c == 0 ? v : arith::AddIOp::create(builder, loc, v, cst(builder, c)).getResult();
  };

  // Accumulator k of instruction (i, j): row g (+ 8 for k >= 2), column 2t + k % 2.
  Value laneRow =
      arith::AddIOp::create(at, loc, firstRow, arith::AddIOp::create(at, loc, warpRow, group));
  Value laneColumn = arith::AddIOp::create(
      at, loc, firstColumn,
      arith::AddIOp::create(at, loc, warpColumn,
                            arith::MulIOp::create(at, loc, inGroup, cst(at, 2))));
  SmallVector<Value> rows, columns; // per accumulator
  for (int64_t i = 0; i < kRowInstructions; ++i)
    for (int64_t j = 0; j < kColumnInstructions; ++j)
      for (int64_t k = 0; k < 4; ++k) {
        rows.push_back(plus(at, laneRow, i * kInstructionRows + (k >= 2 ? 8 : 0)));
        columns.push_back(plus(at, laneColumn, j * kInstructionColumns + k % 2));
      }
  SmallVector<Value> start;
  for (auto [row, column] : llvm::zip(rows, columns))
    start.push_back(accumulatorStart(at, loc, p, blocks, row, column));

  // Staging: each thread fetches 8 words of X's slice and 8 of Y's, each with its place
  // (position, word) in the tile; neighbouring threads read neighbouring addresses of the
  // input's innermost memory dim.
  struct Staged {
    OpOperand *input;
    Value tile, first, last, extent;
    ArrayRef<int64_t> own;
    bool byK, vectorized;
  };
  Staged staged[] = {{roles.x, xTile, firstRow, lastRow, p.rows, roles.m,
                      reductionFastest(p, roles.x, roles.m), vectorized[0]},
                     {roles.y, yTile, firstColumn, lastColumn, p.columns, roles.n,
                      reductionFastest(p, roles.y, roles.n), vectorized[1]}};
  struct Word {
    Value value, position, w;
  };
  Value zeroF32 = arith::ConstantOp::create(at, loc, at.getF32FloatAttr(0.0f));
  auto f32x4 = VectorType::get({kVector}, at.getF32Type());
  Value zeroF32x4 = arith::ConstantOp::create(at, loc, DenseElementsAttr::get(f32x4, 0.0f));
  Value zeroWord = arith::ConstantOp::create(at, loc, at.getI32IntegerAttr(0));
  // The input's element at (own index, reduction index), both flat and in range.
  auto indicesAt = [&](OpBuilder &builder, const Staged &in, Value index, Value reduced) {
    SmallVector<Value> ivs = blocks.base;
    unflatten(builder, loc, p, in.own, index, ivs);
    unflatten(builder, loc, p, roles.k, reduced, ivs);
    return indicesOf(builder, loc, op.getMatchingIndexingMap(in.input), ivs);
  };
  auto loadVector = [&](OpBuilder &builder, const Staged &in, Value index, Value reduced,
                        Value inside) -> Value {
    Value v = vector::LoadOp::create(builder, loc, f32x4, in.input->get(),
                                     indicesAt(builder, in, index, reduced),
                                     /*nontemporal=*/false, llvm::Align(4 * kVector));
    return inside ? arith::SelectOp::create(builder, loc, inside, v, zeroF32x4).getResult() : v;
  };
  auto element = [&](OpBuilder &builder, Value v, int64_t i) -> Value {
    return vector::ExtractOp::create(builder, loc, v, i);
  };
  // Reduction position e of word `w` of the slice from `from`: in range (clamped to the last
  // one) and whether it is inside the reduction (past its end, the element staged is 0).
  auto reductionAt = [&](OpBuilder &builder, Value from, Value w, int64_t e) {
    Value wordStart = arith::AddIOp::create(
        builder, loc, from, arith::MulIOp::create(builder, loc, w, cst(builder, perWord)));
    Value reduced = plus(builder, wordStart, e);
    Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, reduced, p.depth);
    return std::pair<Value, Value>(arith::MinUIOp::create(builder, loc, reduced, lastDepth),
                                   inside);
  };
  // Word e = thread + 256 r of a slice's 128 x 16 is (position, word) along the input's
  // innermost memory dim's order; each element one 4-byte load.
  auto fetchScalar = [&](OpBuilder &builder, const Staged &in, Value from,
                         SmallVectorImpl<Word> &words) {
    for (int64_t r = 0; r < kWordsPerThread; ++r) {
      Value slot = plus(builder, thread, kThreads * r);
      Value position, w;
      if (in.byK) {
        position = arith::DivUIOp::create(builder, loc, slot, cst(builder, kSliceWords));
        w = arith::RemUIOp::create(builder, loc, slot, cst(builder, kSliceWords));
      } else {
        position = arith::RemUIOp::create(builder, loc, slot, cst(builder, kTileRows));
        w = arith::DivUIOp::create(builder, loc, slot, cst(builder, kTileRows));
      }
      Value index = arith::MinUIOp::create(
          builder, loc, arith::AddIOp::create(builder, loc, in.first, position), in.last);
      SmallVector<Value> elements;
      for (int64_t e = 0; e < perWord; ++e) {
        auto [reduced, inside] = reductionAt(builder, from, w, e);
        Value value = memref::LoadOp::create(builder, loc, in.input->get(),
                                             indicesAt(builder, in, index, reduced));
        elements.push_back(arith::SelectOp::create(builder, loc, inside, value, zeroF32));
      }
      words.push_back({unit.pack(builder, loc, elements), position, w});
    }
  };
  // 16-byte loads (lowerMatrixTiled checked the extent, strides and address). Along the
  // reduction: vector q = thread + 256 v is position q / Q, reduction positions 4 (q % Q)
  // .. + 4 (Q vectors a staged row), 4 / perWord words. Along the input's own dim: unit
  // u = thread + 256 v is word u % 16 of positions 4 (u / 16) .. + 4, perWord vectors (one
  // per reduction position of the word), 4 words; a warp's stores then fall in 32 banks.
  auto fetchVectors = [&](OpBuilder &builder, const Staged &in, Value from,
                          SmallVectorImpl<Word> &words) {
    if (in.byK) {
      int64_t quads = sliceDepth / kVector, wordsPerVector = kVector / perWord;
      Value lastQuad = arith::SubIOp::create(builder, loc, p.depth, cst(builder, kVector));
      for (int64_t v = 0; v < kTileRows * quads / kThreads; ++v) {
        Value q = plus(builder, thread, kThreads * v);
        Value position = arith::DivUIOp::create(builder, loc, q, cst(builder, quads));
        Value quad = arith::RemUIOp::create(builder, loc, q, cst(builder, quads));
        Value index = arith::MinUIOp::create(
            builder, loc, arith::AddIOp::create(builder, loc, in.first, position), in.last);
        Value reduced = arith::AddIOp::create(
            builder, loc, from, arith::MulIOp::create(builder, loc, quad, cst(builder, kVector)));
        Value inside =
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, reduced, p.depth);
        // The 4 positions are all inside or all past the end: zero words (+0 in every
        // input type) instead of zero elements, one select a word.
        Value vector = loadVector(builder, in, index,
                                  arith::MinUIOp::create(builder, loc, reduced, lastQuad), Value());
        for (int64_t j = 0; j < wordsPerVector; ++j) {
          SmallVector<Value> elements;
          for (int64_t e = 0; e < perWord; ++e)
            elements.push_back(element(builder, vector, j * perWord + e));
          Value w = arith::AddIOp::create(
              builder, loc, arith::MulIOp::create(builder, loc, quad, cst(builder, wordsPerVector)),
              cst(builder, j));
          Value word = arith::SelectOp::create(builder, loc, inside,
                                               unit.pack(builder, loc, elements), zeroWord);
          words.push_back({word, position, w});
        }
      }
      return;
    }
    Value lastRun = arith::SubIOp::create(builder, loc, in.extent, cst(builder, kVector));
    for (int64_t v = 0; v < kTileRows / kVector * kSliceWords / kThreads; ++v) {
      Value u = plus(builder, thread, kThreads * v);
      Value w = arith::RemUIOp::create(builder, loc, u, cst(builder, kSliceWords));
      Value run = arith::MulIOp::create(
          builder, loc, arith::DivUIOp::create(builder, loc, u, cst(builder, kSliceWords)),
          cst(builder, kVector));
      Value index = arith::MinUIOp::create(
          builder, loc, arith::AddIOp::create(builder, loc, in.first, run), lastRun);
      SmallVector<Value> vectors;
      for (int64_t e = 0; e < perWord; ++e) {
        auto [reduced, inside] = reductionAt(builder, from, w, e);
        vectors.push_back(loadVector(builder, in, index, reduced, inside));
      }
      for (int64_t i = 0; i < kVector; ++i) {
        SmallVector<Value> elements;
        for (Value vector : vectors)
          elements.push_back(element(builder, vector, i));
        words.push_back({unit.pack(builder, loc, elements), plus(builder, run, i), w});
      }
    }
  };
  // This thread's words of the slice starting at reduction position `from`.
  auto fetch = [&](OpBuilder &builder, Value from) {
    SmallVector<SmallVector<Word>> words;
    for (const Staged &in : staged) {
      words.emplace_back();
      if (in.vectorized)
        fetchVectors(builder, in, from, words.back());
      else
        fetchScalar(builder, in, from, words.back());
    }
    return words;
  };
  auto deposit = [&](OpBuilder &builder, Value buffer, ArrayRef<SmallVector<Word>> words) {
    for (auto [in, share] : llvm::zip(staged, words))
      for (const Word &word : share)
        memref::StoreOp::create(builder, loc, word.value, in.tile,
                                ValueRange{buffer, word.position, word.w});
  };
  // Instruction step `s` (8 words) of the slice in `buffer`, every accumulator.
  Value localRow = arith::AddIOp::create(at, loc, warpRow, group);
  Value localColumn = arith::AddIOp::create(at, loc, warpColumn, group);
  // With the unit's warp-wide loads of four 8 x 4-word matrices, lane l names row l % 8 of
  // matrix l / 8: for X's instruction rows, matrices (rows 0-7, words 0-3), (8-15, 0-3),
  // (0-7, 4-7), (8-15, 4-7) give A's 4 words; for Y, (columns 0-7, words 0-3), (0-7, 4-7),
  // (8-15, 0-3), (8-15, 4-7) give B's 2 words of two instruction columns.
  Value laneInEight = arith::RemUIOp::create(at, loc, lane, cst(at, 8));
  Value eighth = arith::DivUIOp::create(at, loc, lane, cst(at, 8));
  Value low = arith::RemUIOp::create(at, loc, eighth, cst(at, 2));
  Value high = arith::DivUIOp::create(at, loc, eighth, cst(at, 2));
  auto times = [&](Value v, int64_t c) -> Value {
    return arith::MulIOp::create(at, loc, v, cst(at, c));
  };
  Value matrixRow = arith::AddIOp::create(
      at, loc, warpRow, arith::AddIOp::create(at, loc, laneInEight, times(low, 8)));
  Value matrixRowWord = times(high, 4);
  Value matrixColumn = arith::AddIOp::create(
      at, loc, warpColumn, arith::AddIOp::create(at, loc, laneInEight, times(high, 8)));
  Value matrixColumnWord = times(low, 4);
  auto compute = [&](OpBuilder &builder, Value buffer, int64_t s, ValueRange acc) {
    SmallVector<SmallVector<Value>> as, bs;
    if (unit.loadMatrices) {
      for (int64_t i = 0; i < kRowInstructions; ++i)
        as.push_back(unit.loadMatrices(builder, loc, xTile,
                                       {buffer, plus(builder, matrixRow, i * kInstructionRows),
                                        plus(builder, matrixRowWord, s * kInstructionWords)}));
      for (int64_t j = 0; j < kColumnInstructions; j += 2) {
        SmallVector<Value> words =
            unit.loadMatrices(builder, loc, yTile,
                              {buffer, plus(builder, matrixColumn, j * kInstructionColumns),
                               plus(builder, matrixColumnWord, s * kInstructionWords)});
        bs.push_back({words[0], words[1]});
        bs.push_back({words[2], words[3]});
      }
    } else {
      Value wordA = plus(builder, inGroup, s * kInstructionWords);
      Value wordB = plus(builder, inGroup, s * kInstructionWords + 4);
      auto load = [&](Value tile, Value row, Value w) -> Value {
        return memref::LoadOp::create(builder, loc, tile, ValueRange{buffer, row, w});
      };
      for (int64_t i = 0; i < kRowInstructions; ++i) {
        Value top = plus(builder, localRow, i * kInstructionRows);
        Value bottom = plus(builder, top, 8);
        as.push_back({load(xTile, top, wordA), load(xTile, bottom, wordA), load(xTile, top, wordB),
                      load(xTile, bottom, wordB)});
      }
      for (int64_t j = 0; j < kColumnInstructions; ++j) {
        Value column = plus(builder, localColumn, j * kInstructionColumns);
        bs.push_back({load(yTile, column, wordA), load(yTile, column, wordB)});
      }
    }
    SmallVector<Value> next;
    for (int64_t i = 0; i < kRowInstructions; ++i)
      for (int64_t j = 0; j < kColumnInstructions; ++j)
        llvm::append_range(next, unit.multiply(builder, loc, as[i], bs[j],
                                               acc.slice((i * kColumnInstructions + j) * 4, 4)));
    return next;
  };

  deposit(at, zero, fetch(at, zero));
  gpu::BarrierOp::create(at, loc);
  auto main = scf::ForOp::create(
      at, loc, zero, slices, one, start,
      [&](OpBuilder &inner, Location, Value slice, ValueRange acc) {
        Value following = arith::AddIOp::create(inner, loc, slice, one);
        SmallVector<SmallVector<Word>> next =
            fetch(inner, arith::MulIOp::create(inner, loc, following, cst(inner, sliceDepth)));
        Value buffer = arith::RemUIOp::create(inner, loc, slice, cst(inner, 2));
        SmallVector<Value> values(acc.begin(), acc.end());
        for (int64_t s = 0; s < kSliceWords / kInstructionWords; ++s)
          values = compute(inner, buffer, s, values);
        deposit(inner, arith::RemUIOp::create(inner, loc, following, cst(inner, 2)), next);
        gpu::BarrierOp::create(inner, loc);
        scf::YieldOp::create(inner, loc, values);
      });

  for (auto [k, row, column] : llvm::enumerate(rows, columns))
    storeOutput(at, loc, p, blocks, row, column, main.getResult(k));
}

} // namespace

void tcc::gpu::registerMatrixUnit(StringRef name, MatrixUnit unit) {
  registry()[name] = std::move(unit);
}

const MatrixUnit *tcc::gpu::lookupMatrixUnit(StringRef name) {
  auto found = registry().find(name);
  return found == registry().end() ? nullptr : &found->second;
}

Block *tcc::gpu::lowerMatrixTiled(linalg::LinalgOp op, const Fusion &fusion,
                                  const MatrixUnit &unit) {
  std::optional<Problem> problem =
      analyze(op, fusion, [&](const Roles &roles) { return isMultiplyAdd(op, roles); });
  if (!problem)
    return nullptr;
  const Problem &p = *problem;
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto cst = [&](int64_t n) -> Value { return arith::ConstantIndexOp::create(b, loc, n); };
  auto atLeast = [&](Value v, int64_t n) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, v, cst(n));
  };
  auto divides = [&](int64_t n, Value v) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                 b.createOrFold<arith::RemUIOp>(loc, v, cst(n)), cst(0));
  };
  Value fits = arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, atLeast(p.rows, 64), atLeast(p.columns, 64)),
      atLeast(p.depth, 16));
  // Which inputs may be staged with 16-byte loads: those whose innermost memory dim, of
  // unit stride, is the dim their runs of 4 follow (the one reduction dim, else their one
  // own dim); at run time its extent, the other strides and the offset must be multiples of
  // 4 and the address of 16 bytes.
  std::array<bool, 2> vectorized = {false, false};
  Value aligned;
  for (auto [i, input, own] :
       llvm::enumerate(std::array{p.roles.x, p.roles.y},
                       std::array{ArrayRef(p.roles.m), ArrayRef(p.roles.n)})) {
    auto type = cast<MemRefType>(input->get().getType());
    bool byK = reductionFastest(p, input, own);
    ArrayRef<int64_t> group = byK ? ArrayRef(p.roles.k) : own;
    AffineMap map = op.getMatchingIndexingMap(input);
    auto inner = map.getNumResults() ? dyn_cast<AffineDimExpr>(map.getResults().back())
                                     : AffineDimExpr(nullptr);
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!type.getElementType().isF32() || group.size() != 1 || !inner ||
        inner.getPosition() != group[0] || failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      continue;
    Value extent = byK ? p.depth : i == 0 ? p.rows : p.columns;
    Value ok = divides(kVector, extent);
    if (ok.getDefiningOp<arith::ConstantOp>() && !getConstantIntValue(ok).value_or(1))
      continue;
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, input->get());
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, input->get());
    ok = arith::AndIOp::create(b, loc, ok, divides(4 * kVector, address));
    ok = arith::AndIOp::create(b, loc, ok, divides(kVector, metadata.getOffset()));
    for (Value stride : metadata.getStrides().drop_back())
      ok = arith::AndIOp::create(b, loc, ok, divides(kVector, stride));
    vectorized[i] = true;
    aligned = aligned ? arith::AndIOp::create(b, loc, aligned, ok).getResult() : ok;
  }
  auto choose = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
  OpBuilder then = OpBuilder::atBlockTerminator(choose.thenBlock());
  if (aligned) {
    // The 16-byte form where the run-time checks hold, else 4-byte loads.
    auto form = scf::IfOp::create(then, loc, aligned, /*withElseRegion=*/true);
    OpBuilder fast = OpBuilder::atBlockTerminator(form.thenBlock());
    emitMatrixTiles(fast, loc, p, unit, vectorized);
    then.setInsertionPoint(form.elseBlock()->getTerminator());
  }
  emitMatrixTiles(then, loc, p, unit, {false, false});
  return choose.elseBlock();
}
