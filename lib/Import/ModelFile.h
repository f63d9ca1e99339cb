//===- ModelFile.h - an ONNX model file read into memory --------------------*- C++ -*-===//
//
// Internal to the importer. A binary model stays mmapped for as long as any weight blob
// points into it; the wire-format index says where each weight's raw bytes lie in the file.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_MODELFILE_H
#define TCC_LIB_IMPORT_MODELFILE_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcc::import {

/// A byte range of the model file.
struct ByteSpan {
  uint64_t offset = 0;
  uint64_t size = 0;
  /// The parsed message (ModelFile::model) does not hold these raw_data bytes: they were
  /// left out of what protobuf parsed and are read from the file.
  bool detached = false;
};

/// Where the `raw_data` bytes of the main graph's tensors lie in a binary model file.
/// Entries are absent where the scan found none (or gave up); the importer then copies.
struct RawDataIndex {
  /// By initializer index (GraphProto.initializer order).
  std::vector<std::optional<ByteSpan>> initializers;
  /// By node index, then attribute index: the span of the attribute's tensor `t`.
  std::vector<llvm::SmallVector<std::optional<ByteSpan>, 2>> nodeAttributes;

  std::optional<ByteSpan> initializer(size_t index) const {
    return index < initializers.size() ? initializers[index] : std::nullopt;
  }
  std::optional<ByteSpan> nodeAttribute(size_t node, size_t attribute) const {
    if (node >= nodeAttributes.size() || attribute >= nodeAttributes[node].size())
      return std::nullopt;
    return nodeAttributes[node][attribute];
  }
};

/// The verdict of the top-level wire-format check of a binary model.
struct WireCheck {
  enum class Kind { Ok, Truncated, NotAModel } kind = Kind::Ok;
  /// For Truncated / NotAModel: what was found, for the diagnostic.
  std::string detail;
};

/// Checks the top-level fields of a binary ModelProto (to tell a truncated file from one
/// that is not a model at all) and records the raw_data spans of the main graph's tensors.
/// Every read is bounds-checked; hostile input only ever yields a verdict.
WireCheck scanModelWireFormat(llvm::ArrayRef<uint8_t> bytes, RawDataIndex &index);

/// The raw_data of at least this many bytes is left out of what protobuf parses.
constexpr uint64_t kMinDetachedRawDataBytes = 1024;

/// `bytes` (a model that scanModelWireFormat indexed into `index`) re-encoded without the
/// raw_data fields of the indexed tensors of at least kMinDetachedRawDataBytes, which it
/// marks detached: protobuf would copy every weight while parsing, doubling a large model
/// in memory. std::nullopt when nothing is left out (or the index is empty).
std::optional<std::string> detachRawData(llvm::ArrayRef<uint8_t> bytes, RawDataIndex &index);

/// A parsed model with what keeps its weights readable.
struct ModelFile {
  std::string path;
  /// The folder holding the model: external data paths are relative to it.
  std::string directory;
  /// The mmapped (or read) binary file; null for the text format.
  std::shared_ptr<llvm::MemoryBuffer> buffer;
  ::onnx::ModelProto model;
  RawDataIndex rawData;
};

/// The largest model file protobuf can parse (its 2 GiB limit).
constexpr uint64_t kMaxModelFileBytes = 0x7fffffff;

/// How deep messages may nest in a model file, binary or text (protobuf's default for binary
/// parsing): each If, Loop or Scan body adds three levels (node, attribute, graph).
constexpr int kMaxMessageDepth = 100;

/// Reads and parses the model at `path` into `file`: binary protobuf, or text format when
/// the name ends in `.onnxtxt`. Emits one error at `loc` and fails on any problem.
mlir::LogicalResult readModelFile(llvm::StringRef path, mlir::Location loc, ModelFile &file);

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_MODELFILE_H
