//===- TensorImport.cpp - ONNX TensorProto -> elements attribute -----------------------===//
#include "TensorImport.h"

#include "TypeImport.h"

#include "tcc/Support/Pages.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <limits>

using namespace mlir;
using namespace tcc::import;
using tcc::adviseWholePages;
using tcc::PageAdvice;

// ONNX tensor data is little-endian; the typed fields are converted by memcpy.
static_assert(llvm::endianness::native == llvm::endianness::little,
              "the importer assumes a little-endian host");

namespace {

/// Frees the protobuf's copies of a tensor's data (clear() alone keeps the capacity).
void releaseTensorData(::onnx::TensorProto &tensor) {
  std::string().swap(*tensor.mutable_raw_data());
  tensor.clear_raw_data();
  google::protobuf::RepeatedField<float>().Swap(tensor.mutable_float_data());
  google::protobuf::RepeatedField<int32_t>().Swap(tensor.mutable_int32_data());
  google::protobuf::RepeatedField<int64_t>().Swap(tensor.mutable_int64_data());
  google::protobuf::RepeatedField<double>().Swap(tensor.mutable_double_data());
  google::protobuf::RepeatedField<uint64_t>().Swap(tensor.mutable_uint64_data());
}

template <typename T> void store(char *out, int64_t index, T value) {
  std::memcpy(out + index * static_cast<int64_t>(sizeof(T)), &value, sizeof(T));
}

/// Copies a typed field whose values are stored unchanged.
template <typename T> void copyValues(const google::protobuf::RepeatedField<T> &values, char *out) {
  if (!values.empty())
    std::memcpy(out, values.data(), values.size() * sizeof(T));
}

// clang-format off
/// The range of int32_data values that encode one element of `dataType` (small integers,
/// and the bit patterns of 16- and 8-bit floats).
std::pair<int64_t, int64_t> getInt32DataRange(int32_t dataType) {
  switch (dataType) {
  case kInt8: return {-128, 127};
  case kInt16: return {-32768, 32767};
  case kUint16: case kFloat16: case kBfloat16: return {0, 65535};
  case kBool: case kInt32:
    return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
  default: return {0, 255}; // uint8 and the float8 types
  }
}
// clang-format on

// clang-format off
/// The typed field that holds `dataType`'s values, and how many it has.
std::pair<StringRef, int64_t> getTypedField(const ::onnx::TensorProto &tensor,
                                            int32_t dataType) {
  switch (dataType) {
  case kFloat: return {"float_data", tensor.float_data_size()};
  case kDouble: return {"double_data", tensor.double_data_size()};
  case kInt64: return {"int64_data", tensor.int64_data_size()};
  case kUint32: case kUint64: return {"uint64_data", tensor.uint64_data_size()};
  default: return {"int32_data", tensor.int32_data_size()};
  }
}
// clang-format on

/// Converts the typed field that holds `dataType`'s values into `out` (count elements of
/// getDataTypeBytes(dataType) bytes each); the field has exactly `count` values.
LogicalResult convertTypedData(const ::onnx::TensorProto &tensor, int32_t dataType, int64_t count,
                               char *out, StringRef what, Location loc) {
  switch (dataType) {
  case kFloat:
    copyValues(tensor.float_data(), out);
    return success();
  case kDouble:
    copyValues(tensor.double_data(), out);
    return success();
  case kInt64:
    copyValues(tensor.int64_data(), out);
    return success();
  case kUint64:
    copyValues(tensor.uint64_data(), out);
    return success();
  case kUint32:
    for (int64_t i = 0; i < count; ++i) {
      uint64_t value = tensor.uint64_data(i);
      if (value > std::numeric_limits<uint32_t>::max())
        return emitError(loc) << what << " has uint64_data value " << value << " at index " << i
                              << ", out of range for UINT32";
      store(out, i, static_cast<uint32_t>(value));
    }
    return success();
  default:
    break;
  }
  // Every other type with a fixed size is stored one value per element in int32_data.
  auto [lo, hi] = getInt32DataRange(dataType);
  unsigned bytes = getDataTypeBytes(dataType);
  for (int64_t i = 0; i < count; ++i) {
    int32_t value = tensor.int32_data(i);
    if (value < lo || value > hi)
      return emitError(loc) << what << " has int32_data value " << value << " at index " << i
                            << ", out of range for " << getDataTypeName(dataType);
    if (dataType == kBool)
      store(out, i, static_cast<uint8_t>(value != 0));
    else if (bytes == 1)
      store(out, i, static_cast<uint8_t>(value));
    else if (bytes == 2)
      store(out, i, static_cast<uint16_t>(value));
    else
      store(out, i, value);
  }
  return success();
}

/// Whether bool data holds anything but 0 and 1 (ONNX allows only those).
bool needsBoolNormalization(ArrayRef<char> data) {
  return llvm::any_of(data, [](char c) { return c != 0 && c != 1; });
}

/// A small tensor as a DenseElementsAttr (bools are bit-packed there, so built from bools).
ElementsAttr makeInlineAttr(RankedTensorType type, ArrayRef<char> data, bool isBool) {
  if (type.getNumElements() == 0)
    return DenseElementsAttr::get(type, ArrayRef<Attribute>());
  if (isBool) {
    SmallVector<bool> values(data.size());
    for (auto [index, byte] : llvm::enumerate(data))
      values[index] = byte != 0;
    return DenseElementsAttr::get(type, values);
  }
  return DenseElementsAttr::getFromRawBuffer(type, data);
}

} // namespace

