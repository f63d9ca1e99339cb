//===- Npy.cpp - NumPy .npy files <-> host tensors -------------------------------------===//
#include "tcc/Evaluate/Npy.h"

#include "dialects/prim/PrimDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using tcc::eval::Tensor;

namespace {
llvm::Error fail(llvm::StringRef path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (path + ": " + what).str());
}

Type typeFromDescr(MLIRContext &ctx, llvm::StringRef descr) {
  if (descr.size() < 3 || (descr[0] != '<' && descr[0] != '|'))
    return nullptr;
  llvm::StringRef kind = descr.drop_front();
  if (kind == "f2") return Float16Type::get(&ctx);
  if (kind == "f4") return Float32Type::get(&ctx);
  if (kind == "f8") return Float64Type::get(&ctx);
  if (kind == "b1") return IntegerType::get(&ctx, 1);
  if (kind == "i1") return IntegerType::get(&ctx, 8);
  if (kind == "i2") return IntegerType::get(&ctx, 16);
  if (kind == "i4") return IntegerType::get(&ctx, 32);
  if (kind == "i8") return IntegerType::get(&ctx, 64);
  if (kind == "u1") return IntegerType::get(&ctx, 8, IntegerType::Unsigned);
  if (kind == "u2") return IntegerType::get(&ctx, 16, IntegerType::Unsigned);
  if (kind == "u4") return IntegerType::get(&ctx, 32, IntegerType::Unsigned);
  if (kind == "u8") return IntegerType::get(&ctx, 64, IntegerType::Unsigned);
  return nullptr;
}

std::string descrFromType(Type type) {
  if (type.isF16()) return "<f2";
  if (type.isF32()) return "<f4";
  if (type.isF64()) return "<f8";
  if (type.isInteger(1)) return "|b1";
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return "";
  std::string kind = integer.isUnsigned() ? "u" : "i";
  unsigned bytes = integer.getWidth() / 8;
  return (bytes == 1 ? "|" : "<") + kind + std::to_string(bytes);
}

/// The value of `'key': VALUE` in the header dict, up to the next ',' at depth 0.
std::optional<llvm::StringRef> headerField(llvm::StringRef header, llvm::StringRef key) {
  size_t at = header.find("'" + key.str() + "'");
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = header.substr(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    return std::nullopt;
  rest = rest.ltrim();
  int depth = 0;
  for (size_t i = 0; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if ((c == ',' || c == '}') && depth == 0)
      return rest.take_front(i).trim();
  }
  return std::nullopt;
}
} // namespace

