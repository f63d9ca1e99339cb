//===- Shape.cpp - rules for shapes and data movement --------------------------------===//
//
// Reshape targets and other shape inputs arrive as small int64 tensors; getShapeElements
// turns them into index values, so the result types stay as static as the graph allows and
// the remaining sizes are index arithmetic of the input dims.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuleFamilies.h"
#include "RuntimeAxes.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;
using arith::CmpIPredicate;

namespace {

/// Axes from an INTS attribute (older opsets) or an optional input (newer ones).
std::optional<SmallVector<int64_t>> getAxes(NodeRewriter &n, bool fromInput, unsigned index,
                                            llvm::StringRef attr) {
  if (!fromInput)
    return n.getInts(attr).value_or(SmallVector<int64_t>());
  if (!n.hasInput(index))
    return SmallVector<int64_t>();
  auto values = getConstantInts(n.getOptionalInput(index));
  if (!values)
    n.emitError() << "input " << index << " (axes) must be a constant";
  return values;
}

// reshape(x, shape): 0 copies the input dim (unless allowzero), -1 is inferred
LogicalResult reshapeRule(NodeRewriter &n) {
  Value x = n.getInput(0);
  auto target = getShapeInput(n, 1);
  if (!x || !target)
    return failure();
  bool allowZero = n.getVersion() >= 14 && n.getInt("allowzero", 0);
  SmallVector<OpFoldResult> in = getDims(n, x);
  OpFoldResult total = product(n, in);
  SmallVector<OpFoldResult> dims;
  int inferred = -1;
  for (auto [i, e] : llvm::enumerate(*target)) {
    auto c = getConstantIntValue(e);
    if (c && *c == -1) {
      if (inferred != -1)
        return n.emitError() << "the shape has more than one -1";
      inferred = static_cast<int>(i);
      dims.push_back(e);
      continue;
    }
    if (c && *c < -1)
      return n.emitError() << "shape entry " << i << " is " << *c << ", expected >= -1";
    if (c && *c == 0 && !allowZero) {
      if (i >= in.size())
        return n.emitError() << "shape entry " << i << " is 0 (copy the input dim) but the "
                             << "input has rank " << in.size();
      dims.push_back(in[i]);
      continue;
    }
    if (!c && !allowZero && i < in.size() && !sameExtent(e, in[i])) {
      // A run-time entry: 0 still means "copy the input dim".
      dims.push_back(selectIndex(n, CmpIPredicate::eq, e, n.getBuilder().getIndexAttr(0), in[i], e));
      continue;
    }
    dims.push_back(e);
  }
  OpBuilder &b = n.getBuilder();
  if (inferred >= 0) {
    SmallVector<OpFoldResult> known(dims);
    known.erase(known.begin() + inferred);
    OpFoldResult knownProduct = product(n, known);
    if (auto exact = divideExactly(n, total, knownProduct))
      dims[inferred] = *exact;
    else
      dims[inferred] = floorDivIndex(n, total, maxIndex(n, knownProduct, b.getIndexAttr(1)));
  } else {
    // A run-time entry may still be -1: infer it from the others (-1 counts as 1).
    SmallVector<OpFoldResult> known;
    SmallVector<size_t> runtime;
    for (auto [i, d] : llvm::enumerate(dims)) {
      // Extents made of dims are never -1.
      auto m = asMonomial(d);
      if (getConstantIntValue(d) || (m && m->coefficient >= 0 && llvm::all_of(m->values, [](Value v) {
                                       return v.getDefiningOp<prim::DimOp>();
                                     }))) {
        known.push_back(d);
        continue;
      }
      runtime.push_back(i);
      known.push_back(selectIndex(n, CmpIPredicate::eq, d, b.getIndexAttr(-1), b.getIndexAttr(1), d));
    }
    if (!runtime.empty()) {
      // max(known, 1): a zero-sized input leaves nothing to infer and must not divide by 0.
      OpFoldResult rest =
          floorDivIndex(n, total, maxIndex(n, product(n, known), b.getIndexAttr(1)));
      for (size_t i : runtime)
        dims[i] = selectIndex(n, CmpIPredicate::eq, dims[i], b.getIndexAttr(-1), rest, dims[i]);
    }
  }
  checkEqual(n, product(n, dims), total,
             "the reshape target must have as many elements as the input");
  return n.setResults(reshape(n, x, dims));
}

// flatten(x, axis) = reshape(x, [prod(d[:axis]), prod(d[axis:])])
LogicalResult flatten(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x), axis = n.getInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return n.emitError() << "axis " << n.getInt("axis", 1) << " is out of range for rank " << rank;
  SmallVector<OpFoldResult> dims = getDims(n, x);
  ArrayRef<OpFoldResult> all(dims);
  return n.setResults(
      reshape(n, x, {product(n, all.take_front(axis)), product(n, all.drop_front(axis))}));
}

