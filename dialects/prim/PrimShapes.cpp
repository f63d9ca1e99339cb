//===- PrimShapes.cpp - result sizes of prim ops as IR (ReifyRankedShapedTypeOpInterface) -===//
//
// Host code computes every intermediate size from the input dims; these methods say how.
// Static extents are attributes; dynamic ones are index arithmetic over `prim.dim`.
//
//===----------------------------------------------------------------------------------===//
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tcc::prim;

SmallVector<OpFoldResult> tcc::prim::getMixedDims(OpBuilder &builder, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d))
      dims.push_back(DimOp::create(builder, loc, value, d).getResult());
    else
      dims.push_back(builder.getIndexAttr(type.getDimSize(d)));
  }
  return dims;
}

LogicalResult tcc::prim::reifyShapeOfOperand(Operation *op, unsigned index, OpBuilder &builder,
                                             ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(getMixedDims(builder, op->getLoc(), op->getOperand(index)));
  return success();
}

LogicalResult tcc::prim::reifyShapeFromExtents(RankedTensorType type, ValueRange dynamicSizes,
                                               OpBuilder &builder,
                                               ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(getMixedValues(type.getShape(), dynamicSizes, builder));
  return success();
}

namespace {
/// a + b on index values, folded when both are constants.
OpFoldResult addIndex(OpBuilder &b, Location loc, OpFoldResult x, int64_t y) {
  if (auto c = getConstantIntValue(x))
    return b.getIndexAttr(*c + y);
  Value v = getValueOrCreateConstantIndexOp(b, loc, x);
  return b.createOrFold<arith::AddIOp>(loc, v, arith::ConstantIndexOp::create(b, loc, y));
}

/// The spatial extent of a window op for a dynamic input extent.
OpFoldResult windowExtent(OpBuilder &b, Location loc, OpFoldResult in, OpFoldResult window,
                          int64_t stride, int64_t dilation, int64_t low, int64_t high) {
  auto cin = getConstantIntValue(in), cwin = getConstantIntValue(window);
  if (cin && cwin)
    return b.getIndexAttr(windowOutputSize(*cin, *cwin, stride, dilation, low, high));
  Value vin = getValueOrCreateConstantIndexOp(b, loc, in);
  Value vwin = getValueOrCreateConstantIndexOp(b, loc, window);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  // (in + low + high - (dilation * (window - 1) + 1)) / stride + 1
  Value effective = b.createOrFold<arith::AddIOp>(
      loc, b.createOrFold<arith::MulIOp>(loc, cst(dilation),
                                         b.createOrFold<arith::SubIOp>(loc, vwin, cst(1))),
      cst(1));
  Value padded = b.createOrFold<arith::AddIOp>(loc, vin, cst(low + high));
  Value span = b.createOrFold<arith::SubIOp>(loc, padded, effective);
  Value steps = b.createOrFold<arith::DivSIOp>(loc, span, cst(stride));
  return b.createOrFold<arith::AddIOp>(loc, steps, cst(1));
}
} // namespace

LogicalResult TransposeOp::reifyResultShapes(OpBuilder &b, ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> in = getMixedDims(b, getLoc(), getOperand());
  SmallVector<OpFoldResult> out;
  for (int64_t p : getPermutation())
    out.push_back(in[p]);
  shapes.push_back(out);
  return success();
}

LogicalResult SliceOp::reifyResultShapes(OpBuilder &, ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(getMixedSizes());
  return success();
}

LogicalResult PadOp::reifyResultShapes(OpBuilder &b, ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> dims = getMixedDims(b, getLoc(), getOperand());
  for (auto [d, dim] : llvm::enumerate(dims))
    dim = addIndex(b, getLoc(), dim, getLow()[d] + getHigh()[d]);
  shapes.push_back(dims);
  return success();
}

