//===- Inspect.h - tcc inspect: what a model file or a compiled library holds --*- C++ -*-===//
#ifndef TCC_TOOLS_TCC_INSPECT_H
#define TCC_TOOLS_TCC_INSPECT_H

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tcc_tool {

/// `tcc inspect PATH`: an ONNX model (.onnx, .onnxtxt): its producer, opsets, inputs,
/// outputs, op histogram and weights; a library tcc made: its variants (targets), symbols,
/// inputs, outputs, parameters, kernels with their ONNX nodes, size breakdown (code,
/// weights, device images) and the options it was compiled with. Text, or one JSON object
/// with `json`. Returns false with `error` set when the file cannot be read.
bool inspect(const std::string &path, bool json, mlir::MLIRContext &context, llvm::raw_ostream &os,
             std::string &error);

} // namespace tcc_tool

#endif // TCC_TOOLS_TCC_INSPECT_H
