//===- Sequence.cpp - rules for sequences, specialized while compiling or packed ---------===//
//
// A sequence is the list of its element tensors (`onnx.sequence`), its length known while
// compiling, or packed (`onnx.packed_sequence`, PackedSequence.cpp) when its length is known
// only at run time: a sequence graph input without --sequence-length, SplitToSequence into a
// run-time number of pieces. A list meets a position known only at run time by a select
// chain (SequenceAt over elements of one type) or by being packed. Optionals: Optional.cpp.
//
//===----------------------------------------------------------------------------------===//
#include "PackedSequence.h"
#include "RuleSupport.h"
#include "RuntimeAxes.h"
#include "Subgraphs.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

std::optional<SmallVector<Value>> tcc::decompose::getSequenceElements(Value value) {
  if (auto sequence = value.getDefiningOp<onnx::SequenceOp>())
    return SmallVector<Value>(sequence.getElements());
  return std::nullopt;
}

std::optional<SmallVector<Value>> tcc::decompose::getSequenceInput(NodeRewriter &n,
                                                                   unsigned index) {
  if (!n.hasInput(index)) {
    n.emitError() << "expected a sequence as input " << index;
    return std::nullopt;
  }
  Value value = n.getNode().getInputs()[index];
  auto elements = getSequenceElements(value);
  if (!elements && getPackedSequence(value))
    n.emitError() << "input " << index << " is a sequence whose length is known only at run "
                  << "time; " << n.getOpType() << " needs its elements while compiling "
                  << "(specialize a sequence graph input: tcc --sequence-length NAME=N)";
  else if (!elements)
    n.emitError() << "input " << index << " has type " << value.getType()
                  << ", expected a sequence";
  return elements;
}

Value tcc::decompose::makeSequence(NodeRewriter &n, ValueRange elements) {
  return onnx::SequenceOp::create(n.getBuilder(), n.getLoc(),
                                  onnx::SequenceType::get(n.getContext()), elements);
}

std::optional<int64_t> tcc::decompose::foldToInteger(Value value) {
  auto values = getConstantInts(value);
  if (!values || values->size() != 1)
    return std::nullopt;
  return values->front();
}

Value tcc::decompose::unsqueezeAt(NodeRewriter &n, Value x, int64_t axis) {
  SmallVector<OpFoldResult> dims = getDims(n, x);
  dims.insert(dims.begin() + axis, n.getBuilder().getIndexAttr(1));
  return reshape(n, x, dims);
}

Value tcc::decompose::stack(NodeRewriter &n, ValueRange values, int64_t axis, StringRef what) {
  // The stacked shape comes from the values: with none there is no shape (a Scan over a
  // batch of 0, a loop of no iterations).
  if (values.empty()) {
    n.emitError() << "there is no " << what << " to stack (0 of them): tcc builds the result "
                  << "from them and cannot tell its shape without one";
    return nullptr;
  }
  SmallVector<Value> parts;
  for (auto [k, v] : llvm::enumerate(values)) {
    if (v.getType() != values.front().getType()) {
      n.emitError() << what << " " << k << " has type " << v.getType() << ", but " << what
                    << " 0 has " << values.front().getType() << "; they must agree to be stacked";
      return nullptr;
    }
    parts.push_back(unsqueezeAt(n, v, axis));
  }
  return n.getBuilder().createOrFold<prim::ConcatenateOp>(n.getLoc(), parts, axis);
}

