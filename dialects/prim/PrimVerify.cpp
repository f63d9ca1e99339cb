//===- PrimVerify.cpp - verifiers and custom builders of prim ops ---------------------===//
#include "dialects/prim/PrimDialect.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tcc::prim;

namespace {
/// Two extents that may both be known: they agree unless both are static and differ.
bool compatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

LogicalResult verifySameShape(Operation *op, Type a, Type b, StringRef aName, StringRef bName) {
  auto ta = cast<RankedTensorType>(a), tb = cast<RankedTensorType>(b);
  if (ta.getRank() != tb.getRank())
    return op->emitOpError() << aName << " has rank " << ta.getRank() << " but " << bName
                             << " has rank " << tb.getRank();
  for (int64_t d = 0; d < ta.getRank(); ++d)
    if (!compatible(ta.getDimSize(d), tb.getDimSize(d)))
      return op->emitOpError() << aName << " and " << bName << " differ in dim " << d << ": "
                               << ta.getDimSize(d) << " vs " << tb.getDimSize(d);
  return success();
}

/// Ops with an operand list of dynamic extents: one per `?` of the result.
LogicalResult verifyExtents(Operation *op, RankedTensorType result, ValueRange dynamicSizes) {
  if (dynamicSizes.size() != result.getNumDynamicDims())
    return op->emitOpError() << "expected " << result.getNumDynamicDims()
                             << " dynamic sizes for result type " << result << ", got "
                             << dynamicSizes.size();
  return success();
}
} // namespace

LogicalResult SelectOp::verify() {
  return verifySameShape(*this, getPred().getType(), getOnTrue().getType(), "pred", "on_true");
}

LogicalResult ConvertOp::verify() {
  return verifySameShape(*this, getOperand().getType(), getResult().getType(), "operand",
                         "result");
}

LogicalResult BitcastConvertOp::verify() {
  if (failed(verifySameShape(*this, getOperand().getType(), getResult().getType(), "operand",
                             "result")))
    return failure();
  Type from = getOperand().getType().getElementType(), to = getResult().getType().getElementType();
  if (!from.isIntOrFloat() || !to.isIntOrFloat())
    return emitOpError() << "element types must be integers or floats, got " << from << " and "
                         << to;
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    return emitOpError() << "element types must have one bit width, got " << from << " and "
                         << to;
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  auto operand = getOperand().getType();
  auto result = getResult().getType();
  if (failed(verifyExtents(*this, result, getDynamicSizes())))
    return failure();
  if (operand.getElementType() != result.getElementType())
    return emitOpError() << "element types differ: " << operand.getElementType() << " vs "
                         << result.getElementType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (static_cast<int64_t>(dims.size()) != operand.getRank())
    return emitOpError() << "expected " << operand.getRank() << " broadcast dimensions, got "
                         << dims.size();
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= result.getRank() || (i > 0 && d <= dims[i - 1]))
      return emitOpError() << "broadcast dimensions must be strictly increasing dims of the "
                              "result, got "
                           << d << " at position " << i;
    int64_t in = operand.getDimSize(i), out = result.getDimSize(d);
    if (in != 1 && !compatible(in, out))
      return emitOpError() << "operand dim " << i << " (" << in << ") cannot broadcast to result dim "
                           << d << " (" << out << ")";
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto operand = getOperand().getType();
  auto result = getResult().getType();
  if (failed(verifyExtents(*this, result, getDynamicSizes())))
    return failure();
  if (operand.getElementType() != result.getElementType())
    return emitOpError() << "element types differ: " << operand.getElementType() << " vs "
                         << result.getElementType();
  if (operand.hasStaticShape() && result.hasStaticShape() &&
      operand.getNumElements() != result.getNumElements())
    return emitOpError() << "operand has " << operand.getNumElements()
                         << " elements but the result has " << result.getNumElements();
  return success();
}