FailureOr<ElementsAttr> TensorImporter::importTensor(::onnx::TensorProto &tensor, StringRef what,
                                                     StringRef blobName,
                                                     std::optional<ByteSpan> rawDataSpan,
                                                     Location loc) {
  int32_t dataType = tensor.data_type();
  if (isSubByteDataType(dataType)) {
    std::string name = llvm::StringRef(getDataTypeName(dataType)).lower();
    return emitError(loc) << what << " has element type " << getDataTypeName(dataType) << ": "
                          << name << " initializers are not supported yet";
  }
  FailureOr<Type> elementType = importElementType(dataType, what, loc);
  if (failed(elementType))
    return failure();
  if (tensor.has_segment())
    return emitError(loc) << what
                          << " is a segment of a larger tensor; segmented tensors "
                             "are not supported";

  SmallVector<int64_t> shape;
  for (const auto &[index, extent] : llvm::enumerate(tensor.dims())) {
    if (extent < 0)
      return emitError(loc) << what << " has extent " << extent << " in dim " << index
                            << "; expected a size >= 0";
    shape.push_back(extent);
  }
  std::optional<int64_t> count = getElementCount(shape);
  int64_t elementBytes = getDataTypeBytes(dataType);
  int64_t totalBytes = 0;
  if (!count || llvm::MulOverflow(*count, elementBytes, totalBytes))
    return emitError(loc) << what << " has more elements or bytes than int64 can count";
  auto type = RankedTensorType::get(shape, *elementType);
  if (dataType == kString) {
    // The elements are the repeated `string_data` field (raw_data and external data cannot
    // hold strings).
    if (tensor.string_data_size() != *count)
      return emitError(loc) << what << " has " << tensor.string_data_size()
                            << " elements in string_data; expected " << *count
                            << " (its dims' product)";
    SmallVector<StringRef> strings(tensor.string_data().begin(), tensor.string_data().end());
    return ElementsAttr(DenseStringElementsAttr::get(type, strings));
  }
  bool isBool = dataType == kBool;

  // Find the bytes: in an external file, in raw_data (ideally where it lies in the mmapped
  // model), or converted from the typed fields.
  std::shared_ptr<llvm::MemoryBuffer> owner;
  ArrayRef<char> data;
  SmallVector<char, 0> converted;
  if (tensor.has_data_location() && tensor.data_location() == ::onnx::TensorProto::EXTERNAL) {
    FailureOr<ArrayRef<char>> external = readExternalData(tensor, totalBytes, what, loc, owner);
    if (failed(external))
      return failure();
    data = *external;
  } else if (rawDataSpan && rawDataSpan->detached) {
    // readModelFile left these bytes out of the parsed message: they are only in the file.
    const llvm::MemoryBuffer *file = model.buffer.get();
    if (!file || rawDataSpan->offset > file->getBufferSize() ||
        rawDataSpan->size > file->getBufferSize() - rawDataSpan->offset)
      return emitError(loc) << "internal error: " << what << " has raw_data outside the file";
    if (rawDataSpan->size != static_cast<uint64_t>(totalBytes))
      return emitError(loc) << what << " has " << rawDataSpan->size
                            << " bytes of raw_data; expected " << totalBytes << " (" << *count
                            << " x " << elementBytes << "-byte " << getDataTypeName(dataType)
                            << ")";
    data = ArrayRef<char>(file->getBufferStart() + rawDataSpan->offset, rawDataSpan->size);
    owner = model.buffer;
  } else if (tensor.has_raw_data()) {
    const std::string &raw = tensor.raw_data();
    if (raw.size() != static_cast<uint64_t>(totalBytes))
      return emitError(loc) << what << " has " << raw.size() << " bytes of raw_data; expected "
                            << totalBytes << " (" << *count << " x " << elementBytes << "-byte "
                            << getDataTypeName(dataType) << ")";
    data = ArrayRef<char>(raw.data(), raw.size());
    const llvm::MemoryBuffer *file = model.buffer.get();
    // Point into the file only where the scan found the very same bytes.
    if (rawDataSpan && file && rawDataSpan->size == raw.size() &&
        rawDataSpan->offset <= file->getBufferSize() &&
        rawDataSpan->size <= file->getBufferSize() - rawDataSpan->offset &&
        std::memcmp(file->getBufferStart() + rawDataSpan->offset, raw.data(), raw.size()) == 0) {
      data = ArrayRef<char>(file->getBufferStart() + rawDataSpan->offset, raw.size());
      owner = model.buffer;
    }
  } else {
    // Check the count before allocating: the dims of a hostile tensor may be huge.
    auto [field, found] = getTypedField(tensor, dataType);
    if (found != *count)
      return emitError(loc) << what << " has " << found << " values in " << field << "; expected "
                            << *count << " (or raw_data of " << totalBytes << " bytes)";
    converted.resize(totalBytes);
    if (failed(convertTypedData(tensor, dataType, *count, converted.data(), what, loc)))
      return failure();
    data = converted;
  }

  ElementsAttr result;
  if (*count <= kMaxInlineElements) {
    result = makeInlineAttr(type, data, isBool);
  } else {
    size_t alignment = std::max<int64_t>(elementBytes, 1);
    bool aligned = reinterpret_cast<uintptr_t>(data.data()) % alignment == 0;
    AsmResourceBlob blob;
    if (owner && aligned && !(isBool && needsBoolNormalization(data))) {
      // The deleter only holds the mapping: the blob lives as long as the file stays mapped.
      blob = UnmanagedAsmResourceBlob::allocateWithAlign(
          data, alignment, [owner](void *, size_t, size_t) mutable { owner.reset(); });
    } else {
      blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(data, alignment);
      if (isBool)
        for (char &byte : blob.getMutableData())
          byte = byte != 0;
      // Copied from the mapped file: its pages need not stay in memory (read again if
      // touched), so that a large model whose weights need aligned copies is not held twice.
      if (owner && owner->getBufferKind() == llvm::MemoryBuffer::MemoryBuffer_MMap)
        adviseWholePages(data, PageAdvice::DropFileMapping);
    }
    result = DenseResourceElementsAttr::get(type, blobName, std::move(blob));
  }
  releaseTensorData(tensor);
  return result;
}
