//===- Pooling.cpp - rules for ONNX's max, average and Lp pooling ---------------------===//
//
// Pooling is prim.reduce_window over the spatial dims (windows of 1 over N and C), which
// pads with the combiner's identity: -inf (or the smallest integer) for max, 0 for sums.
// ceil_mode becomes extra high padding; it never counts in an average's divisor. A window
// that would start in the right padding is dropped (out -= 1 when
// (out - 1) * stride >= in + pad_low), as ONNX's reference and PyTorch do.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"
#include "RuntimeAxes.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {


/// The pooling window of every spatial dim. The input is padded with `low` and
/// `high + extra` (extra: ceil_mode's padding); `outputs` is the extent ONNX wants where
/// that padding yields more windows (the surplus is sliced off).
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, low, high, extra;
  SmallVector<std::optional<int64_t>> outputs;
  int64_t effective(int64_t d) const { return (kernel[d] - 1) * dilations[d] + 1; }
};

/// Reads kernel_shape, strides, pads/auto_pad and, where the opset has them, dilations and
/// ceil_mode. SAME_UPPER/SAME_LOWER pad to out = ceil(in / stride):
/// total = max((out - 1) * stride + (k - 1) * dilation + 1 - in, 0).
std::optional<Window> getWindow(NodeRewriter &n, Value x, bool hasDilations, bool hasCeilMode) {
  int64_t rank = rankOf(x), spatial = rank - 2;
  if (rank < 3) {
    n.emitError() << "expected an input of rank >= 3 (N x C x D1 ...), got " << x.getType();
    return std::nullopt;
  }
  Window w;
  if (!n.hasAttr("kernel_shape")) {
    n.emitError() << "expected the attribute 'kernel_shape'";
    return std::nullopt;
  }
  auto kernel = getSpatialInts(n, "kernel_shape", spatial, 1, 1);
  auto strides = kernel ? getSpatialInts(n, "strides", spatial, 1, 1) : std::nullopt;
  if (!strides)
    return std::nullopt;
  w.kernel = *kernel;
  w.strides = *strides;
  w.dilations.assign(spatial, 1);
  if (hasDilations) {
    auto dilations = getSpatialInts(n, "dilations", spatial, 1, 1);
    if (!dilations)
      return std::nullopt;
    w.dilations = *dilations;
  }
  SmallVector<OpFoldResult> dims = getDims(n, x);
  auto inputExtent = [&](int64_t d) { return getConstantIntValue(dims[d + 2]); };
  w.low.assign(spatial, 0);
  w.high.assign(spatial, 0);
  w.extra.assign(spatial, 0);
  w.outputs.assign(spatial, std::nullopt);
  std::string autoPad = n.getString("auto_pad", "NOTSET");
  if (autoPad == "NOTSET" || autoPad.empty()) {
    auto pads = getSpatialInts(n, "pads", 2 * spatial, 0, 0);
    if (!pads)
      return std::nullopt;
    for (int64_t d = 0; d < spatial; ++d) {
      w.low[d] = (*pads)[d];
      w.high[d] = (*pads)[d + spatial];
    }
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int64_t d = 0; d < spatial; ++d) {
      int64_t stride = w.strides[d], total;
      auto in = inputExtent(d);
      if (stride == 1) {
        total = w.effective(d) - 1;
      } else if (in) {
        int64_t out = (*in + stride - 1) / stride;
        total = std::max<int64_t>((out - 1) * stride + w.effective(d) - *in, 0);
      } else {
        n.emitError() << "auto_pad " << autoPad << " with stride " << stride
                      << " needs a static input extent, spatial dim " << d
                      << " is dynamic (tcc's paddings are compile-time constants)";
        return std::nullopt;
      }
      int64_t smaller = total / 2;
      w.low[d] = autoPad == "SAME_UPPER" ? smaller : total - smaller;
      w.high[d] = total - w.low[d];
    }
  } else if (autoPad != "VALID") {
    n.emitError() << "attribute 'auto_pad' is \"" << autoPad
                  << "\", expected NOTSET, VALID, SAME_UPPER or SAME_LOWER";
    return std::nullopt;
  }
  bool ceilMode = hasCeilMode && n.getInt("ceil_mode", 0) != 0;
  for (int64_t d = 0; d < spatial; ++d) {
    auto in = inputExtent(d);
    if (!in) {
      if (ceilMode && w.strides[d] != 1) {
        n.emitError() << "ceil_mode with stride " << w.strides[d]
                      << " needs a static input extent, spatial dim " << d << " is dynamic";
        return std::nullopt;
      }
      continue;
    }
    int64_t padded = *in + w.low[d] + w.high[d], stride = w.strides[d];
    if (padded < w.effective(d)) {
      n.emitError() << "spatial dim " << d << ": the window (" << w.effective(d)
                    << " with dilation) is larger than the padded input (" << *in << " + "
                    << w.low[d] + w.high[d] << ")";
      return std::nullopt;
    }
    if (!ceilMode)
      continue;
    // ceil_mode: out = ceil((padded - eff) / stride) + 1, less a window starting in the
    // right padding; pad the high end exactly as far as the last window reaches.
    int64_t out = (padded - w.effective(d) + stride - 1) / stride + 1;
    if (out > 1 && (out - 1) * stride >= *in + w.low[d])
      --out;
    int64_t reach = std::max<int64_t>((out - 1) * stride + w.effective(d) - *in - w.low[d], 0);
    w.extra[d] = std::max<int64_t>(reach - w.high[d], 0);
    w.high[d] = std::min(w.high[d], reach);
    if ((*in + w.low[d] + reach - w.effective(d)) / stride + 1 != out)
      w.outputs[d] = out;
  }
  return w;
}

