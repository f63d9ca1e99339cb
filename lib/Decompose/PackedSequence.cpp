//===- PackedSequence.cpp - sequences whose length is known only at run time ------------===//
//
// A packed sequence (`onnx.packed_sequence`) is two tensors: `shapes` [count, rank] (i64),
// one row of extents per element, and `data` [size], the elements flattened row-major and
// concatenated in order. Element k starts at offset(k) = sum of the sizes of the rows before
// it (size(k) = product of row k). The rules below compute on these with prim ops; extents
// read from an input's `shapes` become computed symbols (tcc-data-extents). Every row read
// while compiling the symbols is clamped into the table, and the runtime passes an empty
// table as zeros (model_abi.h), so no read leaves the caller's buffers.
//
//===----------------------------------------------------------------------------------===//
#include "PackedSequence.h"
#include "RuntimeAxes.h"
#include "Scalarize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

using prim::CompareDirection;

std::optional<PackedSequence> tcc::decompose::getPackedSequence(Value value) {
  if (auto packed = value.getDefiningOp<onnx::PackedSequenceOp>())
    return PackedSequence{packed.getShapes(), packed.getData()};
  return std::nullopt;
}

Value tcc::decompose::makePackedSequence(NodeRewriter &n, Value shapes, Value data) {
  return onnx::PackedSequenceOp::create(n.getBuilder(), n.getLoc(),
                                        onnx::SequenceType::get(n.getContext()), shapes, data);
}

PackedSequence tcc::decompose::packElements(prim::PrimBuilder &p, ValueRange elements, Type element,
                                            int64_t rank) {
  OpBuilder &b = p.b;
  Type i64 = b.getI64Type();
  SmallVector<Value> rows, flats;
  for (Value v : elements) {
    SmallVector<OpFoldResult> dims = p.dims(v);
    SmallVector<Value> extents;
    for (OpFoldResult d : dims)
      extents.push_back(b.createOrFold<arith::IndexCastOp>(p.loc, i64, p.index(d)));
    Value row = extents.empty()
                    ? p.zeros({b.getIndexAttr(1), b.getIndexAttr(0)}, i64)
                    : p.reshape(tensor::FromElementsOp::create(b, p.loc, extents).getResult(),
                                {b.getIndexAttr(1), b.getIndexAttr(rank)});
    rows.push_back(row);
    flats.push_back(p.reshape(v, {p.product(dims)}));
  }
  if (elements.empty())
    return {p.zeros({b.getIndexAttr(0), b.getIndexAttr(rank)}, i64),
            p.zeros({b.getIndexAttr(0)}, element)};
  return {b.createOrFold<prim::ConcatenateOp>(p.loc, rows, 0),
          b.createOrFold<prim::ConcatenateOp>(p.loc, flats, 0)};
}

std::optional<size_t> tcc::decompose::findMismatch(ValueRange elements, Type element,
                                                   int64_t rank) {
  for (auto [k, v] : llvm::enumerate(elements))
    if (elementOf(v) != element || rankOf(v) != rank)
      return k;
  return std::nullopt;
}

std::optional<PackedSequence> tcc::decompose::getPackedInput(NodeRewriter &n, unsigned index,
                                                             Value like) {
  if (!n.hasInput(index)) {
    n.emitError() << "expected a sequence as input " << index;
    return std::nullopt;
  }
  Value value = n.getNode().getInputs()[index];
  if (auto packed = getPackedSequence(value))
    return packed;
  auto elements = getSequenceElements(value);
  if (!elements) {
    n.emitError() << "input " << index << " has type " << value.getType()
                  << ", expected a sequence";
    return std::nullopt;
  }
  Value model = like ? like : elements->empty() ? Value() : elements->front();
  if (!model) {
    n.emitError() << "input " << index
                  << " is an empty sequence whose element type is not "
                     "known here";
    return std::nullopt;
  }
  if (auto k = findMismatch(*elements, elementOf(model), rankOf(model))) {
    n.emitError() << "element " << *k << " of input " << index << " has type "
                  << (*elements)[*k].getType() << ", but the sequence holds rank-" << rankOf(model)
                  << " tensors of " << elementOf(model);
    return std::nullopt;
  }
  auto p = n.prim();
  return packElements(p, *elements, elementOf(model), rankOf(model));
}