// transpose(x, perm), perm defaulting to the reversed dims
LogicalResult transpose(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  SmallVector<int64_t> perm;
  if (auto attr = n.getInts("perm")) {
    perm = *attr;
  } else {
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  }
  if (static_cast<int64_t>(perm.size()) != rank)
    return n.emitError() << "perm has " << perm.size() << " entries, expected " << rank;
  llvm::SmallBitVector seen(rank);
  for (int64_t &p : perm) {
    auto axis = normalizeAxis(n, p, rank, "perm entry");
    if (!axis)
      return failure();
    if (seen.test(*axis))
      return n.emitError() << "perm lists dim " << *axis << " twice; expected each of the "
                           << rank << " dims once";
    seen.set(*axis);
    p = *axis;
  }
  return n.setResults(
      n.getBuilder().createOrFold<prim::TransposeOp>(n.getLoc(), x, perm));
}

/// Squeeze by axes read at run time: input dim d is dropped when listed (its extent must be
/// 1); output dim j is the j-th kept input dim, i.e. in[d] for the d with
/// kept(d) and #kept(< d) = j.
LogicalResult squeezeRuntime(NodeRewriter &n, Value x) {
  int64_t rank = rankOf(x);
  auto axes = runtimeAxes(n, 1, rank, /*distinct=*/true);
  if (!axes)
    return failure();
  int64_t outRank = rank - static_cast<int64_t>(axes->size());
  if (outRank < 0)
    return n.emitError() << "input 1 (axes) lists " << axes->size() << " axes of a rank-" << rank
                         << " input";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> in = getDims(n, x);
  SmallVector<Value> dropped;
  Value extentsOk;
  for (int64_t d = 0; d < rank; ++d) {
    dropped.push_back(isListed(n, *axes, d));
    // dropped(d) => in[d] == 1
    Value one = b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::eq, toIndex(n, in[d]),
                                              arith::ConstantIndexOp::create(b, loc, 1));
    Value ok = b.createOrFold<arith::OrIOp>(
        loc, b.createOrFold<arith::XOrIOp>(loc, dropped.back(),
                                           arith::ConstantIntOp::create(b, loc, 1, 1)),
        one);
    extentsOk = extentsOk ? b.createOrFold<arith::AndIOp>(loc, extentsOk, ok) : ok;
  }
  if (extentsOk)
    checkTrue(n, extentsOk, "input 1 (axes): a squeezed dim must have extent 1");
  SmallVector<OpFoldResult> dims(outRank, b.getIndexAttr(1));
  OpFoldResult keptBefore = b.getIndexAttr(0);
  for (int64_t d = 0; d < rank; ++d) {
    Value kept = b.createOrFold<arith::XOrIOp>(loc, dropped[d],
                                              arith::ConstantIntOp::create(b, loc, 1, 1));
    for (int64_t j = 0; j < outRank; ++j) {
      Value here = b.createOrFold<arith::AndIOp>(
          loc, kept,
          b.createOrFold<arith::CmpIOp>(loc, CmpIPredicate::eq, toIndex(n, keptBefore),
                                        arith::ConstantIndexOp::create(b, loc, j)));
      dims[j] = b.createOrFold<arith::SelectOp>(loc, here, toIndex(n, in[d]),
                                                toIndex(n, dims[j]));
    }
    keptBefore = addIndex(n, keptBefore,
                          b.createOrFold<arith::IndexCastUIOp>(loc, b.getIndexType(), kept));
  }
  return n.setResults(reshape(n, x, dims));
}

