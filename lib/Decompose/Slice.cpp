//===- Slice.cpp - the rule for Slice -------------------------------------------------===//
//
// Slice is a prim.slice (a prim.reverse first for negative steps) whose offsets and sizes
// are ONNX's clamping as index arithmetic, folded where starts and ends are constants. With
// axes or steps read at run time, each dim's start, end and step are picked at run time
// (sliceRuntime), and the extents become symbols computed before the run.
//
//===----------------------------------------------------------------------------------===//
#include "RuleFamilies.h"
#include "RuleSupport.h"
#include "RuntimeAxes.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using arith::CmpIPredicate;

namespace {

/// The offset, size and stride of one ONNX slice of a dim of extent `dim`, with ONNX's
/// clamping: a positive step clamps start and end to [0, dim]; a negative step clamps the
/// start to [0, dim - 1] and the end to [-1, dim - 1] and walks backwards.
struct SliceRange {
  OpFoldResult start, size;
  int64_t step;
};

SliceRange clampSlice(NodeRewriter &n, OpFoldResult start, OpFoldResult end, int64_t step,
                      OpFoldResult dim) {
  OpBuilder &b = n.getBuilder();
  auto zero = b.getIndexAttr(0);
  auto wrap = [&](OpFoldResult v) {
    return selectIndex(n, CmpIPredicate::slt, v, zero, addIndex(n, v, dim), v);
  };
  auto clamp = [&](OpFoldResult v, OpFoldResult lo, OpFoldResult hi) {
    return minIndex(n, maxIndex(n, v, lo), hi);
  };
  OpFoldResult s = wrap(start), e = wrap(end);
  if (step > 0) {
    s = clamp(s, zero, dim);
    e = clamp(e, zero, dim);
    OpFoldResult size = maxIndex(n, ceilDivIndex(n, subIndex(n, e, s), b.getIndexAttr(step)), zero);
    return {s, size, step};
  }
  OpFoldResult last = subIndex(n, dim, b.getIndexAttr(1));
  s = clamp(s, zero, last);
  e = clamp(e, b.getIndexAttr(-1), last);
  OpFoldResult size = maxIndex(n, ceilDivIndex(n, subIndex(n, s, e), b.getIndexAttr(-step)), zero);
  return {s, size, step};
}

/// Slices `x` along `axes`; negative steps read backwards (reverse, then slice forwards).
Value buildSlice(NodeRewriter &n, Value x, ArrayRef<int64_t> axes, ArrayRef<OpFoldResult> starts,
                 ArrayRef<OpFoldResult> ends, ArrayRef<int64_t> steps) {
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<OpFoldResult> offsets(rank, n.getBuilder().getIndexAttr(0)), sizes(dims);
  SmallVector<int64_t> strides(rank, 1), reversed;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = axes[i];
    SliceRange r = clampSlice(n, starts[i], ends[i], steps[i], dims[axis]);
    sizes[axis] = r.size;
    strides[axis] = std::abs(r.step);
    if (r.step > 0) {
      offsets[axis] = r.start;
    } else {
      // Element start - k|step| of x is element (dim - 1 - start) + k|step| of reverse(x).
      reversed.push_back(axis);
      offsets[axis] = subIndex(n, subIndex(n, dims[axis], n.getBuilder().getIndexAttr(1)), r.start);
    }
  }
  if (!reversed.empty()) {
    llvm::sort(reversed);
    x = prim::ReverseOp::create(n.getBuilder(), n.getLoc(), x, reversed);
  }
  // A zero-size slice reads nothing: give it offset 0 so it is in bounds.
  for (int64_t d = 0; d < rank; ++d)
    offsets[d] = selectIndex(n, CmpIPredicate::eq, sizes[d], n.getBuilder().getIndexAttr(0),
                             n.getBuilder().getIndexAttr(0), offsets[d]);
  return n.getBuilder().createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes, strides);
}