namespace {

Type i64Of(NodeRewriter &n) { return n.getBuilder().getI64Type(); }

/// The number of elements (dim 0 of shapes).
OpFoldResult countOf(NodeRewriter &n, const PackedSequence &s) { return getDims(n, s.shapes)[0]; }

int64_t rankOfElements(const PackedSequence &s) {
  return cast<RankedTensorType>(s.shapes.getType()).getDimSize(1);
}

/// size(k) for every k: [count] i64.
Value sizesOf(NodeRewriter &n, const PackedSequence &s) {
  return prim::ReduceOp::create(n.getBuilder(), n.getLoc(), prim::ReduceKind::Prod, s.shapes,
                                ArrayRef<int64_t>{1});
}

/// An i64 tensor of `dims` filled with index `v`.
Value splat(NodeRewriter &n, OpFoldResult v, ArrayRef<OpFoldResult> dims) {
  return n.prim().indexTensor(v, dims);
}

/// The index value of a 0-d i64 tensor.
Value toIndexScalar(NodeRewriter &n, Value scalar0d) {
  OpBuilder &b = n.getBuilder();
  Value element = tensor::ExtractOp::create(b, n.getLoc(), scalar0d, ValueRange{});
  return arith::IndexCastOp::create(b, n.getLoc(), b.getIndexType(), element);
}

/// sum(values[i] for i < limit) over a [count] i64 tensor, as an index (offset(limit) for
/// values = sizes).
Value sumBefore(NodeRewriter &n, Value values, OpFoldResult limit) {
  SmallVector<OpFoldResult> dims = getDims(n, values);
  auto p = n.prim();
  Value before = p.cmp(CompareDirection::Lt, p.iota(dims, 0, i64Of(n)), splat(n, limit, dims));
  Value kept = p.select(before, values, p.zeros(dims, i64Of(n)));
  return toIndexScalar(n, p.sum(kept, {0}));
}

/// The extents of element `row` (clamped into the table): index values read from shapes, or
/// computed from the graph inputs the table was built from (scalarizeElement, Scalarize.h).
SmallVector<OpFoldResult> rowDims(NodeRewriter &n, const PackedSequence &s, OpFoldResult row) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value r = clampRow(n, row, countOf(n, s));
  SmallVector<OpFoldResult> dims;
  for (int64_t j = 0; j < rankOfElements(s); ++j) {
    Value column = arith::ConstantIndexOp::create(b, loc, j);
    Value e = scalarizeElement(n, s.shapes, {r, column});
    if (!e)
      e = tensor::ExtractOp::create(b, loc, s.shapes, ValueRange{r, column});
    dims.push_back(b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), e));
  }
  return dims;
}

/// Element `row` of the sequence (row in [0, count), checked by the caller).
Value elementAt(NodeRewriter &n, const PackedSequence &s, OpFoldResult row) {
  SmallVector<OpFoldResult> dims = rowDims(n, s, row);
  Value offset = sumBefore(n, sizesOf(n, s), row);
  Value flat = n.prim().slice(s.data, 0, offset, product(n, dims));
  return reshape(n, flat, dims);
}

/// Input `index` (a one-element integer tensor) as a position in a sequence of `count`
/// elements, negative positions counting from the end, checked at run time to lie in
/// [-count, count) (or [-count, count] with `allowEnd`). Null after an error.
Value runtimePosition(NodeRewriter &n, unsigned index, OpFoldResult count, bool allowEnd) {
  Value position = n.getInput(index);
  if (!position)
    return nullptr;
  auto elements = getShapeElements(n, position);
  if (!elements || elements->size() != 1) {
    n.emitError() << "input " << index << " (position) must be one integer";
    return nullptr;
  }
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  Value p = toIndex(n, (*elements)[0]);
  Value c = toIndex(n, count);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, p, zero);
  Value normalized =
      b.createOrFold<arith::SelectOp>(loc, negative, b.createOrFold<arith::AddIOp>(loc, p, c), p);
  Value low = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, normalized, zero);
  Value high = b.createOrFold<arith::CmpIOp>(
      loc, allowEnd ? arith::CmpIPredicate::sle : arith::CmpIPredicate::slt, normalized, c);
  checkTrue(n, b.createOrFold<arith::AndIOp>(loc, low, high),
            "the position is outside the sequence");
  return normalized;
}

