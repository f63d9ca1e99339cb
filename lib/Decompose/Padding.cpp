//===- Padding.cpp - rules for Pad ------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"
#include "RuntimeAxes.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// An i64 tensor of length `extent + lo + hi` holding, for each padded position, the index
/// of the input element it copies along one axis:
///   edge:    clamp(j, 0, D - 1)
///   reflect: t = j mod 2(D - 1) (non-negative); t < D ? t : 2(D - 1) - t   (D == 1: 0)
///   wrap:    j mod D (non-negative)
/// with j = position - lo.
///   constant (pads read at run time): clamp(j, -1, D) + 1, into x padded by one value
///            element on each side
Value sourceIndices(NodeRewriter &n, StringRef mode, OpFoldResult extent, OpFoldResult lo,
                    OpFoldResult hi) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Type i64 = b.getI64Type();
  SmallVector<OpFoldResult> dims = {addIndex(n, addIndex(n, extent, lo), hi)};
  RankedTensorType type = getTensorType(dims, i64);
  Value iota = prim::IotaOp::create(b, loc, type, getDynamicExtents(n, dims), 0);
  auto splat = [&](OpFoldResult v) { return fill(n, makeShapeTensor(n, {v}, i64, true), dims); };
  Value d = splat(extent);
  Value j = prim::SubOp::create(b, loc, iota, splat(lo));
  Value zero = splat(b.getIndexAttr(0)), one = splat(b.getIndexAttr(1));
  if (mode == "constant")
    return prim::AddOp::create(
        b, loc, prim::ClampOp::create(b, loc, splat(b.getIndexAttr(-1)), j, d), one);
  auto nonNegativeMod = [&](Value x, Value m) -> Value {
    Value r = prim::RemOp::create(b, loc, x, m);
    Value fixed = prim::RemOp::create(b, loc, prim::AddOp::create(b, loc, r, m), m);
    return fixed;
  };
  if (mode == "edge")
    return prim::ClampOp::create(b, loc, zero, j, prim::SubOp::create(b, loc, d, one));
  if (mode == "wrap")
    return nonNegativeMod(j, d);
  // reflect
  Value period = prim::MulOp::create(b, loc, splat(b.getIndexAttr(2)),
                                     prim::SubOp::create(b, loc, d, one));
  Value safePeriod = prim::MaxOp::create(b, loc, period, one);
  Value t = nonNegativeMod(j, safePeriod);
  Value inRange = prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, t, d);
  Value mirrored = prim::SubOp::create(b, loc, period, t);
  Value r = prim::SelectOp::create(b, loc, inRange, t, mirrored);
  Value single = prim::CompareOp::create(b, loc, prim::CompareDirection::Eq, d, one);
  return prim::SelectOp::create(b, loc, single, zero, r);
}

/// pad(x): per axis, negative pads crop, positive pads add `value` (constant mode) or copies
/// of edge/reflected/wrapped elements.
LogicalResult padWith(NodeRewriter &n, Value x, ArrayRef<int64_t> pads, ArrayRef<int64_t> axes,
                      StringRef mode, Value value) {
  int64_t rank = rankOf(x);
  if (pads.size() != 2 * axes.size())
    return n.emitError() << "pads has " << pads.size() << " entries, expected "
                         << 2 * axes.size() << " (begin and end for each padded axis)";
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
    return n.emitError() << "mode must be constant, reflect, edge or wrap, got \"" << mode << "\"";
  OpBuilder &b = n.getBuilder();
  SmallVector<int64_t> lo(rank, 0), hi(rank, 0);
  for (auto [i, a] : llvm::enumerate(axes)) {
    auto axis = normalizeAxis(n, a, rank);
    if (!axis)
      return failure();
    lo[*axis] = pads[i];
    hi[*axis] = pads[i + axes.size()];
  }
  // Crop first (negative pads).
  SmallVector<OpFoldResult> dims = getDims(n, x), offsets, sizes;
  bool crop = false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t cutLo = std::max<int64_t>(-lo[d], 0), cutHi = std::max<int64_t>(-hi[d], 0);
    if (std::optional<int64_t> extent = getConstantIntValue(dims[d]);
        extent && cutLo + cutHi > *extent)
      return n.emitError() << "negative pads crop " << cutLo + cutHi << " from dim " << d
                           << ", which has only " << *extent;
    crop |= cutLo || cutHi;
    offsets.push_back(b.getIndexAttr(cutLo));
    sizes.push_back(subIndex(n, dims[d], b.getIndexAttr(cutLo + cutHi)));
    lo[d] = std::max<int64_t>(lo[d], 0);
    hi[d] = std::max<int64_t>(hi[d], 0);
  }
  if (crop)
    x = b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, sizes, SmallVector<int64_t>(rank, 1));
  if (mode == "constant") {
    if (llvm::all_of(lo, [](int64_t v) { return v == 0; }) &&
        llvm::all_of(hi, [](int64_t v) { return v == 0; }))
      return n.setResults(x);
    return n.setResults(prim::PadOp::create(b, n.getLoc(), x, value, lo, hi).getResult());
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (lo[d] == 0 && hi[d] == 0)
      continue;
    OpFoldResult extent = getDims(n, x)[d];
    if (auto c = getConstantIntValue(extent); c && *c == 0)
      return n.emitError() << "cannot pad an empty dim " << d << " in " << mode << " mode";
    Value indices =
        sourceIndices(n, mode, extent, b.getIndexAttr(lo[d]), b.getIndexAttr(hi[d]));
    x = prim::GatherOp::create(b, n.getLoc(), x, indices, d);
  }
  return n.setResults(x);
}

} // namespace