/// reduce_window(kind, v) with the spatial window `w` and the given spatial paddings.
Value reduceWindow(NodeRewriter &n, prim::ReduceKind kind, Value v, const Window &w,
                   ArrayRef<int64_t> low, ArrayRef<int64_t> high) {
  SmallVector<int64_t> window = {1, 1}, strides = {1, 1}, dilations = {1, 1}, lo = {0, 0},
                       hi = {0, 0};
  llvm::append_range(window, w.kernel);
  llvm::append_range(strides, w.strides);
  llvm::append_range(dilations, w.dilations);
  llvm::append_range(lo, low);
  llvm::append_range(hi, high);
  return prim::ReduceWindowOp::create(n.getBuilder(), n.getLoc(), kind, v, window, strides,
                                      dilations, lo, hi);
}

/// reduce_window over the whole padding (explicit and ceil_mode's).
Value reduceWindow(NodeRewriter &n, prim::ReduceKind kind, Value v, const Window &w) {
  SmallVector<int64_t> high;
  for (size_t d = 0; d < w.high.size(); ++d)
    high.push_back(w.high[d] + w.extra[d]);
  return reduceWindow(n, kind, v, w, w.low, high);
}

/// Drops the windows ceil_mode's padding made beyond the extents ONNX wants.
Value trimOutputs(NodeRewriter &n, Value v, const Window &w) {
  if (llvm::all_of(w.outputs, [](auto o) { return !o; }))
    return v;
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> sizes = getDims(n, v), offsets(sizes.size(), b.getIndexAttr(0));
  for (auto [d, out] : llvm::enumerate(w.outputs))
    if (out)
      sizes[d + 2] = b.getIndexAttr(*out);
  return b.createOrFold<prim::SliceOp>(n.getLoc(), v, offsets, sizes,
                                       SmallVector<int64_t>(sizes.size(), 1));
}

/// `value` (an index) as an i64 tensor of shape `dims`.
Value fillIndex(NodeRewriter &n, OpFoldResult value, ArrayRef<OpFoldResult> dims) {
  return fill(n, makeShapeTensor(n, {value}, n.getBuilder().getI64Type(), true), dims);
}