/// rows[i] = source[indices[i]] along dim 0.
Value gatherRows(NodeRewriter &n, Value source, Value indices) {
  return prim::GatherOp::create(n.getBuilder(), n.getLoc(), source, indices, 0);
}

/// For every position in `positions` ([m] i64), the segment k with starts[k] <= position <
/// starts[k + 1] (`starts`: [count] i64, ascending, starts[0] = 0): [m] i64.
Value segmentOf(NodeRewriter &n, Value positions, Value starts) {
  auto p = n.prim();
  SmallVector<OpFoldResult> m = getDims(n, positions), c = getDims(n, starts);
  SmallVector<OpFoldResult> grid{m[0], c[0]};
  Value pos = p.broadcast(positions, {0}, grid), from = p.broadcast(starts, {1}, grid);
  Value started = p.convert(p.cmp(CompareDirection::Ge, pos, from), i64Of(n));
  Value k = p.sum(started, {1});
  return p.sub(k, p.splat(k, 1));
}

} // namespace

// SequenceLength(s) = count, an int64 scalar
LogicalResult tcc::decompose::packedLength(NodeRewriter &n, const PackedSequence &s) {
  return n.setResults(makeShapeTensor(n, {countOf(n, s)}, i64Of(n), /*scalar=*/true));
}

// SequenceAt(s, p) = reshape(data[offset(p) : offset(p) + size(p)], shapes[p])
LogicalResult tcc::decompose::packedAt(NodeRewriter &n, const PackedSequence &s) {
  Value p = runtimePosition(n, 1, countOf(n, s), /*allowEnd=*/false);
  return p ? n.setResults(elementAt(n, s, p)) : failure();
}

// SequenceInsert(s, x, p = count): rows [0, p) of s, x, rows [p, count); data likewise,
// gathered from concat(s, x):
//   row i <- i < p ? i : i == p ? count : i - 1
//   element j <- j < offset(p) ? j : j < offset(p) + size(x) ? size + j - offset(p) : j - size(x)
LogicalResult tcc::decompose::packedInsert(NodeRewriter &n, const PackedSequence &s, Value x) {
  if (elementOf(x) != elementOf(s.data) || rankOf(x) != rankOfElements(s))
    return n.emitError() << "input 1 has type " << x.getType() << ", but the sequence holds rank-"
                         << rankOfElements(s) << " tensors of " << elementOf(s.data);
  OpBuilder &b = n.getBuilder();
  auto p = n.prim();
  SmallVector<OpFoldResult> xDims = getDims(n, x);
  int64_t rank = rankOfElements(s);
  Value row =
      reshape(n, makeShapeTensor(n, xDims, i64Of(n)), {b.getIndexAttr(1), b.getIndexAttr(rank)});
  OpFoldResult xSize = product(n, xDims);
  Value flat = reshape(n, x, {xSize});
  Value shapes = b.createOrFold<prim::ConcatenateOp>(n.getLoc(), ValueRange{s.shapes, row}, 0);
  Value data = b.createOrFold<prim::ConcatenateOp>(n.getLoc(), ValueRange{s.data, flat}, 0);
  if (!n.hasInput(2))
    return n.setResults(makePackedSequence(n, shapes, data));
  OpFoldResult count = countOf(n, s);
  Value at = runtimePosition(n, 2, count, /*allowEnd=*/true);
  if (!at)
    return failure();
  SmallVector<OpFoldResult> rowExtent = {addIndex(n, count, b.getIndexAttr(1))};
  Value i = p.iota(rowExtent, 0, i64Of(n));
  Value pAt = splat(n, at, rowExtent);
  Value rows = p.select(p.cmp(CompareDirection::Lt, i, pAt), i,
                        p.select(p.cmp(CompareDirection::Eq, i, pAt), splat(n, count, rowExtent),
                                 p.sub(i, p.splat(i, 1))));
  OpFoldResult size = getDims(n, s.data)[0];
  SmallVector<OpFoldResult> dataDims = {addIndex(n, size, xSize)};
  Value offset = sumBefore(n, sizesOf(n, s), at);
  Value j = p.iota(dataDims, 0, i64Of(n));
  Value start = splat(n, offset, dataDims);
  Value end = splat(n, addIndex(n, offset, xSize), dataDims);
  Value elements = p.select(p.cmp(CompareDirection::Lt, j, start), j,
                            p.select(p.cmp(CompareDirection::Lt, j, end),
                                     p.add(p.sub(j, start), splat(n, size, dataDims)),
                                     p.sub(j, splat(n, xSize, dataDims))));
  return n.setResults(
      makePackedSequence(n, gatherRows(n, shapes, rows), gatherRows(n, data, elements)));
}