/// Unsqueeze by axes read at run time: output dim d is 1 when listed, else input dim
/// d - #listed(< d).
LogicalResult unsqueezeRuntime(NodeRewriter &n, Value x) {
  Value axesInput = n.getOptionalInput(1);
  auto axesType = typeOf(axesInput);
  if (!axesType.hasStaticShape() || axesType.getRank() > 1)
    return n.emitError() << "input 1 (" << axesInput.getType()
                         << ") must be a 0-d or 1-d integer tensor of static length";
  int64_t rank = rankOf(x) + axesType.getNumElements();
  auto axes = runtimeAxes(n, 1, rank, /*distinct=*/true);
  if (!axes)
    return failure();
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  SmallVector<OpFoldResult> in = getDims(n, x), dims;
  if (in.empty())
    in.push_back(b.getIndexAttr(1)); // a scalar's output is all ones
  OpFoldResult listedBefore = b.getIndexAttr(0);
  for (int64_t d = 0; d < rank; ++d) {
    Value listed = isListed(n, *axes, d);
    OpFoldResult source = subIndex(n, b.getIndexAttr(d), listedBefore);
    dims.push_back(b.createOrFold<arith::SelectOp>(
        loc, listed, arith::ConstantIndexOp::create(b, loc, 1),
        toIndex(n, pick(n, toIndex(n, source), in))));
    listedBefore = addIndex(n, listedBefore,
                            b.createOrFold<arith::IndexCastUIOp>(loc, b.getIndexType(), listed));
  }
  return n.setResults(reshape(n, x, dims));
}

/// Squeeze (opset 1-12: axes attribute; 13+: axes input)
template <bool AxesInput>
LogicalResult squeeze(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (AxesInput && x && isRuntimeInput(n, 1))
    return squeezeRuntime(n, x);
  auto axes = getAxes(n, AxesInput, 1, "axes");
  if (!x || !axes)
    return failure();
  int64_t rank = rankOf(x);
  SmallVector<OpFoldResult> in = getDims(n, x);
  SmallVector<bool> drop(rank, false);
  if (axes->empty()) {
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = getConstantIntValue(in[d]) == 1;
  }
  for (int64_t a : *axes) {
    auto axis = normalizeAxis(n, a, rank);
    if (!axis)
      return failure();
    auto c = getConstantIntValue(in[*axis]);
    if (c && *c != 1)
      return n.emitError() << "cannot squeeze dim " << *axis << " of extent " << *c;
    if (!c)
      checkEqual(n, in[*axis], n.getBuilder().getIndexAttr(1),
                 "squeezed dim " + std::to_string(*axis) + " must be 1");
    drop[*axis] = true;
  }
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d])
      dims.push_back(in[d]);
  if (auto elements = getShapeElements(n, x))
    if (dims.empty() || rank == 0)
      return n.setResults(makeShapeTensor(n, *elements, elementOf(x), /*scalar=*/true));
  return n.setResults(reshape(n, x, dims));
}

