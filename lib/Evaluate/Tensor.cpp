//===- Tensor.cpp - host tensors: element layout, rounding and wrapping ---------------===//
//
// Every element is stored little-endian in its type's natural width (i1 as one byte 0/1,
// index as i64). Floats round to nearest even when stored; integers wrap to their width and
// read back sign- or zero-extended according to the type's signedness. String tensors hold
// their elements in `strings` (no bytes); copyElement moves an element of any type.
//
//===----------------------------------------------------------------------------------===//
#include "EvaluateOps.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tcc::eval;
using namespace tcc::eval::detail;

namespace {
/// The evaluator refuses to materialize tensors above this size.
constexpr int64_t kMaxTensorBytes = int64_t(1) << 32;

bool isSmallFloat(Type type) { return type.isF16() || type.isBF16(); }

/// True when element `i` lies inside `t`'s bytes.
bool inBounds(const Tensor &t, int64_t i) {
  int64_t size = getElementByteSize(t.elementType);
  return size > 0 && i >= 0 && (i + 1) * size <= static_cast<int64_t>(t.bytes.size());
}

/// Stores an APFloat already in `t`'s semantics.
void storeFloat(Tensor &t, int64_t i, const llvm::APFloat &value) {
  storeBits(t, i, value.bitcastToAPInt().getZExtValue());
}
} // namespace

//===----------------------------------------------------------------------------------===//
// Element types.
//===----------------------------------------------------------------------------------===//

bool tcc::eval::detail::isStringElement(Type type) { return isa<tcc::prim::StringType>(type); }

bool tcc::eval::isSupportedElementType(Type type) {
  if (isStringElement(type))
    return true;
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64() || type.isIndex())
    return true;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    return width == 1 || width == 8 || width == 16 || width == 32 || width == 64;
  }
  return false;
}