// SequenceErase(s, p = -1): rows other than p, and their data:
//   row i <- i < p ? i : i + 1;  element j <- j < offset(p) ? j : j + size(p)
LogicalResult tcc::decompose::packedErase(NodeRewriter &n, const PackedSequence &s) {
  OpBuilder &b = n.getBuilder();
  auto p = n.prim();
  OpFoldResult count = countOf(n, s);
  Value at;
  if (n.hasInput(1)) {
    at = runtimePosition(n, 1, count, /*allowEnd=*/false);
    if (!at)
      return failure();
  } else {
    Value c = toIndex(n, count);
    checkTrue(n,
              b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::sgt, c,
                                            arith::ConstantIndexOp::create(b, n.getLoc(), 0)),
              "cannot erase from an empty sequence");
    at = toIndex(n, subIndex(n, count, b.getIndexAttr(1)));
  }
  SmallVector<OpFoldResult> rowExtent = {
      maxIndex(n, subIndex(n, count, b.getIndexAttr(1)), b.getIndexAttr(0))};
  Value i = p.iota(rowExtent, 0, i64Of(n));
  Value rows =
      p.select(p.cmp(CompareDirection::Lt, i, splat(n, at, rowExtent)), i, p.add(i, p.splat(i, 1)));
  OpFoldResult erased = product(n, rowDims(n, s, at));
  OpFoldResult size = getDims(n, s.data)[0];
  SmallVector<OpFoldResult> dataDims = {maxIndex(n, subIndex(n, size, erased), b.getIndexAttr(0))};
  Value offset = sumBefore(n, sizesOf(n, s), at);
  Value j = p.iota(dataDims, 0, i64Of(n));
  Value elements = p.select(p.cmp(CompareDirection::Lt, j, splat(n, offset, dataDims)), j,
                            p.add(j, splat(n, erased, dataDims)));
  return n.setResults(
      makePackedSequence(n, gatherRows(n, s.shapes, rows), gatherRows(n, s.data, elements)));
}

/// A run-time check that every row of shapes equals row 0 outside column `except` (-1: none).
static void checkRowsAgree(NodeRewriter &n, const PackedSequence &s, int64_t except) {
  auto p = n.prim();
  SmallVector<OpFoldResult> dims = getDims(n, s.shapes);
  OpBuilder &b = n.getBuilder();
  Value first = p.slice(s.shapes, 0, b.getIndexAttr(0), b.getIndexAttr(1));
  Value same = p.cmp(CompareDirection::Eq, s.shapes, p.broadcast(first, {0, 1}, dims));
  if (except >= 0) {
    Value column = p.iota(dims, 1, i64Of(n));
    same = p.either(same, p.cmp(CompareDirection::Eq, column, p.splat(column, except)));
  }
  Value all = prim::ReduceOp::create(b, n.getLoc(), prim::ReduceKind::Min,
                                     p.convert(same, i64Of(n)), ArrayRef<int64_t>{0, 1});
  Value one = arith::ConstantIntOp::create(b, n.getLoc(), i64Of(n), 1);
  checkTrue(n,
            arith::CmpIOp::create(b, n.getLoc(), arith::CmpIPredicate::eq,
                                  tensor::ExtractOp::create(b, n.getLoc(), all, ValueRange{}), one),
            except < 0 ? "the elements differ in shape; they must agree to be stacked"
                       : "the elements differ in shape outside the concatenation axis");
}