/// Slice whose axes or steps are read at run time. Per dim d: the start, end and step of
/// the entry whose axis is d (else the whole dim), clamped as ONNX does for the step's sign
///   step > 0: s = clamp(wrap(start), 0, D), e = clamp(wrap(end), 0, D),
///             size = max(ceil((e - s) / step), 0)
///   step < 0: s = clamp(wrap(start), 0, D - 1), e = clamp(wrap(end), -1, D - 1),
///             size = max(ceil((s - e) / -step), 0)
/// (wrap(v) = v < 0 ? v + D : v), and a gather of s + k step for k in [0, size) along d.
LogicalResult sliceRuntime(NodeRewriter &n, Value x, ArrayRef<OpFoldResult> starts,
                           ArrayRef<OpFoldResult> ends) {
  int64_t rank = rankOf(x);
  size_t count = starts.size();
  if (ends.size() != count)
    return n.emitError() << "starts has " << count << " entries but ends has " << ends.size();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  auto given = runtimeAxesOrFirst(n, 3, rank, static_cast<int64_t>(count));
  if (!given)
    return failure();
  SmallVector<Value> axes = *given;
  SmallVector<OpFoldResult> steps(count, b.getIndexAttr(1));
  if (n.hasInput(4)) {
    auto given = getShapeElements(n, n.getOptionalInput(4));
    if (!given)
      return n.emitError() << "input 4 (steps) must be a 1-d integer tensor of static length";
    steps = *given;
  }
  if (axes.size() != count || steps.size() != count)
    return n.emitError() << "starts, ends, axes and steps must have one length, got " << count
                         << ", " << ends.size() << ", " << axes.size() << ", " << steps.size();
  Value nonZero;
  for (OpFoldResult step : steps) {
    Value ok = b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::ne, toIndex(n, step),
                                             arith::ConstantIndexOp::create(b, loc, 0));
    nonZero = nonZero ? b.createOrFold<arith::AndIOp>(loc, nonZero, ok) : ok;
  }
  if (nonZero)
    checkTrue(n, nonZero, "input 4 (steps): a step is 0");
  auto zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  Type i64 = b.getI64Type();
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult dim = getDims(n, x)[d];
    // The entry for d, if any (axes are distinct); a dim no axis can name keeps its extent.
    OpFoldResult start = zero, end = dim, step = one;
    Value dConstant = arith::ConstantIndexOp::create(b, loc, d);
    bool possible = false;
    for (size_t i = 0; i < count; ++i) {
      Value here = b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::eq, axes[i], dConstant);
      if (matchPattern(here, m_Zero()))
        continue;
      possible = true;
      start = b.createOrFold<arith::SelectOp>(loc, here, toIndex(n, starts[i]), toIndex(n, start));
      end = b.createOrFold<arith::SelectOp>(loc, here, toIndex(n, ends[i]), toIndex(n, end));
      step = b.createOrFold<arith::SelectOp>(loc, here, toIndex(n, steps[i]), toIndex(n, step));
    }
    if (!possible)
      continue;
    // Starts and ends may be any int64 (INT64_MAX and INT64_MIN mean "to the end"): wrap
    // only negative values, then clamp; nothing below overflows.
    auto wrap = [&](OpFoldResult v) {
      return selectIndex(n, CmpIPredicate::slt, v, zero, addIndex(n, v, dim), v);
    };
    auto clamp = [&](OpFoldResult v, OpFoldResult lo, OpFoldResult hi) {
      return minIndex(n, maxIndex(n, v, lo), hi);
    };
    OpFoldResult last = subIndex(n, dim, one);
    OpFoldResult forwardStart = clamp(wrap(start), zero, dim),
                 forwardEnd = clamp(wrap(end), zero, dim);
    OpFoldResult backwardStart = clamp(wrap(start), zero, last),
                 backwardEnd = clamp(wrap(end), b.getIndexAttr(-1), last);
    // |step| >= 1 here (a 0 step fails the check; the size then does not matter).
    OpFoldResult magnitude = maxIndex(
        n, selectIndex(n, CmpIPredicate::slt, step, zero, subIndex(n, zero, step), step), one);
    OpFoldResult forwardSize =
        maxIndex(n, ceilDivIndex(n, subIndex(n, forwardEnd, forwardStart), magnitude), zero);
    OpFoldResult backwardSize =
        maxIndex(n, ceilDivIndex(n, subIndex(n, backwardStart, backwardEnd), magnitude), zero);
    OpFoldResult first =
        selectIndex(n, CmpIPredicate::sgt, step, zero, forwardStart, backwardStart);
    OpFoldResult size = selectIndex(n, CmpIPredicate::sgt, step, zero, forwardSize, backwardSize);
    SmallVector<OpFoldResult> dims = {size};
    Value k = prim::IotaOp::create(b, loc, getTensorType(dims, i64), getDynamicExtents(n, dims), 0);
    auto splat = [&](OpFoldResult v) { return fill(n, makeShapeTensor(n, {v}, i64, true), dims); };
    Value indices =
        prim::AddOp::create(b, loc, prim::MulOp::create(b, loc, k, splat(step)), splat(first));
    x = gatherInRange(n, x, indices, d, "slice index", "the extent of the sliced dim");
  }
  return n.setResults(x);
}

