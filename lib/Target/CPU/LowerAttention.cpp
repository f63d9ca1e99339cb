//===- LowerAttention.cpp - kernel.attention as loops over rows of queries --------------===//
//
// Eight query rows at a time (a stack buffer of 8 × N floats per iteration; over 8192 keys,
// chunks of 8192 keys with an online softmax across them, lowerChunked): the [M × N] score
// matrix never exists, and nothing is allocated on the heap. For rows i_r, r < 8:
//
//   s[r, j] = scale · q[i_r]·k[j] + bias(i_r, j)     (k transposed: vectors of keys in
//                                                     registers, one FMA per row and depth)
//   m = max_j s[r, j];  s[r, j] = exp(s[r, j] - m);  l_r = Σ_j s[r, j]
//   out[i_r] = (Σ_j s[r, j] · v[j]) / l_r            (vectors of values in registers; 0
//                                                     without keys; nan_to_zero: 0 if NaN)
//
// safe_softmax takes a maximum of -inf as 0 (a row of -inf scores then sums to 0 and gives
// zeros); zero_masked_rows gives zeros for a row whose bias values are all -inf (a first pass
// over the row's bias, NaN-propagating as prim's maximum).
//
// The softmax runs on vectors of scores; the scores of keys in rows are the query rows'
// vectors times each key's, summed across the lanes (a static depth), else scalar sums over
// the depth, which carry `reassoc` so that LLVM's loop vectorizer takes them. With grouped
// heads (G query heads a key head) the loop runs over key heads and the G x M queries of one
// are its rows (unit u: query head hk·G + u / M, row u mod M), sharing each key and value
// loaded. A single static query row (decoding) is one row a step, not 4. With a causal
// diagonal t, row i reads keys [0, i + t + 1) only: a block of rows stops at its last row's
// limit (about half the products of a prefill), the others' keys past theirs are -inf.
//
//===-------------------------------------------------------------------------------------===//
#include "tcc/Target/CPU/Passes.h"

#include "dialects/kernel/KernelDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <limits>

namespace tcc {
#define GEN_PASS_DEF_CPULOWERATTENTION
#include "tcc/Target/CPU/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Query rows computed together (they share each loaded vector of keys and values; 8 rows'
/// independent sums hide the multiply-adds' latency), and the unit of work for the threads;
/// fewer where the queries have fewer (decoding: 1).
constexpr int64_t kMaxRows = 8;
/// The most keys whose rows of scores go on the stack (8 rows: 256 KiB); more go on the heap.
constexpr int64_t kStackKeys = 8192;

class AttentionLowering {
public:
  AttentionLowering(tcc::kernel::AttentionOp op, int64_t lanes, int64_t columnVectors)
      : op(op), b(op.getLoc(), op), rank(op.getRank()), lanes(lanes), columnVectors(columnVectors),
        reassoc(arith::FastMathFlagsAttr::get(op.getContext(), arith::FastMathFlags::reassoc)) {
    // Grouped heads: the G query heads of a key head take turns as rows (G x M of them), so
    // that they share every key and value loaded.
    group = op.getKeyGroup();
    int64_t m = cast<ShapedType>(op.getQuery().getType()).getDimSize(rank - 2);
    int64_t units = ShapedType::isStatic(m) ? m * group : ShapedType::kDynamic;
    kRows = ShapedType::isStatic(units) && units >= 1 && units < kMaxRows ? units : kMaxRows;
  }

