//===- EvaluateStructured.cpp - reductions, windows, contractions and scans ------------===//
//
// Floats accumulate in double and round once when stored; integers accumulate as 64-bit
// values that wrap to the element width after each step (sums and products only ever need
// the low bits, and max/min compare the wrapped values).
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "dialects/prim/PrimDialect.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <algorithm>
#include <limits>

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;
namespace prim = tcc::prim;

namespace {
/// One element while it is being combined: `f` for float types, `i` for integer types.
struct Scalar {
  double f = 0;
  int64_t i = 0;
};

/// A reduction combiner (prim.reduce, reduce_window, cumulative) on one element type.
class Combiner {
public:
  static llvm::Expected<Combiner> get(prim::ReduceKind kind, Type elementType) {
    Combiner c;
    c.kind = kind;
    c.isFloat = isa<FloatType>(elementType);
    c.width = getIntegerWidth(elementType);
    c.isUnsigned = isUnsignedElement(elementType);
    bool isBitwise = kind == prim::ReduceKind::And || kind == prim::ReduceKind::Or ||
                     kind == prim::ReduceKind::Xor;
    if (c.isFloat && isBitwise)
      return makeError("combiner " + prim::stringifyReduceKind(kind) +
                       " is not defined on float elements");
    return c;
  }

  Scalar load(const Tensor &t, int64_t i) const {
    return isFloat ? Scalar{t.getDouble(i), 0} : Scalar{0, t.getInt(i)};
  }

  void store(Tensor &t, int64_t i, Scalar v) const {
    if (isFloat)
      t.setDouble(i, v.f);
    else
      t.setInt(i, v.i);
  }

  /// sum 0, prod 1, max -inf or the smallest integer, min +inf or the largest, and
  /// all-ones, or 0, xor 0.
  Scalar identity() const {
    double inf = std::numeric_limits<double>::infinity();
    uint64_t allOnes = truncateToWidth(~uint64_t(0), width);
    switch (kind) {
    case prim::ReduceKind::Sum: return {0.0, 0};
    case prim::ReduceKind::Prod: return {1.0, 1};
    case prim::ReduceKind::Max:
      return {-inf, isUnsigned ? 0 : signExtend(uint64_t(1) << (width - 1), width)};
    case prim::ReduceKind::Min:
      return {inf, isUnsigned ? static_cast<int64_t>(allOnes) : static_cast<int64_t>(allOnes >> 1)};
    case prim::ReduceKind::And: return {0.0, wrapToWidth(allOnes, width, isUnsigned)};
    case prim::ReduceKind::Or:
    case prim::ReduceKind::Xor: return {0.0, 0};
    }
    return {};
  }

  Scalar combine(Scalar a, Scalar b) const {
    if (isFloat) {
      switch (kind) {
      case prim::ReduceKind::Sum: return {a.f + b.f, 0};
      case prim::ReduceKind::Prod: return {a.f * b.f, 0};
      case prim::ReduceKind::Max: return {maximumPropagatingNaN(a.f, b.f), 0};
      case prim::ReduceKind::Min: return {minimumPropagatingNaN(a.f, b.f), 0};
      default: return a; // bitwise kinds are rejected by get()
      }
    }
    uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i), r = 0;
    bool less = isUnsigned ? truncateToWidth(x, width) < truncateToWidth(y, width) : a.i < b.i;
    switch (kind) {
    case prim::ReduceKind::Sum: r = x + y; break;
    case prim::ReduceKind::Prod: r = x * y; break;
    case prim::ReduceKind::Max: r = less ? y : x; break;
    case prim::ReduceKind::Min: r = less ? x : y; break;
    case prim::ReduceKind::And: r = x & y; break;
    case prim::ReduceKind::Or: r = x | y; break;
    case prim::ReduceKind::Xor: r = x ^ y; break;
    }
    return {0.0, wrapToWidth(r, width, isUnsigned)};
  }

private:
  prim::ReduceKind kind = prim::ReduceKind::Sum;
  bool isFloat = false, isUnsigned = false;
  unsigned width = 64;
};

/// The row-major position of `index` with `strides`.
int64_t linearize(llvm::ArrayRef<int64_t> index, llvm::ArrayRef<int64_t> strides) {
  int64_t position = 0;
  for (auto [i, stride] : llvm::zip(index, strides))
    position += i * stride;
  return position;
}

