//===- TypeImport.cpp - ONNX data types and TypeProtos -> MLIR types -------------------===//
#include "TypeImport.h"

#include "Names.h"

#include "SymbolImport.h"

#include "dialects/onnx/OnnxDialect.h"
#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

using namespace tcc::import;

namespace {

// clang-format off
constexpr const char *kDataTypeNames[] = {
    "UNDEFINED",   "FLOAT",          "UINT8",       "INT8",         "UINT16",
    "INT16",       "INT32",          "INT64",       "STRING",       "BOOL",
    "FLOAT16",     "DOUBLE",         "UINT32",      "UINT64",       "COMPLEX64",
    "COMPLEX128",  "BFLOAT16",       "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
    "FLOAT8E5M2FNUZ", "UINT4",       "INT4",        "FLOAT4E2M1",   "FLOAT8E8M0",
    "UINT2",       "INT2",
};
// clang-format on

/// How a TypeProto that is not a tensor type reads in a message.
StringRef describeNonTensor(const ::onnx::TypeProto &type) {
  switch (type.value_case()) {
  case ::onnx::TypeProto::kSequenceType:
    return "a sequence";
  case ::onnx::TypeProto::kMapType:
    return "a map";
  case ::onnx::TypeProto::kOptionalType:
    return "an optional";
  case ::onnx::TypeProto::kSparseTensorType:
    return "a sparse tensor";
  default:
    return "of an unknown kind";
  }
}

std::string describeDim(const ::onnx::TensorShapeProto::Dimension &dim) {
  if (dim.has_dim_param())
    return quoted(dim.dim_param());
  return std::to_string(dim.dim_value());
}

/// Checks that the static extents of `shape` have an element count int64 can hold.
LogicalResult checkElementCount(ArrayRef<int64_t> shape, StringRef what, Location loc) {
  SmallVector<int64_t> staticDims;
  for (int64_t extent : shape)
    if (!ShapedType::isDynamic(extent))
      staticDims.push_back(extent);
  if (getElementCount(staticDims))
    return success();
  return emitError(loc) << what << " has more elements than int64 can count";
}

} // namespace

std::string tcc::import::getDataTypeName(int32_t dataType) {
  if (dataType >= 0 && dataType < static_cast<int32_t>(std::size(kDataTypeNames)))
    return kDataTypeNames[dataType];
  return std::to_string(dataType);
}

// clang-format off
unsigned tcc::import::getDataTypeBytes(int32_t dataType) {
  switch (dataType) {
  case kUint8: case kInt8: case kBool:
  case kFloat8E4M3FN: case kFloat8E4M3FNUZ: case kFloat8E5M2: case kFloat8E5M2FNUZ:
  case kFloat8E8M0:
    return 1;
  case kUint16: case kInt16: case kFloat16: case kBfloat16:
    return 2;
  case kFloat: case kInt32: case kUint32:
    return 4;
  case kInt64: case kDouble: case kUint64:
    return 8;
  default:
    return 0;
  }
}
// clang-format on

bool tcc::import::isSubByteDataType(int32_t dataType) {
  return dataType == kUint4 || dataType == kInt4 || dataType == kFloat4E2M1 || dataType == kUint2 ||
         dataType == kInt2;
}

FailureOr<Type> tcc::import::importElementType(int32_t dataType, StringRef what, Location loc) {
  MLIRContext *context = loc.getContext();
  auto signedInt = [&](unsigned width) { return IntegerType::get(context, width); };
  auto unsignedInt = [&](unsigned width) {
    return IntegerType::get(context, width, IntegerType::Unsigned);
  };
  // clang-format off
  switch (dataType) {
  case kFloat: return Type(Float32Type::get(context));
  case kDouble: return Type(Float64Type::get(context));
  case kFloat16: return Type(Float16Type::get(context));
  case kBfloat16: return Type(BFloat16Type::get(context));
  case kBool: return Type(signedInt(1));
  case kInt8: return Type(signedInt(8));
  case kInt16: return Type(signedInt(16));
  case kInt32: return Type(signedInt(32));
  case kInt64: return Type(signedInt(64));
  case kUint8: return Type(unsignedInt(8));
  case kUint16: return Type(unsignedInt(16));
  case kUint32: return Type(unsignedInt(32));
  case kUint64: return Type(unsignedInt(64));
  case kFloat8E4M3FN: return Type(Float8E4M3FNType::get(context));
  case kFloat8E4M3FNUZ: return Type(Float8E4M3FNUZType::get(context));
  case kFloat8E5M2: return Type(Float8E5M2Type::get(context));
  case kFloat8E5M2FNUZ: return Type(Float8E5M2FNUZType::get(context));
  case kFloat8E8M0: return Type(Float8E8M0FNUType::get(context));
  case kFloat4E2M1: return Type(Float4E2M1FNType::get(context));
  case kInt4: return Type(signedInt(4));
  case kUint4: return Type(unsignedInt(4));
  case kInt2: return Type(signedInt(2));
  case kUint2: return Type(unsignedInt(2));
  case kString: return Type(tcc::prim::StringType::get(context));
  case kComplex64: case kComplex128:
    return emitError(loc) << what << " has element type " << getDataTypeName(dataType)
                          << ", which tcc does not support";
  case kUndefined:
    return emitError(loc) << what << " has no element type (UNDEFINED)";
  default:
    return emitError(loc) << what << " has unknown element type " << dataType
                          << "; expected a TensorProto.DataType from 1 to 26";
  }
  // clang-format on
}