  void lower() {
    Value c0 = index(0), c1 = index(1);
    Value query = op.getQuery(), key = op.getKey();
    // [B.., M, D] queries; N keys; E values per key.
    rows = dim(query, rank - 2);
    depth = dim(query, rank - 1);
    keys =
        op.getKeyCount() ? op.getKeyCount() : dim(key, op.getKeyTransposed() ? rank - 1 : rank - 2);
    width = dim(op.getValue(), rank - 1);
    // The rows: the queries', or with grouped heads the G x M of a key head's queries
    // (grouped-query attention: query head h reads key and value head h / G).
    int64_t heads = rank - 3;
    units = group > 1 ? arith::MulIOp::create(b, rows, index(group)).getResult() : rows;
    SmallVector<Value> lower(rank - 1, c0), upper, step(rank - 1, c1);
    for (int64_t d = 0; d + 2 < rank; ++d)
      upper.push_back(d == heads && group > 1 ? dim(key, d) : dim(query, d));
    upper.push_back(arith::CeilDivUIOp::create(b, units, index(kRows)));
    auto parallel = scf::ParallelOp::create(b, lower, upper, step);
    b.setInsertionPointToStart(parallel.getBody());
    SmallVector<Value> ivs(parallel.getInductionVars());
    batch.assign(ivs.begin(), ivs.end() - 1);
    keyBatch = batch;
    // Rows first + r, r < kRows; past the last row, the last row again (computed, not stored).
    Value first = arith::MulIOp::create(b, ivs.back(), index(kRows));
    Value lastUnit = arith::SubIOp::create(b, units, c1);
    for (int64_t r = 0; r < kRows; ++r) {
      Value unit = arith::MinUIOp::create(b, arith::AddIOp::create(b, first, index(r)), lastUnit);
      rowBatch.push_back(batch);
      if (group == 1) {
        rowIndex.push_back(unit);
        continue;
      }
      // Unit u: query head hk·G + u / M, row u mod M.
      rowIndex.push_back(arith::RemUIOp::create(b, unit, rows));
      rowBatch.back()[heads] =
          arith::AddIOp::create(b, arith::MulIOp::create(b, batch[heads], index(group)),
                                arith::DivUIOp::create(b, unit, rows));
    }
    // A causal diagonal t: row i reads keys [0, min(N, i + t + 1)); the block reads up to its
    // rows' largest limit, and each row masks the keys of the others past its own.
    if (std::optional<int64_t> causal = op.getCausal()) {
      Value blockKeys;
      for (int64_t r = 0; r < kRows; ++r) {
        limits.push_back(arith::MinUIOp::create(
            b, keys, arith::AddIOp::create(b, rowIndex[r], index(*causal + 1))));
        blockKeys = r ? arith::MaxUIOp::create(b, blockKeys, limits[r]).getResult() : limits[r];
      }
      keys = blockKeys;
    }
    // The scratch lives for one iteration: the stack is saved before its allocas and restored
    // after (a memref.alloca_scope would not do: canonicalization hoists its allocas into
    // the loop body and inlines it, and the stack would grow with every iteration).
    Value stack = LLVM::StackSaveOp::create(b, LLVM::LLVMPointerType::get(b.getContext()));
    // Up to kStackKeys keys the block's rows of scores are on the stack whole; beyond, the
    // keys go by in chunks of kStackKeys with an online softmax (a kernel allocates nothing:
    // the thread's stack holds one chunk). The two are two copies of the computation, so that
    // the usual one keeps its whole-row buffer and single pass.
    Value chunked = arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, keys, index(kStackKeys));
    auto choice = scf::IfOp::create(b, chunked, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(choice.thenBlock());
      lowerChunked(first);
      b.setInsertionPointToStart(choice.elseBlock());
      lowerWhole(first);
    }
    LLVM::StackRestoreOp::create(b, stack);
    op.erase();
  }

private:
  /// The keys' rows of scores whole on the stack (kRows × N floats): scores, the softmax of
  /// each row in place, the products with the values.
  void lowerWhole(Value first) {
    Type f32Type = b.getF32Type();
    scores = memref::AllocaOp::create(b, MemRefType::get({kRows, ShapedType::kDynamic}, f32Type),
                                      ValueRange{keys});
    inverses = memref::AllocaOp::create(b, MemRefType::get({kRows}, f32Type));
    computeScores();
    for (int64_t r = 0; r < kRows; ++r)
      softmaxRow(r);
    multiplyValues(first);
  }