// ConcatFromSequence(s, axis, new_axis):
//   new_axis = 1: reshape(data, [count] + shape(0)), dim 0 moved to `axis`
//   new_axis = 0: out[o, j, i] = data[offset(k) + (o * a(k) + j - start(k)) * inner + i] with
//     k the element holding j along `axis` (start(k) = a(0) + ... + a(k - 1), a = shapes[:, axis])
LogicalResult tcc::decompose::packedConcat(NodeRewriter &n, const PackedSequence &s, int64_t axis,
                                           bool newAxis) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  auto p = n.prim();
  OpFoldResult count = countOf(n, s);
  checkTrue(n,
            b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, toIndex(n, count),
                                          arith::ConstantIndexOp::create(b, loc, 0)),
            "the sequence is empty; ConcatFromSequence needs an element");
  int64_t rank = rankOfElements(s);
  SmallVector<OpFoldResult> first = rowDims(n, s, b.getIndexAttr(0));
  if (newAxis) {
    checkRowsAgree(n, s, -1);
    SmallVector<OpFoldResult> dims{count};
    llvm::append_range(dims, first);
    Value stacked = reshape(n, s.data, dims);
    SmallVector<int64_t> permutation;
    for (int64_t d = 1; d <= rank; ++d)
      permutation.push_back(d);
    permutation.insert(permutation.begin() + axis, 0);
    return n.setResults(axis == 0 ? stacked : p.transpose(stacked, permutation));
  }
  checkRowsAgree(n, s, axis);
  SmallVector<OpFoldResult> outer(first.begin(), first.begin() + axis),
      innerDims(first.begin() + axis + 1, first.end());
  OpFoldResult o = product(n, outer), inner = product(n, innerDims);
  OpFoldResult others = mulIndex(n, o, inner);
  OpFoldResult size = getDims(n, s.data)[0];
  // The extent along axis is the sum of a(k) = size / (o * inner), unless o * inner is 0.
  checkTrue(n,
            b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, toIndex(n, others),
                                          arith::ConstantIndexOp::create(b, loc, 0)),
            "the elements are empty outside the concatenation axis, which a run-time "
            "sequence does not support");
  OpFoldResult extent = floorDivIndex(n, size, maxIndex(n, others, b.getIndexAttr(1)));
  SmallVector<OpFoldResult> dims = outer;
  dims.push_back(extent);
  llvm::append_range(dims, innerDims);
  if (axis == 0)
    return n.setResults(reshape(n, s.data, dims));
  // Per position j along the axis: its element k, start(k), a(k) and offset(k).
  Value a = reshape(n, p.slice(s.shapes, 1, b.getIndexAttr(axis), b.getIndexAttr(1)), {count});
  Value starts = prim::CumulativeOp::create(b, loc, prim::ReduceKind::Sum, a, 0,
                                            /*exclusive=*/true, /*reverse=*/false);
  Value offsets = prim::CumulativeOp::create(b, loc, prim::ReduceKind::Sum, sizesOf(n, s), 0,
                                             /*exclusive=*/true, /*reverse=*/false);
  Value j = p.iota({extent}, 0, i64Of(n));
  Value k = segmentOf(n, j, starts);
  Value local = p.sub(j, gatherRows(n, starts, k));
  Value aK = gatherRows(n, a, k), offsetK = gatherRows(n, offsets, k);
  SmallVector<OpFoldResult> grid{o, extent, inner};
  auto spread = [&](Value v) { return p.broadcast(v, {1}, grid); };
  Value oi = p.iota(grid, 0, i64Of(n)), ii = p.iota(grid, 2, i64Of(n));
  Value innerT = splat(n, inner, grid);
  Value source =
      p.add(spread(offsetK), p.add(p.mul(p.add(p.mul(oi, spread(aK)), spread(local)), innerT), ii));
  Value flat = reshape(n, source, {mulIndex(n, others, extent)});
  return n.setResults(reshape(n, gatherRows(n, s.data, flat), dims));
}