std::optional<int64_t> tcc::import::getElementCount(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape)
    if (extent < 0 || llvm::MulOverflow(count, extent, count))
      return std::nullopt;
  return count;
}

FailureOr<InputType> tcc::import::importInputType(const ::onnx::ValueInfoProto &input,
                                                  DimSymbols &symbols, Location loc) {
  std::string what = "input " + quoted(input.name());
  const ::onnx::TypeProto &type = input.type();
  if (!input.has_type() || type.value_case() == ::onnx::TypeProto::VALUE_NOT_SET)
    return emitError(loc) << what << " has no type; tcc needs the type of every graph input";
  if (type.value_case() != ::onnx::TypeProto::kTensorType)
    return emitError(loc) << what << " is " << describeNonTensor(type)
                          << "; tcc supports only tensor graph inputs";
  const ::onnx::TypeProto::Tensor &tensor = type.tensor_type();
  FailureOr<Type> elementType = importElementType(tensor.elem_type(), what, loc);
  if (failed(elementType))
    return failure();
  if (!tensor.has_shape())
    return emitError(loc) << what << " has no shape; tcc needs the rank of every graph input";

  InputType result;
  SmallVector<int64_t> shape;
  for (const auto &[index, dim] : llvm::enumerate(tensor.shape().dim())) {
    AffineExpr expr;
    if (dim.has_dim_value() && dim.dim_value() >= 0)
      expr = getAffineConstantExpr(dim.dim_value(), loc.getContext());
    else if (dim.has_dim_param() && !dim.dim_param().empty())
      expr = symbols.bindDimParam(dim.dim_param());
    else
      expr = symbols.bindFreshSymbol();
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (constant && constant.getValue() < 0)
      return emitError(loc) << "dim " << index << " of " << what << " (" << describeDim(dim)
                            << ") is " << constant.getValue()
                            << " with the given dim settings; expected a size >= 0";
    shape.push_back(constant ? constant.getValue() : ShapedType::kDynamic);
    result.dims.push_back(expr);
  }
  if (failed(checkElementCount(shape, what, loc)))
    return failure();
  result.type = RankedTensorType::get(shape, *elementType);
  return result;
}