LogicalResult ConcatenateOp::reifyResultShapes(OpBuilder &b,
                                               ReifiedRankedShapedTypeDims &shapes) {
  int64_t axis = getDimension();
  SmallVector<OpFoldResult> dims = getMixedDims(b, getLoc(), getInputs().front());
  // Prefer a static extent from any input for the non-concatenated dims.
  auto resultType = getResult().getType();
  for (int64_t d = 0; d < resultType.getRank(); ++d)
    if (d != axis && !resultType.isDynamicDim(d))
      dims[d] = b.getIndexAttr(resultType.getDimSize(d));
  OpFoldResult total = b.getIndexAttr(0);
  for (Value input : getInputs()) {
    OpFoldResult extent = getMixedDims(b, getLoc(), input)[axis];
    if (auto c = getConstantIntValue(extent)) {
      total = addIndex(b, getLoc(), total, *c);
      continue;
    }
    Value lhs = getValueOrCreateConstantIndexOp(b, getLoc(), total);
    total = b.createOrFold<arith::AddIOp>(getLoc(), lhs, cast<Value>(extent));
  }
  dims[axis] = total;
  shapes.push_back(dims);
  return success();
}

LogicalResult GatherOp::reifyResultShapes(OpBuilder &b, ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> in = getMixedDims(b, getLoc(), getOperand());
  SmallVector<OpFoldResult> indices = getMixedDims(b, getLoc(), getIndices());
  int64_t axis = getAxis();
  SmallVector<OpFoldResult> out(in.begin(), in.begin() + axis);
  llvm::append_range(out, indices);
  out.append(in.begin() + axis + 1, in.end());
  shapes.push_back(out);
  return success();
}

LogicalResult ReduceOp::reifyResultShapes(OpBuilder &b, ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> out;
  for (auto [d, dim] : llvm::enumerate(getMixedDims(b, getLoc(), getOperand())))
    if (!llvm::is_contained(getDimensions(), static_cast<int64_t>(d)))
      out.push_back(dim);
  shapes.push_back(out);
  return success();
}

LogicalResult ArgReduceOp::reifyResultShapes(OpBuilder &b, ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> out = getMixedDims(b, getLoc(), getOperand());
  out.erase(out.begin() + getDimension());
  shapes.push_back(out);
  return success();
}

LogicalResult ReduceWindowOp::reifyResultShapes(OpBuilder &b,
                                                ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> out;
  for (auto [d, dim] : llvm::enumerate(getMixedDims(b, getLoc(), getOperand())))
    out.push_back(windowExtent(b, getLoc(), dim, b.getIndexAttr(getWindowDimensions()[d]),
                               getWindowStrides()[d], getWindowDilations()[d],
                               getPaddingLow()[d], getPaddingHigh()[d]));
  shapes.push_back(out);
  return success();
}

LogicalResult DotGeneralOp::reifyResultShapes(OpBuilder &b, ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> lhs = getMixedDims(b, getLoc(), getLhs());
  SmallVector<OpFoldResult> rhs = getMixedDims(b, getLoc(), getRhs());
  SmallVector<OpFoldResult> out;
  for (auto [l, r] : llvm::zip(getLhsBatchingDimensions(), getRhsBatchingDimensions()))
    out.push_back(getConstantIntValue(lhs[l]) ? lhs[l] : rhs[r]);
  auto appendFree = [&](ArrayRef<OpFoldResult> dims, ArrayRef<int64_t> batch,
                        ArrayRef<int64_t> contracting) {
    for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d)
      if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
        out.push_back(dims[d]);
  };
  appendFree(lhs, getLhsBatchingDimensions(), getLhsContractingDimensions());
  appendFree(rhs, getRhsBatchingDimensions(), getRhsContractingDimensions());
  shapes.push_back(out);
  return success();
}

LogicalResult ConvolutionOp::reifyResultShapes(OpBuilder &b,
                                               ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<OpFoldResult> in = getMixedDims(b, getLoc(), getInput());
  SmallVector<OpFoldResult> filter = getMixedDims(b, getLoc(), getFilter());
  SmallVector<OpFoldResult> out = {in[0], filter[0]};
  for (size_t d = 0; d + 2 < in.size(); ++d)
    out.push_back(windowExtent(b, getLoc(), in[d + 2], filter[d + 2], getStrides()[d],
                               getDilations()[d], getPaddingLow()[d], getPaddingHigh()[d]));
  shapes.push_back(out);
  return success();
}
