//===- Target.cpp - the table of targets and what they share -------------------------===//
#include "tcc/Target/Target.h"

#include "AMD/AmdTarget.h"
#include "Apple/AppleTarget.h"
#include "CPU/CpuTarget.h"
#include "NVIDIA/NvidiaTarget.h"
#include "SPIRV/VulkanTarget.h"
#include "tcc/Target/GPU/Passes.h"

#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

tcc::Target::~Target() = default;

LogicalResult tcc::Target::emitHostCode(llvm::Module &module, bool assembly,
                                        llvm::SmallVectorImpl<char> &out, std::string &error,
                                        bool optimize) const {
  return emitMachineCode(module, host, assembly, out, error, optimize);
}

LogicalResult tcc::Target::emitHostObjects(llvm::Module &module, unsigned jobs,
                                           llvm::StringRef symbolPrefix,
                                           std::vector<llvm::SmallVector<char, 0>> &objects,
                                           std::string &error) const {
  return emitMachineCodeParts(module, host, jobs, symbolPrefix, objects, error);
}

LogicalResult tcc::Target::linkLibrary(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                                       llvm::StringRef outputPath, std::string &error) const {
  return linkSharedLibrary(objects, host.triple, outputPath, error);
}

namespace {
/// A kind of target: the prefix of `--target` before ':' and the factory that reads the rest
/// (adding a target is a folder under lib/Target plus a row here).
struct TargetKind {
  llvm::StringRef name;
  FailureOr<std::unique_ptr<tcc::Target>> (*create)(llvm::StringRef variant, llvm::StringRef cpu,
                                                    std::string &error);
};
constexpr TargetKind kTargetKinds[] = {{"cpu", tcc::createCpuTarget},
                                       {"nvidia", tcc::createNvidiaTarget},
                                       {"amd", tcc::createAmdTarget},
                                       {"vulkan", tcc::createVulkanTarget},
                                       {"apple", tcc::createAppleTarget}};

constexpr const char *kSupported =
    "host, cpu, cpu:x86_64-linux, cpu:aarch64-linux, cpu:arm64-macos, nvidia, "
    "nvidia:sm_NN[,sm_MM...], amd, amd:gfxNNN[,gfxMMM...], vulkan, vulkan:subgroups, apple";
} // namespace

FailureOr<std::unique_ptr<tcc::Target>> tcc::createTarget(llvm::StringRef spec, llvm::StringRef cpu,
                                                          std::string &error) {
  // "host" is the CPU target for this machine's architecture.
  if (spec.empty() || spec == "host")
    spec = "cpu";
  auto [kind, variant] = spec.split(':');
  for (const TargetKind &candidate : kTargetKinds) {
    if (candidate.name != kind)
      continue;
    FailureOr<std::unique_ptr<Target>> target = candidate.create(variant, cpu, error);
    if (failed(target) && error.empty())
      error = "unknown target '" + spec.str() + "'; supported: " + kSupported;
    return target;
  }
  error = "unknown target '" + spec.str() + "'; supported: " + kSupported;
  return failure();
}

FailureOr<std::vector<std::unique_ptr<tcc::Target>>>
tcc::createTargets(llvm::StringRef spec, llvm::StringRef cpu, std::string &error, bool cpuLevels,
                   llvm::StringRef precision, bool quantized) {
  // "cpu,nvidia:sm_80,sm_90,amd:gfx942": a comma starts a new target where a kind's name (or
  // "host") follows it, and continues the previous target's list of chips elsewhere.
  auto isKind = [](llvm::StringRef item) {
    llvm::StringRef kind = item.split(':').first;
    return kind == "host" ||
           llvm::any_of(kTargetKinds, [&](const TargetKind &k) { return k.name == kind; });
  };
  llvm::SmallVector<std::string> specs;
  llvm::SmallVector<llvm::StringRef> items;
  spec.split(items, ',');
  for (llvm::StringRef item : items) {
    if (specs.empty() || isKind(item))
      specs.push_back(item.str());
    else
      specs.back() += "," + item.str();
  }
  // The CPU target without --cpu: a target per level (createCpuTarget's cpuLevels).
  llvm::SmallVector<std::pair<std::string, std::string>> expanded; // spec, cpu
  for (const std::string &one : specs) {
    auto [kind, variant] = llvm::StringRef(one).split(':');
    llvm::SmallVector<llvm::StringRef> levels;
    if (cpuLevels && cpu.empty() && (kind == "cpu" || kind == "host"))
      levels = tcc::cpuLevels(kind == "host" ? "" : variant, precision, quantized);
    if (levels.empty())
      expanded.push_back({one, cpu.str()});
    for (llvm::StringRef level : levels)
      expanded.push_back({one, level.str()});
  }
  std::vector<std::unique_ptr<Target>> targets;
  for (auto [k, entry] : llvm::enumerate(expanded)) {
    FailureOr<std::unique_ptr<Target>> target = createTarget(entry.first, entry.second, error);
    if (failed(target))
      return failure();
    for (auto [e, earlier] : llvm::enumerate(targets)) {
      bool levelsOfOne = expanded[e].first == entry.first && expanded[e].second != entry.second;
      if (earlier->getName() == (*target)->getName() && !levelsOfOne) {
        error = "--target names " + earlier->getName().str() +
                " twice; one target of each kind goes into a library (list several chips "
                "in one: nvidia:sm_80,sm_90)";
        return failure();
      }
      if (earlier->getHost().triple != (*target)->getHost().triple) {
        error = "--target " + spec.str() + ": a library runs on one host, but " +
                earlier->getName().str() + "'s host code is for " + earlier->getHost().triple +
                " and " + (*target)->getName().str() + "'s for " + (*target)->getHost().triple +
                "; compile one library per host";
        return failure();
      }
    }
    targets.push_back(std::move(*target));
  }
  return targets;
}

LogicalResult tcc::Target::setPrecision(llvm::StringRef precision, std::string &error) {
  if (precision == "fp32")
    return success();
  error = "--precision=" + precision.str() + " is not supported by the " + getName().str() +
          " target; it computes in fp32 (tf32, bf16 and fp16: --target nvidia)";
  return failure();
}

void tcc::registerTargetPasses() {
  registerCpuTarget();
  registerGpuTargetPasses();
  registerNvidiaTarget();
  registerAmdTarget();
  registerVulkanTarget();
  registerAppleTarget();
}
