//===- Reduction.cpp - rules for ONNX's Reduce* ops, ArgMax and ArgMin ---------------===//
//
// Every Reduce* op is `post(reduce(kind, pre(x), dims))` with the reduced dims dropped,
// then put back as 1s when keepdims. Axes come from an attribute in older opsets and from
// an input in newer ones (ReduceSum from 13, the others from 18); with an axes input,
// empty axes reduce every dim unless noop_with_empty_axes, which reduces none (the
// elementwise parts still apply, as in the ONNX reference: ReduceL1 gives |x|). An axes
// input known only at run time (static length) reduces each dim under a predicate.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {


/// The dims a reduction reduces: a sorted list known at compile time, or (`flags`, for a
/// run-time axes input) one index value per dim that is 1 where the dim is reduced.
struct ReducedDims {
  SmallVector<int64_t> dims;
  SmallVector<OpFoldResult> flags;
  int64_t count = 0; ///< how many dims a run-time axes input reduces
  bool isRuntime() const { return !flags.empty(); }
};

/// Per-dim flags for a run-time axes list `axes` (each in [-rank, rank)), with a check
/// that the axes are distinct and in range.
SmallVector<OpFoldResult> getRuntimeFlags(NodeRewriter &n, ArrayRef<OpFoldResult> axes,
                                          int64_t rank) {
  OpBuilder &b = n.getBuilder();
  auto index = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<OpFoldResult> flags;
  OpFoldResult total = index(0);
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult flag = index(0);
    for (OpFoldResult a : axes) {
      flag = selectIndex(n, arith::CmpIPredicate::eq, a, index(d), index(1), flag);
      flag = selectIndex(n, arith::CmpIPredicate::eq, a, index(d - rank), index(1), flag);
    }
    flags.push_back(flag);
    total = addIndex(n, total, flag);
  }
  checkEqual(n, total, index(static_cast<int64_t>(axes.size())),
             "the axes must be distinct and in [-rank, rank)");
  return flags;
}

/// The dims to reduce, or an error. Empty axes reduce every dim, or none with
/// noop_with_empty_axes.
std::optional<ReducedDims> getReducedDims(NodeRewriter &n, int64_t rank, bool axesInput) {
  SmallVector<int64_t> axes;
  if (!axesInput) {
    axes = n.getInts("axes").value_or(SmallVector<int64_t>());
  } else if (n.hasInput(1)) {
    Value input = n.getOptionalInput(1);
    if (!input)
      return std::nullopt;
    auto type = cast<RankedTensorType>(input.getType());
    bool empty = type.hasStaticShape() && type.getNumElements() == 0;
    if (auto values = getConstantInts(input)) {
      axes = *values;
    } else if (!empty) {
      // Axes computed at run time: reduce under per-dim predicates.
      auto elements = getShapeElements(n, input);
      if (!elements || type.getRank() != 1) {
        n.emitError() << "input 1 (axes) must be a 1-d integer tensor of static length, got "
                      << input.getType();
        return std::nullopt;
      }
      if (static_cast<int64_t>(elements->size()) > rank) {
        n.emitError() << "input 1 (axes) has " << elements->size()
                      << " entries, expected at most the rank " << rank;
        return std::nullopt;
      }
      ReducedDims result;
      result.flags = getRuntimeFlags(n, *elements, rank);
      result.count = static_cast<int64_t>(elements->size());
      return result;
    }
  }
  if (n.hasFailed())
    return std::nullopt;
  ReducedDims result;
  if (axes.empty()) {
    if (axesInput && n.getInt("noop_with_empty_axes", 0))
      return result;
    for (int64_t d = 0; d < rank; ++d)
      result.dims.push_back(d);
    return result;
  }
  for (int64_t a : axes) {
    auto axis = normalizeAxis(n, a, rank);
    if (!axis)
      return std::nullopt;
    if (llvm::is_contained(result.dims, *axis)) {
      n.emitError() << "axis " << a << " is listed twice";
      return std::nullopt;
    }
    result.dims.push_back(*axis);
  }
  llvm::sort(result.dims);
  return result;
}