LogicalResult IotaOp::verify() {
  auto result = getResult().getType();
  if (failed(verifyExtents(*this, result, getDynamicSizes())))
    return failure();
  if (static_cast<int64_t>(getDimension()) < 0 || static_cast<int64_t>(getDimension()) >= result.getRank())
    return emitOpError() << "dimension " << getDimension() << " is out of range for rank "
                         << result.getRank();
  return success();
}

void SliceOp::build(OpBuilder &builder, OperationState &state, Value operand,
                    ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
                    ArrayRef<int64_t> strides) {
  SmallVector<int64_t> staticOffsets, staticSizes;
  SmallVector<Value> dynamicOffsets, dynamicSizes;
  dispatchIndexOpFoldResults(offsets, dynamicOffsets, staticOffsets);
  dispatchIndexOpFoldResults(sizes, dynamicSizes, staticSizes);
  auto type = cast<RankedTensorType>(operand.getType());
  auto resultType = type.clone(staticSizes);
  build(builder, state, resultType, operand, dynamicOffsets, dynamicSizes,
        builder.getDenseI64ArrayAttr(staticOffsets), builder.getDenseI64ArrayAttr(staticSizes),
        builder.getDenseI64ArrayAttr(strides));
}

SmallVector<OpFoldResult> SliceOp::getMixedOffsets() {
  return getMixedValues(getStaticOffsets(), getOffsets(), getContext());
}

SmallVector<OpFoldResult> SliceOp::getMixedSizes() {
  return getMixedValues(getStaticSizes(), getSizes(), getContext());
}

LogicalResult SliceOp::verify() {
  auto operand = getOperand().getType();
  auto result = getResult().getType();
  int64_t rank = operand.getRank();
  if (static_cast<int64_t>(getStaticOffsets().size()) != rank ||
      static_cast<int64_t>(getStaticSizes().size()) != rank ||
      static_cast<int64_t>(getStaticStrides().size()) != rank)
    return emitOpError() << "expected " << rank << " offsets, sizes and strides";
  if (result.getRank() != rank || result.getElementType() != operand.getElementType())
    return emitOpError() << "result type " << result << " must have the operand's rank and "
                         << "element type";
  auto countDynamic = [](ArrayRef<int64_t> list) {
    return llvm::count_if(list, [](int64_t v) { return ShapedType::isDynamic(v); });
  };
  if (countDynamic(getStaticOffsets()) != static_cast<int64_t>(getOffsets().size()) ||
      countDynamic(getStaticSizes()) != static_cast<int64_t>(getSizes().size()))
    return emitOpError() << "the number of dynamic offsets and sizes does not match the "
                            "static lists";
  for (int64_t d = 0; d < rank; ++d) {
    int64_t stride = getStaticStrides()[d], size = getStaticSizes()[d],
            offset = getStaticOffsets()[d], in = operand.getDimSize(d);
    if (stride < 1)
      return emitOpError() << "stride of dim " << d << " must be >= 1, got " << stride;
    if (result.getDimSize(d) != size)
      return emitOpError() << "result dim " << d << " is " << result.getDimSize(d)
                           << " but the slice size is " << size;
    if (!ShapedType::isDynamic(size) && size < 0)
      return emitOpError() << "size of dim " << d << " is negative: " << size;
    if (!ShapedType::isDynamic(offset) && offset < 0)
      return emitOpError() << "offset of dim " << d << " is negative: " << offset;
    if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(offset) &&
        !ShapedType::isDynamic(in) && size > 0 && offset + (size - 1) * stride >= in)
      return emitOpError() << "dim " << d << " reads up to index " << offset + (size - 1) * stride
                           << " of an extent of " << in;
  }
  return success();
}

LogicalResult PadOp::verify() {
  auto value = getPaddingValue().getType();
  if (value.getRank() != 0 || value.getElementType() != getOperand().getType().getElementType())
    return emitOpError() << "padding value must be a 0-d tensor of "
                         << getOperand().getType().getElementType() << ", got " << value;
  return success();
}

LogicalResult ReverseOp::verify() {
  for (int64_t d : getDimensions())
    if (d < 0 || d >= getOperand().getType().getRank())
      return emitOpError() << "dim " << d << " is out of range for rank "
                           << getOperand().getType().getRank();
  return success();
}

