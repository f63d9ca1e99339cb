//===- ExternalData.cpp - tensors stored beside the model (data_location = EXTERNAL) ---===//
//
// `location` is resolved relative to the model's folder and must stay inside it, both as
// written and after following links: a model file must not read arbitrary files.
//
//===----------------------------------------------------------------------------------===//
#include "TensorImport.h"

#include "Names.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tcc::import;

namespace {

std::string lowercaseFirst(std::string message) {
  if (!message.empty())
    message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  return message;
}

/// Parses a decimal byte count ("offset" and "length" are stored as strings).
std::optional<uint64_t> parseByteCount(StringRef text) {
  uint64_t value;
  if (text.empty() || !llvm::all_of(text, llvm::isDigit) || text.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

/// Whether the relative path `location`, with `.` and `..` resolved as written, leaves
/// the folder it is relative to.
bool escapesFolder(StringRef location) {
  llvm::SmallString<256> normalized(location);
  llvm::sys::path::remove_dots(normalized, /*remove_dot_dot=*/true);
  auto first = llvm::sys::path::begin(normalized);
  return first != llvm::sys::path::end(normalized) && *first == "..";
}

} // namespace

FailureOr<ArrayRef<char>>
TensorImporter::readExternalData(const ::onnx::TensorProto &tensor, uint64_t expectedBytes,
                                 StringRef what, Location loc,
                                 std::shared_ptr<llvm::MemoryBuffer> &owner) {
  std::string location;
  std::optional<uint64_t> offset, length;
  for (const ::onnx::StringStringEntryProto &entry : tensor.external_data()) {
    if (entry.key() == "location") {
      location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      std::optional<uint64_t> value = parseByteCount(entry.value());
      if (!value)
        return emitError(loc) << what << " has external data " << entry.key() << " "
                              << quoted(entry.value()) << "; expected a decimal byte count";
      (entry.key() == "offset" ? offset : length) = value;
    }
  }
  if (location.empty())
    return emitError(loc) << what << " is stored externally but names no 'location'";
  if (llvm::sys::path::is_absolute(location))
    return emitError(loc) << what << " has external data at absolute path " << quoted(location)
                          << "; expected a path relative to the model's folder";
  if (escapesFolder(location))
    return emitError(loc) << what << " has external data at " << quoted(location)
                          << ", which is outside the model's folder";

  if (realModelDirectory.empty()) {
    llvm::SmallString<256> real;
    if (std::error_code ec = llvm::sys::fs::real_path(model.directory, real))
      return emitError(loc) << "cannot resolve the model's folder " << quoted(model.directory)
                            << ": " << lowercaseFirst(ec.message());
    realModelDirectory = std::string(real);
  }
  llvm::SmallString<256> path(model.directory);
  llvm::sys::path::append(path, location);
  llvm::SmallString<256> realPath;
  if (std::error_code ec = llvm::sys::fs::real_path(path, realPath))
    return emitError(loc) << "cannot open external data file " << quoted(location) << " of " << what
                          << ": " << lowercaseFirst(ec.message());
  // Links may still lead elsewhere: the resolved file must lie below the resolved folder.
  llvm::SmallString<256> folderPrefix(realModelDirectory);
  if (!folderPrefix.ends_with(llvm::sys::path::get_separator()))
    folderPrefix += llvm::sys::path::get_separator();
  if (!StringRef(realPath).starts_with(folderPrefix))
    return emitError(loc) << what << " has external data at " << quoted(location)
                          << ", which resolves to " << quoted(realPath)
                          << ", outside the model's folder";

  std::shared_ptr<llvm::MemoryBuffer> &file = externalFiles[realPath];
  if (!file) {
    if (llvm::sys::fs::is_directory(realPath))
      return emitError(loc) << "cannot read external data file " << quoted(location) << " of "
                            << what << ": expected a file, found a directory";
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(realPath, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buffer)
      return emitError(loc) << "cannot read external data file " << quoted(location) << " of "
                            << what << ": " << lowercaseFirst(buffer.getError().message());
    file = std::shared_ptr<llvm::MemoryBuffer>(std::move(*buffer));
    filesRead.push_back(std::string(path));
  }

  uint64_t fileSize = file->getBufferSize();
  uint64_t begin = offset.value_or(0);
  if (begin > fileSize)
    return emitError(loc) << what << " has external data at offset " << begin << " of "
                          << quoted(location) << ", but the file has only " << fileSize << " bytes";
  uint64_t size = length.value_or(fileSize - begin);
  if (size > fileSize - begin)
    return emitError(loc) << what << " needs " << size << " bytes at offset " << begin << " of "
                          << quoted(location) << ", but the file has only " << fileSize << " bytes";
  if (size != expectedBytes)
    return emitError(loc) << what << " has " << size << " bytes of external data; expected "
                          << expectedBytes;
  owner = file;
  return ArrayRef<char>(file->getBufferStart() + begin, size);
}
