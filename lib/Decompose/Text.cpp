//===- Text.cpp - the rule for TfIdfVectorizer (integer n-gram pools) -------------------===//
//
// The n-gram pool and every attribute are constants, so matching becomes dense comparisons
// against the pool: for each gram length, the input's n-gram position tuples (one strided
// slice per tuple element and skip) are compared with every pool n-gram of that length, the
// matches are counted per pool entry, and the counts move to their output columns. tcc has
// no string tensors, so pool_strings is refused.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <map>
#include <set>
#include <vector>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// The pool n-grams of one length that the node counts.
struct PoolLevel {
  int64_t length = 0;
  int64_t firstId = 0;            ///< the pool index (into ngram_indexes) of the first n-gram
  SmallVector<int64_t> items;     ///< [count, length] row-major
  int64_t count() const { return static_cast<int64_t>(items.size()) / length; }
};

/// `x` sliced along its last dim: `size` elements from `begin`.
Value lastDimSlice(NodeRewriter &n, Value x, int64_t begin, int64_t size) {
  OpBuilder &b = n.getBuilder();
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes = getDims(n, x);
  offsets.back() = b.getIndexAttr(begin);
  sizes.back() = b.getIndexAttr(size);
  return b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes,
                                       SmallVector<int64_t>(rank, 1));
}

/// `value` broadcast to `dims`, its dims placed at `positions`.
Value broadcastInDim(NodeRewriter &n, Value value, ArrayRef<OpFoldResult> dims,
                     ArrayRef<int64_t> positions) {
  OpBuilder &b = n.getBuilder();
  return prim::BroadcastInDimOp::create(b, n.getLoc(), getTensorType(dims, elementOf(value)),
                                        value, getDynamicExtents(n, dims),
                                        b.getDenseI64ArrayAttr(positions));
}

/// A constant i64 or f32 tensor of `shape` holding `values` (row-major).
Value constantTensor(NodeRewriter &n, ArrayRef<int64_t> shape, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get(shape, n.getBuilder().getI64Type());
  return arith::ConstantOp::create(n.getBuilder(), n.getLoc(),
                                   DenseElementsAttr::get(type, values));
}
Value constantTensor(NodeRewriter &n, ArrayRef<int64_t> shape, ArrayRef<float> values) {
  auto type = RankedTensorType::get(shape, n.getBuilder().getF32Type());
  return arith::ConstantOp::create(n.getBuilder(), n.getLoc(),
                                   DenseElementsAttr::get(type, values));
}

/// The pool levels the node counts (lengths in [minLength, maxLength]), from ngram_counts
/// (the start of each length's n-grams in the pool); pool indexes run over every level, as
/// in ONNX Runtime. `totalNgrams` receives the number of pool n-grams of all lengths.
/// std::nullopt after an error.
std::optional<SmallVector<PoolLevel>> readPool(NodeRewriter &n, ArrayRef<int64_t> pool,
                                               ArrayRef<int64_t> starts, int64_t minLength,
                                               int64_t maxLength, int64_t &totalNgrams) {
  SmallVector<PoolLevel> levels;
  int64_t total = static_cast<int64_t>(pool.size()), id = 0;
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t length = static_cast<int64_t>(i) + 1;
    int64_t begin = starts[i], end = i + 1 < starts.size() ? starts[i + 1] : total;
    if (begin < 0 || end < begin || end > total) {
      n.emitError() << "ngram_counts gives the " << length << "-grams pool items [" << begin
                    << ", " << end << "), expected a range inside the pool of " << total
                    << " items";
      return std::nullopt;
    }
    if ((end - begin) % length != 0) {
      n.emitError() << "the pool has " << (end - begin) << " items for " << length
                    << "-grams, expected a multiple of " << length;
      return std::nullopt;
    }
    int64_t ngrams = (end - begin) / length;
    if (ngrams > 0 && length >= minLength && length <= maxLength) {
      PoolLevel level{length, id, SmallVector<int64_t>(pool.begin() + begin, pool.begin() + end)};
      std::set<std::vector<int64_t>> seen;
      for (int64_t g = 0; g < ngrams; ++g)
        if (!seen.insert(ArrayRef<int64_t>(level.items).slice(g * length, length).vec()).second) {
          n.emitError() << "pool_int64s has a duplicate " << length << "-gram (pool n-gram "
                        << (id + g) << "), expected distinct n-grams";
          return std::nullopt;
        }
      levels.push_back(std::move(level));
    }
    id += ngrams;
  }
  totalNgrams = id;
  return levels;
}