// SplitToSequence(x, split, axis) with pieces known only at run time: piece k holds
// x[..., start(k) : start(k) + len(k), ...]; its row is x's shape with len(k) at axis
// (dropped with keepdims = 0 and no split). Flattened, piece k's element
// (o, j', i) comes from x[o, start(k) + j', i] and goes to offset(k) + (o * len(k) + j') * inner +
// i.
LogicalResult tcc::decompose::packedSplit(NodeRewriter &n, Value x, int64_t axis, Value lengths,
                                          bool keepDims) {
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  auto p = n.prim();
  SmallVector<OpFoldResult> dims = getDims(n, x);
  OpFoldResult count = getDims(n, lengths)[0];
  int64_t rank = rankOf(x);
  // Rows: x's dims as a [count, rank] table with column axis = lengths.
  SmallVector<OpFoldResult> table{count, b.getIndexAttr(rank)};
  Value shape = p.broadcast(makeShapeTensor(n, dims, i64Of(n)), {1}, table);
  Value column = p.iota(table, 1, i64Of(n));
  Value rows = p.select(p.cmp(CompareDirection::Eq, column, p.splat(column, axis)),
                        p.broadcast(lengths, {0}, table), shape);
  if (!keepDims) {
    SmallVector<Value> kept;
    if (axis > 0)
      kept.push_back(p.slice(rows, 1, b.getIndexAttr(0), b.getIndexAttr(axis)));
    if (axis + 1 < rank)
      kept.push_back(p.slice(rows, 1, b.getIndexAttr(axis + 1), b.getIndexAttr(rank - axis - 1)));
    rows = kept.empty() ? p.zeros({count, b.getIndexAttr(0)}, i64Of(n))
                        : b.createOrFold<prim::ConcatenateOp>(loc, kept, 1);
  }
  SmallVector<OpFoldResult> outerDims(dims.begin(), dims.begin() + axis),
      innerDims(dims.begin() + axis + 1, dims.end());
  OpFoldResult o = product(n, outerDims), inner = product(n, innerDims);
  OpFoldResult total = product(n, dims);
  Value flatX = reshape(n, x, {total});
  if (getConstantIntValue(o) == 1) // pieces are contiguous in x
    return n.setResults(makePackedSequence(n, rows, flatX));
  // Destination t -> its piece k (by offsets), then (o, j', i) and x's index.
  Value starts = prim::CumulativeOp::create(b, loc, prim::ReduceKind::Sum, lengths, 0,
                                            /*exclusive=*/true, /*reverse=*/false);
  Value sizes = p.mul(lengths, splat(n, mulIndex(n, o, inner), {count}));
  Value offsets = prim::CumulativeOp::create(b, loc, prim::ReduceKind::Sum, sizes, 0,
                                             /*exclusive=*/true, /*reverse=*/false);
  SmallVector<OpFoldResult> flatDims{total};
  Value t = p.iota(flatDims, 0, i64Of(n));
  Value k = segmentOf(n, t, offsets);
  Value local = p.sub(t, gatherRows(n, offsets, k));
  Value lenK = gatherRows(n, lengths, k), startK = gatherRows(n, starts, k);
  Value innerT = splat(n, inner, flatDims);
  Value rowLength = p.mul(p.max(lenK, p.splat(lenK, 1)), innerT); // len(k) * inner
  Value oIndex = p.div(local, p.max(rowLength, p.splat(rowLength, 1)));
  Value rest = p.sub(local, p.mul(oIndex, rowLength));
  Value jIndex = p.div(rest, innerT);
  Value iIndex = p.sub(rest, p.mul(jIndex, innerT));
  Value axisExtent = splat(n, dims[axis], flatDims);
  Value source =
      p.add(p.mul(p.add(p.mul(oIndex, axisExtent), p.add(startK, jIndex)), innerT), iIndex);
  return n.setResults(makePackedSequence(n, rows, gatherRows(n, flatX, source)));
}