/// The flat index MaxPool's Indices output holds for every element of `x` (N x C x D...):
/// (n * C + c) * prod(D) + the spatial offset, row-major over D (storage_order 0) or
/// column-major (storage_order 1).
Value flatIndices(NodeRewriter &n, Value x, bool columnMajor) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  int64_t rank = rankOf(x);
  RankedTensorType type = getTensorType(dims, b.getI64Type());
  auto iota = [&](int64_t d) {
    return prim::IotaOp::create(b, loc, type, getDynamicExtents(n, dims), d).getResult();
  };
  ArrayRef<OpFoldResult> spatial = ArrayRef<OpFoldResult>(dims).drop_front(2);
  // ((n * C + c) * prod(D)
  Value index = prim::MulOp::create(
      b, loc,
      prim::AddOp::create(b, loc, prim::MulOp::create(b, loc, iota(0), fillIndex(n, dims[1], dims)),
                          iota(1)),
      fillIndex(n, product(n, spatial), dims));
  for (int64_t d = 2; d < rank; ++d) {
    ArrayRef<OpFoldResult> inner = columnMajor ? spatial.take_front(d - 2)
                                               : spatial.drop_front(d - 1);
    index = prim::AddOp::create(
        b, loc, index,
        prim::MulOp::create(b, loc, iota(d), fillIndex(n, product(n, inner), dims)));
  }
  return index;
}

/// The padding value of a max: -inf, or the type's smallest integer.
Value lowest(NodeRewriter &n, Type element) {
  if (isa<FloatType>(element))
    return scalarConstant(n, element, -std::numeric_limits<double>::infinity());
  auto type = cast<IntegerType>(element);
  APInt min = type.isUnsigned() ? APInt::getMinValue(type.getWidth())
                                : APInt::getSignedMinValue(type.getWidth());
  auto tensor = RankedTensorType::get({}, element);
  return arith::ConstantOp::create(n.getBuilder(), n.getLoc(),
                                   DenseElementsAttr::get(tensor, min));
}

// indices(x)[o] = flat index of the first element of window o (in the kernel's row-major
// order) that holds the window's max; the kernel is unrolled: for each tap t,
// (best, index) = taken ? (x_t, i_t) : (best, index), taken = x_t > best, or best is padding
Value maxPoolIndices(NodeRewriter &n, Value x, Value pooled, const Window &w,
                     bool columnMajor) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t rank = rankOf(x), spatial = rank - 2;
  SmallVector<int64_t> low = {0, 0}, high = {0, 0};
  for (int64_t d = 0; d < spatial; ++d) {
    low.push_back(w.low[d]);
    high.push_back(w.high[d] + w.extra[d]);
  }
  Value values = prim::PadOp::create(b, loc, x, lowest(n, elementOf(x)), low, high);
  Value indices = prim::PadOp::create(b, loc, flatIndices(n, x, columnMajor),
                                      scalarConstant(n, b.getI64Type(), -1.0), low, high);
  SmallVector<OpFoldResult> outDims = getDims(n, pooled);
  SmallVector<int64_t> strides = {1, 1};
  llvm::append_range(strides, w.strides);
  int64_t taps = 1;
  for (int64_t k : w.kernel)
    taps *= k;
  Value best, bestIndex;
  for (int64_t t = 0; t < taps; ++t) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    int64_t rest = t;
    for (int64_t d = spatial - 1; d >= 0; --d) {
      offsets[d + 2] = b.getIndexAttr((rest % w.kernel[d]) * w.dilations[d]);
      rest /= w.kernel[d];
    }
    Value value = b.createOrFold<prim::SliceOp>(loc, values, offsets, outDims, strides);
    Value index = b.createOrFold<prim::SliceOp>(loc, indices, offsets, outDims, strides);
    if (t == 0) {
      best = value;
      bestIndex = index;
      continue;
    }
    Value greater = prim::CompareOp::create(b, loc, prim::CompareDirection::Gt, value, best);
    Value replacesPadding = prim::AndOp::create(
        b, loc,
        prim::CompareOp::create(b, loc, prim::CompareDirection::Lt, bestIndex,
                                splatLike(n, bestIndex, 0.0)),
        prim::CompareOp::create(b, loc, prim::CompareDirection::Ge, index,
                                splatLike(n, index, 0.0)));
    Value taken = prim::OrOp::create(b, loc, greater, replacesPadding);
    best = prim::SelectOp::create(b, loc, taken, value, best);
    bestIndex = prim::SelectOp::create(b, loc, taken, index, bestIndex);
  }
  return bestIndex;
}

