//===- Depfile.cpp - a Make-style dependency file for build systems (tcc -MD / -MF) ------===//
#include "Depfile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace {

/// A path as Make reads it in a rule (Ninja's depfile parser agrees): '\' before spaces and
/// '#', '$$' for '$'.
std::string escapeForMake(llvm::StringRef path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#')
      out.push_back('\\');
    if (c == '$')
      out.push_back('$');
    out.push_back(c);
  }
  return out;
}

} // namespace

std::string tcc::writeDepfile(llvm::StringRef path, llvm::StringRef target,
                              const std::vector<std::string> &dependencies) {
  std::string text = escapeForMake(target) + ":";
  for (const std::string &dependency : dependencies)
    text += " \\\n  " + escapeForMake(dependency);
  text += "\n";
  std::string temporary = (path + ".tmp").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec, llvm::sys::fs::OF_None);
    if (ec)
      return "cannot write the depfile '" + path.str() + "': " + ec.message();
    os << text;
    os.close();
    if (os.has_error())
      return "cannot write the depfile '" + path.str() + "': " + os.error().message();
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return "cannot write the depfile '" + path.str() + "': " + ec.message();
  }
  return "";
}

std::string tcc::defaultDepfilePath(llvm::StringRef output) {
  llvm::SmallString<256> path(output);
  llvm::sys::path::replace_extension(path, "d");
  return std::string(path);
}
