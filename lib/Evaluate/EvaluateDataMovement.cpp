//===- EvaluateDataMovement.cpp - reference semantics of the data movement prim ops ----===//
//
// Each op computes its result extents from its operands (and its `index` size operands),
// checks every read against the operand's actual extents, then copies elements by their
// row-major positions with copyElement, so strings move as numbers do.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "dialects/prim/PrimDialect.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;
namespace prim = tcc::prim;

namespace {
/// The row-major position of `index` with `strides`.
int64_t linearize(llvm::ArrayRef<int64_t> index, llvm::ArrayRef<int64_t> strides) {
  int64_t position = 0;
  for (auto [i, stride] : llvm::zip(index, strides))
    position += i * stride;
  return position;
}

/// Fills `result` with result[j...] = operand[sourceIndex(j...)], visiting every result
/// position in row-major order. `sourceIndex` writes the operand index for a result index.
template <typename SourceIndexFn>
void gatherElements(Tensor &result, const Tensor &operand, SourceIndexFn sourceIndex) {
  if (result.getNumElements() == 0)
    return;
  llvm::SmallVector<int64_t> index(result.shape.size(), 0), source(operand.shape.size(), 0);
  llvm::SmallVector<int64_t> strides = getStrides(operand.shape);
  int64_t position = 0;
  do {
    sourceIndex(llvm::ArrayRef<int64_t>(index), llvm::MutableArrayRef<int64_t>(source));
    copyElement(result, position++, operand, linearize(source, strides));
  } while (advanceIndex(index, result.shape));
}

// result[j...] = operand[k...] with k[i] = operand_dim(i) == 1 ? 0 : j[dims[i]].
llvm::Expected<Results> broadcastInDim(prim::BroadcastInDimOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  auto shape = resolveShape(op.getType(), op.getDynamicSizes(), env);
  if (!shape)
    return shape.takeError();
  llvm::ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  if (dims.size() != operand.shape.size())
    return makeError("expected " + llvm::Twine(operand.shape.size()) +
                     " broadcast dimensions, got " + llvm::Twine(dims.size()));
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= static_cast<int64_t>(shape->size()))
      return makeError("broadcast dimension " + llvm::Twine(d) + " is out of range");
    if (operand.shape[i] != 1 && operand.shape[i] != (*shape)[d])
      return makeError("operand dim " + llvm::Twine(i) + " (" + llvm::Twine(operand.shape[i]) +
                       ") cannot broadcast to result dim " + llvm::Twine(d) + " (" +
                       llvm::Twine((*shape)[d]) + ")");
  }
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, *shape);
  if (!result)
    return result.takeError();
  gatherElements(*result, operand,
                 [&](llvm::ArrayRef<int64_t> j, llvm::MutableArrayRef<int64_t> k) {
                   for (auto [i, d] : llvm::enumerate(dims))
                     k[i] = operand.shape[i] == 1 ? 0 : j[d];
                 });
  return Results{std::move(*result)};
}

llvm::Expected<Results> reshape(prim::ReshapeOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  auto shape = resolveShape(op.getType(), op.getDynamicSizes(), env);
  if (!shape)
    return shape.takeError();
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, *shape);
  if (!result)
    return result.takeError();
  if (result->getNumElements() != operand.getNumElements())
    return makeError("cannot reshape " + formatShape(operand.shape) + " (" +
                     llvm::Twine(operand.getNumElements()) + " elements) to " +
                     formatShape(*shape) + " (" + llvm::Twine(result->getNumElements()) +
                     " elements)");
  result->bytes = operand.bytes; // row-major order is unchanged
  result->strings = operand.strings;
  return Results{std::move(*result)};
}

// result[i...] = i[dimension]
llvm::Expected<Results> iota(prim::IotaOp op, const Environment &env) {
  auto shape = resolveShape(op.getType(), op.getDynamicSizes(), env);
  if (!shape)
    return shape.takeError();
  int64_t dimension = static_cast<int64_t>(op.getDimension());
  if (dimension < 0 || dimension >= static_cast<int64_t>(shape->size()))
    return makeError("dimension " + llvm::Twine(dimension) + " is out of range");
  llvm::Expected<Tensor> result = makeTensor(op.getType().getElementType(), *shape);
  if (!result)
    return result.takeError();
  if (result->getNumElements() == 0)
    return Results{std::move(*result)};
  llvm::SmallVector<int64_t> index(shape->size(), 0);
  int64_t position = 0;
  do {
    result->setInt(position++, index[dimension]);
  } while (advanceIndex(index, *shape));
  return Results{std::move(*result)};
}