namespace {

/// Input `index`, a one-element integer tensor, as a position in a sequence of `length`:
/// negative positions count from the end; valid in [-length, length) (or up to `length`
/// itself with `allowEnd`, for SequenceInsert). std::nullopt after an error.
std::optional<int64_t> getPosition(NodeRewriter &n, unsigned index, int64_t length,
                                   bool allowEnd) {
  Value position = n.getInput(index);
  if (!position)
    return std::nullopt;
  std::optional<int64_t> value = foldToInteger(position);
  if (!value) {
    n.emitError() << "input " << index << " (position) must be known while compiling; tcc "
                                          "specializes sequences";
    return std::nullopt;
  }
  int64_t limit = allowEnd ? length : length - 1;
  if (*value < -length || *value > limit) {
    n.emitError() << "position " << *value << " is outside [" << -length << ", " << limit
                  << "] for a sequence of length " << length;
    return std::nullopt;
  }
  return *value < 0 ? *value + length : *value;
}

/// Whether the sequence input `index` is packed, or a list that meets a position (input
/// `position`) known only at run time; either way the rule works on the packed form.
bool isPackedOrRuntime(NodeRewriter &n, unsigned index, unsigned position) {
  if (!n.hasInput(index))
    return false;
  if (getPackedSequence(n.getNode().getInputs()[index]))
    return true;
  if (!n.hasInput(position))
    return false;
  Value p = n.getInput(position);
  return p && !foldToInteger(p) && getSequenceElements(n.getNode().getInputs()[index]);
}

/// SplitToSequence into a number of pieces known only at run time (a dynamic dim, or a
/// `split` input read at run time): lengths per piece, checked, then packed.
//   no split: len = 1 each (count = extent)
//   scalar s: len(k) = min(s, extent - k s), count = ceil(extent / s), s >= 1
//   1-d split: len = split, each >= 0, summing to the extent
LogicalResult runtimeSplitToSequence(NodeRewriter &n, Value x, int64_t axis, Value split) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  auto p = n.prim();
  Type i64 = b.getI64Type();
  OpFoldResult extent = getDims(n, x)[axis];
  if (!split)
    return packedSplit(n, x, axis, p.indexTensor(b.getIndexAttr(1), {extent}),
                       n.getInt("keepdims", 1) != 0);
  if (!isa<IntegerType>(elementOf(split)) || rankOf(split) > 1)
    return n.emitError() << "input 1 (split) must be an integer scalar or 1-d tensor";
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (rankOf(split) == 0) {
    auto s = getShapeElements(n, split);
    if (!s)
      return n.emitError() << "input 1 (split) must be one integer";
    Value size = toIndex(n, (*s)[0]);
    checkTrue(n, b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, size, zero),
              "split must be a size >= 1");
    Value safe = b.createOrFold<arith::MaxSIOp>(loc, size, arith::ConstantIndexOp::create(b, loc, 1));
    OpFoldResult count = ceilDivIndex(n, extent, safe);
    SmallVector<OpFoldResult> dims{count};
    Value k = p.iota(dims, 0, i64);
    Value sizes = p.indexTensor(safe, dims);
    Value left = p.sub(p.indexTensor(extent, dims), p.mul(k, sizes));
    return packedSplit(n, x, axis, p.min(sizes, left), /*keepDims=*/true);
  }
  Value lengths = convert(n, split, i64);
  // Each in [0, extent], so that the sum cannot wrap around to the extent.
  Value inRange = p.both(
      p.cmp(prim::CompareDirection::Ge, lengths, p.splat(lengths, 0)),
      p.cmp(prim::CompareDirection::Le, lengths, p.indexTensor(extent, getDims(n, lengths))));
  Value smallest = prim::ReduceOp::create(b, loc, prim::ReduceKind::Min, convert(n, inRange, i64),
                                          ArrayRef<int64_t>{0});
  Value total = p.sum(lengths, {0});
  Value sumOk = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, tensor::ExtractOp::create(b, loc, total, ValueRange{}),
      arith::IndexCastOp::create(b, loc, i64, toIndex(n, extent)));
  Value allOk = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, tensor::ExtractOp::create(b, loc, smallest, ValueRange{}),
      arith::ConstantIntOp::create(b, loc, i64, 0));
  checkTrue(n, arith::AndIOp::create(b, loc, sumOk, allOk),
            "the split sizes must be in [0, extent] and add up to the extent of the split axis");
  return packedSplit(n, x, axis, lengths, /*keepDims=*/true);
}

// SequenceEmpty() = []
LogicalResult sequenceEmpty(NodeRewriter &n) { return n.setResults(makeSequence(n, {})); }

// SequenceConstruct(x0, ..., xk) = [x0, ..., xk]
LogicalResult sequenceConstruct(NodeRewriter &n) {
  SmallVector<Value> elements;
  for (unsigned i = 0; i < n.getNumInputs(); ++i) {
    Value x = n.getInput(i);
    if (!x)
      return failure();
    elements.push_back(x);
  }
  return n.setResults(makeSequence(n, elements));
}

// SequenceInsert(s, x, p = len(s)) = s[:p] + [x] + s[p:]
LogicalResult sequenceInsert(NodeRewriter &n) {
  Value x = n.getInput(1);
  if (!x)
    return failure();
  if (isPackedOrRuntime(n, 0, 2)) {
    auto packed = getPackedInput(n, 0, x);
    return packed ? packedInsert(n, *packed, x) : failure();
  }
  auto elements = getSequenceInput(n, 0);
  if (!elements)
    return failure();
  int64_t position = static_cast<int64_t>(elements->size());
  if (n.hasInput(2)) {
    auto given = getPosition(n, 2, position, /*allowEnd=*/true);
    if (!given)
      return failure();
    position = *given;
  }
  elements->insert(elements->begin() + position, x);
  return n.setResults(makeSequence(n, *elements));
}