llvm::Expected<Tensor> tcc::eval::readNpy(llvm::StringRef path, MLIRContext &context) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fail(path, "cannot read: " + buffer.getError().message());
  llvm::StringRef data = (*buffer)->getBuffer();
  if (data.size() < 10 || !data.starts_with("\x93NUMPY"))
    return fail(path, "not a .npy file");
  unsigned major = static_cast<unsigned char>(data[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(data[8]) |
                   (static_cast<unsigned char>(data[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (data.size() < 12)
      return fail(path, "truncated header");
    uint32_t length;
    std::memcpy(&length, data.data() + 8, 4);
    headerLength = length;
    headerStart = 12;
  } else {
    return fail(path, "unsupported .npy version " + llvm::Twine(major));
  }
  if (headerStart + headerLength > data.size())
    return fail(path, "truncated header");
  llvm::StringRef header = data.substr(headerStart, headerLength);
  auto descr = headerField(header, "descr");
  auto order = headerField(header, "fortran_order");
  auto shapeText = headerField(header, "shape");
  if (!descr || !order || !shapeText)
    return fail(path, "malformed header");
  if (*order != "False")
    return fail(path, "Fortran-order arrays are not supported");
  // Strings: '<U{n}' (n UTF-32 code units per element) or '|S{n}' (n bytes), trailing NULs
  // padding; they become !prim.string elements (UTF-8) in Tensor::strings.
  llvm::StringRef descrText = descr->trim("'\"");
  char stringKind = 0;
  uint64_t stringWidth = 0;
  Type type;
  if (descrText.size() >= 3 && (descrText[1] == 'U' || descrText[1] == 'S')) {
    stringKind = descrText[1];
    char order = descrText[0];
    if (descrText.drop_front(2).getAsInteger(10, stringWidth) || stringWidth > (1u << 30) ||
        (stringKind == 'U' ? (order != '<' && order != '=') : order == '>'))
      return fail(path, "unsupported dtype " + *descr);
    context.getOrLoadDialect<tcc::prim::PrimDialect>();
    type = tcc::prim::StringType::get(&context);
  } else {
    type = typeFromDescr(context, descrText);
  }
  if (!type)
    return fail(path, "unsupported dtype " + *descr);
  llvm::StringRef dims = shapeText->trim("() ");
  llvm::SmallVector<int64_t> shape;
  int64_t elements = 1;
  while (!dims.empty()) {
    auto [item, rest] = dims.split(',');
    item = item.trim();
    dims = rest.trim();
    if (item.empty())
      continue;
    int64_t d;
    if (item.getAsInteger(10, d) || d < 0 || (d > 0 && elements > (int64_t(1) << 40) / d))
      return fail(path, "bad shape " + *shapeText);
    shape.push_back(d);
    elements *= d;
  }
  size_t dataStart = headerStart + headerLength;
  if (stringKind) {
    uint64_t elementSize = stringWidth * (stringKind == 'U' ? 4 : 1), bytes = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(elements), elementSize, &bytes) ||
        data.size() - dataStart != bytes)
      return fail(path, "holds " + llvm::Twine(data.size() - dataStart) +
                            " data bytes, not the shape's " + llvm::Twine(elements) + " x " +
                            llvm::Twine(elementSize));
    Tensor tensor;
    tensor.elementType = type;
    tensor.shape = shape;
    tensor.strings.resize(elements);
    for (int64_t i = 0; i < elements; ++i) {
      const char *element = data.data() + dataStart + i * elementSize;
      std::string &text = tensor.strings[i];
      if (stringKind == 'S') {
        size_t length = elementSize;
        while (length > 0 && element[length - 1] == '\0')
          --length;
        text.assign(element, length);
        continue;
      }
      size_t units = stringWidth;
      uint32_t unit = 0;
      while (units > 0 && (std::memcpy(&unit, element + (units - 1) * 4, 4), unit == 0))
        --units;
      for (size_t u = 0; u < units; ++u) {
        std::memcpy(&unit, element + u * 4, 4);
        char buffer[8], *end = buffer;
        if ((unit >= 0xD800 && unit <= 0xDFFF) || !llvm::ConvertCodePointToUTF8(unit, end))
          return fail(path, "string element " + llvm::Twine(i) + " holds the code point " +
                                llvm::Twine(unit) + ", which has no UTF-8");
        text.append(buffer, end);
      }
    }
    return tensor;
  }
  Tensor tensor = Tensor::zeros(type, shape);
  size_t bytes = tensor.bytes.size();
  if (data.size() - dataStart != bytes)
    return fail(path, "holds " + llvm::Twine(data.size() - dataStart) + " data bytes, expected " +
                          llvm::Twine(bytes));
  std::memcpy(tensor.bytes.data(), data.data() + dataStart, bytes);
  return tensor;
}

llvm::Error tcc::eval::writeNpy(llvm::StringRef path, const Tensor &tensor) {
  std::string descr = descrFromType(tensor.elementType);
  // Strings: '<U{n}' (n the most code points, at least 1), or '|S{n}' (n the most bytes) when
  // an element is not valid UTF-8.
  std::vector<char> stringData;
  if (isa<tcc::prim::StringType>(tensor.elementType)) {
    if (static_cast<int64_t>(tensor.strings.size()) != tensor.getNumElements())
      return fail(path, "the string tensor holds " + llvm::Twine(tensor.strings.size()) +
                            " strings for " + llvm::Twine(tensor.getNumElements()) +
                            " elements");
    std::vector<std::vector<llvm::UTF32>> codePoints(tensor.strings.size());
    bool unicode = true;
    size_t maxBytes = 1, maxCodePoints = 1;
    for (auto [i, text] : llvm::enumerate(tensor.strings)) {
      maxBytes = std::max(maxBytes, text.size());
      if (!unicode)
        continue;
      codePoints[i].resize(text.size());
      auto *source = reinterpret_cast<const llvm::UTF8 *>(text.data());
      llvm::UTF32 *target = codePoints[i].data();
      if (llvm::ConvertUTF8toUTF32(&source, source + text.size(), &target,
                                   target + codePoints[i].size(),
                                   llvm::strictConversion) != llvm::conversionOK) {
        unicode = false;
        continue;
      }
      codePoints[i].resize(target - codePoints[i].data());
      maxCodePoints = std::max(maxCodePoints, codePoints[i].size());
    }
    size_t width = unicode ? 4 * maxCodePoints : maxBytes;
    stringData.assign(tensor.strings.size() * width, '\0');
    for (auto [i, text] : llvm::enumerate(tensor.strings)) {
      char *slot = stringData.data() + i * width;
      if (unicode)
        std::memcpy(slot, codePoints[i].data(), 4 * codePoints[i].size());
      else
        std::memcpy(slot, text.data(), text.size());
    }
    descr = unicode ? "<U" + std::to_string(maxCodePoints) : "|S" + std::to_string(maxBytes);
  }
  if (descr.empty())
    return fail(path, "no .npy dtype for this element type");
  std::string shape = "(";
  for (int64_t d : tensor.shape)
    shape += std::to_string(d) + ", ";
  if (tensor.shape.size() > 1)
    shape.erase(shape.size() - 2);
  else if (tensor.shape.size() == 1)
    shape.erase(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return fail(path, "cannot write: " + ec.message());
  os << "\x93NUMPY" << '\x01' << '\x00';
  uint16_t length = static_cast<uint16_t>(header.size());
  os << static_cast<char>(length & 0xff) << static_cast<char>(length >> 8);
  os << header;
  if (isa<tcc::prim::StringType>(tensor.elementType))
    os.write(stringData.data(), stringData.size());
  else
    os.write(reinterpret_cast<const char *>(tensor.bytes.data()), tensor.bytes.size());
  return llvm::Error::success();
}