LogicalResult CumulativeOp::verify() {
  if (static_cast<int64_t>(getDimension()) < 0 ||
      static_cast<int64_t>(getDimension()) >= getOperand().getType().getRank())
    return emitOpError() << "dimension " << getDimension() << " is out of range for rank "
                         << getOperand().getType().getRank();
  if (getKind() != ReduceKind::Sum && getKind() != ReduceKind::Prod &&
      getKind() != ReduceKind::Max && getKind() != ReduceKind::Min)
    return emitOpError() << "kind must be sum, prod, max or min";
  return success();
}

LogicalResult ScatterOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto updates = cast<RankedTensorType>(getUpdates().getType());
  if (indices.getRank() < 1)
    return emitOpError() << "indices must have rank >= 1";
  int64_t k = indices.getShape().back();
  if (ShapedType::isDynamic(k) || k < 1 || k > operand.getRank())
    return emitOpError() << "the last dim of indices (the index tuple length) must be static "
                            "and in [1, "
                         << operand.getRank() << "], got " << indices.getShape().back();
  SmallVector<int64_t> expected(indices.getShape().drop_back());
  llvm::append_range(expected, operand.getShape().drop_front(k));
  if (updates.getRank() != static_cast<int64_t>(expected.size()))
    return emitOpError() << "updates has rank " << updates.getRank() << ", expected "
                         << expected.size() << " (indices' batch dims, then operand dims from "
                         << k << ")";
  for (auto [d, e] : llvm::enumerate(expected))
    if (!ShapedType::isDynamic(e) && !updates.isDynamicDim(d) && updates.getDimSize(d) != e)
      return emitOpError() << "updates dim " << d << " is " << updates.getDimSize(d)
                           << ", expected " << e;
  if (auto combine = getCombine())
    if (*combine != ReduceKind::Sum && *combine != ReduceKind::Prod &&
        *combine != ReduceKind::Max && *combine != ReduceKind::Min)
      return emitOpError() << "combine must be sum, prod, max or min";
  return success();
}

LogicalResult CompactOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto mask = cast<RankedTensorType>(getMask().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t dim = getDimension();
  if (dim < 0 || dim >= operand.getRank())
    return emitOpError() << "dim " << dim << " is outside the operand's rank "
                         << operand.getRank();
  if (mask.getRank() != 1)
    return emitOpError() << "mask must have rank 1, got " << mask.getRank();
  if (!operand.isDynamicDim(dim) && !mask.isDynamicDim(0) &&
      operand.getDimSize(dim) != mask.getDimSize(0))
    return emitOpError() << "mask has " << mask.getDimSize(0) << " entries, expected "
                         << operand.getDimSize(dim) << " (the operand's extent along dim "
                         << dim << ")";
  SmallVector<int64_t> expected(operand.getShape());
  expected[dim] = ShapedType::kDynamic;
  if (result.getElementType() != operand.getElementType() ||
      result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result type must be "
                         << RankedTensorType::get(expected, operand.getElementType())
                         << " (the operand's, with dim " << dim << " dynamic), got " << result;
  return success();
}

LogicalResult LoopOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInits().size() + 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError() << "the body takes the iteration number (index) and the "
                         << getInits().size() << " carried values, got "
                         << body.getNumArguments() << " arguments";
  if (!llvm::equal(getResultTypes(), getInits().getTypes()))
    return emitOpError() << "the results must have the types of the carried values";
  for (auto [i, init] : llvm::enumerate(getInits()))
    if (body.getArgument(i + 1).getType() != init.getType())
      return emitOpError() << "body argument " << i + 1 << " is " << body.getArgument(i + 1).getType()
                           << ", but carried value " << i << " is " << init.getType();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (!llvm::equal(yield.getValues().getTypes(), getInits().getTypes()))
    return emitOpError() << "the body must yield the types of the carried values ("
                         << getInits().getTypes() << "), got " << yield.getValues().getTypes();
  if (std::optional<int64_t> k = getExitUnless()) {
    auto type = *k >= 0 && *k < static_cast<int64_t>(getInits().size())
                    ? dyn_cast<RankedTensorType>(getInits()[*k].getType())
                    : RankedTensorType();
    if (!type || type.getRank() != 0 || !type.getElementType().isInteger(1))
      return emitOpError() << "exit_unless must name a carried tensor<i1>, got " << *k;
  }
  return success();
}