/// An error unless every dim in `dims` is a distinct dim of a rank-`rank` tensor.
llvm::Error checkDims(llvm::ArrayRef<int64_t> dims, int64_t rank, llvm::StringRef what) {
  llvm::SmallVector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen[d])
      return makeError(what + " dim " + llvm::Twine(d) + " is out of range for rank " +
                       llvm::Twine(rank) + " or listed twice");
    seen[d] = true;
  }
  return llvm::Error::success();
}

/// Sum of products in double for floats and in wrapping 64-bit arithmetic for integers.
struct DotAccumulator {
  bool isFloat;
  double f = 0;
  uint64_t i = 0;
  void add(const Tensor &a, int64_t ai, const Tensor &b, int64_t bi) {
    if (isFloat)
      f += a.getDouble(ai) * b.getDouble(bi);
    else
      i += static_cast<uint64_t>(a.getInt(ai)) * static_cast<uint64_t>(b.getInt(bi));
  }
  void store(Tensor &t, int64_t position) const {
    if (isFloat)
      t.setDouble(position, f);
    else
      t.setInt(position, static_cast<int64_t>(i));
  }
};

llvm::Expected<Results> reduce(prim::ReduceOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t rank = operand.shape.size();
  llvm::ArrayRef<int64_t> dims = op.getDimensions();
  if (llvm::Error error = checkDims(dims, rank, "reduced"))
    return std::move(error);
  auto combiner = Combiner::get(op.getKind(), operand.elementType);
  if (!combiner)
    return combiner.takeError();
  llvm::SmallVector<int64_t> shape, kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d)) {
      shape.push_back(operand.shape[d]);
      kept.push_back(d);
    }
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), shape);
  if (!result)
    return result.takeError();
  std::vector<Scalar> accumulators(result->getNumElements(), combiner->identity());
  if (operand.getNumElements() != 0) {
    llvm::SmallVector<int64_t> index(rank, 0), keptIndex(kept.size(), 0);
    llvm::SmallVector<int64_t> resultStrides = getStrides(shape);
    int64_t position = 0;
    do {
      for (auto [k, d] : llvm::enumerate(kept))
        keptIndex[k] = index[d];
      Scalar &acc = accumulators[linearize(keptIndex, resultStrides)];
      acc = combiner->combine(acc, combiner->load(operand, position++));
    } while (advanceIndex(index, operand.shape));
  }
  for (auto [i, acc] : llvm::enumerate(accumulators))
    combiner->store(*result, i, acc);
  return Results{std::move(*result)};
}

/// True when `v` should replace `best` as the arg_reduce answer (NaN is the largest number
/// for argmax and the smallest for argmin; NaNs tie with each other).
bool beats(bool isMax, bool selectLast, double v, double best) {
  bool vNaN = std::isnan(v), bestNaN = std::isnan(best);
  if (vNaN || bestNaN)
    return vNaN && (!bestNaN || selectLast);
  if (v == best)
    return selectLast;
  return isMax ? v > best : v < best;
}

bool beatsInt(bool isMax, bool selectLast, bool isUnsigned, unsigned width, int64_t v,
              int64_t best) {
  if (v == best)
    return selectLast;
  bool less = isUnsigned ? truncateToWidth(v, width) < truncateToWidth(best, width) : v < best;
  return isMax ? !less : less;
}

llvm::Expected<Results> argReduce(prim::ArgReduceOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t rank = operand.shape.size(), dim = static_cast<int64_t>(op.getDimension());
  if (dim < 0 || dim >= rank)
    return makeError("dimension " + llvm::Twine(dim) + " is out of range for rank " +
                     llvm::Twine(rank));
  llvm::SmallVector<int64_t> shape(operand.shape);
  shape.erase(shape.begin() + dim);
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), shape);
  if (!result)
    return result.takeError();
  int64_t extent = operand.shape[dim], inner = 1;
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= operand.shape[d];
  if (extent == 0 && result->getNumElements() != 0)
    return makeError("cannot take the arg of an empty dim " + llvm::Twine(dim));
  bool isMax = op.getKind() == prim::ArgReduceKind::Argmax;
  bool isFloat = isa<FloatType>(operand.elementType);
  bool isUnsigned = isUnsignedElement(operand.elementType);
  unsigned width = getIntegerWidth(operand.elementType);
  for (int64_t r = 0, e = result->getNumElements(); r < e; ++r) {
    // Result position r = outer * inner + in reads operand[(outer * extent + k) * inner + in].
    int64_t base = (r / inner) * extent * inner + r % inner;
    int64_t best = 0;
    for (int64_t k = 1; k < extent; ++k) {
      int64_t at = base + k * inner, bestAt = base + best * inner;
      bool better = isFloat ? beats(isMax, op.getSelectLastIndex(), operand.getDouble(at),
                                    operand.getDouble(bestAt))
                            : beatsInt(isMax, op.getSelectLastIndex(), isUnsigned, width,
                                       operand.getInt(at), operand.getInt(bestAt));
      if (better)
        best = k;
    }
    result->setInt(r, best);
  }
  return Results{std::move(*result)};
}

