//===- Col2Im.cpp - the rule for Col2Im: blocks scattered back into an image -------------===//
//
// Col2Im sums each block of columns into the image at its window's positions: one scatter
// with sum. image_shape and block_shape are constants (checked while compiling) or read at
// run time, where the image's extents, the block counts and the channels become computed
// symbols and the conditions on them run-time checks naming the node.
//
//===----------------------------------------------------------------------------------===//
#include "RuleFamilies.h"
#include "RuleSupport.h"
#include "RuntimeAxes.h"
#include "SamplingMath.h"

#include "tcc/Decompose/RuleRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

namespace {

/// The entries of input `index` (`what`, a 1-d integer tensor of static length) as index
/// values; each known one must be >= 1, and each known only at run time is checked so.
std::optional<SmallVector<OpFoldResult>> getSpatialShape(NodeRewriter &n, unsigned index,
                                                         StringRef what) {
  Value v = n.getInput(index);
  if (!v)
    return std::nullopt;
  auto elements = getShapeElements(n, v);
  if (!elements || rankOf(v) != 1) {
    n.emitError() << "input " << index << " (" << what << ") has type " << v.getType()
                  << ", expected a 1-d integer tensor of static length";
    return std::nullopt;
  }
  OpBuilder &b = n.getBuilder();
  for (size_t k = 0; k < elements->size(); ++k) {
    OpFoldResult &e = (*elements)[k];
    if (auto c = getConstantIntValue(e)) {
      if (*c < 1) {
        n.emitError() << "input " << index << " (" << what << ") has entry " << *c
                      << ", expected >= 1";
        return std::nullopt;
      }
      continue;
    }
    checkTrue(n,
              b.createOrFold<arith::CmpIOp>(n.getLoc(), arith::CmpIPredicate::sge, toIndex(n, e),
                                            arith::ConstantIndexOp::create(b, n.getLoc(), 1)),
              what.str() + " entry " + std::to_string(k) + " must be >= 1");
    e = maxIndex(n, e, b.getIndexAttr(1)); // its extents stay valid where the check fails
  }
  return elements;
}

// col2im(x, image_shape, block_shape)[n, c, i...] = sum over kernel offsets k and blocks l
// with i_j = l_j * stride_j - pad_begin_j + k_j * dilation_j of x[n, c * prod(K) + k, l]:
// a scatter with sum of the rows (k, l), blocks per dim
// L_j = (image_j + pads_j - dilation_j (K_j - 1) - 1) / stride_j + 1; positions in the
// padding are skipped
LogicalResult col2Im(NodeRewriter &n) {
  Value x = n.getInput(0);
  if (!x)
    return failure();
  auto image = getSpatialShape(n, 1, "image_shape");
  auto block = image ? getSpatialShape(n, 2, "block_shape") : std::nullopt;
  if (!block)
    return failure();
  int64_t spatial = static_cast<int64_t>(image->size());
  if (spatial < 1 || static_cast<int64_t>(block->size()) != spatial)
    return n.emitError() << "image_shape has " << spatial << " entries and block_shape "
                         << block->size() << ", expected the same number (>= 1)";
  auto dilations = getSpatialInts(n, "dilations", spatial, 1, 1);
  auto strides = dilations ? getSpatialInts(n, "strides", spatial, 1, 1) : std::nullopt;
  auto pads = strides ? getSpatialInts(n, "pads", 2 * spatial, 0, 0) : std::nullopt;
  if (!pads)
    return failure();
  if (rankOf(x) != 3)
    return n.emitError() << "input 0 has type " << x.getType()
                         << ", expected a 3-d tensor (N, C * prod(block_shape), L)";
  if (elementOf(x).isInteger(1))
    return n.emitError() << "input 0 has type " << x.getType()
                         << ", expected numbers (blocks are summed)";
  OpBuilder &b = n.getBuilder();
  Location loc = n.getLoc();
  auto index = [&](int64_t v) { return OpFoldResult(b.getIndexAttr(v)); };
  SmallVector<OpFoldResult> dims = getDims(n, x);
  OpFoldResult kernel = index(1), blocks = index(1);
  SmallVector<OpFoldResult> counts;
  for (int64_t j = 0; j < spatial; ++j) {
    OpFoldResult span = addIndex(
        n, mulIndex(n, index((*dilations)[j]), subIndex(n, (*block)[j], index(1))), index(1));
    OpFoldResult padded = addIndex(n, (*image)[j], index((*pads)[j] + (*pads)[j + spatial]));
    auto s = getConstantIntValue(span), p = getConstantIntValue(padded);
    if (s && p && *p < *s)
      return n.emitError() << "spatial dim " << j << ": the block (" << *s
                           << " with dilation) is larger than the padded image (" << *p << ")";
    if (!s || !p)
      checkTrue(n,
                b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, toIndex(n, padded),
                                              toIndex(n, span)),
                "spatial dim " + std::to_string(j) +
                    ": the block (with dilation) must fit in the padded image");
    counts.push_back(maxIndex(
        n, addIndex(n, floorDivIndex(n, subIndex(n, padded, span), index((*strides)[j])), index(1)),
        index(0)));
    kernel = mulIndex(n, kernel, (*block)[j]);
    blocks = mulIndex(n, blocks, counts.back());
  }
  OpFoldResult channels;
  if (getConstantIntValue(kernel)) {
    auto exact = divideExactly(n, dims[1], kernel);
    if (!exact)
      return n.emitError() << "input 0 has type " << x.getType()
                           << ": dim 1 must be a multiple of prod(block_shape) = "
                           << *getConstantIntValue(kernel);
    channels = *exact;
  } else {
    channels = floorDivIndex(n, dims[1], kernel);
    checkEqual(n, mulIndex(n, channels, kernel), dims[1],
               "dim 1 of the input must be a multiple of prod(block_shape)");
  }
  auto l = getConstantIntValue(dims[2]), expected = getConstantIntValue(blocks);
  if (l && expected && *l != *expected)
    return n.emitError() << "input 0 has " << *l << " blocks (dim 2), expected " << *expected
                         << " for these image_shape, block_shape, dilations, pads and strides";
  checkEqual(n, dims[2], blocks, "the number of blocks must match image_shape");