// TfIdfVectorizer (opset 9), X: int32/int64 [C] or [N, C], C static; per row:
//   count[g] = #{(i, s) : X[i + k (s + 1)] = pool_g[k] for k < n_g, i + (n_g - 1)(s + 1) < C}
//              with s in [0, max_skip_count] for n_g >= 2 and s = 0 only for unigrams,
//              n_g in [min_gram_length, max_gram_length]
//   TF: Y[j] = sum of count[g] over the pool n-grams g with ngram_indexes[g] = j
//   TFIDF: Y[j] = sum of count[g] w[g] over those g; IDF: Y[j] = (any count[g] > 0) ? w[g] : 0
//   w = weights (one per pool n-gram, as the spec and ONNX Runtime 1.30 read them) or 1.
LogicalResult tfIdfVectorizer(NodeRewriter &n) {
  if (n.hasAttr("pool_strings"))
    return n.emitError() << "pool_strings (a pool of string n-grams) is not supported: tcc "
                            "has no string tensors; expected pool_int64s with an int32 or "
                            "int64 input";
  Value x = n.getInput(0);
  if (!x)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type element = elementOf(x);
  if (!element.isSignlessInteger(32) && !element.isSignlessInteger(64))
    return n.emitError() << "input X has element type " << element
                         << ", expected int32 or int64 (string tensors are not supported)";
  if (rankOf(x) != 1 && rankOf(x) != 2)
    return n.emitError() << "input X has rank " << rankOf(x) << ", expected [C] or [N, C]";

  for (StringRef required : {"mode", "min_gram_length", "max_gram_length", "max_skip_count",
                             "ngram_counts", "ngram_indexes", "pool_int64s"})
    if (!n.hasAttr(required))
      return n.emitError() << "the attribute '" << required << "' is required";
  enum class Mode { TF, IDF, TFIDF };
  std::optional<Mode> mode = getChoice<Mode>(
      n, "mode", "", {{"TF", Mode::TF}, {"IDF", Mode::IDF}, {"TFIDF", Mode::TFIDF}});
  int64_t minLength = n.getInt("min_gram_length", 0);
  int64_t maxLength = n.getInt("max_gram_length", 0);
  int64_t maxSkip = n.getInt("max_skip_count", 0);
  std::optional<SmallVector<int64_t>> starts = n.getInts("ngram_counts");
  std::optional<SmallVector<int64_t>> indexes = n.getInts("ngram_indexes");
  std::optional<SmallVector<int64_t>> pool = n.getInts("pool_int64s");
  std::optional<SmallVector<float>> weights = n.getFloats("weights");
  if (n.hasFailed() || !mode)
    return failure();
  if (minLength < 1 || maxLength < minLength)
    return n.emitError() << "min_gram_length " << minLength << " and max_gram_length "
                         << maxLength << ", expected 1 <= min_gram_length <= max_gram_length";
  if (maxSkip < 0)
    return n.emitError() << "max_skip_count is " << maxSkip << ", expected >= 0";
  if (starts->empty() || indexes->empty() || pool->empty())
    return n.emitError() << "ngram_counts, ngram_indexes and pool_int64s must not be empty";
  int64_t outputSize = 0;
  for (int64_t index : *indexes) {
    if (index < 0)
      return n.emitError() << "ngram_indexes has " << index << ", expected indexes >= 0";
    outputSize = std::max(outputSize, index + 1);
  }
  if (weights && weights->size() != indexes->size())
    return n.emitError() << "weights has " << weights->size()
                         << " entries, expected one per ngram_indexes entry (" << indexes->size()
                         << ")";
  if (maxLength > static_cast<int64_t>(starts->size()))
    return n.emitError() << "max_gram_length is " << maxLength << ", expected at most the "
                         << starts->size() << " gram lengths that ngram_counts describes";

  int64_t totalNgrams = 0;
  std::optional<SmallVector<PoolLevel>> levels =
      readPool(n, *pool, *starts, minLength, maxLength, totalNgrams);
  if (!levels)
    return failure();
  if (totalNgrams > static_cast<int64_t>(indexes->size()))
    return n.emitError() << "the pool has " << totalNgrams << " n-grams, ngram_indexes only "
                         << indexes->size() << " entries; expected one per pool n-gram";

  SmallVector<OpFoldResult> xDims = getDims(n, x);
  std::optional<int64_t> columns = getConstantIntValue(xDims.back());
  if (!columns)
    return n.emitError() << "the last dim of X (the sequence length C) must be static";
  int64_t batchRank = rankOf(x) - 1;
  Value x64 = convert(n, x, b.getI64Type());
  Type f32 = b.getF32Type();

  // Per level: the position tuples of every skip side by side along the last dim
  // ([rows..., P]), each tuple element compared with the pool's column -> [rows..., P, G].
  SmallVector<Value> counts;       // [rows..., G] per counted level
  SmallVector<int64_t> countedIds; // pool index of each counted column
  for (const PoolLevel &level : *levels) {
    int64_t length = level.length, ngrams = level.count();
    SmallVector<SmallVector<Value>> elementSlices(length);
    int64_t positions = 0;
    for (int64_t skip = 0; skip <= (length == 1 ? 0 : maxSkip); ++skip) {
      int64_t distance = skip + 1, count = *columns - (length - 1) * distance;
      if (count <= 0)
        break;
      positions += count;
      for (int64_t k = 0; k < length; ++k)
        elementSlices[k].push_back(lastDimSlice(n, x64, k * distance, count));
    }
    if (positions == 0)
      continue;
    SmallVector<OpFoldResult> matchDims(xDims.begin(), xDims.end() - 1);
    matchDims.push_back(b.getIndexAttr(positions));
    matchDims.push_back(b.getIndexAttr(ngrams));
    SmallVector<int64_t> leading(batchRank + 1);
    for (int64_t d = 0; d <= batchRank; ++d)
      leading[d] = d;
    Value match;
    for (int64_t k = 0; k < length; ++k) {
      Value element = elementSlices[k].size() == 1
                          ? elementSlices[k].front()
                          : b.createOrFold<prim::ConcatenateOp>(loc, elementSlices[k], batchRank);
      SmallVector<int64_t> column;
      for (int64_t g = 0; g < ngrams; ++g)
        column.push_back(level.items[g * length + k]);
      Value equal = prim::CompareOp::create(
          b, loc, prim::CompareDirection::Eq, broadcastInDim(n, element, matchDims, leading),
          broadcastInDim(n, constantTensor(n, {ngrams}, ArrayRef<int64_t>(column)), matchDims,
                         {batchRank + 1}));
      match = match ? prim::AndOp::create(b, loc, match, equal).getResult() : equal;
    }
    counts.push_back(prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, convert(n, match, f32),
                                            ArrayRef<int64_t>{batchRank}));
    for (int64_t g = 0; g < ngrams; ++g)
      countedIds.push_back(level.firstId + g);
  }

  SmallVector<OpFoldResult> yDims(xDims.begin(), xDims.end() - 1);
  yDims.push_back(b.getIndexAttr(outputSize));
  if (counts.empty())
    return n.setResults(fill(n, scalarConstant(n, f32, 0.0), yDims));
  Value all = counts.size() == 1 ? counts.front()
                                 : b.createOrFold<prim::ConcatenateOp>(loc, counts, batchRank);
  int64_t counted = static_cast<int64_t>(countedIds.size());
  auto weightOf = [&](int64_t entry) { return weights ? (*weights)[countedIds[entry]] : 1.0f; };
  auto columnOf = [&](int64_t entry) { return (*indexes)[countedIds[entry]]; };
  // TFIDF scales each pool n-gram's count by its weight before the counts meet in a column;
  // IDF gives a column with a match its entries' weight, which must then be one value
  // (ONNX Runtime keeps the weight of the last match, an order tcc does not reproduce).
  std::map<int64_t, SmallVector<int64_t>> entriesOfColumn;
  for (int64_t c = 0; c < counted; ++c)
    entriesOfColumn[columnOf(c)].push_back(c);
  SmallVector<float> columnWeight(outputSize, 0.0f);
  for (const auto &[column, entries] : entriesOfColumn) {
    columnWeight[column] = weightOf(entries.front());
    for (int64_t entry : entries)
      if (*mode == Mode::IDF && weightOf(entry) != columnWeight[column])
        return n.emitError() << "in IDF mode, pool n-grams " << countedIds[entries.front()]
                             << " and " << countedIds[entry] << " share output column "
                             << column << " with different weights; expected one weight per "
                             << "column";
  }
  bool scaled = weights && *mode != Mode::TF;
  bool injective = entriesOfColumn.size() == static_cast<size_t>(counted);

  // Pool entries -> output columns: a gather when no two entries share a column (a column
  // without an entry reads an appended zero), else a contraction with a 0/1 (TFIDF: weight)
  // matrix.
  Value tf;
  if (injective) {
    SmallVector<int64_t> source(outputSize, counted);
    for (const auto &[column, entries] : entriesOfColumn)
      source[column] = entries.front();
    bool identity = counted == outputSize;
    for (int64_t j = 0; identity && j < outputSize; ++j)
      identity = source[j] == j;
    if (identity) {
      tf = all;
    } else {
      SmallVector<OpFoldResult> zeroDims(yDims.begin(), yDims.end() - 1);
      zeroDims.push_back(b.getIndexAttr(1));
      Value padded = prim::ConcatenateOp::create(
          b, loc, ValueRange{all, fill(n, scalarConstant(n, f32, 0.0), zeroDims)}, batchRank);
      tf = prim::GatherOp::create(b, loc, padded, constantTensor(n, {outputSize}, source),
                                  batchRank);
    }
  } else {
    SmallVector<float> matrix(counted * outputSize, 0.0f);
    for (int64_t c = 0; c < counted; ++c)
      matrix[c * outputSize + columnOf(c)] = *mode == Mode::TFIDF ? weightOf(c) : 1.0f;
    tf = prim::DotGeneralOp::create(b, loc, all, constantTensor(n, {counted, outputSize}, matrix),
                                    ArrayRef<int64_t>{batchRank}, ArrayRef<int64_t>{0},
                                    ArrayRef<int64_t>{}, ArrayRef<int64_t>{});
    if (*mode == Mode::TFIDF)
      scaled = false; // the matrix carries the weights
  }

  Value y = tf;
  Value w = scaled ? broadcastTo(n, constantTensor(n, {outputSize}, ArrayRef<float>(columnWeight)),
                                 yDims)
                   : nullptr;
  if (*mode == Mode::IDF) {
    Value zero = splatLike(n, tf, 0.0);
    Value present = prim::CompareOp::create(b, loc, prim::CompareDirection::Gt, tf, zero);
    y = w ? prim::SelectOp::create(b, loc, present, w, zero).getResult() : convert(n, present, f32);
  } else if (*mode == Mode::TFIDF && w) {
    y = prim::MulOp::create(b, loc, tf, w);
  }
  return n.setResults(y);
}

} // namespace

void tcc::decompose::registerTextRules(RuleRegistry &r) {
  r.add("", "TfIdfVectorizer", 9, tfIdfVectorizer);
}