/// Unsqueeze (opset 1-12: axes attribute; 13+: axes input); axes index the output.
template <bool AxesInput>
LogicalResult unsqueeze(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (AxesInput && x && isRuntimeInput(n, 1))
    return unsqueezeRuntime(n, x);
  auto axes = getAxes(n, AxesInput, 1, "axes");
  if (!x || !axes)
    return failure();
  int64_t rank = rankOf(x) + static_cast<int64_t>(axes->size());
  SmallVector<bool> inserted(rank, false);
  for (int64_t a : *axes) {
    auto axis = normalizeAxis(n, a, rank);
    if (!axis)
      return failure();
    if (inserted[*axis])
      return n.emitError() << "axis " << a << " is listed twice";
    inserted[*axis] = true;
  }
  SmallVector<OpFoldResult> in = getDims(n, x), dims;
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(inserted[d] ? OpFoldResult(n.getBuilder().getIndexAttr(1)) : in[next++]);
  if (rankOf(x) == 0 && rank == 1)
    if (auto elements = getShapeElements(n, x))
      return n.setResults(makeShapeTensor(n, *elements, elementOf(x)));
  return n.setResults(reshape(n, x, dims));
}

// concat(x1..xk, axis)
LogicalResult concat(NodeRewriter &n) {
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < n.getNumInputs(); ++i) {
    Value v = n.getInput(i);
    if (!v)
      return failure();
    inputs.push_back(v);
  }
  if (inputs.empty())
    return n.emitError() << "expected at least one input";
  int64_t rank = rankOf(inputs.front());
  auto axis = normalizeAxis(n, n.getInt("axis", 0), rank);
  if (!axis)
    return failure();
  Type element = elementOf(inputs.front());
  for (auto [i, v] : llvm::enumerate(inputs))
    if (rankOf(v) != rank || elementOf(v) != element)
      return n.emitError() << "input " << i << " has type " << v.getType() << ", expected rank "
                           << rank << " and element type " << element;
  // Shape tensors stay lists of index values.
  if (rank == 1) {
    SmallVector<OpFoldResult> all;
    bool shapes = true;
    for (Value v : inputs) {
      auto elements = isShapeTensor(v) ? getShapeElements(n, v) : std::nullopt;
      if (!elements) {
        shapes = false;
        break;
      }
      llvm::append_range(all, *elements);
    }
    if (shapes)
      return n.setResults(makeShapeTensor(n, all, element));
  }
  return n.setResults(
      n.getBuilder().createOrFold<prim::ConcatenateOp>(n.getLoc(), inputs, *axis));
}

/// Split into consecutive pieces along `axis`: sizes from the `split` attribute (opset 2-12)
/// or input (13+), else equal parts (18+: num_outputs, the last piece may be smaller).
template <bool SplitInput>
LogicalResult split(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  auto axis = normalizeAxis(n, n.getInt("axis", 0), rank);
  if (!axis)
    return failure();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  OpBuilder &b = n.getBuilder();
  SmallVector<OpFoldResult> sizes;
  std::optional<SmallVector<OpFoldResult>> given;
  if (SplitInput && n.hasInput(1)) {
    // Constant sizes, or sizes read at run time (their extents become computed symbols).
    given = getShapeElements(n, n.getOptionalInput(1));
    if (!given)
      return n.emitError() << "input 1 (split) must be a 1-d integer tensor of static length";
  } else if (!SplitInput) {
    if (auto attr = n.getInts("split")) {
      given.emplace();
      for (int64_t s : *attr)
        given->push_back(b.getIndexAttr(s));
    }
  }
  unsigned outputs = n.getNumOutputs();
  if (given && !given->empty()) {
    if (given->size() != outputs)
      return n.emitError() << "split has " << given->size() << " entries for " << outputs
                           << " outputs";
    sizes = *given;
    OpFoldResult total = b.getIndexAttr(0);
    for (OpFoldResult s : sizes) {
      if (auto c = getConstantIntValue(s); c && *c < 0)
        return n.emitError() << "split sizes must be >= 0, got " << *c;
      total = addIndex(n, total, s);
    }
    // Sizes read at run time are checked >= 0 as symbols before the run.
    checkEqual(n, dims[*axis], total,
               "the split sizes must add up to the extent of dim " + std::to_string(*axis));
  } else {
    OpFoldResult count = b.getIndexAttr(outputs);
    OpFoldResult piece = ceilDivIndex(n, dims[*axis], count);
    for (unsigned i = 0; i < outputs; ++i) {
      OpFoldResult begin = mulIndex(n, piece, b.getIndexAttr(i));
      sizes.push_back(maxIndex(n, minIndex(n, piece, subIndex(n, dims[*axis], begin)),
                               b.getIndexAttr(0)));
    }
    if (n.getVersion() < 18)
      checkEqual(n, mulIndex(n, piece, count), dims[*axis],
                 "the split dim must divide evenly into the outputs");
  }
  SmallVector<Value> results;
  OpFoldResult offset = b.getIndexAttr(0);
  for (OpFoldResult size : sizes) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), extents(dims);
    offsets[*axis] = offset;
    extents[*axis] = size;
    results.push_back(b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, extents,
                                                   SmallVector<int64_t>(rank, 1)));
    offset = addIndex(n, offset, size);
  }
  return n.setResults(results);
}

