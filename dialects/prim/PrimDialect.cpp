//===- PrimDialect.cpp - dialect registration and constant materialization ------------===//
#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tcc::prim;

#include "dialects/prim/PrimDialect.cpp.inc"
#include "dialects/prim/PrimEnums.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "dialects/prim/PrimTypes.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/prim/PrimOps.cpp.inc"

mlir::LogicalResult PrimDialect::verifyOperationAttribute(mlir::Operation *op,
                                                         mlir::NamedAttribute attribute) {
  llvm::StringRef name = attribute.getName().strref();
  if (name == kInvariantExtentsAttrName) {
    if (!mlir::isa<mlir::UnitAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' expects no value, got " << attribute.getValue();
    if (op->getName().getStringRef() != "scf.for")
      return op->emitError() << "'" << name << "' is only valid on an scf.for, not on '"
                             << op->getName() << "'";
    return mlir::success();
  }
  if (name == kIndexErrorAttrName) {
    if (!mlir::isa<mlir::StringAttr>(attribute.getValue()))
      return op->emitError() << "'" << name << "' expects a string, got " << attribute.getValue();
    if (op->getName().getStringRef() != "prim.gather")
      return op->emitError() << "'" << name << "' is only valid on a prim.gather, not on '"
                             << op->getName() << "'";
    return mlir::success();
  }
  return op->emitError() << "unknown attribute '" << name << "' of the prim dialect";
}

void PrimDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/prim/PrimTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/prim/PrimOps.cpp.inc"
      >();
}

Operation *PrimDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                            Location loc) {
  if (arith::ConstantOp::isBuildableWith(value, type))
    return arith::ConstantOp::create(builder, loc, type, cast<TypedAttr>(value));
  return nullptr;
}