/// `x`'s dims with the reduced ones dropped, or (keepDims) set to 1.
SmallVector<OpFoldResult> reducedShape(NodeRewriter &n, ArrayRef<OpFoldResult> dims,
                                       ArrayRef<int64_t> reduced, bool keepDims) {
  SmallVector<OpFoldResult> shape;
  for (auto [d, extent] : llvm::enumerate(dims)) {
    if (!llvm::is_contained(reduced, static_cast<int64_t>(d)))
      shape.push_back(extent);
    else if (keepDims)
      shape.push_back(n.getBuilder().getIndexAttr(1));
  }
  return shape;
}

/// One reduction node: its input's dims, the dims it reduces, and the ops it builds from.
/// With compile-time dims a reduced value has them dropped; with run-time axes it keeps
/// every dim, the reduced ones of extent 1 (so the shapes stay rank-stable).
struct Reducer {
  NodeRewriter &n;
  SmallVector<OpFoldResult> inputDims;
  ReducedDims reduced;

  OpBuilder &b() { return n.getBuilder(); }
  Location loc() { return n.getLoc(); }
  int64_t rank() { return static_cast<int64_t>(inputDims.size()); }

  /// The extent of dim d after a run-time reduction: 1 if reduced, else the input's.
  OpFoldResult runtimeExtent(int64_t d) {
    return selectIndex(n, arith::CmpIPredicate::eq, reduced.flags[d], b().getIndexAttr(1),
                       b().getIndexAttr(1), inputDims[d]);
  }

  /// Booleans reduce max as `or` and min as `and`.
  prim::ReduceKind kindFor(prim::ReduceKind kind, Value v) {
    if (elementOf(v).isInteger(1) && kind == prim::ReduceKind::Max)
      return prim::ReduceKind::Or;
    if (elementOf(v).isInteger(1) && kind == prim::ReduceKind::Min)
      return prim::ReduceKind::And;
    return kind;
  }

  /// reduce(kind, v, dims).
  Value reduce(prim::ReduceKind kind, Value v) {
    kind = kindFor(kind, v);
    if (!reduced.isRuntime())
      return b().createOrFold<prim::ReduceOp>(loc(), kind, v, reduced.dims);
    return sliceReduced(reduceInPlace(kind, padForRuntime(v, identity(kind, elementOf(v)))));
  }

  /// The 0-d identity of `kind` over `element` (what padding may add to a reduction).
  Value identity(prim::ReduceKind kind, Type element) {
    bool isFloat = isa<FloatType>(element);
    double inf = std::numeric_limits<double>::infinity();
    switch (kind) {
    case prim::ReduceKind::Prod:
    case prim::ReduceKind::And:
      return scalarConstant(n, element, 1.0);
    case prim::ReduceKind::Max:
    case prim::ReduceKind::Min: {
      bool max = kind == prim::ReduceKind::Max;
      if (isFloat)
        return scalarConstant(n, element, max ? -inf : inf);
      auto type = cast<IntegerType>(element);
      unsigned width = type.getWidth();
      APInt value = type.isUnsigned()
                        ? (max ? APInt::getMinValue(width) : APInt::getMaxValue(width))
                        : (max ? APInt::getSignedMinValue(width) : APInt::getSignedMaxValue(width));
      return arith::ConstantOp::create(
          b(), loc(), DenseElementsAttr::get(RankedTensorType::get({}, element), value));
    }
    default:
      return scalarConstant(n, element, 0.0);
    }
  }

  /// Run-time axes: `v` padded at the end of every dim that may be empty with one `padding`
  /// element (a reduction's identity), so that element 0 of each reduced dim exists.
  Value padForRuntime(Value v, Value padding) {
    SmallVector<int64_t> low(rank(), 0), high(rank(), 0);
    bool any = false;
    for (int64_t d = 0; d < rank(); ++d) {
      auto extent = getConstantIntValue(inputDims[d]);
      if (!extent || *extent < 1) {
        high[d] = 1;
        any = true;
      }
    }
    return any ? prim::PadOp::create(b(), loc(), v, padding, low, high).getResult() : v;
  }

