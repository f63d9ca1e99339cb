//===- MetalShaders.h - SPIR-V entry points as Metal Shading Language ---------*- C++ -*-===//
#ifndef TCC_LIB_TARGET_APPLE_METALSHADERS_H
#define TCC_LIB_TARGET_APPLE_METALSHADERS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tcc::metal {

/// The Metal Shading Language 3.0 (macOS) translation, by SPIRV-Cross's C API, of the
/// GLCompute entry point `entryPoint` of the SPIR-V module `words`: a translation unit that
/// defines `kernel void <entryPoint>(...)`, its push constants (the parameter slots) as
/// `constant ... [[buffer(0)]]`, its PhysicalStorageBuffer pointers as `device` pointers made
/// from 64-bit GPU addresses. `function` receives the kernel function's name in MSL: the
/// entry point's, unless it is reserved there (SPIRV-Cross makes "a__b" "a_b"). Fails, with
/// SPIRV-Cross's message in `error`, when SPIRV-Cross refuses the module.
mlir::FailureOr<std::string> translateEntryPoint(llvm::ArrayRef<uint32_t> words,
                                                 llvm::StringRef entryPoint, std::string &function,
                                                 std::string &error);

} // namespace tcc::metal

#endif // TCC_LIB_TARGET_APPLE_METALSHADERS_H