LogicalResult SymbolOp::verify() {
  if (getMin() < 0)
    return emitOpError() << "min must be >= 0, got " << getMin();
  if (getMax() && *getMax() < getMin())
    return emitOpError() << "max (" << *getMax() << ") is below min (" << getMin() << ")";
  if (getDivisor() < 1)
    return emitOpError() << "divisor must be >= 1, got " << getDivisor();
  return success();
}

LogicalResult BindShapeOp::verify() {
  AffineMap map = getShape();
  auto type = getOperand().getType();
  if (map.getNumDims() != 0 || map.getNumSymbols() != getSymbols().size())
    return emitOpError() << "expected a map with no dims and " << getSymbols().size()
                         << " symbols, got " << AffineMapAttr::get(map);
  if (static_cast<int64_t>(map.getNumResults()) != type.getRank())
    return emitOpError() << "expected " << type.getRank() << " map results, got "
                         << map.getNumResults();
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    int64_t size = type.getDimSize(d);
    if (constant && !ShapedType::isDynamic(size) && constant.getValue() != size)
      return emitOpError() << "dim " << d << " is " << size << " but the map says "
                           << constant.getValue();
  }
  return success();
}

LogicalResult BindShapeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  for (Attribute attr : getSymbols()) {
    auto ref = cast<FlatSymbolRefAttr>(attr);
    if (!symbolTable.lookupNearestSymbolFrom<SymbolOp>(*this, ref))
      return emitOpError() << "refers to " << ref << ", which is not a prim.symbol";
  }
  return success();
}

LogicalResult DimOp::verify() {
  if (static_cast<int64_t>(getIndex()) < 0 ||
      static_cast<int64_t>(getIndex()) >= getOperand().getType().getRank())
    return emitOpError() << "dim " << getIndex() << " is out of range for rank "
                         << getOperand().getType().getRank();
  return success();
}

namespace {
/// Format and parse keep the shape and pair a number type with strings.
LogicalResult verifyTextConversion(Operation *op, RankedTensorType number,
                                   RankedTensorType text, StringRef numberName) {
  if (failed(verifySameShape(op, op->getOperand(0).getType(), op->getResult(0).getType(),
                             "operand", "result")))
    return failure();
  Type element = number.getElementType();
  if (!element.isIntOrFloat() || (isa<FloatType>(element) && !element.isF16() &&
                                  !element.isBF16() && !element.isF32() && !element.isF64()) ||
      (isa<IntegerType>(element) && !llvm::is_contained({1u, 8u, 16u, 32u, 64u},
                                                        element.getIntOrFloatBitWidth())))
    return op->emitOpError() << "the " << numberName << " must be f16, bf16, f32, f64, i1 or "
                             << "an 8-64 bit integer, got " << element;
  (void)text;
  return success();
}
} // namespace

LogicalResult FormatOp::verify() {
  return verifyTextConversion(*this, getOperand().getType(), getResult().getType(), "operand");
}

LogicalResult ParseOp::verify() {
  return verifyTextConversion(*this, getResult().getType(), getOperand().getType(), "result");
}

LogicalResult StringInOp::verify() {
  return verifySameShape(*this, getOperand().getType(), getResult().getType(), "operand",
                         "result");
}

LogicalResult DataSymbolOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto symbol = symbolTable.lookupNearestSymbolFrom<SymbolOp>(*this, getSymbolAttr());
  if (!symbol)
    return emitOpError() << "refers to " << getSymbolAttr() << ", which is not a prim.symbol";
  if (!symbol.getComputed())
    return emitOpError() << "refers to " << getSymbolAttr()
                         << ", which is not a computed symbol";
  return success();
}