  /// The keys in chunks of kStackKeys, an online softmax across them: per row a running
  /// maximum m, a sum l and unnormalized products acc[e], and for each chunk c
  ///
  ///   m' = max(m, max_{j in c} s_j);   o = (m' == -inf ? 0 : m')
  ///   α = (m == -inf ? 0 : exp(m - o))            (the earlier chunks' terms, rescaled)
  ///   l = α · l + Σ_{j in c} exp(s_j - o);   acc[e] = α · acc[e] + Σ_{j in c} exp(s_j - o) v[j, e]
  ///
  /// then out = acc / l, with the whole-row softmax's rules for a row of -inf (NaN, or 0
  /// with safe_softmax), a NaN row (nan_to_zero) and a wholly masked bias (zero_masked_rows).
  void lowerChunked(Value first) {
    Type f32Type = b.getF32Type();
    Value total = keys, minusInf = f32(-std::numeric_limits<float>::infinity());
    scores = memref::AllocaOp::create(b, MemRefType::get({kRows, kStackKeys}, f32Type));
    // Per row: [0] m, [1] l, [2] this chunk's α, [3] the bias's maximum (zero_masked_rows).
    state = memref::AllocaOp::create(b, MemRefType::get({4, kRows}, f32Type));
    products =
        memref::AllocaOp::create(b, MemRefType::get({kRows, ShapedType::kDynamic}, f32Type), width);
    VectorType vector = VectorType::get({lanes}, f32Type);
    Value zeros = arith::ConstantOp::create(b, vector, DenseElementsAttr::get(vector, 0.0f));
    for (int64_t r = 0; r < kRows; ++r) {
      for (auto [slot, init] :
           llvm::enumerate(ArrayRef<Value>{minusInf, f32(0.0f), f32(0.0f), minusInf}))
        memref::StoreOp::create(b, init, state, ValueRange{index(slot), index(r)});
      forLoop(index(0), width, index(lanes), [&](Value e) {
        vector::MaskedStoreOp::create(b, products, ValueRange{index(r), e}, tailMask(width, e),
                                      zeros);
      });
    }
    forLoop(index(0), total, index(kStackKeys), [&](Value chunk) {
      start = chunk;
      keys = arith::MinUIOp::create(b, index(kStackKeys), arith::SubIOp::create(b, total, chunk));
      computeScores();
      for (int64_t r = 0; r < kRows; ++r)
        onlineSoftmaxRow(r);
      accumulateValues();
    });
    start = Value();
    keys = total;
    for (int64_t r = 0; r < kRows; ++r)
      finishRow(r, first);
  }

  /// scores[r, j] = scale · Σ_d q[i_r, d] k[j, d] (softcapped): with keys transposed, `lanes` keys
  /// at a time in a vector accumulator per row; else one key at a time, a sum over the depth.
  void computeScores() {
    Value scale = f32(op.getScale().convertToFloat());
    int64_t staticDepth = cast<ShapedType>(op.getQuery().getType()).getDimSize(rank - 1);
    if (!op.getKeyTransposed() && ShapedType::isStatic(staticDepth)) {
      // Keys in rows: the query rows' vectors stay in registers; per key, its depth in
      // vectors, a multiply-add per row and vector, and one sum across the lanes per row.
      VectorType vector = VectorType::get({lanes}, b.getF32Type());
      Value zero = arith::ConstantOp::create(b, vector, DenseElementsAttr::get(vector, 0.0f));
      SmallVector<Value> masks;
      SmallVector<SmallVector<Value>> queries(kRows);
      for (int64_t c = 0; c * lanes < staticDepth; ++c) {
        Value at = index(c * lanes);
        masks.push_back(tailMask(index(staticDepth), at));
        for (int64_t r = 0; r < kRows; ++r)
          queries[r].push_back(vector::MaskedLoadOp::create(
              b, vector, op.getQuery(), rowIndices(r, {rowIndex[r], at}), masks.back(), zero));
      }
      forLoop(index(0), keys, [&](Value j) {
        SmallVector<Value> sums(kRows, zero);
        for (auto [c, mask] : llvm::enumerate(masks)) {
          Value k = vector::MaskedLoadOp::create(
              b, vector, op.getKey(), keyIndices({keyAt(j), index(c * lanes)}), mask, zero);
          for (int64_t r = 0; r < kRows; ++r)
            sums[r] = vector::FMAOp::create(b, queries[r][c], k, sums[r]);
        }
        for (int64_t r = 0; r < kRows; ++r) {
          Value dot = vector::ReductionOp::create(b, vector::CombiningKind::ADD, sums[r], Value(),
                                                  arith::FastMathFlags::reassoc);
          memref::StoreOp::create(b, capped(arith::MulFOp::create(b, dot, scale)), scores,
                                  ValueRange{index(r), j});
        }
      });
      return;
    }
    if (!op.getKeyTransposed()) {
      forLoop(index(0), keys, [&](Value j) {
        for (int64_t r = 0; r < kRows; ++r) {
          Value dot = sumLoop(depth, [&](Value d) {
            return arith::MulFOp::create(b, loadRow(r, op.getQuery(), {rowIndex[r], d}),
                                         loadKey(op.getKey(), {keyAt(j), d}));
          });
          memref::StoreOp::create(b, capped(arith::MulFOp::create(b, dot, scale)), scores,
                                  ValueRange{index(r), j});
        }
      });
      return;
    }
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    rowsTimesVectors(
        keys, depth,
        [&](Value d, Value j, Value mask, Value zero) {
          return vector::MaskedLoadOp::create(b, vector, op.getKey(), keyIndices({d, keyAt(j)}),
                                              mask, zero);
        },
        [&](int64_t r, Value d) { return loadRow(r, op.getQuery(), {rowIndex[r], d}); },
        [&](Value j, Value mask, ArrayRef<Value> sums) {
          Value scaleVector = vector::BroadcastOp::create(b, vector, scale);
          for (int64_t r = 0; r < kRows; ++r)
            vector::MaskedStoreOp::create(b, scores, ValueRange{index(r), j}, mask,
                                          capped(arith::MulFOp::create(b, sums[r], scaleVector)));
        });
  }

