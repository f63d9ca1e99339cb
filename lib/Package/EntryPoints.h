//===- EntryPoints.h - the descriptor's functions around the host code -------*- C++ -*-===//
#ifndef TCC_LIB_PACKAGE_ENTRYPOINTS_H
#define TCC_LIB_PACKAGE_ENTRYPOINTS_H

#include "tcc/Package/Package.h"

#include "llvm/IR/Function.h"

namespace tcc::package {

/// The functions the descriptor points to (model_abi.h's workspace_size, output_shapes,
/// run).
struct EntryPoints {
  llvm::Function *workspaceSize, *outputShapes, *run;
};

/// Writes workspace_size, output_shapes and run around the translated host functions
/// (@main, @workspace_size, @output_shapes, whose signatures the caller checked) and routes
/// @main's data-dependent extents to the import table. `messages` are the run-time checks'
/// messages in status order; `stringTableSize` > 0 makes run refuse an import table smaller
/// than that (one without the string functions the model calls).
/// A device model's @main also takes, after the workspace, the device constants
/// (imports->device_constants, `deviceConstants`) and then the check status word
/// (imports->device_status, `deviceStatus`).
EntryPoints buildEntryPoints(llvm::Module &module, const ModelInterface &interface,
                             llvm::ArrayRef<std::string> messages, uint64_t stringTableSize,
                             bool deviceConstants = false, bool deviceStatus = false);

/// Writes compute_symbols, which calls @data_symbols with the bound symbol values and the
/// inputs and stores the `computed` symbols' values; null (with `error`) when @data_symbols
/// does not have the expected signature.
llvm::Function *buildComputeSymbols(llvm::Module &module, const ModelInterface &interface,
                                    llvm::ArrayRef<size_t> computed, std::string &error);

} // namespace tcc::package

#endif // TCC_LIB_PACKAGE_ENTRYPOINTS_H