// Result dim i is operand dim permutation[i].
llvm::Expected<Results> transpose(prim::TransposeOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  llvm::ArrayRef<int64_t> permutation = op.getPermutation();
  if (permutation.size() != operand.shape.size())
    return makeError("expected a permutation of " + llvm::Twine(operand.shape.size()) +
                     " dims, got " + llvm::Twine(permutation.size()));
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<bool> seen(operand.shape.size(), false);
  for (int64_t p : permutation) {
    if (p < 0 || p >= static_cast<int64_t>(operand.shape.size()) || seen[p])
      return makeError("invalid permutation entry " + llvm::Twine(p));
    seen[p] = true;
    shape.push_back(operand.shape[p]);
  }
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, shape);
  if (!result)
    return result.takeError();
  gatherElements(*result, operand,
                 [&](llvm::ArrayRef<int64_t> j, llvm::MutableArrayRef<int64_t> k) {
                   for (auto [i, p] : llvm::enumerate(permutation))
                     k[p] = j[i];
                 });
  return Results{std::move(*result)};
}

// result[i...] = operand[offsets + i * strides]; every read must be inside the operand.
llvm::Expected<Results> slice(prim::SliceOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t rank = operand.shape.size();
  llvm::ArrayRef<int64_t> strides = op.getStaticStrides();
  if (llvm::Error error =
          checkListSizes({op.getStaticOffsets(), op.getStaticSizes(), strides}, rank, "slice"))
    return std::move(error);
  // Mixed lists: a dynamic entry takes the next `index` operand of its list.
  auto resolve = [&](llvm::ArrayRef<int64_t> statics, ValueRange dynamics) {
    llvm::SmallVector<int64_t> values;
    unsigned next = 0;
    for (int64_t v : statics)
      values.push_back(ShapedType::isDynamic(v) && next < dynamics.size()
                           ? env.get(dynamics[next++]).getInt(0)
                           : v);
    return values;
  };
  llvm::SmallVector<int64_t> offsets = resolve(op.getStaticOffsets(), op.getOffsets());
  llvm::SmallVector<int64_t> sizes = resolve(op.getStaticSizes(), op.getSizes());
  for (int64_t d = 0; d < rank; ++d) {
    if (offsets[d] < 0 || sizes[d] < 0 || strides[d] < 1)
      return makeError("dim " + llvm::Twine(d) + " has offset " + llvm::Twine(offsets[d]) +
                       ", size " + llvm::Twine(sizes[d]) + " and stride " +
                       llvm::Twine(strides[d]) + " (expected offset, size >= 0 and stride >= 1)");
    // Compare in a form that cannot overflow: the last read is offset + (size-1)*stride.
    if (sizes[d] > 0 && (offsets[d] >= operand.shape[d] ||
                         (sizes[d] - 1) > (operand.shape[d] - 1 - offsets[d]) / strides[d]))
      return makeError("dim " + llvm::Twine(d) + " reads from index " + llvm::Twine(offsets[d]) +
                       " with " + llvm::Twine(sizes[d]) + " elements and stride " +
                       llvm::Twine(strides[d]) + ", beyond the extent " +
                       llvm::Twine(operand.shape[d]));
  }
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, sizes);
  if (!result)
    return result.takeError();
  gatherElements(*result, operand,
                 [&](llvm::ArrayRef<int64_t> j, llvm::MutableArrayRef<int64_t> k) {
                   for (int64_t d = 0; d < rank; ++d)
                     k[d] = offsets[d] + j[d] * strides[d];
                 });
  return Results{std::move(*result)};
}

