//===- Optional.cpp - rules for optionals, present or empty while compiling or at run time -===//
//
// An optional known while compiling is its value when present and `onnx.none` when empty,
// so OptionalHasElement folds to a constant. One known only at run time (an optional graph
// input compiled without --absent/--present, an If whose branches disagree on it) is an
// `onnx.runtime_optional`: a bool scalar flag and the value, which holds zeros (an input) or
// whatever the model computed in its place (an If) when the flag is false.
//
//===----------------------------------------------------------------------------------===//
#include "RuleSupport.h"
#include "RuntimeAxes.h"
#include "Subgraphs.h"

#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::decompose;

std::optional<RuntimeOptional> tcc::decompose::getRuntimeOptional(Value value) {
  if (auto optional = value.getDefiningOp<onnx::RuntimeOptionalOp>())
    return RuntimeOptional{optional.getPresent(), optional.getValue()};
  return std::nullopt;
}

Value tcc::decompose::makeRuntimeOptional(NodeRewriter &n, Value present, Value value) {
  return onnx::RuntimeOptionalOp::create(n.getBuilder(), n.getLoc(),
                                         onnx::OptionalType::get(n.getContext()), present, value);
}

namespace {

// Optional(x) = x; Optional() = none (an empty optional of the `type` attribute)
LogicalResult optional(NodeRewriter &n) {
  if (n.hasInput(0))
    return n.setResults(n.getNode().getInputs()[0]);
  return n.setResults(
      onnx::NoneOp::create(n.getBuilder(), n.getLoc(), n.getBuilder().getNoneType()).getResult());
}

// OptionalHasElement(x) = x's flag (run time); whether x is present (known while compiling)
LogicalResult optionalHasElement(NodeRewriter &n) {
  if (n.hasInput(0))
    if (auto runtime = getRuntimeOptional(n.getNode().getInputs()[0]))
      return n.setResults(runtime->present);
  return n.setResults(scalarConstant(n, n.getBuilder().getI1Type(), n.hasInput(0) ? 1 : 0));
}

// OptionalGetElement(x) = x's value, which must be present: checked at run time when
// only the flag says so
LogicalResult optionalGetElement(NodeRewriter &n) {
  if (!n.hasInput(0))
    return n.emitError() << "the optional input is empty (known while compiling)";
  Value input = n.getNode().getInputs()[0];
  if (auto runtime = getRuntimeOptional(input)) {
    checkTrue(n, readScalar(n, runtime->present), "the optional input is empty");
    return n.setResults(runtime->value);
  }
  return n.setResults(input);
}

} // namespace

namespace tcc::decompose {
void registerOptionalRules(RuleRegistry &r) {
  r.add("", "Optional", 15, optional);
  r.add("", "OptionalHasElement", 15, optionalHasElement);
  r.add("", "OptionalHasElement", 18, optionalHasElement); // the input may be absent
  r.add("", "OptionalGetElement", 15, optionalGetElement);
  r.add("", "OptionalGetElement", 18, optionalGetElement); // the input may be a tensor
}
} // namespace tcc::decompose
