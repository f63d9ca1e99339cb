//===- OnnxDialect.cpp - the generic `onnx` dialect -------------------------------------===//
#include "dialects/onnx/OnnxDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tcc::onnx;

#include "dialects/onnx/OnnxDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/onnx/OnnxTypes.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/onnx/OnnxOps.cpp.inc"

void OnnxDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/onnx/OnnxTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/onnx/OnnxOps.cpp.inc"
      >();
}

LogicalResult NodeOp::verify() {
  size_t numNames = getSubgraphNames() ? getSubgraphNames()->size() : 0;
  if (numNames != getSubgraphs().size())
    return emitOpError() << "has " << getSubgraphs().size() << " subgraph regions but "
                         << numNames << " subgraph names";
  return success();
}

Region *NodeOp::getSubgraph(StringRef name) {
  if (!getSubgraphNames())
    return nullptr;
  for (auto [index, attr] : llvm::enumerate(*getSubgraphNames()))
    if (cast<StringAttr>(attr).getValue() == name)
      return &getSubgraphs()[index];
  return nullptr;
}

std::string NodeOp::getNodeName() {
  Location loc = getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    loc = fused.getLocations().front();
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  return "";
}

OpFoldResult InitializerOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult InitializerOp::verify() {
  if (getValue().getType() != getResult().getType())
    return emitOpError() << "value type " << getValue().getType()
                         << " differs from the result type " << getResult().getType();
  return success();
}

LogicalResult RuntimeOptionalOp::verify() {
  auto present = cast<RankedTensorType>(getPresent().getType());
  if (present.getRank() != 0)
    return emitOpError() << "present must be a bool scalar, got " << present;
  if (!isa<RankedTensorType, SequenceType>(getValue().getType()))
    return emitOpError() << "value must be a ranked tensor or a sequence, got "
                         << getValue().getType();
  return success();
}

LogicalResult PackedSequenceOp::verify() {
  auto shapes = cast<RankedTensorType>(getShapes().getType());
  auto data = cast<RankedTensorType>(getData().getType());
  if (shapes.getRank() != 2)
    return emitOpError() << "shapes must be [count, rank], got " << shapes;
  if (data.getRank() != 1)
    return emitOpError() << "data must be 1-d (the elements, flattened), got " << data;
  return success();
}