  // Rows (k..., l...) of x, as (prod(K) * prod(L), N, C), scattered into (image..., N, C).
  SmallVector<OpFoldResult> split = {dims[0], channels, kernel, blocks};
  Value updates =
      b.createOrFold<prim::TransposeOp>(loc, reshape(n, x, split), ArrayRef<int64_t>{2, 3, 0, 1});
  OpFoldResult rows = mulIndex(n, kernel, blocks);
  updates = reshape(n, updates, {rows, dims[0], channels});
  SmallVector<OpFoldResult> grid(block->begin(), block->end());
  grid.append(counts.begin(), counts.end());
  TensorMath m{n, grid, b.getI64Type()};
  SmallVector<OpFoldResult> rowDims = {rows, index(1)};
  SmallVector<Value> columns;
  for (int64_t j = 0; j < spatial; ++j) {
    Value position = m.add(m.mul(m.iota(j, m.i64()), m.constant((*dilations)[j], m.i64())),
                           m.mul(m.iota(spatial + j, m.i64()), m.constant((*strides)[j], m.i64())));
    position = m.sub(position, m.constant((*pads)[j], m.i64()));
    columns.push_back(reshape(n, position, rowDims));
  }
  Value indices =
      columns.size() == 1 ? columns[0] : Value(prim::ConcatenateOp::create(b, loc, columns, 1));
  SmallVector<OpFoldResult> outDims(image->begin(), image->end());
  outDims.append({dims[0], channels});
  Value zeros = fill(n, scalarConstant(n, elementOf(x), 0.0), outDims);
  Value summed =
      prim::ScatterOp::create(b, loc, zeros.getType(), zeros, indices, updates,
                              prim::ReduceKindAttr::get(n.getContext(), prim::ReduceKind::Sum));
  SmallVector<int64_t> perm = {spatial, spatial + 1};
  for (int64_t j = 0; j < spatial; ++j)
    perm.push_back(j);
  return n.setResults(b.createOrFold<prim::TransposeOp>(loc, summed, perm));
}

} // namespace

void tcc::decompose::registerCol2ImRules(RuleRegistry &r) { r.add("", "Col2Im", 18, col2Im); }