// shape(x)[start:end] as int64
LogicalResult shape(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  int64_t start = n.getInt("start", 0), end = n.getInt("end", rank);
  auto clampAxis = [&](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  start = clampAxis(start);
  end = std::max(start, clampAxis(end));
  SmallVector<OpFoldResult> dims = getDims(n, x);
  SmallVector<OpFoldResult> picked(dims.begin() + start, dims.begin() + end);
  return n.setResults(makeShapeTensor(n, picked, n.getBuilder().getI64Type()));
}

// size(x) = prod(shape(x)) as a 0-d int64
LogicalResult size(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  return n.setResults(
      makeShapeTensor(n, {product(n, getDims(n, x))}, n.getBuilder().getI64Type(), true));
}

// expand(x, shape): bidirectional broadcast of x and shape
LogicalResult expand(NodeRewriter &n) {
  Value x = n.getInput(0);
  auto target = getShapeInput(n, 1);
  if (!x || !target)
    return failure();
  SmallVector<OpFoldResult> in = getDims(n, x);
  int64_t rank = std::max<int64_t>(in.size(), target->size());
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t ti = d - (rank - static_cast<int64_t>(target->size()));
    int64_t xi = d - (rank - static_cast<int64_t>(in.size()));
    if (ti < 0) {
      dims.push_back(in[xi]);
      continue;
    }
    OpFoldResult t = (*target)[ti];
    if (xi < 0 || getConstantIntValue(in[xi]) == 1) {
      dims.push_back(t);
      continue;
    }
    // A target entry of 1 keeps x's dim; a run-time entry is 1 or x's dim.
    auto ct = getConstantIntValue(t);
    if (ct && *ct == 1) {
      dims.push_back(in[xi]);
      continue;
    }
    if (!ct) {
      dims.push_back(selectIndex(n, CmpIPredicate::eq, t, n.getBuilder().getIndexAttr(1),
                                 in[xi], t));
      continue;
    }
    dims.push_back(t);
  }
  Value r = broadcastTo(n, x, dims);
  return r ? n.setResults(r) : failure();
}

// tile(x, repeats): broadcast to [r0, d0, r1, d1, ...], then reshape to [r0 d0, r1 d1, ...]
LogicalResult tile(NodeRewriter &n) {
  Value x = n.getInput(0);
  auto repeats = getShapeInput(n, 1);
  if (!x || !repeats)
    return failure();
  int64_t rank = rankOf(x);
  if (static_cast<int64_t>(repeats->size()) != rank)
    return n.emitError() << "repeats has " << repeats->size() << " entries, expected " << rank;
  SmallVector<OpFoldResult> in = getDims(n, x), interleaved, out;
  SmallVector<int64_t> mapping;
  for (int64_t d = 0; d < rank; ++d) {
    interleaved.push_back((*repeats)[d]);
    interleaved.push_back(in[d]);
    mapping.push_back(2 * d + 1);
    out.push_back(mulIndex(n, (*repeats)[d], in[d]));
  }
  OpBuilder &b = n.getBuilder();
  Value wide = prim::BroadcastInDimOp::create(b, n.getLoc(),
                                              getTensorType(interleaved, elementOf(x)), x,
                                              getDynamicExtents(n, interleaved),
                                              b.getDenseI64ArrayAttr(mapping));
  return n.setResults(reshape(n, wide, out));
}