  /// Run-time axes: `v` (padded) with each reduced dim reduced and broadcast back along it:
  /// v = flag ? broadcast(reduce(v, d)) : v, dim by dim.
  Value reduceInPlace(prim::ReduceKind kind, Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    SmallVector<OpFoldResult> dims = getDims(n, v);
    Value zero = scalarConstant(n, b().getI64Type(), 0);
    for (int64_t d = 0; d < rank(); ++d) {
      SmallVector<int64_t> mapping;
      for (int64_t e = 0; e < rank(); ++e)
        if (e != d)
          mapping.push_back(e);
      Value one = prim::ReduceOp::create(b(), loc(), kind, v, ArrayRef<int64_t>{d});
      Value back = prim::BroadcastInDimOp::create(b(), loc(), type, one,
                                                  getDynamicExtents(n, dims),
                                                  b().getDenseI64ArrayAttr(mapping));
      Value flag = makeShapeTensor(n, {reduced.flags[d]}, b().getI64Type(), /*scalar=*/true);
      Value pred = prim::CompareOp::create(b(), loc(), prim::CompareDirection::Ne, flag, zero);
      v = prim::SelectOp::create(b(), loc(), fill(n, pred, dims), back, v);
    }
    return v;
  }

  /// Run-time axes: element 0 of the reduced dims of an in-place reduction, all of the
  /// others (extent 1 where reduced).
  Value sliceReduced(Value v) {
    SmallVector<OpFoldResult> offsets(rank(), b().getIndexAttr(0)), sizes;
    for (int64_t d = 0; d < rank(); ++d)
      sizes.push_back(runtimeExtent(d));
    return b().createOrFold<prim::SliceOp>(loc(), v, offsets, sizes,
                                           SmallVector<int64_t>(rank(), 1));
  }

  /// A reduced value broadcast back to the input's shape.
  /// (Compile-time dims only: a run-time extent of 1 is not broadcast by broadcast_in_dim,
  /// see reduceInPlace.)
  Value expand(Value value) {
    SmallVector<int64_t> mapping;
    for (int64_t d = 0; d < rank(); ++d)
      if (!llvm::is_contained(reduced.dims, d))
        mapping.push_back(d);
    if (reduced.dims.empty())
      return value;
    return prim::BroadcastInDimOp::create(b(), loc(), getTensorType(inputDims, elementOf(value)),
                                          value, getDynamicExtents(n, inputDims),
                                          b().getDenseI64ArrayAttr(mapping));
  }

  /// The number of reduced elements (a product of extents, maybe dynamic) as a tensor of
  /// `element` shaped like `like`.
  Value count(Value like, Type element) {
    SmallVector<OpFoldResult> extents;
    for (int64_t d = 0; d < rank(); ++d) {
      if (reduced.isRuntime())
        extents.push_back(selectIndex(n, arith::CmpIPredicate::eq, reduced.flags[d],
                                      b().getIndexAttr(1), inputDims[d], b().getIndexAttr(1)));
      else if (llvm::is_contained(reduced.dims, d))
        extents.push_back(inputDims[d]);
    }
    OpFoldResult total = product(n, extents);
    Value scalar;
    if (auto c = getConstantIntValue(total))
      scalar = scalarConstant(n, element, static_cast<double>(*c));
    else
      scalar = convert(n, makeShapeTensor(n, {total}, b().getI64Type(), /*scalar=*/true), element);
    return fill(n, scalar, getDims(n, like));
  }

  /// The result shape: the reduced dims as 1 (keepDims) or dropped.
  SmallVector<OpFoldResult> resultShape(bool keepDims) {
    if (!reduced.isRuntime())
      return reducedShape(n, inputDims, reduced.dims, keepDims);
    SmallVector<OpFoldResult> shape;
    if (keepDims) {
      for (int64_t d = 0; d < rank(); ++d)
        shape.push_back(runtimeExtent(d));
      return shape;
    }
    // Output dim j is the j-th kept input dim: scan the dims, counting the kept ones.
    OpBuilder &bld = b();
    shape.assign(rank() - reduced.count, bld.getIndexAttr(0));
    OpFoldResult kept = bld.getIndexAttr(0);
    for (int64_t d = 0; d < rank(); ++d) {
      for (int64_t j = 0; j < static_cast<int64_t>(shape.size()); ++j) {
        OpFoldResult hit = selectIndex(n, arith::CmpIPredicate::eq, kept, bld.getIndexAttr(j),
                                       inputDims[d], shape[j]);
        shape[j] = selectIndex(n, arith::CmpIPredicate::eq, reduced.flags[d],
                               bld.getIndexAttr(0), hit, shape[j]);
      }
      kept = addIndex(n, kept, subIndex(n, bld.getIndexAttr(1), reduced.flags[d]));
    }
    return shape;
  }