int64_t tcc::eval::getElementByteSize(Type type) {
  if (!isSupportedElementType(type) || isStringElement(type))
    return 0;
  if (type.isIndex())
    return 8;
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

unsigned tcc::eval::detail::getIntegerWidth(Type type) {
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 64;
}

bool tcc::eval::detail::isUnsignedElement(Type type) {
  return type.isUnsignedInteger() || type.isInteger(1);
}

uint64_t tcc::eval::detail::truncateToWidth(uint64_t bits, unsigned width) {
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

int64_t tcc::eval::detail::signExtend(uint64_t bits, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(bits);
  return llvm::SignExtend64(truncateToWidth(bits, width), width);
}

int64_t tcc::eval::detail::wrapToWidth(uint64_t bits, unsigned width, bool isUnsigned) {
  return isUnsigned ? static_cast<int64_t>(truncateToWidth(bits, width)) : signExtend(bits, width);
}

int64_t tcc::eval::detail::saturatingFloatToInt(double v, unsigned width, bool isUnsigned) {
  if (std::isnan(v))
    return 0;
  double t = std::trunc(v);
  if (isUnsigned) {
    // Bounds are powers of two, exact in a double: [0, 2^width).
    if (t <= 0)
      return 0;
    if (t >= std::ldexp(1.0, static_cast<int>(width)))
      return static_cast<int64_t>(truncateToWidth(~uint64_t(0), width));
    return static_cast<int64_t>(static_cast<uint64_t>(t));
  }
  double limit = std::ldexp(1.0, static_cast<int>(width) - 1); // [-2^(w-1), 2^(w-1))
  if (t >= limit)
    return static_cast<int64_t>(truncateToWidth(~uint64_t(0), width - 1));
  if (t < -limit)
    return signExtend(uint64_t(1) << (width - 1), width);
  return static_cast<int64_t>(t);
}

uint64_t tcc::eval::detail::loadBits(const Tensor &t, int64_t i) {
  if (!inBounds(t, i))
    return 0;
  int64_t size = getElementByteSize(t.elementType);
  uint64_t bits = 0;
  for (int64_t b = 0; b < size; ++b)
    bits |= uint64_t(t.bytes[i * size + b]) << (8 * b);
  return bits;
}

void tcc::eval::detail::storeBits(Tensor &t, int64_t i, uint64_t bits) {
  if (!inBounds(t, i))
    return;
  int64_t size = getElementByteSize(t.elementType);
  for (int64_t b = 0; b < size; ++b)
    t.bytes[i * size + b] = static_cast<uint8_t>(bits >> (8 * b));
}

void tcc::eval::detail::copyElement(Tensor &dst, int64_t to, const Tensor &src, int64_t from) {
  if (!isStringElement(dst.elementType)) {
    storeBits(dst, to, loadBits(src, from));
    return;
  }
  if (to >= 0 && to < static_cast<int64_t>(dst.strings.size()) && from >= 0 &&
      from < static_cast<int64_t>(src.strings.size()))
    dst.strings[to] = src.strings[from];
}

void tcc::eval::detail::setIntegerAsFloat(Tensor &t, int64_t i, int64_t v, bool isUnsigned) {
  auto floatType = dyn_cast<FloatType>(t.elementType);
  if (!floatType)
    return;
  // One rounding straight from the integer: going through a double would round twice.
  llvm::APFloat value(floatType.getFloatSemantics());
  value.convertFromAPInt(llvm::APInt(64, static_cast<uint64_t>(v)), /*IsSigned=*/!isUnsigned,
                         llvm::APFloat::rmNearestTiesToEven);
  storeFloat(t, i, value);
}

//===----------------------------------------------------------------------------------===//
// Tensor.
//===----------------------------------------------------------------------------------===//

int64_t Tensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= std::max<int64_t>(extent, 0);
  return count;
}

double Tensor::getDouble(int64_t i) const {
  if (!inBounds(*this, i))
    return 0;
  uint64_t bits = loadBits(*this, i);
  if (elementType.isF64())
    return llvm::bit_cast<double>(bits);
  if (elementType.isF32())
    return llvm::bit_cast<float>(static_cast<uint32_t>(bits));
  if (isSmallFloat(elementType)) {
    auto &semantics = cast<FloatType>(elementType).getFloatSemantics();
    return llvm::APFloat(semantics, llvm::APInt(16, bits)).convertToDouble();
  }
  int64_t v = getInt(i);
  return isUnsignedElement(elementType) ? static_cast<double>(static_cast<uint64_t>(v))
                                        : static_cast<double>(v);
}

int64_t Tensor::getInt(int64_t i) const {
  if (!inBounds(*this, i))
    return 0;
  if (isa<FloatType>(elementType))
    return saturatingFloatToInt(getDouble(i), 64, /*isUnsigned=*/false);
  uint64_t bits = loadBits(*this, i);
  if (elementType.isInteger(1))
    return bits != 0;
  return wrapToWidth(bits, getIntegerWidth(elementType), isUnsignedElement(elementType));
}

void Tensor::setDouble(int64_t i, double v) {
  if (!inBounds(*this, i))
    return;
  if (elementType.isF64()) {
    storeBits(*this, i, llvm::bit_cast<uint64_t>(v));
  } else if (elementType.isF32()) {
    storeBits(*this, i, llvm::bit_cast<uint32_t>(static_cast<float>(v)));
  } else if (isSmallFloat(elementType)) {
    llvm::APFloat value(v);
    bool losesInfo = false;
    value.convert(cast<FloatType>(elementType).getFloatSemantics(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    storeFloat(*this, i, value);
  } else if (elementType.isInteger(1)) {
    storeBits(*this, i, v != 0); // anything -> i1 is x != 0
  } else {
    unsigned width = getIntegerWidth(elementType);
    storeBits(*this, i, saturatingFloatToInt(v, width, isUnsignedElement(elementType)));
  }
}

void Tensor::setInt(int64_t i, int64_t v) {
  if (!inBounds(*this, i))
    return;
  if (isa<FloatType>(elementType))
    return setIntegerAsFloat(*this, i, v, /*isUnsigned=*/false);
  storeBits(*this, i, truncateToWidth(v, getIntegerWidth(elementType)));
}

Tensor Tensor::zeros(Type elementType, llvm::ArrayRef<int64_t> shape) {
  Tensor t;
  t.elementType = elementType;
  t.shape.assign(shape.begin(), shape.end());
  t.bytes.assign(t.getNumElements() * getElementByteSize(elementType), 0);
  if (isStringElement(elementType))
    t.strings.assign(t.getNumElements(), std::string()); // the zero string is the empty one
  return t;
}

llvm::Expected<Tensor> tcc::eval::detail::makeTensor(Type elementType,
                                                     llvm::ArrayRef<int64_t> shape) {
  if (!isSupportedElementType(elementType)) {
    std::string text;
    llvm::raw_string_ostream(text) << elementType;
    return makeError("unsupported element type " + text);
  }
  // A string counts as 16 bytes (the compiled code's {data, size}) plus its text.
  int64_t bytes = isStringElement(elementType) ? 16 : getElementByteSize(elementType);
  for (int64_t extent : shape) {
    if (extent < 0)
      return makeError("negative extent in shape " + formatShape(shape));
    if (extent != 0 && bytes > kMaxTensorBytes / extent)
      return makeError("a tensor of shape " + formatShape(shape) +
                       " is larger than the evaluator's limit of " + llvm::Twine(kMaxTensorBytes) +
                       " bytes");
    bytes *= extent;
  }
  return Tensor::zeros(elementType, shape);
}

//===----------------------------------------------------------------------------------===//
// Attributes.
//===----------------------------------------------------------------------------------===//

llvm::Expected<Tensor> tcc::eval::tensorFromAttr(ElementsAttr attr) {
  if (!attr)
    return makeError("expected an elements attribute");
  ShapedType type = attr.getShapedType();
  if (!type.hasStaticShape())
    return makeError("elements attribute has a dynamic shape");
  Type elementType = type.getElementType();
  llvm::Expected<Tensor> made = makeTensor(elementType, type.getShape());
  if (!made)
    return made.takeError();
  Tensor t = std::move(*made);

  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.getNumElements() != t.getNumElements())
      return makeError("elements attribute holds " + llvm::Twine(dense.getNumElements()) +
                       " elements, expected " + llvm::Twine(t.getNumElements()));
    if (isStringElement(elementType) != isa<DenseStringElementsAttr>(dense))
      return makeError("a string tensor needs a dense attribute of strings and vice versa");
    int64_t i = 0;
    if (isStringElement(elementType)) {
      for (llvm::StringRef text : dense.getValues<llvm::StringRef>())
        t.strings[i++] = text.str();
      return t;
    }
    // Splat attributes iterate their one value getNumElements() times.
    if (isa<FloatType>(elementType)) {
      for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
        storeFloat(t, i++, v);
    } else {
      for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
        t.setInt(i++, static_cast<int64_t>(v.getZExtValue()));
    }
    return t;
  }

  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    auto handle = resource.getRawHandle();
    AsmResourceBlob *blob = handle.getBlob();
    if (!blob)
      return makeError("dense_resource '" + handle.getKey() +
                       "' has no data (its blob is missing or was released)");
    llvm::ArrayRef<char> data = blob->getData();
    if (data.size() != t.bytes.size())
      return makeError("dense_resource '" + handle.getKey() + "' holds " +
                       llvm::Twine(data.size()) + " bytes, expected " +
                       llvm::Twine(t.bytes.size()) + " for " + formatShape(t.shape));
    for (size_t b = 0; b < data.size(); ++b)
      t.bytes[b] = static_cast<uint8_t>(data[b]);
    if (elementType.isInteger(1))
      for (uint8_t &byte : t.bytes)
        byte = byte != 0;
    return t;
  }
  return makeError("unsupported elements attribute (expected dense or dense_resource)");
}