// out = floor((in + low + high - dilation * (window - 1) - 1) / stride) + 1
llvm::Expected<int64_t> windowExtent(int64_t d, int64_t in, int64_t window, int64_t stride,
                                     int64_t dilation, int64_t low, int64_t high) {
  if (window < 1 || stride < 1 || dilation < 1 || low < 0 || high < 0)
    return makeError("dim " + llvm::Twine(d) + ": window " + llvm::Twine(window) + ", stride " +
                     llvm::Twine(stride) + ", dilation " + llvm::Twine(dilation) + ", padding " +
                     llvm::Twine(low) + "/" + llvm::Twine(high) +
                     " (expected window, stride, dilation >= 1 and padding >= 0)");
  int64_t out = prim::windowOutputSize(in, window, stride, dilation, low, high);
  if (out < 0)
    return makeError("dim " + llvm::Twine(d) + ": the window (" + llvm::Twine(window) +
                     " dilated by " + llvm::Twine(dilation) + ") is larger than the padded " +
                     "input (" + llvm::Twine(in) + " + " + llvm::Twine(low) + " + " +
                     llvm::Twine(high) + ")");
  return out;
}

llvm::Expected<Results> reduceWindow(prim::ReduceWindowOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t rank = operand.shape.size();
  llvm::ArrayRef<int64_t> window = op.getWindowDimensions(), strides = op.getWindowStrides(),
                          dilations = op.getWindowDilations(), low = op.getPaddingLow(),
                          high = op.getPaddingHigh();
  if (llvm::Error error = checkListSizes({window, strides, dilations, low, high}, rank, "window"))
    return std::move(error);
  auto combiner = Combiner::get(op.getKind(), operand.elementType);
  if (!combiner)
    return combiner.takeError();
  llvm::SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    auto extent =
        windowExtent(d, operand.shape[d], window[d], strides[d], dilations[d], low[d], high[d]);
    if (!extent)
      return extent.takeError();
    shape.push_back(*extent);
  }
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), shape);
  if (!result)
    return result.takeError();
  if (result->getNumElements() == 0)
    return Results{std::move(*result)};
  llvm::SmallVector<int64_t> operandStrides = getStrides(operand.shape);
  llvm::SmallVector<int64_t> out(rank, 0), offset(rank, 0), at(rank, 0);
  int64_t position = 0;
  do {
    Scalar acc = combiner->identity();
    std::fill(offset.begin(), offset.end(), 0);
    do {
      bool inside = true;
      for (int64_t d = 0; d < rank; ++d) {
        at[d] = out[d] * strides[d] + offset[d] * dilations[d] - low[d];
        inside = inside && at[d] >= 0 && at[d] < operand.shape[d];
      }
      // Positions in the padding hold the combiner's identity.
      Scalar v =
          inside ? combiner->load(operand, linearize(at, operandStrides)) : combiner->identity();
      acc = combiner->combine(acc, v);
    } while (advanceIndex(offset, window));
    combiner->store(*result, position++, acc);
  } while (advanceIndex(out, shape));
  return Results{std::move(*result)};
}

