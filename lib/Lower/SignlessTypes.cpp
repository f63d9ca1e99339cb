//===- SignlessTypes.cpp - the pass: unsigned integer types -> signless ones ----------===//
//
// After tcc-lower-prim-to-linalg every operation that depends on signedness has been
// chosen from prim's types (udiv, cmpi ult, extui, uitofp, ...), so the `uiN` types left
// (function signatures, data movement, constants, the casts joining them to the signless
// compute ops) carry no meaning any more. This pass rewrites them all to `iN` (explicitly
// signed `siN` too, which prim does not use), keeping the bits of constants, and drops the
// casts that become casts of a type to itself.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Lower/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tcc {
#define GEN_PASS_DEF_SIGNLESSTYPES
#include "tcc/Lower/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

using AttrResult = std::optional<std::pair<Attribute, WalkResult>>;

struct SignlessTypesPass : tcc::impl::SignlessTypesBase<SignlessTypesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    AttrTypeReplacer replacer;
    // Everything nested (tensor element types, function types in TypeAttrs, ...) is rebuilt
    // around the replaced integer types.
    replacer.addReplacement([ctx](IntegerType type) -> std::optional<Type> {
      if (type.isSignless())
        return std::nullopt;
      return IntegerType::get(ctx, type.getWidth());
    });
    // Elements keep their bits: the same storage under the signless element type.
    replacer.addReplacement([](DenseElementsAttr attr) -> AttrResult {
      auto element = dyn_cast<IntegerType>(attr.getElementType());
      if (!element || element.isSignless())
        return std::nullopt;
      return std::make_pair(
          Attribute(attr.bitcast(IntegerType::get(attr.getContext(), element.getWidth()))),
          WalkResult::skip());
    });
    replacer.addReplacement([&replacer](DenseResourceElementsAttr attr) -> AttrResult {
      auto type = cast<ShapedType>(replacer.replace(attr.getType()));
      if (type == attr.getType())
        return std::nullopt;
      return std::make_pair(Attribute(DenseResourceElementsAttr::get(type, attr.getRawHandle())),
                            WalkResult::skip());
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);

    // The casts between unsigned and signless tensors now cast a type to itself.
    module.walk([](UnrealizedConversionCastOp cast) {
      if (cast.getInputs().getTypes() != cast.getOutputs().getTypes())
        return;
      cast.replaceAllUsesWith(cast.getInputs());
      cast.erase();
    });
  }
};

} // namespace