// SequenceErase(s, p = -1) = s[:p] + s[p+1:]
LogicalResult sequenceErase(NodeRewriter &n) {
  if (isPackedOrRuntime(n, 0, 1)) {
    auto packed = getPackedInput(n, 0);
    return packed ? packedErase(n, *packed) : failure();
  }
  auto elements = getSequenceInput(n, 0);
  if (!elements)
    return failure();
  int64_t length = static_cast<int64_t>(elements->size());
  if (length == 0)
    return n.emitError() << "cannot erase from an empty sequence";
  int64_t position = length - 1;
  if (n.hasInput(1)) {
    auto given = getPosition(n, 1, length, /*allowEnd=*/false);
    if (!given)
      return failure();
    position = *given;
  }
  elements->erase(elements->begin() + position);
  return n.setResults(makeSequence(n, *elements));
}

// SequenceAt(s, p) = s[p]; a run-time p over elements of one type:
// select(p == 0 or p == -len, s[0], select(p == 1 or ..., s[1], ... s[len-1]))
LogicalResult sequenceAt(NodeRewriter &n) {
  if (n.hasInput(0))
    if (auto packed = getPackedSequence(n.getNode().getInputs()[0]))
      return packedAt(n, *packed);
  auto elements = getSequenceInput(n, 0);
  Value position = n.getInput(1);
  if (!elements || !position)
    return failure();
  int64_t length = static_cast<int64_t>(elements->size());
  if (length == 0)
    return n.emitError() << "the sequence is empty";
  if (foldToInteger(position)) {
    auto index = getPosition(n, 1, length, /*allowEnd=*/false);
    return index ? n.setResults((*elements)[*index]) : failure();
  }
  // Elements of different shapes, at a position known only at run time: packed.
  for (Value element : *elements)
    if (element.getType() != elements->front().getType()) {
      auto packed = getPackedInput(n, 0);
      return packed ? packedAt(n, *packed) : failure();
    }
  if (!isa<IntegerType>(elementOf(position)))
    return n.emitError() << "input 1 (position) must be an integer tensor";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value scalar = reshape(n, position, {});
  Value result = elements->back();
  SmallVector<OpFoldResult> dims = getDims(n, result);
  for (int64_t k = length - 2; k >= 0; --k) {
    auto equals = [&](int64_t value) {
      return b.createOrFold<prim::CompareOp>(loc, prim::CompareDirection::Eq, scalar,
                                             scalarConstant(n, elementOf(position), value));
    };
    Value hit = b.createOrFold<prim::OrOp>(loc, equals(k), equals(k - length));
    result = prim::SelectOp::create(b, loc, fill(n, hit, dims), (*elements)[k], result);
  }
  // Out-of-range positions are errors in ONNX: checked at run time.
  if (auto index = getShapeElements(n, position); index && index->size() == 1) {
    Value p = toIndex(n, (*index)[0]);
    Value low = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, p,
                                              toIndex(n, b.getIndexAttr(-length)));
    Value high = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, p,
                                               toIndex(n, b.getIndexAttr(length)));
    prim::CheckOp::create(b, loc, b.createOrFold<arith::AndIOp>(loc, low, high),
                          b.getStringAttr("node '" + n.getNode().getNodeName() +
                                          "' (SequenceAt): the position is outside the "
                                          "sequence"));
  }
  return n.setResults(result);
}

// SequenceLength(s) = len(s), an int64 scalar
LogicalResult sequenceLength(NodeRewriter &n) {
  if (n.hasInput(0))
    if (auto packed = getPackedSequence(n.getNode().getInputs()[0]))
      return packedLength(n, *packed);
  auto elements = getSequenceInput(n, 0);
  if (!elements)
    return failure();
  return n.setResults(scalarConstant(n, n.getBuilder().getI64Type(),
                                     static_cast<double>(elements->size())));
}