// result[b..., i..., j...] = sum over k... of lhs[b, i, k] * rhs[b, j, k]
llvm::Expected<Results> dotGeneral(prim::DotGeneralOp op, const Environment &env) {
  const Tensor &lhs = env.get(op.getLhs()), &rhs = env.get(op.getRhs());
  llvm::ArrayRef<int64_t> lb = op.getLhsBatchingDimensions(), rb = op.getRhsBatchingDimensions(),
                          lc = op.getLhsContractingDimensions(),
                          rc = op.getRhsContractingDimensions();
  int64_t lhsRank = lhs.shape.size(), rhsRank = rhs.shape.size();
  if (lb.size() != rb.size() || lc.size() != rc.size())
    return makeError("lhs and rhs list different numbers of batching or contracting dims");
  llvm::SmallVector<int64_t> lhsPaired(lb), rhsPaired(rb);
  llvm::append_range(lhsPaired, lc);
  llvm::append_range(rhsPaired, rc);
  if (llvm::Error error = checkDims(lhsPaired, lhsRank, "lhs"))
    return std::move(error);
  if (llvm::Error error = checkDims(rhsPaired, rhsRank, "rhs"))
    return std::move(error);
  for (auto [l, r] : llvm::zip(lhsPaired, rhsPaired))
    if (lhs.shape[l] != rhs.shape[r])
      return makeError("lhs dim " + llvm::Twine(l) + " (" + llvm::Twine(lhs.shape[l]) +
                       ") and rhs dim " + llvm::Twine(r) + " (" + llvm::Twine(rhs.shape[r]) +
                       ") must agree");
  llvm::SmallVector<int64_t> lhsFree, rhsFree, shape, contracting;
  for (int64_t d = 0; d < lhsRank; ++d)
    if (!llvm::is_contained(lhsPaired, d))
      lhsFree.push_back(d);
  for (int64_t d = 0; d < rhsRank; ++d)
    if (!llvm::is_contained(rhsPaired, d))
      rhsFree.push_back(d);
  for (int64_t d : lb)
    shape.push_back(lhs.shape[d]);
  for (int64_t d : lhsFree)
    shape.push_back(lhs.shape[d]);
  for (int64_t d : rhsFree)
    shape.push_back(rhs.shape[d]);
  for (int64_t d : lc)
    contracting.push_back(lhs.shape[d]);

  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), shape);
  if (!result)
    return result.takeError();
  if (result->getNumElements() == 0)
    return Results{std::move(*result)};
  bool isFloat = isa<FloatType>(lhs.elementType);
  bool hasTerms = llvm::all_of(contracting, [](int64_t e) { return e > 0; });
  llvm::SmallVector<int64_t> lhsStrides = getStrides(lhs.shape), rhsStrides = getStrides(rhs.shape);
  llvm::SmallVector<int64_t> index(shape.size(), 0), k(contracting.size(), 0);
  llvm::SmallVector<int64_t> lhsIndex(lhsRank, 0), rhsIndex(rhsRank, 0);
  int64_t position = 0, numBatch = lb.size(), numLhsFree = lhsFree.size();
  do {
    // Place the result index's batch and free coordinates in both operands.
    for (int64_t b = 0; b < numBatch; ++b)
      lhsIndex[lb[b]] = rhsIndex[rb[b]] = index[b];
    for (auto [n, d] : llvm::enumerate(lhsFree))
      lhsIndex[d] = index[numBatch + n];
    for (auto [n, d] : llvm::enumerate(rhsFree))
      rhsIndex[d] = index[numBatch + numLhsFree + n];
    DotAccumulator acc{isFloat};
    std::fill(k.begin(), k.end(), 0);
    if (hasTerms) {
      do {
        for (auto [n, value] : llvm::enumerate(k))
          lhsIndex[lc[n]] = rhsIndex[rc[n]] = value;
        acc.add(lhs, linearize(lhsIndex, lhsStrides), rhs, linearize(rhsIndex, rhsStrides));
      } while (advanceIndex(k, contracting));
    }
    acc.store(*result, position++);
  } while (advanceIndex(index, shape));
  return Results{std::move(*result)};
}

