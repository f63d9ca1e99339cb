//===- Linker.cpp - objects -> a shared library (ELF) or dylib (Mach-O), in-process LLD ===//
#include "tcc/Target/Target.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

LLD_HAS_DRIVER(elf)
LLD_HAS_DRIVER(macho)

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

/// The linker's arguments for an ELF shared library (Linux): the compiler builtins linked
/// in statically, so the model needs nothing but libc; or for an AMD GPU code object.
LogicalResult elfArguments(const llvm::Triple &triple, const std::string &output,
                           std::vector<std::string> &args, std::string &error) {
  // An AMD GPU's HSA code object: the kernels' object as a shared library, whole (nothing
  // to import: the HSA loader resolves no symbols).
  if (triple.isAMDGCN()) {
    args = {"ld.lld", "-shared", "-o", output, "@objects", "--build-id=none", "--no-undefined"};
    return success();
  }
  std::string looked;
  std::string builtins = findBuiltins(triple, looked);
  if (builtins.empty()) {
    error = "no compiler builtins for " + triple.getArchName().str() + " (looked for " + looked +
            "); for AArch64 install gcc-aarch64-linux-gnu";
    return failure();
  }
  args = {"ld.lld", "-shared", "-o", output, "@objects"};
  for (const char *flag : {"--build-id=none", "-z", "noexecstack", "-z", "relro",
                           "--hash-style=gnu", "--exclude-libs=ALL", "-O1"})
    args.push_back(flag);
  args.push_back(builtins);
  return success();
}

/// What model code may import from macOS's libSystem: memory functions LLVM calls for
/// loops it recognizes, the math functions left as library calls (fmod for frem), and the
/// compiler builtins that libSystem carries (libcompiler_rt). As a text stub (TAPI .tbd),
/// so that no SDK is needed; an import outside this list fails the link, naming it.
constexpr const char *kLibSystemStub = R"(--- !tapi-tbd
tbd-version: 4
targets: [ arm64-macos ]
install-name: '/usr/lib/libSystem.B.dylib'
current-version: 1311
exports:
  - targets: [ arm64-macos ]
    symbols: [ _bzero, _memcmp, _memcpy, _memmove, _memset, _memset_pattern4,
               _memset_pattern8, _memset_pattern16, ___bzero, ___memcpy_chk, ___memset_chk,
               ___stack_chk_fail, ___stack_chk_guard,
               _fmod, _fmodf, _exp, _expf, _exp2, _exp2f, _log, _logf, _log2, _log2f,
               _log10, _log10f, _pow, _powf, _sin, _sinf, _cos, _cosf, _tan, _tanf,
               _sqrt, _sqrtf, _floor, _floorf, _ceil, _ceilf, _round, _roundf, _trunc,
               _truncf, _rint, _rintf, _nearbyint, _nearbyintf, _fmin, _fminf, _fmax, _fmaxf,
               _fma, _fmaf, _ldexp, _ldexpf, _frexp, _frexpf, _sincos, _sincosf,
               ___sincos_stret, ___sincosf_stret, ___exp10, ___exp10f,
               ___divti3, ___udivti3, ___modti3, ___umodti3, ___multi3, ___ashlti3,
               ___ashrti3, ___lshrti3, ___fixsfti, ___fixdfti, ___fixunssfti, ___fixunsdfti,
               ___floattisf, ___floattidf, ___floatuntisf, ___floatuntidf,
               ___extendhfsf2, ___truncsfhf2, ___truncdfhf2, ___truncsfbf2, ___truncdfbf2 ]
...
)";

/// The linker's arguments for a Mach-O dynamic library (macOS, arm64), linked against
/// libSystem through the stub above (written to `libSystem`). No SDK is needed.
LogicalResult machoArguments(const llvm::Triple &triple, const std::string &output,
                             const std::string &libSystem, std::vector<std::string> &args,
                             std::string &error) {
  if (!triple.isMacOSX() || !triple.isAArch64()) {
    error = "linking for '" + triple.str() + "' is not supported (Mach-O: arm64 macOS only)";
    return failure();
  }
  llvm::VersionTuple version;
  triple.getMacOSXVersion(version);
  std::string minimum = version.getAsString();
  args = {"ld64.lld",
          "-dylib",
          "-arch",
          "arm64",
          "-platform_version",
          "macos",
          minimum,
          minimum,
          "-install_name",
          "@rpath/" + llvm::sys::path::filename(output).str(),
          "-o",
          output,
          "@objects",
          libSystem};
  return success();
}
} // namespace

LogicalResult tcc::linkSharedLibrary(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                                     llvm::StringRef tripleName, llvm::StringRef outputPath,
                                     std::string &error) {
  llvm::Triple triple(tripleName);
  std::string output = outputPath.str();
  if (!triple.isOSBinFormatELF() && !triple.isOSBinFormatMachO()) {
    error = "linking for '" + tripleName.str() + "' is not supported (ELF and Mach-O only)";
    return failure();
  }

  // LLD keeps global state: one link at a time per process.
  static std::mutex linkMutex;
  std::lock_guard<std::mutex> lock(linkMutex);

  std::vector<std::string> temporaries;
  llvm::scope_exit removeTemporaries([&] {
    for (const std::string &file : temporaries)
      llvm::sys::fs::remove(file);
  });
  auto writeTemporary = [&](llvm::StringRef suffix, llvm::StringRef bytes) -> LogicalResult {
    llvm::SmallString<128> path;
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile("tcc-model", suffix, fd, path)) {
      error = "cannot create a temporary file for the linker: " + ec.message();
      return failure();
    }
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    temporaries.push_back(path.str().str());
    return success();
  };
  for (const auto &object : objects)
    if (failed(writeTemporary("o", llvm::StringRef(object.data(), object.size()))))
      return failure();
  std::vector<std::string> objectFiles = temporaries;

  std::vector<std::string> args;
  if (triple.isOSBinFormatELF()) {
    if (failed(elfArguments(triple, output, args, error)))
      return failure();
  } else if (failed(writeTemporary("tbd", kLibSystemStub)) ||
             failed(machoArguments(triple, output, temporaries.back(), args, error))) {
    return failure();
  }

  // "@objects" in the arguments stands for the object files, in order.
  std::vector<const char *> argv;
  for (const std::string &arg : args) {
    if (arg != "@objects") {
      argv.push_back(arg.c_str());
      continue;
    }
    for (const std::string &file : objectFiles)
      argv.push_back(file.c_str());
  }
  std::string log;
  llvm::raw_string_ostream logStream(log);
  lld::Result result = lld::lldMain(
      argv, logStream, logStream, {{lld::Gnu, &lld::elf::link}, {lld::Darwin, &lld::macho::link}});
  if (result.retCode != 0) {
    error = "linking " + output + " failed: " + log;
    return failure();
  }
  return success();
}
