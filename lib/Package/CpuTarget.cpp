//===- CpuTarget.cpp - which CPU the code is for, and what it requires ----------------===//
#include "tcc/Package/Package.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace {
/// The features the runtime can check, per architecture (runtime/src/cpu_features.c).
constexpr const char *kX86Checked[] = {"sse4.2", "avx", "avx2", "fma", "f16c", "bmi", "bmi2",
                                       "avx512f", "avx512bw", "avx512vl", "avx512dq",
                                       "avx512bf16", "avx512vnni"};
constexpr const char *kAArch64Checked[] = {"neon", "fullfp16", "dotprod", "bf16", "sve"};

/// The checked features a named x86 micro-architecture level implies.
std::string x86LevelFeatures(llvm::StringRef cpu) {
  std::string v2 = "+sse4.2";
  std::string v3 = v2 + ",+avx,+avx2,+bmi,+bmi2,+f16c,+fma";
  std::string v4 = v3 + ",+avx512f,+avx512bw,+avx512vl,+avx512dq";
  if (cpu == "x86-64-v2")
    return v2;
  if (cpu == "x86-64-v3")
    return v3;
  if (cpu == "x86-64-v4")
    return v4;
  return "";
}
/// The checked features (as "+a,+b") of a CPU LLVM knows by name, from its CPU tables; empty
/// when LLVM does not know the name.
std::string namedCpuFeatures(const std::string &triple, llvm::StringRef cpu,
                             llvm::ArrayRef<const char *> checked) {
  static bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    return true;
  }();
  (void)initialized;
  std::string error;
  llvm::Triple parsed(triple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(parsed, error);
  if (!target)
    return "";
  std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(parsed, cpu, ""));
  if (!info || !info->isCPUStringValid(cpu))
    return "";
  std::string features;
  for (const char *name : checked)
    if (info->checkFeatures("+" + std::string(name)))
      features += (features.empty() ? "+" : ",+") + std::string(name);
  return features;
}
} // namespace

FailureOr<tcc::CpuTarget> tcc::resolveCpuTarget(llvm::StringRef target, llvm::StringRef cpu,
                                                std::string &error) {
  CpuTarget result;
  llvm::Triple host(llvm::sys::getDefaultTargetTriple());
  std::string arch;
  if (target.empty() || target == "host" || target == "cpu") {
    arch = host.getArch() == llvm::Triple::aarch64 ? "aarch64" : "x86_64";
  } else if (target == "cpu:x86_64-linux") {
    arch = "x86_64";
  } else if (target == "cpu:aarch64-linux") {
    arch = "aarch64";
  } else {
    error = "unknown target '" + target.str() +
            "'; supported: host, cpu, cpu:x86_64-linux, cpu:aarch64-linux (GPU targets are "
            "not available yet)";
    return failure();
  }
  result.triple = arch + "-unknown-linux-gnu";
  bool native = cpu == "native";
  if (native && arch != (host.getArch() == llvm::Triple::aarch64 ? "aarch64" : "x86_64")) {
    error = "--cpu=native needs the host's architecture, not " + arch;
    return failure();
  }
  if (native) {
    result.cpu = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    std::string llvmFeatures, required;
    for (auto &entry : features) {
      llvmFeatures += (llvmFeatures.empty() ? "" : ",") + std::string(entry.second ? "+" : "-") +
                      entry.first().str();
    }
    auto checked = arch == "x86_64" ? llvm::ArrayRef<const char *>(kX86Checked)
                                    : llvm::ArrayRef<const char *>(kAArch64Checked);
    for (const char *name : checked)
      if (features.lookup(name))
        required += (required.empty() ? "+" : ",+") + std::string(name);
    result.features = llvmFeatures;
    result.requiredFeatures = required;
    return result;
  }
  if (arch == "x86_64") {
    result.cpu = cpu.empty() ? "x86-64-v3" : cpu.str();
    result.requiredFeatures = x86LevelFeatures(result.cpu);
    // The AVX-512 level: its features are the code's too, so the tiles take 512-bit vectors.
    if (result.cpu == "x86-64-v4")
      result.features = result.requiredFeatures;
    if (result.requiredFeatures.empty() && !cpu.empty() && !cpu.starts_with("x86-64")) {
      // A named CPU (znver4, skylake, ...): LLVM generates code with all of its features, so
      // the library requires the checked ones it has (a CPU without them gets a clear error
      // at load time, not an illegal instruction), and the tiles use them (512-bit vectors
      // when it has AVX-512).
      std::string named = namedCpuFeatures(result.triple, result.cpu, kX86Checked);
      result.requiredFeatures = named.empty() ? x86LevelFeatures("x86-64-v2") : named;
      result.features = named;
    }
  } else {
    result.cpu = cpu.empty() ? "generic" : cpu.str();
    result.features = cpu.empty() ? "+v8.2a,+neon,+fullfp16" : "";
    result.requiredFeatures = cpu.empty() ? "+neon,+fullfp16" : "+neon";
  }
  return result;
}
