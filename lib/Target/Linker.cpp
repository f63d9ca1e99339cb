//===- Linker.cpp - objects -> a shared library with the in-process LLD --------------===//
#include "tcc/Target/Target.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace mlir;

namespace {
/// The archive of compiler builtins (f16 conversions, 128-bit division, ...) for `triple`,
/// linked statically so that the model needs nothing but libc: compiler-rt's where Debian's
/// libclang-rt has one (x86-64), else the GCC cross toolchain's libgcc (AArch64: apt
/// gcc-aarch64-linux-gnu), else the native GCC's. `looked` lists the places tried.
std::string findBuiltins(const llvm::Triple &triple, std::string &looked) {
  std::string arch = triple.getArchName().str();
  std::string clangLib = "/usr/lib/llvm-22/lib/clang/22/lib/";
  std::string gccTriple = arch + "-linux-gnu";
  std::vector<std::string> candidates = {
      clangLib + "linux/libclang_rt.builtins-" + arch + ".a",
      clangLib + triple.str() + "/libclang_rt.builtins.a",
      clangLib + arch + "-pc-linux-gnu/libclang_rt.builtins.a",
  };
  for (const char *root : {"/usr/lib/gcc-cross/", "/usr/lib/gcc/"})
    for (int version = 14; version >= 10; --version)
      candidates.push_back(std::string(root) + gccTriple + "/" + std::to_string(version) +
                           "/libgcc.a");
  for (const std::string &path : candidates) {
    if (llvm::sys::fs::exists(path))
      return path;
    looked += (looked.empty() ? "" : ", ") + path;
  }
  return "";
}
} // namespace

LogicalResult tcc::linkSharedLibrary(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                                     llvm::StringRef tripleName, llvm::StringRef outputPath,
                                     std::string &error) {
  llvm::Triple triple(tripleName);
  if (!triple.isOSBinFormatELF()) {
    error = "linking for '" + tripleName.str() + "' is not supported yet (ELF only)";
    return failure();
  }
  std::string looked;
  std::string builtins = findBuiltins(triple, looked);
  if (builtins.empty()) {
    error = "no compiler builtins for " + triple.getArchName().str() + " (looked for " + looked +
            "); for AArch64 install gcc-aarch64-linux-gnu";
    return failure();
  }

  // LLD keeps global state: one link at a time per process.
  static std::mutex linkMutex;
  std::lock_guard<std::mutex> lock(linkMutex);

  std::vector<std::string> objectFiles;
  llvm::scope_exit removeObjects([&] {
    for (const std::string &file : objectFiles)
      llvm::sys::fs::remove(file);
  });
  for (const auto &object : objects) {
    llvm::SmallString<128> objectPath;
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tcc-model", "o", fd, objectPath)) {
      error = "cannot create a temporary object file: " + ec.message();
      return failure();
    }
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(object.data(), object.size());
    objectFiles.push_back(objectPath.str().str());
  }
  std::string output = outputPath.str();
  std::vector<const char *> args = {"ld.lld", "-shared", "-o", output.c_str()};
  for (const std::string &file : objectFiles)
    args.push_back(file.c_str());
  for (const char *flag : {"--build-id=none", "-z", "noexecstack", "-z", "relro",
                           "--hash-style=gnu", "--exclude-libs=ALL", "-O1"})
    args.push_back(flag);
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