  Value mul(Value a, Value v) { return prim::MulOp::create(b(), loc(), a, v); }
  Value add(Value a, Value v) { return prim::AddOp::create(b(), loc(), a, v); }
};

enum class Reduction { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

/// The reduced value of `x` (float math in f64 for integer inputs where it needs logs or
/// roots, truncated back as the ONNX reference does).
Value buildReduction(Reducer &r, Reduction kind, Value x) {
  OpBuilder &b = r.b();
  Location loc = r.loc();
  Type element = elementOf(x);
  switch (kind) {
  // sum(x)
  case Reduction::Sum:
    return r.reduce(prim::ReduceKind::Sum, x);
  // mean(x) = sum(x) / count (integers truncate toward zero)
  case Reduction::Mean: {
    Value sum = r.reduce(prim::ReduceKind::Sum, x);
    if (!r.reduced.isRuntime() && r.reduced.dims.empty())
      return sum;
    return prim::DivOp::create(b, loc, sum, r.count(sum, element));
  }
  // max(x), min(x), prod(x)
  case Reduction::Max:
    return r.reduce(prim::ReduceKind::Max, x);
  case Reduction::Min:
    return r.reduce(prim::ReduceKind::Min, x);
  case Reduction::Prod:
    return r.reduce(prim::ReduceKind::Prod, x);
  // l1(x) = sum(|x|)
  case Reduction::L1:
    return r.reduce(prim::ReduceKind::Sum, prim::AbsOp::create(b, loc, x));
  // sum_square(x) = sum(x * x)
  case Reduction::SumSquare:
    return r.reduce(prim::ReduceKind::Sum, r.mul(x, x));
  default:
    break;
  }
  Value xf = isa<FloatType>(element) ? x : convert(r.n, x, b.getF64Type());
  Value result;
  if (kind == Reduction::L2) {
    // l2(x) = sqrt(sum(x * x))
    result = prim::SqrtOp::create(b, loc, r.reduce(prim::ReduceKind::Sum, r.mul(xf, xf)));
  } else if (kind == Reduction::LogSum) {
    // log_sum(x) = log(sum(x))
    result = prim::LogOp::create(b, loc, r.reduce(prim::ReduceKind::Sum, xf));
  } else {
    // log_sum_exp(x) = log(sum(exp(x - m))) + m, m = max(x) where finite, else 0
    auto shiftOf = [&](Value max) -> Value {
      return prim::SelectOp::create(b, loc, prim::IsInfOp::create(b, loc, max),
                                    splatLike(r.n, max, 0.0), max);
    };
    if (r.reduced.isRuntime()) {
      // Run-time axes: m stays at x's (padded) shape, as broadcast_in_dim may not turn a
      // run-time extent of 1 into a larger one; -inf padding adds nothing to either sum.
      Value padded = r.padForRuntime(xf, r.identity(prim::ReduceKind::Max, elementOf(xf)));
      Value shift = shiftOf(r.reduceInPlace(prim::ReduceKind::Max, padded));
      Value e = prim::ExpOp::create(b, loc, prim::SubOp::create(b, loc, padded, shift));
      Value sum = r.reduceInPlace(prim::ReduceKind::Sum, e);
      result = r.add(prim::LogOp::create(b, loc, r.sliceReduced(sum)), r.sliceReduced(shift));
    } else {
      Value shift = shiftOf(r.reduce(prim::ReduceKind::Max, xf));
      Value e = prim::ExpOp::create(b, loc, prim::SubOp::create(b, loc, xf, r.expand(shift)));
      result = r.add(prim::LogOp::create(b, loc, r.reduce(prim::ReduceKind::Sum, e)), shift);
    }
  }
  return convert(r.n, result, element);
}

/// Reduce<Kind> with axes from the attribute (AxesInput false) or input 1.
template <Reduction Kind, bool AxesInput>
LogicalResult reduceRule(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  auto dims = getReducedDims(n, rank, AxesInput);
  if (!dims)
    return failure();
  bool keepDims = n.getInt("keepdims", 1) != 0;
  Reducer r{n, getDims(n, x), *dims};
  Value result = buildReduction(r, Kind, x);
  // A compile-time reduction drops the dims, a run-time one keeps them as 1.
  if (keepDims != r.reduced.isRuntime())
    result = reshape(n, result, r.resultShape(keepDims));
  return n.setResults(result);
}

/// ArgMax/ArgMin along `axis`; select_last_index exists from opset 12.
template <prim::ArgReduceKind Kind, bool SelectLastIndex>
LogicalResult argReduceRule(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  if (rank == 0)
    return n.emitError() << "expected an input of rank >= 1, got " << x.getType();
  auto axis = normalizeAxis(n, n.getInt("axis", 0), rank);
  if (!axis)
    return failure();
  bool keepDims = n.getInt("keepdims", 1) != 0;
  bool selectLast = SelectLastIndex && n.getInt("select_last_index", 0) != 0;
  SmallVector<OpFoldResult> inputDims = getDims(n, x);
  Value result = prim::ArgReduceOp::create(n.getBuilder(), n.getLoc(), Kind, x,
                                           static_cast<uint64_t>(*axis), selectLast);
  if (keepDims)
    result = reshape(n, result, reducedShape(n, inputDims, {*axis}, true));
  return n.setResults(result);
}

} // namespace