/// Slice: opset 1-9 with starts/ends/axes attributes, 10+ with inputs (steps from 10).
template <bool Inputs> LogicalResult slice(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> starts, ends;
  SmallVector<int64_t> axes, steps;
  OpBuilder &b = n.getBuilder();
  if (Inputs && (isRuntimeInput(n, 3) || isRuntimeInput(n, 4))) {
    auto s = getShapeInput(n, 1), e = getShapeInput(n, 2);
    if (!s || !e)
      return failure();
    return sliceRuntime(n, x, *s, *e);
  }
  if (Inputs) {
    auto s = getShapeInput(n, 1), e = getShapeInput(n, 2);
    if (!s || !e)
      return failure();
    starts = *s;
    ends = *e;
    if (n.hasInput(3)) {
      auto a = getConstantInts(n.getOptionalInput(3));
      if (!a)
        return n.emitError() << "input 3 (axes) must be a constant";
      axes = *a;
    }
    if (n.hasInput(4)) {
      auto st = getConstantInts(n.getOptionalInput(4));
      if (!st)
        return n.emitError() << "input 4 (steps) must be a constant";
      steps = *st;
    }
  } else {
    for (int64_t v : n.getInts("starts").value_or(SmallVector<int64_t>()))
      starts.push_back(b.getIndexAttr(v));
    for (int64_t v : n.getInts("ends").value_or(SmallVector<int64_t>()))
      ends.push_back(b.getIndexAttr(v));
    axes = n.getInts("axes").value_or(SmallVector<int64_t>());
  }
  if (starts.size() != ends.size())
    return n.emitError() << "starts has " << starts.size() << " entries but ends has "
                         << ends.size();
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size())
    return n.emitError() << "starts, ends, axes and steps must have one length, got "
                         << starts.size() << ", " << ends.size() << ", " << axes.size() << ", "
                         << steps.size();
  for (auto [i, a] : llvm::enumerate(axes)) {
    auto axis = normalizeAxis(n, a, rank);
    if (!axis)
      return failure();
    a = *axis;
    if (steps[i] == 0)
      return n.emitError() << "step " << i << " is 0";
    if (llvm::count(axes, a) > 1)
      return n.emitError() << "axis " << a << " is sliced twice";
  }
  // Huge ONNX sentinels (INT64_MAX) clamp; keep them from overflowing index arithmetic.
  auto tame = [&](OpFoldResult v) -> OpFoldResult {
    auto c = getConstantIntValue(v);
    if (!c)
      return v;
    constexpr int64_t kLimit = int64_t(1) << 62;
    return b.getIndexAttr(std::clamp<int64_t>(*c, -kLimit, kLimit));
  };
  for (auto &v : starts)
    v = tame(v);
  for (auto &v : ends)
    v = tame(v);
  // A slice of a shape tensor with constant bounds picks index values (shape arithmetic).
  if (rank == 1 && isShapeTensor(x)) {
    auto s0 = getConstantIntValue(starts[0]), e0 = getConstantIntValue(ends[0]);
    auto elements = s0 && e0 ? getShapeElements(n, x) : std::nullopt;
    if (elements) {
      int64_t count = static_cast<int64_t>(elements->size()), step = steps[0];
      auto clampTo = [&](int64_t v, int64_t lo, int64_t hi) {
        return std::clamp<int64_t>(v < 0 ? v + count : v, lo, hi);
      };
      SmallVector<OpFoldResult> picked;
      if (step > 0) {
        for (int64_t i = clampTo(*s0, 0, count), end = clampTo(*e0, 0, count); i < end; i += step)
          picked.push_back((*elements)[i]);
      } else {
        for (int64_t i = clampTo(*s0, 0, count - 1), end = clampTo(*e0, -1, count - 1); i > end;
             i += step)
          picked.push_back((*elements)[i]);
      }
      return n.setResults(makeShapeTensor(n, picked, elementOf(x)));
    }
  }
  return n.setResults(buildSlice(n, x, axes, starts, ends, steps));
}

} // namespace

void tcc::decompose::registerSliceRules(RuleRegistry &r) {
  r.add("", "Slice", 1, slice<false>);
  r.add("", "Slice", 10, slice<true>);
}
