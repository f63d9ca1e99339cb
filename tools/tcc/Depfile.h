//===- Depfile.h - a Make-style dependency file for build systems (tcc -MD / -MF) --------===//
#ifndef TCC_TOOLS_TCC_DEPFILE_H
#define TCC_TOOLS_TCC_DEPFILE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tcc {

/// Writes `path` as one Make rule, "target: dependency...", spaces, '#' and '$' escaped as Make
/// and Ninja read them; the file is replaced whole (written aside, then renamed). Returns an
/// error message, or "" on success.
std::string writeDepfile(llvm::StringRef path, llvm::StringRef target,
                         const std::vector<std::string> &dependencies);

/// The depfile path -MD implies for `output`: its extension replaced by ".d" (model.so ->
/// model.d), as compilers do.
std::string defaultDepfilePath(llvm::StringRef output);

} // namespace tcc

#endif // TCC_TOOLS_TCC_DEPFILE_H