/// MaxPool: Indices and storage_order from opset 8, dilations and ceil_mode from opset 10.
// max_pool(x) = reduce_window(max, x) with -inf padding; Indices: see maxPoolIndices
template <bool DilationsAndCeilMode>
LogicalResult maxPool(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  bool wantIndices = n.getNumOutputs() > 1 && !n.getNode()->getResult(1).use_empty();
  if (wantIndices && n.getVersion() < 8)
    return n.emitError() << "MaxPool has an Indices output from opset 8 on";
  int64_t storageOrder = n.getVersion() >= 8 ? n.getInt("storage_order", 0) : 0;
  if (storageOrder != 0 && storageOrder != 1)
    return n.emitError() << "attribute 'storage_order' is " << storageOrder
                         << ", expected 0 (row major) or 1 (column major)";
  auto w = getWindow(n, x, DilationsAndCeilMode, DilationsAndCeilMode);
  if (!w)
    return failure();
  Value pooled = reduceWindow(n, prim::ReduceKind::Max, x, *w);
  Value y = trimOutputs(n, pooled, *w);
  if (n.getNumOutputs() == 1)
    return n.setResults(y);
  if (!wantIndices) // a placeholder that dead-code elimination removes
    return n.setResults({y, splatLike(n, y, 0.0, n.getBuilder().getI64Type())});
  Value indices = maxPoolIndices(n, x, pooled, *w, storageOrder == 1);
  return n.setResults({y, trimOutputs(n, indices, *w)});
}

/// MaxUnpool with an output_shape known only at run time: each element of x goes to its
/// coordinates in the unpooled shape `inferred` (from its flat index; one outside it is
/// dropped, as the scatter into the unpooled result drops it), scattered into zeros of
/// `outDims`, each of which must be at least the unpooled extent (checked naming the node).
LogicalResult runtimeUnpoolShape(NodeRewriter &n, Value x, Value indices,
                                 ArrayRef<OpFoldResult> inferred, ArrayRef<OpFoldResult> outDims) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  int64_t rank = rankOf(x);
  for (int64_t d = 0; d < rank; ++d)
    checkTrue(n,
              b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge,
                                            toIndex(n, outDims[d]), toIndex(n, inferred[d])),
              "output_shape dim " + std::to_string(d) +
                  " must not be smaller than the unpooled extent");
  Type i64 = b.getI64Type();
  OpFoldResult count = product(n, getDims(n, x));
  prim::PrimBuilder p = n.prim();
  auto extent = [&](OpFoldResult v) {
    return p.fill(makeShapeTensor(n, {v}, i64, /*scalar=*/true), {count});
  };
  Value flat = reshape(n, convert(n, indices, i64), {count});
  Value valid = p.both(p.cmp(prim::CompareDirection::Ge, flat, p.splat(flat, 0)),
                       p.cmp(prim::CompareDirection::Lt, flat, extent(product(n, inferred))));
  SmallVector<Value> coordinates(rank);
  Value rest = flat;
  for (int64_t d = rank - 1; d >= 1; --d) {
    Value e = extent(inferred[d]);
    coordinates[d] = p.create<prim::RemOp>(rest, e);
    rest = p.div(rest, e);
  }
  coordinates[0] = p.select(valid, rest, p.splat(flat, -1)); // -1: the scatter skips it
  SmallVector<Value> columns;
  for (Value c : coordinates)
    columns.push_back(reshape(n, c, {count, b.getIndexAttr(1)}));
  Value tuples = prim::ConcatenateOp::create(b, loc, columns, 1);
  Value zeros = fill(n, scalarConstant(n, elementOf(x), 0.0), outDims);
  return n.setResults(prim::ScatterOp::create(b, loc, zeros.getType(), zeros, tuples,
                                              reshape(n, x, {count}), prim::ReduceKindAttr())
                          .getResult());
}

