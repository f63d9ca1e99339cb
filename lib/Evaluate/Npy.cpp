//===- Npy.cpp - NumPy .npy files <-> host tensors -------------------------------------===//
#include "tcc/Evaluate/Npy.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

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
  Type type = typeFromDescr(context, descr->trim("'\""));
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
  Tensor tensor = Tensor::zeros(type, shape);
  size_t bytes = tensor.bytes.size();
  size_t dataStart = headerStart + headerLength;
  if (data.size() - dataStart != bytes)
    return fail(path, "holds " + llvm::Twine(data.size() - dataStart) + " data bytes, expected " +
                          llvm::Twine(bytes));
  std::memcpy(tensor.bytes.data(), data.data() + dataStart, bytes);
  return tensor;
}

llvm::Error tcc::eval::writeNpy(llvm::StringRef path, const Tensor &tensor) {
  std::string descr = descrFromType(tensor.elementType);
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
  os.write(reinterpret_cast<const char *>(tensor.bytes.data()), tensor.bytes.size());
  return llvm::Error::success();
}