Value tcc::decompose::padAtRuntime(NodeRewriter &n, Value x, ArrayRef<OpFoldResult> lo,
                                  ArrayRef<OpFoldResult> hi, StringRef mode, Value value) {
  int64_t rank = rankOf(x);
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (!lo[axis])
      continue;
    OpFoldResult extent = getDims(n, x)[axis];
    Value source = x;
    if (mode == "constant") {
      SmallVector<int64_t> one(rank, 0);
      one[axis] = 1;
      source = prim::PadOp::create(b, loc, x, value, one, one);
    } else {
      // Edge, reflect and wrap copy elements: an empty dim has none to copy.
      OpFoldResult padded = addIndex(n, addIndex(n, extent, lo[axis]), hi[axis]);
      Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                  toIndex(n, extent),
                                                  arith::ConstantIndexOp::create(b, loc, 0));
      Value nothing = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sle,
                                                    toIndex(n, padded),
                                                    arith::ConstantIndexOp::create(b, loc, 0));
      Value ok = b.createOrFold<arith::OrIOp>(
          loc,
          b.createOrFold<arith::XOrIOp>(loc, empty, arith::ConstantIntOp::create(b, loc, 1, 1)),
          nothing);
      checkTrue(n, ok, "cannot pad an empty dim " + llvm::Twine(axis) + " in " + mode + " mode");
    }
    x = prim::GatherOp::create(b, loc, source, sourceIndices(n, mode, extent, lo[axis], hi[axis]),
                               axis);
  }
  return x;
}

namespace {

/// pad(x) with pads (and perhaps axes) read at run time: per dim, the begin and end pads of
/// the entry whose axis it is (0 where none is), then padAtRuntime.
LogicalResult padRuntime(NodeRewriter &n, Value x, ArrayRef<OpFoldResult> pads, StringRef mode,
                         Value value) {
  int64_t rank = rankOf(x);
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap")
    return n.emitError() << "mode must be constant, reflect, edge or wrap, got \"" << mode << "\"";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  auto given = runtimeAxesOrFirst(n, 3, rank, rank);
  if (!given)
    return failure();
  SmallVector<Value> axes = *given;
  if (pads.size() != 2 * axes.size())
    return n.emitError() << "pads has " << pads.size() << " entries, expected "
                         << 2 * axes.size() << " (begin and end for each padded axis)";
  SmallVector<OpFoldResult> lo(rank), hi(rank);
  for (int64_t d = 0; d < rank; ++d) {
    Value dConstant = arith::ConstantIndexOp::create(b, loc, d);
    for (size_t i = 0; i < axes.size(); ++i) {
      Value here = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, axes[i], dConstant);
      if (matchPattern(here, m_Zero()))
        continue;
      OpFoldResult zero = b.getIndexAttr(0);
      lo[d] = b.createOrFold<arith::SelectOp>(loc, here, toIndex(n, pads[i]),
                                              toIndex(n, lo[d] ? lo[d] : zero));
      hi[d] = b.createOrFold<arith::SelectOp>(loc, here, toIndex(n, pads[i + axes.size()]),
                                              toIndex(n, hi[d] ? hi[d] : zero));
    }
  }
  return n.setResults(padAtRuntime(n, x, lo, hi, mode, value));
}

/// The 0-d padding value of x's element type (from a scalar input, or `fallback`).
Value padValue(NodeRewriter &n, Value x, Value given, double fallback) {
  Type element = elementOf(x);
  if (!given)
    return scalarConstant(n, element, fallback);
  given = convert(n, given, element);
  if (rankOf(given) == 0)
    return given;
  return reshape(n, given, {});
}

// pad (opset 2-10): pads, mode and value are attributes
LogicalResult pad2(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  SmallVector<int64_t> pads = n.getInts("pads").value_or(SmallVector<int64_t>());
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < rankOf(x); ++d)
    axes.push_back(d);
  return padWith(n, x, pads, axes, n.getString("mode", "constant"),
                 padValue(n, x, nullptr, n.getFloat("value", 0.0f)));
}

// pad (opset 11+): pads, constant_value and (18+) axes are inputs
LogicalResult pad11(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  auto pads = getConstantInts(n.getInput(1));
  bool runtimeAxes = n.hasInput(3) && n.getOptionalInput(3) &&
                     !getConstantInts(n.getOptionalInput(3));
  if (!pads || runtimeAxes) {
    // Pads or axes read at run time.
    auto elements = n.getInput(1) ? getShapeElements(n, n.getInput(1)) : std::nullopt;
    if (!elements)
      return n.emitError() << "input 1 (pads) must be a 1-d integer tensor of static length";
    return padRuntime(n, x, *elements, n.getString("mode", "constant"),
                      padValue(n, x, n.getOptionalInput(2), 0.0));
  }
  SmallVector<int64_t> axes;
  if (n.hasInput(3)) {
    auto given = getConstantInts(n.getOptionalInput(3));
    if (!given)
      return n.emitError() << "input 3 (axes) must be a constant";
    axes = *given;
  } else {
    for (int64_t d = 0; d < rankOf(x); ++d)
      axes.push_back(d);
  }
  return padWith(n, x, *pads, axes, n.getString("mode", "constant"),
                 padValue(n, x, n.getOptionalInput(2), 0.0));
}

} // namespace

void tcc::decompose::registerPaddingRules(RuleRegistry &r) {
  r.add("", "Pad", 2, pad2);
  r.add("", "Pad", 11, pad11);
}
