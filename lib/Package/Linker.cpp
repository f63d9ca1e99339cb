//===- Linker.cpp - object -> model.so with the in-process LLD -----------------------===//
#include "tcc/Package/Package.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace mlir;

namespace {
/// compiler-rt's builtins for the host, linked statically so that the model needs nothing
/// but libc (f16 conversions, 128-bit division, ...).
std::string findBuiltins() {
  const char *candidates[] = {
      "/usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.builtins-x86_64.a",
      "/usr/lib/llvm-22/lib/clang/22/lib/x86_64-pc-linux-gnu/libclang_rt.builtins.a"};
  for (const char *path : candidates)
    if (llvm::sys::fs::exists(path))
      return path;
  return "";
}
} // namespace

LogicalResult tcc::linkSharedLibrary(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                                     llvm::StringRef outputPath, std::string &error) {
  // LLD keeps global state: one link at a time per process.
  static std::mutex linkMutex;
  std::lock_guard<std::mutex> lock(linkMutex);

  std::vector<std::string> objectFiles;
  auto removeObjects = llvm::make_scope_exit([&] {
    for (const std::string &file : objectFiles)
      llvm::sys::fs::remove(file);
  });
  for (const auto &object : objects) {
    llvm::SmallString<128> objectPath;
    int fd;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("tcc-model", "o", fd, objectPath)) {
      error = "cannot create a temporary object file: " + ec.message();
      return failure();
    }
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
    objectFiles.push_back(objectPath.str().str());
  }
  std::string output = outputPath.str();
  std::string builtins = findBuiltins();
  std::vector<const char *> args = {"ld.lld", "-shared", "-o", output.c_str()};
  for (const std::string &file : objectFiles)
    args.push_back(file.c_str());
  for (const char *flag : {"--build-id=none", "-z", "noexecstack", "-z", "relro",
                           "--hash-style=gnu", "--exclude-libs=ALL", "-O1"})
    args.push_back(flag);
  if (!builtins.empty())
    args.push_back(builtins.c_str());
  std::string log;
  llvm::raw_string_ostream logStream(log);
  lld::Result result = lld::lldMain(args, logStream, logStream, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode != 0) {
    error = "linking " + output + " failed: " + log;
    return failure();
  }
  return success();
}
