//===- Names.h - ONNX names in diagnostics ---------------------------------*- C++ -*-===//
//
// Internal to the importer. Names come from the model file and may hold anything; control
// characters are escaped so that a hostile name cannot break the one-line-per-error output.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_LIB_IMPORT_NAMES_H
#define TCC_LIB_IMPORT_NAMES_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tcc::import {

/// `text` with control characters written as \xx escapes.
inline std::string printable(llvm::StringRef text) {
  std::string result;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      result += '\\';
      result += llvm::hexdigit(c >> 4, /*LowerCase=*/true);
      result += llvm::hexdigit(c & 15, /*LowerCase=*/true);
    } else {
      result += static_cast<char>(c);
    }
  }
  return result;
}

/// printable(text) in single quotes, as names appear in tcc's messages.
inline std::string quoted(llvm::StringRef text) { return "'" + printable(text) + "'"; }

} // namespace tcc::import

#endif // TCC_LIB_IMPORT_NAMES_H
