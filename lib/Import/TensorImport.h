//===- TensorImport.h - ONNX TensorProto -> elements attribute -------------*- C++ -*-===//
//
// Internal to the importer. Small tensors become DenseElementsAttr (folding reads them);
// large ones become DenseResourceElementsAttr blobs that point into the mmapped model or
// its external data files whenever the bytes there are suitably aligned.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_TENSORIMPORT_H
#define TCC_LIB_IMPORT_TENSORIMPORT_H

#include "ModelFile.h"

#include <string>
#include <vector>

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"

#include <vector>
#include <memory>
#include <optional>
#include <string>

namespace tcc::import {

/// Tensors with at most this many elements become DenseElementsAttr (shape constants must
/// fold); larger ones become `dense_resource` blobs.
constexpr int64_t kMaxInlineElements = 64;

/// Converts the TensorProtos of one model (initializers, TENSOR attributes).
class TensorImporter {
public:
  explicit TensorImporter(const ModelFile &model) : model(model) {}

  /// The external data files read so far, as the model names them (its folder joined with
  /// the location), in the order first read: what a depfile lists besides the model.
  const std::vector<std::string> &externalDataFiles() const { return filesRead; }

  /// Imports `tensor`; `what` names it in errors ("initializer 'w'") and `blobName` names
  /// its resource blob. `rawDataSpan` says where its raw_data lies in the model file, when
  /// known. The tensor's own copy of its data is freed once imported.
  mlir::FailureOr<mlir::ElementsAttr> importTensor(::onnx::TensorProto &tensor,
                                                   llvm::StringRef what, llvm::StringRef blobName,
                                                   std::optional<ByteSpan> rawDataSpan,
                                                   mlir::Location loc);

private:
  /// The bytes of a tensor stored in an external file, checked to lie inside the model's
  /// folder and to hold exactly `expectedBytes` bytes; `owner` keeps them mapped.
  mlir::FailureOr<llvm::ArrayRef<char>>
  readExternalData(const ::onnx::TensorProto &tensor, uint64_t expectedBytes, llvm::StringRef what,
                   mlir::Location loc, std::shared_ptr<llvm::MemoryBuffer> &owner);

  const ModelFile &model;
  /// The model folder after resolving links, computed on first use.
  std::string realModelDirectory;
  /// External data files by real path: one mapping per file, shared by its tensors.
  llvm::StringMap<std::shared_ptr<llvm::MemoryBuffer>> externalFiles;
  std::vector<std::string> filesRead;
};

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_TENSORIMPORT_H