/// MaxUnpool: output_shape (input 2) from opset 9 on, known while compiling or at run time.
// max_unpool(x, i) = zeros(inferred) with flat(result)[i[j]] = flat(x)[j], then zero-padded
// at the end of each dim to output_shape when given; inferred = (N, C, (in_d - 1) *
// stride_d - pad_begin_d - pad_end_d + kernel_d), the pads counting only without
// output_shape (as in ONNX's reference implementation)
LogicalResult maxUnpool(NodeRewriter &n) {
  Value x = n.getInput(0), indices = n.getInput(1);
  if (!x || !indices)
    return failure();
  if (!isa<IntegerType>(elementOf(indices)) || elementOf(indices).isInteger(1))
    return n.emitError() << "I has type " << indices.getType() << ", expected an integer tensor";
  int64_t rank = rankOf(x), spatial = rank - 2;
  if (rank < 3)
    return n.emitError() << "expected an input of rank >= 3 (N x C x D1 ...), got "
                         << x.getType();
  if (rankOf(indices) != rank)
    return n.emitError() << "I has type " << indices.getType() << ", expected the shape of X "
                         << x.getType();
  if (!n.hasAttr("kernel_shape"))
    return n.emitError() << "expected the attribute 'kernel_shape'";
  auto kernel = getSpatialInts(n, "kernel_shape", spatial, 1, 1);
  auto strides = kernel ? getSpatialInts(n, "strides", spatial, 1, 1) : std::nullopt;
  auto pads = strides ? getSpatialInts(n, "pads", 2 * spatial, 0, 0) : std::nullopt;
  if (!pads)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> dims = getDims(n, x), outDims;
  Value shape = n.getOptionalInput(2);
  if (shape) {
    auto elements = getShapeElements(n, shape);
    if (!elements)
      return n.emitError() << "output_shape has type " << shape.getType()
                           << ", expected a 1-d integer tensor of static length";
    if (static_cast<int64_t>(elements->size()) != rank)
      return n.emitError() << "output_shape has " << elements->size() << " elements, expected "
                           << rank << " (the rank of X)";
    outDims = *elements;
    pads->assign(2 * spatial, 0);
  }
  SmallVector<OpFoldResult> inferred = {dims[0], dims[1]};
  for (int64_t d = 0; d < spatial; ++d) {
    OpFoldResult scaled = mulIndex(n, subIndex(n, dims[d + 2], b.getIndexAttr(1)),
                                   b.getIndexAttr((*strides)[d]));
    inferred.push_back(addIndex(
        n, scaled, b.getIndexAttr((*kernel)[d] - (*pads)[d] - (*pads)[d + spatial])));
  }
  SmallVector<OpFoldResult> indexDims = getDims(n, indices);
  for (int64_t d = 0; d < rank; ++d)
    checkEqual(n, indexDims[d], dims[d],
               "I must have the shape of X (dim " + std::to_string(d) + ")");
  OpFoldResult count = product(n, dims);
  Value flatIndex = reshape(n, convert(n, indices, b.getI64Type()), {count, b.getIndexAttr(1)});
  Value zeros = fill(n, scalarConstant(n, elementOf(x), 0.0), {product(n, inferred)});
  Value scattered = prim::ScatterOp::create(b, loc, zeros.getType(), zeros, flatIndex,
                                            reshape(n, x, {count}), prim::ReduceKindAttr());
  Value result = reshape(n, scattered, inferred);
  if (!shape)
    return n.setResults(result);
  SmallVector<int64_t> low(rank, 0), high;
  for (int64_t d = 0; d < rank; ++d) {
    if (sameExtent(outDims[d], inferred[d])) {
      high.push_back(0);
      continue;
    }
    auto extra = getConstantIntValue(subIndex(n, outDims[d], inferred[d]));
    if (!extra)
      return runtimeUnpoolShape(n, x, indices, inferred, outDims);
    if (*extra < 0)
      return n.emitError() << "output_shape dim " << d << " is " << -*extra
                           << " smaller than the unpooled extent";
    high.push_back(*extra);
  }
  if (llvm::all_of(high, [](int64_t h) { return h == 0; }))
    return n.setResults(reshape(n, result, outDims));
  return n.setResults(
      prim::PadOp::create(b, loc, result, scalarConstant(n, elementOf(x), 0.0), low, high)
          .getResult());
}

/// AveragePool: see buildAveragePool.
template <bool CountIncludePad, bool CeilMode, bool Dilations>
LogicalResult averagePool(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  if (!isa<FloatType>(elementOf(x)))
    return n.emitError() << "input 0 has type " << x.getType()
                         << ", expected a floating-point tensor";
  Value y = buildAveragePool(n, x, CountIncludePad, CeilMode, Dilations);
  return y ? n.setResults(y) : failure();
}

