//===- SignlessTypes.cpp - the pass: unsigned integer types -> signless ones ----------===//
//
// After tcc-lower-prim-to-linalg every operation that depends on signedness has been
// chosen from prim's types (udiv, cmpi ult, extui, uitofp, ...), so the `uiN` types left
// (function signatures, data movement, constants, the casts joining them to the signless
// compute ops) carry no meaning any more. This pass rewrites them all to `iN` (explicitly
// signed `siN` too, which prim does not use), keeping the bits of constants, and drops the
// casts that become casts of a type to itself. Strings (`!prim.string`) become `i128`, the
// bits of the runtime's tcc_string {data, size}.
//
//===----------------------------------------------------------------------------------===//
#include "tcc/Lower/Passes.h"

#include "dialects/prim/PrimDialect.h"

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

    // Strings become i128s in tcc_string's layout. A constant string is only possible when
    // it is empty ({NULL, 0}, all zero bits): the bytes of other texts would need addresses
    // in the model's data, which constants of tensors cannot hold yet.
    WalkResult constants = module.walk([](Operation *op) {
      for (NamedAttribute attr : op->getAttrs())
        if (auto strings = dyn_cast<DenseStringElementsAttr>(attr.getValue()))
          if (llvm::any_of(strings.getRawStringData(), [](StringRef s) { return !s.empty(); })) {
            op->emitError() << "a constant string tensor with non-empty strings is not "
                               "supported yet (only empty strings can be constants)";
            return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
    if (constants.wasInterrupted())
      return signalPassFailure();

    AttrTypeReplacer replacer;
    replacer.addReplacement([ctx](tcc::prim::StringType) -> std::optional<Type> {
      return IntegerType::get(ctx, 128);
    });
    replacer.addReplacement([ctx](DenseStringElementsAttr attr) -> AttrResult {
      auto type = cast<ShapedType>(attr.getType()).clone(IntegerType::get(ctx, 128));
      return std::make_pair(Attribute(DenseElementsAttr::get(type, APInt(128, 0))),
                            WalkResult::skip());
    });
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