llvm::Expected<Results> pad(prim::PadOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  const Tensor &value = env.get(op.getPaddingValue());
  int64_t rank = operand.shape.size();
  llvm::ArrayRef<int64_t> low = op.getLow(), high = op.getHigh();
  if (llvm::Error error = checkListSizes({low, high}, rank, "padding"))
    return std::move(error);
  if (value.getNumElements() != 1 || value.elementType != operand.elementType)
    return makeError("the padding value must be one element of the operand's type");
  llvm::SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (low[d] < 0 || high[d] < 0)
      return makeError("paddings of dim " + llvm::Twine(d) + " are negative");
    shape.push_back(operand.shape[d] + low[d] + high[d]);
  }
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, shape);
  if (!result)
    return result.takeError();
  for (int64_t i = 0, e = result->getNumElements(); i < e; ++i)
    copyElement(*result, i, value, 0);
  if (operand.getNumElements() == 0)
    return Results{std::move(*result)};
  llvm::SmallVector<int64_t> index(rank, 0), target(rank, 0);
  llvm::SmallVector<int64_t> resultStrides = getStrides(shape);
  int64_t position = 0;
  do {
    for (int64_t d = 0; d < rank; ++d)
      target[d] = index[d] + low[d];
    copyElement(*result, linearize(target, resultStrides), operand, position++);
  } while (advanceIndex(index, operand.shape));
  return Results{std::move(*result)};
}

llvm::Expected<Results> concatenate(prim::ConcatenateOp op, const Environment &env) {
  if (op.getInputs().empty())
    return makeError("expected at least one input");
  const Tensor &first = env.get(op.getInputs().front());
  int64_t rank = first.shape.size(), axis = static_cast<int64_t>(op.getDimension());
  if (axis < 0 || axis >= rank)
    return makeError("dimension " + llvm::Twine(axis) + " is out of range for rank " +
                     llvm::Twine(rank));
  llvm::SmallVector<int64_t> shape(first.shape);
  shape[axis] = 0;
  for (auto [i, value] : llvm::enumerate(op.getInputs())) {
    const Tensor &input = env.get(value);
    bool agrees =
        static_cast<int64_t>(input.shape.size()) == rank && input.elementType == first.elementType;
    for (int64_t d = 0; agrees && d < rank; ++d)
      agrees = d == axis || input.shape[d] == first.shape[d];
    if (!agrees)
      return makeError("input " + llvm::Twine(i) + " has shape " + formatShape(input.shape) +
                       ", which does not match input 0 (" + formatShape(first.shape) +
                       ") outside dim " + llvm::Twine(axis));
    shape[axis] += input.shape[axis];
  }
  llvm::Expected<Tensor> result = makeTensor(first.elementType, shape);
  if (!result)
    return result.takeError();
  // Each input fills a block of `extent * inner` elements in every `outer` row.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= shape[d];
  int64_t offset = 0;
  for (Value value : op.getInputs()) {
    const Tensor &input = env.get(value);
    int64_t block = input.shape[axis] * inner;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < block; ++k)
        copyElement(*result, o * shape[axis] * inner + offset + k, input, o * block + k);
    offset += block;
  }
  return Results{std::move(*result)};
}

llvm::Expected<Results> reverse(prim::ReverseOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  int64_t rank = operand.shape.size();
  llvm::SmallVector<bool> reversed(rank, false);
  for (int64_t d : op.getDimensions()) {
    if (d < 0 || d >= rank)
      return makeError("dim " + llvm::Twine(d) + " is out of range for rank " + llvm::Twine(rank));
    reversed[d] = true;
  }
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, operand.shape);
  if (!result)
    return result.takeError();
  gatherElements(*result, operand,
                 [&](llvm::ArrayRef<int64_t> j, llvm::MutableArrayRef<int64_t> k) {
                   for (int64_t d = 0; d < rank; ++d)
                     k[d] = reversed[d] ? operand.shape[d] - 1 - j[d] : j[d];
                 });
  return Results{std::move(*result)};
}