/// LpPool: ceil_mode and dilations from opset 18.
// lp_pool(x) = (reduce_window(sum, |x|^p))^(1/p)
template <bool DilationsAndCeilMode>
LogicalResult lpPool(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  if (!isa<FloatType>(elementOf(x)))
    return n.emitError() << "input 0 has type " << x.getType()
                         << ", expected a floating-point tensor";
  int64_t p = n.getInt("p", 2);
  if (p < 1)
    return n.emitError() << "attribute 'p' is " << p << ", expected >= 1";
  auto w = getWindow(n, x, DilationsAndCeilMode, DilationsAndCeilMode);
  if (!w)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value magnitude = prim::AbsOp::create(b, loc, x);
  Value terms = p == 1   ? magnitude
                : p == 2 ? Value(prim::MulOp::create(b, loc, x, x))
                         : Value(prim::PowOp::create(b, loc, magnitude,
                                                     splatLike(n, x, static_cast<double>(p))));
  Value sum = reduceWindow(n, prim::ReduceKind::Sum, terms, *w);
  Value result = p == 1   ? sum
                 : p == 2 ? Value(prim::SqrtOp::create(b, loc, sum))
                          : Value(prim::PowOp::create(b, loc, sum, splatLike(n, sum, 1.0 / p)));
  return n.setResults(trimOutputs(n, result, *w));
}

enum class GlobalPool { Average, Max, Lp };

// global_average_pool(x) = mean over dims 2..; global_max_pool(x) = max over dims 2..;
// global_lp_pool(x) = (sum over dims 2.. of |x|^p)^(1/p); the spatial dims stay as 1
template <GlobalPool Kind>
LogicalResult globalPool(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  if (rank < 3)
    return n.emitError() << "expected an input of rank >= 3 (N x C x D1 ...), got "
                         << x.getType();
  Type element = elementOf(x);
  if (Kind != GlobalPool::Max && !isa<FloatType>(element))
    return n.emitError() << "input 0 has type " << x.getType()
                         << ", expected a floating-point tensor";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<int64_t> spatial;
  for (int64_t d = 2; d < rank; ++d)
    spatial.push_back(d);
  int64_t p = Kind == GlobalPool::Lp ? n.getInt("p", 2) : 1;
  if (p < 1)
    return n.emitError() << "attribute 'p' is " << p << ", expected >= 1";
  Value result;
  if (Kind == GlobalPool::Max) {
    result = prim::ReduceOp::create(b, loc, prim::ReduceKind::Max, x, spatial);
  } else if (Kind == GlobalPool::Average) {
    Value sum = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, x, spatial);
    OpFoldResult count = product(n, ArrayRef<OpFoldResult>(dims).drop_front(2));
    Value scalar;
    if (auto c = getConstantIntValue(count))
      scalar = scalarConstant(n, element, static_cast<double>(*c));
    else
      scalar = convert(n, makeShapeTensor(n, {count}, b.getI64Type(), /*scalar=*/true), element);
    result = prim::DivOp::create(b, loc, sum, fill(n, scalar, getDims(n, sum)));
  } else {
    Value magnitude = prim::AbsOp::create(b, loc, x);
    Value terms = p == 1   ? magnitude
                  : p == 2 ? Value(prim::MulOp::create(b, loc, x, x))
                           : Value(prim::PowOp::create(b, loc, magnitude,
                                                       splatLike(n, x, static_cast<double>(p))));
    Value sum = prim::ReduceOp::create(b, loc, prim::ReduceKind::Sum, terms, spatial);
    result = p == 1   ? sum
             : p == 2 ? Value(prim::SqrtOp::create(b, loc, sum))
                      : Value(prim::PowOp::create(b, loc, sum, splatLike(n, sum, 1.0 / p)));
  }
  SmallVector<OpFoldResult> kept(dims.begin(), dims.begin() + 2);
  kept.append(rank - 2, b.getIndexAttr(1));
  return n.setResults(reshape(n, result, kept));
}

} // namespace