// out[n, o, x...] = sum over c < C/G and window k... of
//   input[n, g * C/G + c, x * stride + k * dilation - low] * filter[o, c, k...], g = o / (O/G)
llvm::Expected<Results> convolution(prim::ConvolutionOp op, const Environment &env) {
  const Tensor &input = env.get(op.getInput()), &filter = env.get(op.getFilter());
  int64_t rank = input.shape.size(), spatial = rank - 2;
  if (rank < 3 || static_cast<int64_t>(filter.shape.size()) != rank)
    return makeError("expected input and filter of one rank >= 3, got " + llvm::Twine(rank) +
                     " and " + llvm::Twine(filter.shape.size()));
  llvm::ArrayRef<int64_t> strides = op.getStrides(), low = op.getPaddingLow(),
                          high = op.getPaddingHigh(), dilations = op.getDilations();
  if (llvm::Error error = checkListSizes({strides, low, high, dilations}, spatial, "spatial"))
    return std::move(error);
  int64_t groups = static_cast<int64_t>(op.getFeatureGroupCount());
  int64_t batch = input.shape[0], channels = input.shape[1];
  int64_t outChannels = filter.shape[0], groupChannels = filter.shape[1];
  if (groups < 1 || channels != groupChannels * groups || outChannels % groups != 0)
    return makeError("input has " + llvm::Twine(channels) + " channels and the filter " +
                     llvm::Twine(outChannels) + "x" + llvm::Twine(groupChannels) +
                     ", which does not fit " + llvm::Twine(groups) + " groups");
  llvm::SmallVector<int64_t> shape = {batch, outChannels}, window;
  for (int64_t d = 0; d < spatial; ++d) {
    window.push_back(filter.shape[d + 2]);
    auto extent = windowExtent(d, input.shape[d + 2], filter.shape[d + 2], strides[d], dilations[d],
                               low[d], high[d]);
    if (!extent)
      return extent.takeError();
    shape.push_back(*extent);
  }
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), shape);
  if (!result)
    return result.takeError();
  if (result->getNumElements() == 0)
    return Results{std::move(*result)};
  bool isFloat = isa<FloatType>(input.elementType);
  bool hasTerms = groupChannels > 0 && llvm::all_of(window, [](int64_t e) { return e > 0; });
  int64_t outPerGroup = outChannels / groups;
  llvm::SmallVector<int64_t> inputStrides = getStrides(input.shape),
                             filterStrides = getStrides(filter.shape);
  llvm::SmallVector<int64_t> out(rank, 0), k(spatial, 0), inputIndex(rank, 0), filterIndex(rank, 0);
  int64_t position = 0;
  do {
    int64_t group = out[1] / outPerGroup;
    DotAccumulator acc{isFloat};
    for (int64_t c = 0; hasTerms && c < groupChannels; ++c) {
      inputIndex[0] = out[0];
      inputIndex[1] = group * groupChannels + c;
      filterIndex[0] = out[1];
      filterIndex[1] = c;
      std::fill(k.begin(), k.end(), 0);
      do {
        bool inside = true; // zero padding contributes nothing
        for (int64_t d = 0; d < spatial; ++d) {
          int64_t at = out[d + 2] * strides[d] + k[d] * dilations[d] - low[d];
          inside = inside && at >= 0 && at < input.shape[d + 2];
          inputIndex[d + 2] = at;
          filterIndex[d + 2] = k[d];
        }
        if (inside)
          acc.add(input, linearize(inputIndex, inputStrides), filter,
                  linearize(filterIndex, filterStrides));
      } while (advanceIndex(k, window));
    }
    acc.store(*result, position++);
  } while (advanceIndex(out, shape));
  return Results{std::move(*result)};
}

// Running combination along one dim; `exclusive` shifts by one, `reverse` runs backwards.
llvm::Expected<Results> cumulative(prim::CumulativeOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t rank = operand.shape.size(), dim = static_cast<int64_t>(op.getDimension());
  if (dim < 0 || dim >= rank)
    return makeError("dimension " + llvm::Twine(dim) + " is out of range for rank " +
                     llvm::Twine(rank));
  prim::ReduceKind kind = op.getKind();
  if (kind != prim::ReduceKind::Sum && kind != prim::ReduceKind::Prod &&
      kind != prim::ReduceKind::Max && kind != prim::ReduceKind::Min)
    return makeError("kind must be sum, prod, max or min");
  auto combiner = Combiner::get(kind, operand.elementType);
  if (!combiner)
    return combiner.takeError();
  llvm::Expected<Tensor> result = makeTensor(getResultElementType(op), operand.shape);
  if (!result)
    return result.takeError();
  int64_t extent = operand.shape[dim], inner = 1, outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= operand.shape[d];
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= operand.shape[d];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      Scalar acc = combiner->identity();
      for (int64_t step = 0; step < extent; ++step) {
        int64_t k = op.getReverse() ? extent - 1 - step : step;
        int64_t at = (o * extent + k) * inner + in;
        Scalar next = combiner->combine(acc, combiner->load(operand, at));
        combiner->store(*result, at, op.getExclusive() ? acc : next);
        acc = next;
      }
    }
  }
  return Results{std::move(*result)};
}
// A stable sort along one dim; NaN larger than every number.
llvm::Expected<Results> sort(prim::SortOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t rank = operand.shape.size(), dim = static_cast<int64_t>(op.getDimension());
  if (dim < 0 || dim >= rank)
    return makeError("dimension " + llvm::Twine(dim) + " is out of range for rank " +
                     llvm::Twine(rank));
  bool isFloat = isa<FloatType>(operand.elementType), descending = op.getDescending();
  bool isUnsigned = isUnsignedElement(operand.elementType);
  // less(a, b): a sorts before b in ascending order.
  auto less = [&](int64_t a, int64_t b) {
    if (isFloat) {
      double x = operand.getDouble(a), y = operand.getDouble(b);
      if (std::isnan(x) || std::isnan(y))
        return !std::isnan(x) && std::isnan(y);
      return x < y;
    }
    int64_t x = operand.getInt(a), y = operand.getInt(b);
    return isUnsigned ? static_cast<uint64_t>(x) < static_cast<uint64_t>(y) : x < y;
  };
  llvm::Expected<Tensor> values = makeTensor(operand.elementType, operand.shape);
  llvm::Expected<Tensor> indices =
      makeTensor(IntegerType::get(op.getContext(), 64), operand.shape);
  if (!values)
    return values.takeError();
  if (!indices)
    return indices.takeError();
  int64_t extent = operand.shape[dim], inner = 1, outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= operand.shape[d];
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= operand.shape[d];
  std::vector<int64_t> order(extent);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      auto at = [&](int64_t k) { return (o * extent + k) * inner + in; };
      for (int64_t k = 0; k < extent; ++k)
        order[k] = k;
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return descending ? less(at(b), at(a)) : less(at(a), at(b));
      });
      for (int64_t r = 0; r < extent; ++r) {
        copyElement(*values, at(r), operand, at(order[r]));
        indices->setInt(at(r), order[r]);
      }
    }
  Results results;
  results.push_back(std::move(*values));
  results.push_back(std::move(*indices));
  return results;
}