void tcc::decompose::registerReductionRules(RuleRegistry &r) {
  r.add("", "ReduceSum", 1, reduceRule<Reduction::Sum, false>);
  r.add("", "ReduceSum", 13, reduceRule<Reduction::Sum, true>);
  r.add("", "ReduceMean", 1, reduceRule<Reduction::Mean, false>);
  r.add("", "ReduceMean", 18, reduceRule<Reduction::Mean, true>);
  r.add("", "ReduceMax", 1, reduceRule<Reduction::Max, false>);
  r.add("", "ReduceMax", 18, reduceRule<Reduction::Max, true>);
  r.add("", "ReduceMin", 1, reduceRule<Reduction::Min, false>);
  r.add("", "ReduceMin", 18, reduceRule<Reduction::Min, true>);
  r.add("", "ReduceProd", 1, reduceRule<Reduction::Prod, false>);
  r.add("", "ReduceProd", 18, reduceRule<Reduction::Prod, true>);
  r.add("", "ReduceL1", 1, reduceRule<Reduction::L1, false>);
  r.add("", "ReduceL1", 18, reduceRule<Reduction::L1, true>);
  r.add("", "ReduceL2", 1, reduceRule<Reduction::L2, false>);
  r.add("", "ReduceL2", 18, reduceRule<Reduction::L2, true>);
  r.add("", "ReduceLogSum", 1, reduceRule<Reduction::LogSum, false>);
  r.add("", "ReduceLogSum", 18, reduceRule<Reduction::LogSum, true>);
  r.add("", "ReduceLogSumExp", 1, reduceRule<Reduction::LogSumExp, false>);
  r.add("", "ReduceLogSumExp", 18, reduceRule<Reduction::LogSumExp, true>);
  r.add("", "ReduceSumSquare", 1, reduceRule<Reduction::SumSquare, false>);
  r.add("", "ReduceSumSquare", 18, reduceRule<Reduction::SumSquare, true>);
  r.add("", "ArgMax", 1, argReduceRule<prim::ArgReduceKind::Argmax, false>);
  r.add("", "ArgMax", 12, argReduceRule<prim::ArgReduceKind::Argmax, true>);
  r.add("", "ArgMin", 1, argReduceRule<prim::ArgReduceKind::Argmin, false>);
  r.add("", "ArgMin", 12, argReduceRule<prim::ArgReduceKind::Argmin, true>);
}
