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