  /// With a softcap c: c · tanh(s / c) (scalar or vector); else s.
  Value capped(Value s) {
    std::optional<APFloat> cap = op.getSoftcap();
    if (!cap)
      return s;
    Value c = f32(cap->convertToFloat());
    if (auto vector = dyn_cast<VectorType>(s.getType()))
      c = vector::BroadcastOp::create(b, vector, c);
    return arith::MulFOp::create(b, c, math::TanhOp::create(b, arith::DivFOp::create(b, s, c)));
  }

  /// Row r of the scores, `lanes` at a time: + bias, the maximum, exp(s - max) in place,
  /// and the factor its products with the values take: 1 / Σ, or 0 where the row must be 0
  /// (no keys; nan_to_zero and a NaN row, whose probabilities are then zeroed too). The
  /// maximum ignores NaN scores (maxnumf, which vectorizes): a NaN score still makes its
  /// exp, the sum and so the row NaN, as prim's NaN-propagating maximum does.
  void softmaxRow(int64_t r) {
    Value zero = f32(0.0f), row = index(r);
    Value max = biasedMax(r);
    if (op.getSafeSoftmax()) {
      Value dead = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, max,
                                         f32(-std::numeric_limits<float>::infinity()));
      max = arith::SelectOp::create(b, dead, zero, max);
    }
    Value sum = exponentials(r, max);
    Value zeroRow = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, sum, zero);
    // Rows given as zeros whatever their probabilities: those cleared, so that 0 · NaN does
    // not make them NaN.
    Value clear;
    if (op.getNanToZero())
      clear = arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, sum, sum);
    if (op.getZeroMaskedRows()) {
      Value masked = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, biasMax(r),
                                           f32(-std::numeric_limits<float>::infinity()));
      clear = clear ? arith::OrIOp::create(b, clear, masked).getResult() : masked;
    }
    if (clear) {
      zeroRow = arith::OrIOp::create(b, zeroRow, clear);
      auto ifClear = scf::IfOp::create(b, clear, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifClear.thenBlock());
      forLoop(index(0), keys,
              [&](Value j) { memref::StoreOp::create(b, zero, scores, ValueRange{row, j}); });
    }
    Value inverse =
        arith::SelectOp::create(b, zeroRow, zero, arith::DivFOp::create(b, f32(1.0f), sum));
    memref::StoreOp::create(b, inverse, inverses, row);
  }

  /// Row r's scores plus the bias, -inf past the row's diagonal (stored back where either
  /// changes them), and their maximum.
  Value biasedMax(int64_t r) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    Value row = index(r), minusInf = splat(-std::numeric_limits<float>::infinity());
    Value maxVector = vectorLoop(keys, minusInf, [&](Value j, Value mask, Value acc) {
      Value s = vector::MaskedLoadOp::create(b, vector, scores, ValueRange{row, j}, mask, minusInf);
      if (op.getBias())
        s = arith::AddFOp::create(b, s, loadBiasVector(r, keyAt(j), mask, vector));
      if (!limits.empty()) // -inf past the row's diagonal
        s = arith::SelectOp::create(b, tailMask(limits[r], keyAt(j)), s, minusInf);
      if (op.getBias() || !limits.empty())
        vector::MaskedStoreOp::create(b, scores, ValueRange{row, j}, mask, s);
      return arith::MaxNumFOp::create(b, acc, s).getResult();
    });
    return vector::ReductionOp::create(b, vector::CombiningKind::MAXNUMF, maxVector);
  }

  /// exp(s - offset) in place of row r's scores, and their sum.
  Value exponentials(int64_t r, Value offset) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    Value row = index(r), minusInf = splat(-std::numeric_limits<float>::infinity());
    Value zeros = splat(0.0f), offsetSplat = vector::BroadcastOp::create(b, vector, offset);
    Value sumVector = vectorLoop(keys, zeros, [&](Value j, Value mask, Value acc) {
      Value s = vector::MaskedLoadOp::create(b, vector, scores, ValueRange{row, j}, mask, minusInf);
      Value p = math::ExpOp::create(b, arith::SubFOp::create(b, s, offsetSplat));
      vector::MaskedStoreOp::create(b, scores, ValueRange{row, j}, mask, p);
      return arith::AddFOp::create(b, acc, arith::SelectOp::create(b, mask, p, zeros)).getResult();
    });
    return vector::ReductionOp::create(b, vector::CombiningKind::ADD, sumVector, Value(),
                                       arith::FastMathFlags::reassoc);
  }

  /// The maximum of row r's bias over the keys (NaN-propagating, as prim's maximum).
  Value biasMax(int64_t r) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    Value minusInf = splat(-std::numeric_limits<float>::infinity());
    Value biasMax = vectorLoop(keys, minusInf, [&](Value j, Value mask, Value acc) {
      Value bias =
          arith::SelectOp::create(b, mask, loadBiasVector(r, keyAt(j), mask, vector), minusInf);
      return arith::MaximumFOp::create(b, acc, bias).getResult();
    });
    return vector::ReductionOp::create(b, vector::CombiningKind::MAXIMUMF, biasMax);
  }

  /// One chunk of row r in the online softmax (lowerChunked): m, l and α updated, the
  /// chunk's scores replaced by exp(s - o).
  void onlineSoftmaxRow(int64_t r) {
    Value minusInf = f32(-std::numeric_limits<float>::infinity()), zero = f32(0.0f);
    auto at = [&](int64_t slot) { return SmallVector<Value, 2>{index(slot), index(r)}; };
    auto isMinusInf = [&](Value v) {
      return arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, v, minusInf);
    };
    Value previous = memref::LoadOp::create(b, state, at(0));
    Value max = arith::MaxNumFOp::create(b, previous, biasedMax(r));
    Value offset = arith::SelectOp::create(b, isMinusInf(max), zero, max);
    Value alpha =
        arith::SelectOp::create(b, isMinusInf(previous), zero,
                                math::ExpOp::create(b, arith::SubFOp::create(b, previous, offset)));
    Value sum = arith::AddFOp::create(
        b, arith::MulFOp::create(b, memref::LoadOp::create(b, state, at(1)), alpha),
        exponentials(r, offset));
    memref::StoreOp::create(b, max, state, at(0));
    memref::StoreOp::create(b, sum, state, at(1));
    memref::StoreOp::create(b, alpha, state, at(2));
    if (op.getZeroMaskedRows())
      memref::StoreOp::create(
          b, arith::MaximumFOp::create(b, memref::LoadOp::create(b, state, at(3)), biasMax(r)),
          state, at(3));
  }

  /// acc[r, e] = α_r · acc[r, e] + Σ_j p[r, j] v[j, e] over the chunk's keys.
  void accumulateValues() {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    Value zeros = splat(0.0f);
    probabilitiesTimesValues([&](Value e, Value mask, ArrayRef<Value> sums) {
      for (int64_t r = 0; r < kRows; ++r) {
        SmallVector<Value, 2> at{index(r), e};
        Value alpha = vector::BroadcastOp::create(
            b, vector, memref::LoadOp::create(b, state, ValueRange{index(2), index(r)}));
        Value previous = vector::MaskedLoadOp::create(b, vector, products, at, mask, zeros);
        vector::MaskedStoreOp::create(b, products, at, mask,
                                      vector::FMAOp::create(b, previous, alpha, sums[r]));
      }
    });
  }

  /// out[i_r] = acc[r] / l_r after the last chunk, as softmaxRow and multiplyValues would
  /// have it: without safe_softmax a row whose maximum is -inf is NaN (exp(-inf - -inf)); a
  /// sum of 0 gives zeros; nan_to_zero and zero_masked_rows give zeros. Rows past the last
  /// are not stored.
  void finishRow(int64_t r, Value first) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    Value zero = f32(0.0f);
    Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                        arith::AddIOp::create(b, first, index(r)), units);
    auto ifValid = scf::IfOp::create(b, valid, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifValid.thenBlock());
    Value sum = memref::LoadOp::create(b, state, ValueRange{index(1), index(r)});
    if (!op.getSafeSoftmax()) {
      Value max = memref::LoadOp::create(b, state, ValueRange{index(0), index(r)});
      Value dead = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, max,
                                         f32(-std::numeric_limits<float>::infinity()));
      sum = arith::SelectOp::create(b, dead, f32(std::numeric_limits<float>::quiet_NaN()), sum);
    }
    Value zeroRow = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, sum, zero);
    Value clear;
    if (op.getNanToZero())
      clear = arith::CmpFOp::create(b, arith::CmpFPredicate::UNO, sum, sum);
    if (op.getZeroMaskedRows()) {
      Value masked =
          arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ,
                                memref::LoadOp::create(b, state, ValueRange{index(3), index(r)}),
                                f32(-std::numeric_limits<float>::infinity()));
      clear = clear ? arith::OrIOp::create(b, clear, masked).getResult() : masked;
    }
    if (clear)
      zeroRow = arith::OrIOp::create(b, zeroRow, clear);
    Value inverse = vector::BroadcastOp::create(
        b, vector,
        arith::SelectOp::create(b, zeroRow, zero, arith::DivFOp::create(b, f32(1.0f), sum)));
    Value zeros = splat(0.0f);
    forLoop(index(0), width, index(lanes), [&](Value e) {
      Value mask = tailMask(width, e);
      Value acc =
          vector::MaskedLoadOp::create(b, vector, products, ValueRange{index(r), e}, mask, zeros);
      Value out = arith::MulFOp::create(b, acc, inverse);
      if (clear)
        out = arith::SelectOp::create(b, clear, zeros, out);
      vector::MaskedStoreOp::create(b, op.getInit(), rowIndices(r, {rowIndex[r], e}), mask, out);
    });
  }

  /// Σ_j p[r, j] v[j, e] over the keys being read (the scores buffer holds p), `lanes`
  /// columns e at a time, then finish(e, mask, sums).
  void probabilitiesTimesValues(function_ref<void(Value, Value, ArrayRef<Value>)> finish) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    rowsTimesVectors(
        width, keys,
        [&](Value j, Value e, Value mask, Value zero) {
          return vector::MaskedLoadOp::create(b, vector, op.getValue(), keyIndices({keyAt(j), e}),
                                              mask, zero);
        },
        [&](int64_t r, Value j) {
          return memref::LoadOp::create(b, scores, ValueRange{index(r), j});
        },
        finish);
  }

  /// out[i_r, e] = inverse_r · Σ_j p[r, j] v[j, e], `lanes` columns at a time in a vector
  /// accumulator per row; rows past the last are not stored.
  void multiplyValues(Value first) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    probabilitiesTimesValues([&](Value e, Value mask, ArrayRef<Value> sums) {
      for (int64_t r = 0; r < kRows; ++r) {
        Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult,
                                            arith::AddIOp::create(b, first, index(r)), units);
        auto ifValid = scf::IfOp::create(b, valid, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifValid.thenBlock());
        Value inverse = vector::BroadcastOp::create(
            b, vector, memref::LoadOp::create(b, inverses, ValueRange{index(r)}));
        vector::MaskedStoreOp::create(b, op.getInit(), rowIndices(r, {rowIndex[r], e}), mask,
                                      arith::MulFOp::create(b, sums[r], inverse));
      }
    });
  }

  /// The products both halves of attention are: for each `lanes` columns x of [0, columns),
  /// sums[r] = Σ_{t < count} scalar(r, t) · vectorAt(t, x) for the kRows rows, each vector
  /// loaded once for all rows and the sums kept in registers; then finish(x, mask, sums).
  /// `kColumnVectors` vectors of columns a step, so that kRows × kColumnVectors independent
  /// sums hide the multiply-adds' latency and each scalar is loaded once for all of them.
  void rowsTimesVectors(Value columns, Value count,
                        function_ref<Value(Value, Value, Value, Value)> vectorAt,
                        function_ref<Value(int64_t, Value)> scalar,
                        function_ref<void(Value, Value, ArrayRef<Value>)> finish) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    Value zero = arith::ConstantOp::create(b, vector, DenseElementsAttr::get(vector, 0.0f));
    int64_t step = lanes * columnVectors;
    forLoop(index(0), columns, index(step), [&](Value x0) {
      SmallVector<Value> xs, masks;
      for (int64_t c = 0; c < columnVectors; ++c) {
        xs.push_back(c ? arith::AddIOp::create(b, x0, index(c * lanes)).getResult() : x0);
        masks.push_back(tailMask(columns, xs.back()));
      }
      SmallVector<Value> init(kRows * columnVectors, zero);
      auto loop = scf::ForOp::create(b, index(0), count, index(1), init);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        Value t = loop.getInductionVar();
        SmallVector<Value> loaded;
        for (int64_t c = 0; c < columnVectors; ++c)
          loaded.push_back(vectorAt(t, xs[c], masks[c], zero));
        SmallVector<Value> next(kRows * columnVectors);
        for (int64_t r = 0; r < kRows; ++r) {
          Value factor = vector::BroadcastOp::create(b, vector, scalar(r, t));
          for (int64_t c = 0; c < columnVectors; ++c)
            next[c * kRows + r] = vector::FMAOp::create(b, factor, loaded[c],
                                                        loop.getRegionIterArgs()[c * kRows + r]);
        }
        scf::YieldOp::create(b, next);
      }
      for (int64_t c = 0; c < columnVectors; ++c)
        finish(xs[c], masks[c], SmallVector<Value>(loop.getResults().slice(c * kRows, kRows)));
    });
  }

  /// The lanes of a vector at `at` that are below `extent` (none when `at` is past it).
  Value tailMask(Value extent, Value at) {
    Value left = arith::MinSIOp::create(
        b, arith::MaxSIOp::create(b, arith::SubIOp::create(b, extent, at), index(0)), index(lanes));
    return vector::CreateMaskOp::create(b, VectorType::get({lanes}, b.getI1Type()),
                                        ValueRange{left});
  }

  /// The bias at scores (batch.., i, j + lane), broadcast as `bias_dims` says: a vector
  /// load where the bias's last dim is the keys', else one value for every lane.
  Value loadBiasVector(int64_t r, Value j, Value mask, VectorType vector) {
    Value i = rowIndex[r];
    auto type = cast<MemRefType>(op.getBias().getType());
    ArrayRef<int64_t> dims = *op.getBiasDims();
    bool alongKeys =
        !dims.empty() && dims.back() == rank - 1 && type.getDimSize(type.getRank() - 1) != 1;
    SmallVector<Value> at;
    for (auto [t, d] : llvm::enumerate(dims)) {
      if (type.getDimSize(t) == 1)
        at.push_back(index(0));
      else
        at.push_back(d == rank - 1 ? j : d == rank - 2 ? i : rowBatch[r][d]);
    }
    if (alongKeys)
      return vector::MaskedLoadOp::create(
          b, vector, op.getBias(), at, mask,
          arith::ConstantOp::create(b, vector, DenseElementsAttr::get(vector, 0.0f)));
    return vector::BroadcastOp::create(b, vector, memref::LoadOp::create(b, op.getBias(), at));
  }

  /// A loop over [0, n) by `lanes`, carrying one vector: body(j, the tail mask, carried).
  Value vectorLoop(Value n, Value init, function_ref<Value(Value, Value, Value)> body) {
    auto loop = scf::ForOp::create(b, index(0), n, index(lanes), ValueRange{init});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value j = loop.getInductionVar();
    scf::YieldOp::create(b, body(j, tailMask(n, j), loop.getRegionIterArgs()[0]));
    return loop.getResult(0);
  }

  /// `[batch.., a, b]` of row r's query head, for the queries, the output and the bias.
  SmallVector<Value> rowIndices(int64_t r, ArrayRef<Value> last2) {
    SmallVector<Value> all(rowBatch[r]);
    llvm::append_range(all, last2);
    return all;
  }
  Value loadRow(int64_t r, Value memref, ArrayRef<Value> last2) {
    return memref::LoadOp::create(b, memref, rowIndices(r, last2));
  }
  /// The same for the keys and values, whose heads may be grouped.
  SmallVector<Value> keyIndices(ArrayRef<Value> last2) {
    SmallVector<Value> all(keyBatch);
    llvm::append_range(all, last2);
    return all;
  }
  Value loadKey(Value memref, ArrayRef<Value> last2) {
    return memref::LoadOp::create(b, memref, keyIndices(last2));
  }

  void forLoop(Value from, Value to, function_ref<void(Value)> body) {
    forLoop(from, to, index(1), body);
  }
  void forLoop(Value from, Value to, Value step, function_ref<void(Value)> body) {
    auto loop = scf::ForOp::create(b, from, to, step);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(loop.getInductionVar());
  }
  /// Σ over [0, n) of body(k), in the reassociable order the vectorizer wants.
  Value sumLoop(Value n, function_ref<Value(Value)> body) {
    return reduceLoop(n, f32(0.0f), [&](Value k, Value acc) {
      return arith::AddFOp::create(b, acc, body(k), reassoc).getResult();
    });
  }
  Value reduceLoop(Value n, Value init, function_ref<Value(Value, Value)> body) {
    auto loop = scf::ForOp::create(b, index(0), n, index(1), ValueRange{init});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value next = body(loop.getInductionVar(), loop.getRegionIterArgs()[0]);
    scf::YieldOp::create(b, next);
    return loop.getResult(0);
  }

  /// Key j of the keys being read: of the chunk from `start` (lowerChunked), else j itself.
  Value keyAt(Value j) { return start ? arith::AddIOp::create(b, start, j).getResult() : j; }
  Value splat(float v) {
    VectorType vector = VectorType::get({lanes}, b.getF32Type());
    return arith::ConstantOp::create(b, vector, DenseElementsAttr::get(vector, v));
  }

  Value dim(Value memref, int64_t d) { return memref::DimOp::create(b, memref, d); }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, v); }
  Value f32(float v) { return arith::ConstantOp::create(b, b.getF32FloatAttr(v)); }

  tcc::kernel::AttentionOp op;
  ImplicitLocOpBuilder b;
  int64_t rank, lanes, columnVectors, kRows, group;
  arith::FastMathFlagsAttr reassoc;
  SmallVector<Value> batch, keyBatch, rowIndex;
  /// With a causal diagonal: each row's number of keys.
  SmallVector<Value> limits;
  /// Each row's batch indices (its query head, with grouped heads).
  SmallVector<SmallVector<Value>> rowBatch;
  Value rows, units, depth, keys, width, scores, inverses;
  /// lowerChunked's: the first key of the chunk being read (null: all keys at once), the
  /// rows' running maximum, sum and factor, and their unnormalized products with the values.
  Value start, state, products;
};

struct CpuLowerAttentionPass : public tcc::impl::CpuLowerAttentionBase<CpuLowerAttentionPass> {
  using CpuLowerAttentionBase::CpuLowerAttentionBase;

  void runOnOperation() override {
    SmallVector<tcc::kernel::AttentionOp> ops;
    getOperation().walk([&](tcc::kernel::AttentionOp op) { ops.push_back(op); });
    for (tcc::kernel::AttentionOp op : ops) {
      if (op.getNumResults() != 0) {
        op.emitOpError("must be on buffers when the CPU target lowers it");
        return signalPassFailure();
      }
      AttentionLowering(op, vectorBits / 32, vectorRegisters >= 32 ? 2 : 1).lower();
    }
  }
};

} // namespace