// constant_of_shape(shape) = fill(shape, value) with value defaulting to float 0
LogicalResult constantOfShape(NodeRewriter &n) {
  auto target = getShapeInput(n, 0);
  if (!target)
    return failure();
  OpBuilder &b = n.getBuilder();
  Value scalar;
  if (ElementsAttr value = n.getTensor("value")) {
    auto type = cast<ShapedType>(value.getType());
    if (type.getNumElements() != 1)
      return n.emitError() << "attribute 'value' must hold one element, got " << type;
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!dense)
      return n.emitError() << "attribute 'value' must be a dense tensor";
    scalar = arith::ConstantOp::create(
        b, n.getLoc(), dense.reshape(RankedTensorType::get({}, type.getElementType())));
  } else {
    scalar = scalarConstant(n, b.getF32Type(), 0.0);
  }
  return n.setResults(fill(n, scalar, *target));
}

// range(start, limit, delta) = start + delta * iota(max(ceil((limit - start) / delta), 0))
LogicalResult range(NodeRewriter &n) {
  Value start = n.getInput(0), limit = n.getInput(1), delta = n.getInput(2);
  if (!start || !limit || !delta)
    return failure();
  Type element = elementOf(start);
  OpBuilder &b = n.getBuilder();
  OpFoldResult count;
  if (isa<IntegerType>(element)) {
    auto s = getShapeElements(n, start), l = getShapeElements(n, limit),
         d = getShapeElements(n, delta);
    if (s && l && d && s->size() == 1 && l->size() == 1 && d->size() == 1 &&
        !readsTensorData((*s)[0]) && !readsTensorData((*l)[0]) && !readsTensorData((*d)[0])) {
      // ceil((l - s) / d) for either sign of d is floor((l - s + d - sign(d)) / d).
      OpFoldResult diff = subIndex(n, (*l)[0], (*s)[0]);
      count = maxIndex(n, ceilDivIndex(n, diff, (*d)[0]), b.getIndexAttr(0));
    }
  } else {
    auto constant = [](Value v) -> std::optional<double> {
      DenseFPElementsAttr attr;
      if (!matchPattern(v, m_Constant(&attr)) || attr.getNumElements() != 1)
        return std::nullopt;
      return (*attr.getValues<APFloat>().begin()).convertToDouble();
    };
    auto s = constant(start), l = constant(limit), d = constant(delta);
    if (s && l && d) {
      count =
          b.getIndexAttr(std::max<int64_t>(static_cast<int64_t>(std::ceil((*l - *s) / *d)), 0));
    } else {
      // Bounds with integral values (integral constants, or integers converted to float,
      // such as a window size cast by the window functions' expansions) count in index
      // arithmetic, as integer ranges do.
      auto integral = [&](Value v, std::optional<double> c) -> std::optional<OpFoldResult> {
        if (c) {
          if (*c != std::floor(*c) || std::fabs(*c) > 9.0e15)
            return std::nullopt;
          return OpFoldResult(b.getIndexAttr(static_cast<int64_t>(*c)));
        }
        auto convertOp = v.getDefiningOp<prim::ConvertOp>();
        if (!convertOp)
          return std::nullopt;
        Value source = convertOp->getOperand(0);
        if (!isa<IntegerType>(elementOf(source)) || elementOf(source).isInteger(1))
          return std::nullopt;
        auto elements = getShapeElements(n, source);
        if (!elements || elements->size() != 1)
          return std::nullopt;
        return (*elements)[0];
      };
      auto si = integral(start, s), li = integral(limit, l), di = integral(delta, d);
      if (si && li && di) {
        if (auto step = getConstantIntValue(*di); step && *step == 0)
          return n.emitError() << "delta must not be 0";
        count = maxIndex(n, ceilDivIndex(n, subIndex(n, *li, *si), *di), b.getIndexAttr(0));
      }
    }
  }
  // Bounds known only at run time: the length is a symbol computed from them before the
  // run (ComputedSymbols.cpp).
  if (!count) {
    FailureOr<Value> computed = runtimeRangeCount(n, start, limit, delta);
    if (failed(computed))
      return failure();
    count = *computed;
  }
  SmallVector<OpFoldResult> dims = {count};
  // Opset 27's stash_type (default float32) is the type 16-bit float ranges compute in.
  Type compute = element;
  if (n.getVersion() >= 27 && (element.isF16() || element.isBF16())) {
    compute = elementTypeOfOnnxCode(n.getContext(), n.getInt("stash_type", 1));
    if (!compute || !isa<FloatType>(compute))
      return n.emitError() << "stash_type must be a float type";
  }
  RankedTensorType type = getTensorType(dims, compute);
  Value iota = prim::IotaOp::create(b, n.getLoc(), type, getDynamicExtents(n, dims), 0);
  Value scaled =
      prim::MulOp::create(b, n.getLoc(), iota, fill(n, convert(n, delta, compute), dims));
  Value result = prim::AddOp::create(b, n.getLoc(), scaled, fill(n, convert(n, start, compute), dims));
  return n.setResults(convert(n, result, element));
}

