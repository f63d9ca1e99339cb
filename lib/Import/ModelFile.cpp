//===- ModelFile.cpp - reading and parsing an ONNX model file --------------------------===//
//
// Binary models are mmapped (llvm::MemoryBuffer) and parsed from a CodedInputStream with an
// explicit size limit; `.onnxtxt` files are protobuf text format (used by the tests).
//
//===----------------------------------------------------------------------------------===//
#include "ModelFile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

using namespace mlir;
using namespace tcc::import;

namespace {

/// System error messages start with a capital; tcc's diagnostics are lowercase.
std::string lowercaseFirst(std::string message) {
  if (!message.empty())
    message[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(message[0])));
  return message;
}

/// Keeps the first text-format error (with its position) instead of printing to stderr.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (!message_.empty())
      return;
    message_ = "line " + std::to_string(line + 1) + " column " + std::to_string(column + 1) + ": " +
               message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string &) override {}
  const std::string &message() const { return message_; }

private:
  std::string message_;
};

LogicalResult parseText(const llvm::MemoryBuffer &buffer, Location loc, ModelFile &file) {
  FirstErrorCollector errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  // Binary parsing's limit (protobuf's default): deeper nesting (subgraphs in subgraphs ...)
  // would exhaust the stack of this recursive parser, and of the importer.
  parser.SetRecursionLimit(kMaxMessageDepth);
  google::protobuf::io::ArrayInputStream input(buffer.getBufferStart(),
                                               static_cast<int>(buffer.getBufferSize()));
  if (!parser.Parse(&input, &file.model))
    return emitError(loc) << "not an ONNX model in protobuf text format: "
                          << (errors.message().empty() ? "parse error" : errors.message());
  return success();
}

LogicalResult parseBinary(Location loc, ModelFile &file) {
  llvm::ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(file.buffer->getBufferStart()),
                                file.buffer->getBufferSize());
  WireCheck check = scanModelWireFormat(bytes, file.rawData);
  if (check.kind == WireCheck::Kind::Truncated)
    return emitError(loc) << "truncated model file: " << check.detail;
  if (check.kind == WireCheck::Kind::NotAModel)
    return emitError(loc) << "not an ONNX model: " << check.detail;

  // Parse the model without its large raw_data fields where the scan found them all (the
  // importer reads those bytes from the file), else as it is.
  std::optional<std::string> detached = detachRawData(bytes, file.rawData);
  if (detached)
    bytes = llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(detached->data()),
                                    detached->size());
  google::protobuf::io::CodedInputStream input(bytes.data(), static_cast<int>(bytes.size()));
  input.SetTotalBytesLimit(static_cast<int>(kMaxModelFileBytes));
  input.SetRecursionLimit(kMaxMessageDepth);
  if (!file.model.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage())
    return emitError(loc) << "not an ONNX model: the file does not parse as an ONNX "
                             "ModelProto (a malformed field, or messages nested more than "
                          << kMaxMessageDepth
                          << " deep: If, Loop and Scan bodies nested more than about 30 "
                             "deep)";
  return success();
}

} // namespace

LogicalResult tcc::import::readModelFile(llvm::StringRef path, Location loc, ModelFile &file) {
  file.path = path.str();
  llvm::SmallString<256> directory(path);
  llvm::sys::path::remove_filename(directory);
  file.directory = directory.empty() ? "." : std::string(directory);

  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return emitError(loc) << "cannot open model file: " << lowercaseFirst(ec.message());
  if (llvm::sys::fs::is_directory(status))
    return emitError(loc) << "cannot read model file: expected a file, found a directory";
  if (status.getSize() > kMaxModelFileBytes)
    return emitError(loc) << "model file is " << status.getSize()
                          << " bytes; protobuf limits models to " << kMaxModelFileBytes
                          << " bytes (store the weights as external data)";

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return emitError(loc) << "cannot read model file: "
                          << lowercaseFirst(buffer.getError().message());
  // Not a regular file (a pipe): its size is only known now.
  if ((*buffer)->getBufferSize() > kMaxModelFileBytes)
    return emitError(loc) << "model file is " << (*buffer)->getBufferSize()
                          << " bytes; protobuf limits models to " << kMaxModelFileBytes
                          << " bytes (store the weights as external data)";

  if (path.ends_with(".onnxtxt")) {
    if (failed(parseText(**buffer, loc, file)))
      return failure();
  } else {
    file.buffer = std::shared_ptr<llvm::MemoryBuffer>(std::move(*buffer));
    if (failed(parseBinary(loc, file)))
      return failure();
  }
  if (!file.model.has_graph())
    return emitError(loc) << "not an ONNX model: expected a ModelProto with a graph, found "
                             "none";
  return success();
}