FailureOr<GraphInputType> tcc::import::importGraphInputType(const ::onnx::ValueInfoProto &input,
                                                           DimSymbols &symbols,
                                                           const tcc::ImportOptions &options,
                                                           Location loc) {
  std::string what = "input " + quoted(input.name());
  GraphInputType result;
  const ::onnx::TypeProto *type = &input.type();
  bool absent = options.absentInputs.contains(input.name()),
       present = options.presentInputs.contains(input.name());
  if (type->value_case() == ::onnx::TypeProto::kOptionalType) {
    if (absent && present)
      return emitError(loc) << what << " is set both absent and present";
    if (absent) {
      result.kind = GraphInputType::Absent;
      return result;
    }
    type = &type->optional_type().elem_type();
    if (!present) {
      // Present or empty at run time: the value's entries, then NAME.present.
      ::onnx::ValueInfoProto value = input;
      *value.mutable_type() = *type;
      tcc::ImportOptions valueOptions = options;
      valueOptions.presentInputs.erase(input.name());
      FailureOr<GraphInputType> inner = importGraphInputType(value, symbols, valueOptions, loc);
      if (failed(inner))
        return failure();
      InputType flag;
      flag.type = RankedTensorType::get({}, IntegerType::get(loc.getContext(), 1));
      inner->elements.push_back(flag);
      inner->runtimeOptional = true;
      return inner;
    }
  } else if (absent || present) {
    return emitError(loc) << what << " is set " << (absent ? "absent" : "present")
                          << ", but it is not an optional";
  }
  if (type->value_case() != ::onnx::TypeProto::kSequenceType) {
    ::onnx::ValueInfoProto tensor = input;
    *tensor.mutable_type() = *type;
    FailureOr<InputType> element = importInputType(tensor, symbols, loc);
    if (failed(element))
      return failure();
    result.elements.push_back(*element);
    return result;
  }
  // A sequence: specialized to the length (and element shapes) given while compiling, or
  // else packed, its length known at run time: NAME.shapes ([count, rank] int64, one row of
  // extents per element) and NAME.data (the elements flattened and concatenated).
  auto setting = options.sequences.find(input.name());
  if (setting == options.sequences.end()) {
    const ::onnx::TypeProto &element = type->sequence_type().elem_type();
    if (element.value_case() != ::onnx::TypeProto::kTensorType)
      return emitError(loc) << what << " is a sequence of " << describeNonTensor(element)
                            << "; tcc supports sequences of tensors";
    if (!element.tensor_type().has_shape())
      return emitError(loc) << what << " is a sequence whose element type has no shape; tcc "
                                       "needs the rank of its elements (give the element type "
                                       "a shape, or specialize it: tcc --sequence-length "
                            << input.name() << "=N)";
    int64_t rank = element.tensor_type().shape().dim_size();
    result.kind = GraphInputType::PackedSequence;
    ::onnx::ValueInfoProto shapes, data;
    shapes.set_name(input.name() + ".shapes");
    auto *shapesType = shapes.mutable_type()->mutable_tensor_type();
    shapesType->set_elem_type(kInt64);
    shapesType->mutable_shape()->add_dim()->set_dim_param(input.name() + "_count");
    shapesType->mutable_shape()->add_dim()->set_dim_value(rank);
    data.set_name(input.name() + ".data");
    auto *dataType = data.mutable_type()->mutable_tensor_type();
    dataType->set_elem_type(element.tensor_type().elem_type());
    dataType->mutable_shape()->add_dim()->set_dim_param(input.name() + "_size");
    for (const ::onnx::ValueInfoProto *part : {&shapes, &data}) {
      FailureOr<InputType> partType = importInputType(*part, symbols, loc);
      if (failed(partType))
        return failure();
      result.elements.push_back(*partType);
    }
    symbols.allowZero(input.name() + "_count");
    symbols.allowZero(input.name() + "_size");
    return result;
  }
  const SequenceSetting &sequence = setting->second;
  if (sequence.length < 0 ||
      (!sequence.elementShapes.empty() &&
       sequence.elementShapes.size() != static_cast<size_t>(sequence.length)))
    return emitError(loc) << what << ": the sequence setting has length " << sequence.length
                          << " and " << sequence.elementShapes.size()
                          << " element shapes; expected a length >= 0 and none or one shape "
                             "per element";
  result.kind = GraphInputType::Sequence;
  for (int64_t k = 0; k < sequence.length; ++k) {
    ::onnx::ValueInfoProto element;
    element.set_name(input.name() + "[" + std::to_string(k) + "]");
    *element.mutable_type() = type->sequence_type().elem_type();
    if (!sequence.elementShapes.empty() &&
        element.type().value_case() == ::onnx::TypeProto::kTensorType) {
      ::onnx::TensorShapeProto *shape = element.mutable_type()->mutable_tensor_type()->mutable_shape();
      shape->clear_dim();
      for (int64_t extent : sequence.elementShapes[k])
        shape->add_dim()->set_dim_value(extent);
    }
    FailureOr<InputType> elementType = importInputType(element, symbols, loc);
    if (failed(elementType))
      return failure();
    result.elements.push_back(*elementType);
  }
  return result;
}

FailureOr<Type> tcc::import::importHintType(const ::onnx::ValueInfoProto &value,
                                            const DimSymbols &symbols, StringRef what,
                                            Location loc) {
  Type unknown = tcc::onnx::ValueType::get(loc.getContext());
  if (!value.has_type() || value.type().value_case() != ::onnx::TypeProto::kTensorType)
    return unknown;
  const ::onnx::TypeProto::Tensor &tensor = value.type().tensor_type();
  if (tensor.elem_type() == kUndefined || !tensor.has_shape())
    return unknown;
  FailureOr<Type> elementType = importElementType(tensor.elem_type(), what, loc);
  if (failed(elementType))
    return failure();
  SmallVector<int64_t> shape;
  for (const ::onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim()) {
    std::optional<int64_t> extent;
    if (dim.has_dim_value() && dim.dim_value() >= 0)
      extent = dim.dim_value();
    else if (dim.has_dim_param())
      extent = symbols.evaluateHint(dim.dim_param());
    shape.push_back(extent && *extent >= 0 ? *extent : ShapedType::kDynamic);
  }
  if (failed(checkElementCount(shape, what, loc)))
    return failure();
  return Type(RankedTensorType::get(shape, *elementType));
}

FailureOr<Type> tcc::import::importTypeProto(const ::onnx::TypeProto &type, StringRef what,
                                             Location loc) {
  // A sequence's element type is left to the values (Optional's `type` of an empty one).
  if (type.value_case() == ::onnx::TypeProto::kSequenceType)
    return Type(tcc::onnx::SequenceType::get(loc.getContext()));
  if (type.value_case() != ::onnx::TypeProto::kTensorType)
    return emitError(loc) << what << " is " << describeNonTensor(type)
                          << " type; tcc supports only tensor types here";
  const ::onnx::TypeProto::Tensor &tensor = type.tensor_type();
  FailureOr<Type> elementType = importElementType(tensor.elem_type(), what, loc);
  if (failed(elementType))
    return failure();
  if (!tensor.has_shape())
    return Type(UnrankedTensorType::get(*elementType));
  SmallVector<int64_t> shape;
  for (const ::onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value()
                                                                : ShapedType::kDynamic);
  if (failed(checkElementCount(shape, what, loc)))
    return failure();
  return Type(RankedTensorType::get(shape, *elementType));
}
