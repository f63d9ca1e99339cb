//===- NodeRewriter.cpp - what a decomposition rule sees of its node ------------------===//
#include "NodeRewriter.h"

#include "tcc/Decompose/RuleRegistry.h"

using namespace mlir;
using namespace tcc::decompose;

InFlightDiagnostic NodeRewriter::emitError() {
  failed = true;
  std::string name = node.getNodeName();
  return node.emitError() << "node '" << name << "' (" << node.getOpType()
                          << (node.getDomain().empty() ? "" : ", domain " + node.getDomain().str())
                          << ", opset " << getVersion() << "): ";
}

bool NodeRewriter::hasInput(unsigned index) {
  return index < getNumInputs() && !isa<NoneType>(node.getInputs()[index].getType());
}

Value NodeRewriter::getOptionalInput(unsigned index) {
  if (!hasInput(index))
    return nullptr;
  Value value = node.getInputs()[index];
  if (isa<onnx::OptionalType>(value.getType())) {
    emitError() << "input " << index << " is an optional that is present or empty at run time; "
                << "expected a tensor (read it with OptionalGetElement, or compile the "
                   "optional graph input present or absent: tcc --present NAME, --absent NAME)";
    return nullptr;
  }
  if (!isa<RankedTensorType>(value.getType())) {
    emitError() << "input " << index << " has type " << value.getType()
                << ", expected a ranked tensor";
    return nullptr;
  }
  return value;
}

Value NodeRewriter::getInput(unsigned index) {
  if (!hasInput(index)) {
    emitError() << "expected input " << index << ", but the node has "
                << (index < getNumInputs() ? "an empty name there" : "only " +
                    std::to_string(getNumInputs()) + " inputs");
    return nullptr;
  }
  return getOptionalInput(index);
}

Value NodeRewriter::getFloatInput(unsigned index) {
  Value v = getInput(index);
  if (v && !isa<FloatType>(cast<RankedTensorType>(v.getType()).getElementType())) {
    emitError() << "input " << index << " has element type "
                << cast<RankedTensorType>(v.getType()).getElementType()
                << ", expected a floating-point type";
    return nullptr;
  }
  return v;
}

RankedTensorType NodeRewriter::getInputType(unsigned index) {
  Value value = getOptionalInput(index);
  return value ? cast<RankedTensorType>(value.getType()) : RankedTensorType();
}

std::optional<int64_t> NodeRewriter::getOptionalInt(StringRef name) {
  Attribute attr = node.getNodeAttr(name);
  if (!attr)
    return std::nullopt;
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getValue().getSExtValue();
  emitError() << "attribute '" << name << "' must be an INT, got " << attr;
  return std::nullopt;
}

int64_t NodeRewriter::getInt(StringRef name, int64_t defaultValue) {
  return getOptionalInt(name).value_or(defaultValue);
}

float NodeRewriter::getFloat(StringRef name, float defaultValue) {
  Attribute attr = node.getNodeAttr(name);
  if (!attr)
    return defaultValue;
  if (auto value = dyn_cast<FloatAttr>(attr))
    return static_cast<float>(value.getValueAsDouble());
  // Some exporters write integral FLOAT attributes as INT.
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return static_cast<float>(integer.getValue().getSExtValue());
  emitError() << "attribute '" << name << "' must be a FLOAT, got " << attr;
  return defaultValue;
}

std::string NodeRewriter::getString(StringRef name, StringRef defaultValue) {
  Attribute attr = node.getNodeAttr(name);
  if (!attr)
    return defaultValue.str();
  if (auto value = dyn_cast<StringAttr>(attr))
    return value.getValue().str();
  emitError() << "attribute '" << name << "' must be a STRING, got " << attr;
  return defaultValue.str();
}

std::optional<SmallVector<int64_t>> NodeRewriter::getInts(StringRef name) {
  Attribute attr = node.getNodeAttr(name);
  if (!attr)
    return std::nullopt;
  if (auto array = dyn_cast<DenseI64ArrayAttr>(attr))
    return SmallVector<int64_t>(array.asArrayRef());
  emitError() << "attribute '" << name << "' must be INTS, got " << attr;
  return std::nullopt;
}

std::optional<SmallVector<float>> NodeRewriter::getFloats(StringRef name) {
  Attribute attr = node.getNodeAttr(name);
  if (!attr)
    return std::nullopt;
  if (auto array = dyn_cast<DenseF32ArrayAttr>(attr))
    return SmallVector<float>(array.asArrayRef());
  emitError() << "attribute '" << name << "' must be FLOATS, got " << attr;
  return std::nullopt;
}

ElementsAttr NodeRewriter::getTensor(StringRef name) {
  Attribute attr = node.getNodeAttr(name);
  if (!attr)
    return nullptr;
  if (auto value = dyn_cast<ElementsAttr>(attr))
    return value;
  emitError() << "attribute '" << name << "' must be a TENSOR, got " << attr;
  return nullptr;
}

LogicalResult NodeRewriter::setResults(ValueRange values) {
  if (values.size() < getNumOutputs()) {
    emitError() << "the node has " << getNumOutputs() << " outputs; tcc computes only "
                << values.size();
    return failure();
  }
  results.assign(values.begin(), values.begin() + getNumOutputs());
  return success();
}
