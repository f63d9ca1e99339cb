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

void emitMatrixTiles(OpBuilder &b, Location loc, const Problem &p, const MatrixUnit &unit) {
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

  // Staging: word e = thread + 256 r of a slice's 128 x 16 is (position, word) along the
  // input's innermost memory dim's order.
  struct Staged {
    OpOperand *input;
    Value tile, first, last;
    ArrayRef<int64_t> own;
    bool byK;
  };
  Staged staged[] = {
      {roles.x, xTile, firstRow, lastRow, roles.m, reductionFastest(p, roles.x, roles.m)},
      {roles.y, yTile, firstColumn, lastColumn, roles.n, reductionFastest(p, roles.y, roles.n)}};
  constexpr int64_t kWordsPerThread = kTileRows * kSliceWords / kThreads; // 8
  auto placeOf = [&](OpBuilder &builder, const Staged &in, int64_t r) {
    Value element = plus(builder, thread, kThreads * r);
    if (in.byK)
      return std::pair<Value, Value>(
          arith::DivUIOp::create(builder, loc, element, cst(builder, kSliceWords)),
          arith::RemUIOp::create(builder, loc, element, cst(builder, kSliceWords)));
    return std::pair<Value, Value>(
        arith::RemUIOp::create(builder, loc, element, cst(builder, kTileRows)),
        arith::DivUIOp::create(builder, loc, element, cst(builder, kTileRows)));
  };
  Value zeroF32 = arith::ConstantOp::create(at, loc, at.getF32FloatAttr(0.0f));
  // This thread's words of the slice starting at reduction position `from`.
  auto fetch = [&](OpBuilder &builder, Value from) {
    SmallVector<Value> words;
    for (const Staged &in : staged) {
      AffineMap map = op.getMatchingIndexingMap(in.input);
      for (int64_t r = 0; r < kWordsPerThread; ++r) {
        auto [position, w] = placeOf(builder, in, r);
        Value index = arith::MinUIOp::create(
            builder, loc, arith::AddIOp::create(builder, loc, in.first, position), in.last);
        Value wordStart = arith::AddIOp::create(
            builder, loc, from, arith::MulIOp::create(builder, loc, w, cst(builder, perWord)));
        SmallVector<Value> elements;
        for (int64_t e = 0; e < perWord; ++e) {
          Value reduced = plus(builder, wordStart, e);
          Value inside =
              arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, reduced, p.depth);
          SmallVector<Value> ivs = blocks.base;
          unflatten(builder, loc, p, in.own, index, ivs);
          unflatten(builder, loc, p, roles.k,
                    arith::MinUIOp::create(builder, loc, reduced, lastDepth), ivs);
          Value value = memref::LoadOp::create(builder, loc, in.input->get(),
                                               indicesOf(builder, loc, map, ivs));
          elements.push_back(arith::SelectOp::create(builder, loc, inside, value, zeroF32));
        }
        words.push_back(unit.pack(builder, loc, elements));
      }
    }
    return words;
  };
  auto deposit = [&](OpBuilder &builder, Value buffer, ValueRange words) {
    int64_t k = 0;
    for (const Staged &in : staged)
      for (int64_t r = 0; r < kWordsPerThread; ++r) {
        auto [position, w] = placeOf(builder, in, r);
        memref::StoreOp::create(builder, loc, words[k++], in.tile, ValueRange{buffer, position, w});
      }
  };
  // Instruction step `s` (8 words) of the slice in `buffer`, every accumulator.
  Value localRow = arith::AddIOp::create(at, loc, warpRow, group);
  Value localColumn = arith::AddIOp::create(at, loc, warpColumn, group);
  auto compute = [&](OpBuilder &builder, Value buffer, int64_t s, ValueRange acc) {
    SmallVector<SmallVector<Value>> as, bs;
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
        SmallVector<Value> next =
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
  auto atLeast = [&](Value v, int64_t n) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, v,
                                 arith::ConstantIndexOp::create(b, loc, n));
  };
  Value fits = arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, atLeast(p.rows, 64), atLeast(p.columns, 64)),
      atLeast(p.depth, 16));
  auto choose = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
  OpBuilder then = OpBuilder::atBlockTerminator(choose.thenBlock());
  emitMatrixTiles(then, loc, p, unit);
  return choose.elseBlock();
}