// ConcatFromSequence(s, axis, new_axis = 0) = concat(s, axis), or stack(s, axis) with new_axis
LogicalResult concatFromSequence(NodeRewriter &n) {
  std::optional<int64_t> axisAttr = n.getOptionalInt("axis");
  if (!axisAttr)
    return n.emitError() << "attribute 'axis' is required";
  bool newAxis = n.getInt("new_axis", 0) != 0;
  if (n.hasInput(0))
    if (auto packed = getPackedSequence(n.getNode().getInputs()[0])) {
      int64_t rank = cast<RankedTensorType>(packed->shapes.getType()).getDimSize(1);
      auto axis = normalizeAxis(n, *axisAttr, newAxis ? rank + 1 : rank);
      return axis ? packedConcat(n, *packed, *axis, newAxis) : failure();
    }
  auto elements = getSequenceInput(n, 0);
  if (!elements)
    return failure();
  if (elements->empty())
    return n.emitError() << "the sequence is empty; ConcatFromSequence needs an element";
  int64_t rank = rankOf(elements->front());
  auto axis = normalizeAxis(n, *axisAttr, newAxis ? rank + 1 : rank);
  if (!axis)
    return failure();
  Type element = elementOf(elements->front());
  for (auto [k, v] : llvm::enumerate(*elements))
    if (rankOf(v) != rank || elementOf(v) != element)
      return n.emitError() << "element " << k << " has type " << v.getType()
                           << ", expected rank " << rank << " and element type " << element;
  if (newAxis) {
    Value stacked = stack(n, *elements, *axis, "element");
    return stacked ? n.setResults(stacked) : failure();
  }
  return n.setResults(
      n.getBuilder().createOrFold<prim::ConcatenateOp>(n.getLoc(), *elements, *axis));
}

// SplitToSequence(x, split, axis = 0, keepdims = 1): pieces of x along axis, of the sizes
// in `split` (1-d), of `split` each with a smaller last one (scalar), or of 1 each, the
// axis dropped when keepdims = 0 (no `split` only)
LogicalResult splitToSequence(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  int64_t rank = rankOf(x);
  auto axis = normalizeAxis(n, n.getInt("axis", 0), rank);
  if (!axis)
    return failure();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  std::optional<int64_t> extent = getConstantIntValue(dims[*axis]);
  Value splitInput = n.hasInput(1) ? n.getInput(1) : Value();
  if (n.hasInput(1) && !splitInput)
    return failure();
  if (!extent || (splitInput && !getConstantInts(splitInput)))
    return runtimeSplitToSequence(n, x, *axis, splitInput);
  SmallVector<int64_t> sizes;
  bool keepDims = true;
  if (splitInput) {
    auto split = getConstantInts(splitInput);
    if (rankOf(splitInput) == 0) {
      if ((*split)[0] <= 0)
        return n.emitError() << "split is " << (*split)[0] << ", expected a size >= 1";
      for (int64_t begin = 0; begin < *extent; begin += (*split)[0])
        sizes.push_back(std::min((*split)[0], *extent - begin));
    } else {
      sizes.assign(split->begin(), split->end());
      int64_t total = 0;
      for (int64_t s : sizes) {
        if (s < 0)
          return n.emitError() << "split has a negative size " << s;
        total += s;
      }
      if (total != *extent)
        return n.emitError() << "the split sizes add up to " << total << ", but dim " << *axis
                             << " has extent " << *extent;
    }
  } else {
    sizes.assign(*extent, 1);
    keepDims = n.getInt("keepdims", 1) != 0;
  }
  OpBuilder &b = n.getBuilder();
  SmallVector<Value> pieces;
  int64_t offset = 0;
  for (int64_t size : sizes) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), extents(dims);
    offsets[*axis] = b.getIndexAttr(offset);
    extents[*axis] = b.getIndexAttr(size);
    Value piece = b.createOrFold<prim::SliceOp>(n.getLoc(), x, offsets, extents,
                                                SmallVector<int64_t>(rank, 1));
    if (!keepDims) {
      extents.erase(extents.begin() + *axis);
      piece = reshape(n, piece, extents);
    }
    pieces.push_back(piece);
    offset += size;
  }
  return n.setResults(makeSequence(n, pieces));
}

} // namespace

namespace tcc::decompose {
void registerSequenceRules(RuleRegistry &r) {
  r.add("", "SequenceEmpty", 11, sequenceEmpty);
  r.add("", "SequenceConstruct", 11, sequenceConstruct);
  r.add("", "SequenceInsert", 11, sequenceInsert);
  r.add("", "SequenceErase", 11, sequenceErase);
  r.add("", "SequenceAt", 11, sequenceAt);
  r.add("", "SequenceLength", 11, sequenceLength);
  r.add("", "ConcatFromSequence", 11, concatFromSequence);
  r.add("", "SplitToSequence", 11, splitToSequence);
}
} // namespace tcc::decompose