// constant() = its value attribute (value, value_float(s), value_int(s))
LogicalResult constant(NodeRewriter &n) {
  OpBuilder &b = n.getBuilder();
  Attribute value;
  if (ElementsAttr tensor = n.getTensor("value")) {
    value = tensor;
  } else if (n.hasAttr("value_float")) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                   n.getFloat("value_float", 0));
  } else if (n.hasAttr("value_int")) {
    value = DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                   n.getInt("value_int", 0));
  } else if (auto floats = n.getFloats("value_floats")) {
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(floats->size())}, b.getF32Type()),
        ArrayRef<float>(*floats));
  } else if (auto ints = n.getInts("value_ints")) {
    value = DenseElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(ints->size())}, b.getI64Type()),
        ArrayRef<int64_t>(*ints));
  } else {
    return n.emitError() << "expected one of the attributes value, value_float, value_floats, "
                            "value_int, value_ints (string and sparse constants are not "
                            "supported)";
  }
  return n.setResults(arith::ConstantOp::create(b, n.getLoc(), cast<TypedAttr>(value)).getResult());
}

} // namespace

void tcc::decompose::registerShapeRules(RuleRegistry &r) {
  r.add("", "Reshape", 5, reshapeRule);
  r.add("", "Flatten", 1, flatten);
  r.add("", "Transpose", 1, transpose);
  r.add("", "Squeeze", 1, squeeze<false>);
  r.add("", "Squeeze", 13, squeeze<true>);
  r.add("", "Unsqueeze", 1, unsqueeze<false>);
  r.add("", "Unsqueeze", 13, unsqueeze<true>);
  r.add("", "Concat", 4, concat);
  r.add("", "Split", 2, split<false>);
  r.add("", "Split", 13, split<true>);
  r.add("", "Shape", 1, shape);
  r.add("", "Size", 1, size);
  r.add("", "Expand", 8, expand);
  r.add("", "Tile", 6, tile);
  r.add("", "ConstantOfShape", 9, constantOfShape);
  r.add("", "Range", 11, range);
  r.add("", "Range", 27, range); // + stash_type
  r.add("", "Constant", 1, constant);
}