// result = operand; for each index row b (row-major): result[t, ...] = updates[b, ...] or
// combine(result[t, ...], updates[b, ...]), t = indices[b, :]; rows out of range are skipped.
llvm::Expected<Results> scatter(prim::ScatterOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  const Tensor &indices = env.get(op.getIndices());
  const Tensor &updates = env.get(op.getUpdates());
  int64_t rank = operand.shape.size();
  if (indices.shape.empty())
    return makeError("indices must have rank >= 1");
  int64_t k = indices.shape.back();
  if (k < 1 || k > rank)
    return makeError("the index tuple length " + llvm::Twine(k) + " is outside [1, " +
                     llvm::Twine(rank) + "]");
  int64_t rows = indices.getNumElements() / k, slice = 1;
  for (int64_t d = k; d < rank; ++d)
    slice *= operand.shape[d];
  if (updates.getNumElements() != rows * slice)
    return makeError("updates has " + llvm::Twine(updates.getNumElements()) +
                     " elements, expected " + llvm::Twine(rows * slice));
  std::optional<Combiner> combiner;
  if (auto kind = op.getCombine()) {
    auto c = Combiner::get(*kind, operand.elementType);
    if (!c)
      return c.takeError();
    combiner = *c;
  }
  Tensor result = operand;
  for (int64_t row = 0; row < rows; ++row) {
    int64_t base = 0;
    bool inside = true;
    for (int64_t d = 0; d < k; ++d) {
      int64_t index = indices.getInt(row * k + d);
      inside &= index >= 0 && index < operand.shape[d];
      base = base * operand.shape[d] + index;
    }
    if (!inside)
      continue;
    for (int64_t e = 0; e < slice; ++e) {
      int64_t to = base * slice + e, from = row * slice + e;
      if (combiner)
        combiner->store(result, to,
                        combiner->combine(combiner->load(result, to), combiner->load(updates, from)));
      else
        copyElement(result, to, updates, from);
    }
  }
  return Results{std::move(result)};
}
} // namespace

FamilyResult tcc::eval::detail::evaluateStructuredOp(Operation *op, const Environment &env) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case([&](prim::ReduceOp typed) { return reduce(typed, env); })
      .Case([&](prim::ArgReduceOp typed) { return argReduce(typed, env); })
      .Case([&](prim::ReduceWindowOp typed) { return reduceWindow(typed, env); })
      .Case([&](prim::DotGeneralOp typed) { return dotGeneral(typed, env); })
      .Case([&](prim::ConvolutionOp typed) { return convolution(typed, env); })
      .Case([&](prim::CumulativeOp typed) { return cumulative(typed, env); })
      .Case([&](prim::ScatterOp typed) { return scatter(typed, env); })
      .Case([&](prim::SortOp typed) { return sort(typed, env); })
      .Default(std::nullopt);
}
