//===- Info.h - tcc-run --info: what a compiled model is and takes --------------*- C++ -*-===//
#ifndef TCC_TOOLS_TCC_RUN_INFO_H
#define TCC_TOOLS_TCC_RUN_INFO_H

#include "tcc/runtime.h"

#include <cstdint>
#include <string>

namespace tcc_run {

/// A DLPack device type for messages: "CUDA (kDLCUDA)".
std::string deviceTypeName(int32_t type);

/// --info: prints what the model was compiled for (and, for a device model, its kernel
/// images), its symbols (with their ranges), inputs and outputs, and the tensors that form its
/// sequences and optionals. Returns an error message, or "".
std::string printInfo(const tcc_model *model);

} // namespace tcc_run

#endif // TCC_TOOLS_TCC_RUN_INFO_H