/// AveragePool's attributes: count_include_pad from opset 7, ceil_mode from 10, dilations
/// from 19. `kernelSizeDivisor`: with count_include_pad, a window that ceil_mode extends past
/// the padding still divides by the kernel size (ONNX Runtime's quantized pooling).
// avg_pool(x) = reduce_window(sum, x) / count, count = the window's elements inside the
// input (count_include_pad=0) or inside the explicitly padded input (count_include_pad=1)
Value tcc::decompose::buildAveragePool(NodeRewriter &n, Value x, bool countIncludePad,
                                       bool ceilMode, bool dilations, bool kernelSizeDivisor) {
  Type element = elementOf(x);
  auto w = getWindow(n, x, dilations, ceilMode);
  if (!w)
    return nullptr;
  bool includePad = countIncludePad && n.getInt("count_include_pad", 0) != 0;
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value sum = reduceWindow(n, prim::ReduceKind::Sum, x, *w);
  bool noPadding = llvm::all_of(w->low, [](int64_t v) { return v == 0; }) &&
                   llvm::all_of(w->high, [](int64_t v) { return v == 0; });
  bool noExtra = llvm::all_of(w->extra, [](int64_t v) { return v == 0; });
  Value divisor;
  if ((noExtra || (includePad && kernelSizeDivisor)) && (noPadding || includePad)) {
    // Every window lies inside the counted region: the divisor is the kernel size.
    int64_t size = 1;
    for (int64_t k : w->kernel)
      size *= k;
    divisor = splatLike(n, sum, static_cast<double>(size));
  } else {
    // Count with a window sum over ones: [1, 1, spatial...] shaped like the counted region,
    // zero-padded by what does not count, then broadcast over N and C.
    SmallVector<OpFoldResult> dims = getDims(n, x);
    SmallVector<OpFoldResult> region = {b.getIndexAttr(1), b.getIndexAttr(1)};
    SmallVector<int64_t> low, high;
    for (size_t d = 0; d < w->kernel.size(); ++d) {
      int64_t counted = includePad ? w->low[d] + w->high[d] : 0;
      region.push_back(addIndex(n, dims[d + 2], b.getIndexAttr(counted)));
      low.push_back(includePad ? 0 : w->low[d]);
      high.push_back((includePad ? 0 : w->high[d]) + w->extra[d]);
    }
    Value ones = fill(n, scalarConstant(n, element, 1.0), region);
    Value counts = reduceWindow(n, prim::ReduceKind::Sum, ones, *w, low, high);
    SmallVector<OpFoldResult> sumDims = getDims(n, sum);
    SmallVector<int64_t> mapping;
    for (int64_t d = 0; d < rankOf(sum); ++d)
      mapping.push_back(d);
    divisor = prim::BroadcastInDimOp::create(b, loc, cast<RankedTensorType>(sum.getType()),
                                             counts, getDynamicExtents(n, sumDims),
                                             b.getDenseI64ArrayAttr(mapping));
  }
  return trimOutputs(n, prim::DivOp::create(b, loc, sum, divisor), *w);
}

void tcc::decompose::registerPoolingRules(RuleRegistry &r) {
  r.add("", "MaxPool", 1, maxPool<false>);
  r.add("", "MaxPool", 8, maxPool<false>);
  r.add("", "MaxPool", 10, maxPool<true>);
  r.add("", "MaxPool", 11, maxPool<true>);
  r.add("", "MaxPool", 12, maxPool<true>);
  r.add("", "MaxUnpool", 9, maxUnpool);
  r.add("", "MaxUnpool", 11, maxUnpool);
  r.add("", "AveragePool", 1, averagePool<false, false, false>);
  r.add("", "AveragePool", 7, averagePool<true, false, false>);
  r.add("", "AveragePool", 10, averagePool<true, true, false>);
  r.add("", "AveragePool", 11, averagePool<true, true, false>);
  r.add("", "AveragePool", 19, averagePool<true, true, true>);
  r.add("", "LpPool", 2, lpPool<false>);
  r.add("", "LpPool", 11, lpPool<false>);
  r.add("", "LpPool", 18, lpPool<true>);
  r.add("", "GlobalAveragePool", 1, globalPool<GlobalPool::Average>);
  r.add("", "GlobalMaxPool", 1, globalPool<GlobalPool::Max>);
  r.add("", "GlobalLpPool", 2, globalPool<GlobalPool::Lp>);
}