// result = the slices operand[a..., i, b...] with mask[i] true, in increasing i.
llvm::Expected<Results> compact(prim::CompactOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  const Tensor &mask = env.get(op.getMask());
  int64_t rank = operand.shape.size(), dim = op.getDimension();
  if (dim < 0 || dim >= rank)
    return makeError("dim " + llvm::Twine(dim) + " is out of range for rank " + llvm::Twine(rank));
  int64_t extent = operand.shape[dim];
  if (mask.getNumElements() != extent)
    return makeError("the mask has " + llvm::Twine(mask.getNumElements()) +
                     " entries, expected " + llvm::Twine(extent));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= operand.shape[d];
  for (int64_t d = dim + 1; d < rank; ++d)
    inner *= operand.shape[d];
  llvm::SmallVector<int64_t> kept;
  for (int64_t i = 0; i < extent; ++i)
    if (mask.getInt(i) != 0)
      kept.push_back(i);
  llvm::SmallVector<int64_t> shape(operand.shape);
  shape[dim] = kept.size();
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, shape);
  if (!result)
    return result.takeError();
  int64_t to = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i : kept)
      for (int64_t k = 0; k < inner; ++k)
        copyElement(*result, to++, operand, (o * extent + i) * inner + k);
  return Results{std::move(*result)};
}

// result[a..., j..., b...] = operand[a..., indices[j...], b...]
llvm::Expected<Results> gather(prim::GatherOp op, const Environment &env) {
  const Tensor &operand = env.get(op.getOperand());
  const Tensor &indices = env.get(op.getIndices());
  int64_t rank = operand.shape.size(), axis = static_cast<int64_t>(op.getAxis());
  if (axis < 0 || axis >= rank)
    return makeError("axis " + llvm::Twine(axis) + " is out of range for rank " +
                     llvm::Twine(rank));
  int64_t extent = operand.shape[axis];
  for (int64_t j = 0, e = indices.getNumElements(); j < e; ++j) {
    int64_t index = indices.getInt(j);
    bool isUnsigned = isUnsignedElement(indices.elementType);
    if ((isUnsigned ? static_cast<uint64_t>(index) >= static_cast<uint64_t>(extent)
                    : (index < 0 || index >= extent)))
      return makeError(
          "index " + (isUnsigned ? llvm::Twine(static_cast<uint64_t>(index)) : llvm::Twine(index)) +
          " at position " + llvm::Twine(j) + " is out of range [0, " + llvm::Twine(extent) + ")");
  }
  llvm::SmallVector<int64_t> shape(operand.shape.begin(), operand.shape.begin() + axis);
  llvm::append_range(shape, indices.shape);
  shape.append(operand.shape.begin() + axis + 1, operand.shape.end());
  llvm::Expected<Tensor> result = makeTensor(operand.elementType, shape);
  if (!result)
    return result.takeError();
  int64_t indexRank = indices.shape.size();
  llvm::SmallVector<int64_t> indexStrides = getStrides(indices.shape);
  gatherElements(*result, operand,
                 [&](llvm::ArrayRef<int64_t> j, llvm::MutableArrayRef<int64_t> k) {
                   for (int64_t d = 0; d < axis; ++d)
                     k[d] = j[d];
                   k[axis] = indices.getInt(linearize(j.slice(axis, indexRank), indexStrides));
                   for (int64_t d = axis + 1; d < rank; ++d)
                     k[d] = j[d - 1 + indexRank];
                 });
  return Results{std::move(*result)};
}
} // namespace

FamilyResult tcc::eval::detail::evaluateDataMovementOp(Operation *op, const Environment &env) {
  return llvm::TypeSwitch<Operation *, FamilyResult>(op)
      .Case([&](prim::BroadcastInDimOp typed) { return broadcastInDim(typed, env); })
      .Case([&](prim::ReshapeOp typed) { return reshape(typed, env); })
      .Case([&](prim::IotaOp typed) { return iota(typed, env); })
      .Case([&](prim::TransposeOp typed) { return transpose(typed, env); })
      .Case([&](prim::SliceOp typed) { return slice(typed, env); })
      .Case([&](prim::PadOp typed) { return pad(typed, env); })
      .Case([&](prim::ConcatenateOp typed) { return concatenate(typed, env); })
      .Case([&](prim::ReverseOp typed) { return reverse(typed, env); })
      .Case([&](prim::GatherOp typed) { return gather(typed, env); })
      .Case([&](prim::CompactOp typed) { return compact(typed, env); })
      .Default(std::nullopt);
}
