//===- CpuTarget.cpp - x86-64 and AArch64: which CPU, its registers, its pipeline -----===//
#include "CpuTarget.h"

#include "tcc/Target/CPU/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;

namespace {
/// The features the runtime can check, per architecture (runtime/src/cpu_features.c).
constexpr const char *kX86Checked[] = {
    "sse4.2",  "avx",      "avx2",     "fma",      "f16c",       "bmi",       "bmi2",
    "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512bf16", "avx512vnni"};
constexpr const char *kAArch64Checked[] = {"neon", "fullfp16", "dotprod", "bf16", "sve"};
/// AArch64 cores with SVE vectors wider than NEON's, and their length in bits (Neoverse V2
/// and N2 have 128-bit SVE: NEON's width, so their code stays NEON).
constexpr std::pair<const char *, int64_t> kWideSveCores[] = {{"neoverse-v1", 256}, {"a64fx", 512}};

/// CPUs whose 512-bit FMAs issue as two 256-bit halves (AMD Zen 4); later cores and
/// Intel's have full-width units.
constexpr llvm::StringLiteral kSplitWideFmaCpus[] = {"znver4"};

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

/// Whether an LLVM feature string ("+a,-b,...") enables `name`.
bool enables(llvm::StringRef features, llvm::StringRef name) {
  llvm::SmallVector<llvm::StringRef> entries;
  features.split(entries, ',', -1, /*KeepEmpty=*/false);
  return llvm::any_of(
      entries, [&](llvm::StringRef entry) { return entry.consume_front("+") && entry == name; });
}

/// The oldest macOS the Mach-O libraries load on (the first with Apple-silicon Macs is 11;
/// 13 is what the linker is told, as ../shared/TOOLCHAIN.md's tried command).
constexpr llvm::StringLiteral kMacosVersion = "13.0.0";

/// The host machine for `arch` and `cpu` on Linux, or on macOS when `macos` (see
/// createCpuTarget).
FailureOr<tcc::HostMachine> resolveHost(llvm::StringRef arch, bool macos, llvm::StringRef cpu,
                                        llvm::StringRef hostArch, std::string &error) {
  tcc::HostMachine result;
  result.triple =
      macos ? ("arm64-apple-macosx" + kMacosVersion).str() : (arch + "-unknown-linux-gnu").str();
  if (macos && cpu == "native") {
    error = "--cpu=native needs the host's operating system, not macOS";
    return failure();
  }
  bool native = cpu == "native";
  if (native && arch != hostArch) {
    error = "--cpu=native needs the host's architecture, not " + arch.str();
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
    // A level with features added ("x86-64-v4+avx512bf16", cpuLevels): the level's
    // features and those, checked features only.
    auto [level, added] = cpu.split('+');
    if (!added.empty() && !x86LevelFeatures(level).empty()) {
      llvm::SmallVector<llvm::StringRef> names;
      added.split(names, '+');
      result.cpu = level.str();
      result.requiredFeatures = x86LevelFeatures(level);
      for (llvm::StringRef name : names) {
        if (!llvm::is_contained(kX86Checked, name)) {
          error = "--cpu=" + cpu.str() + ": '" + name.str() +
                  "' is not a feature a level can add (the runtime checks: avx512bf16, "
                  "avx512vnni, ...)";
          return failure();
        }
        result.requiredFeatures += ",+" + name.str();
      }
      result.features = result.requiredFeatures;
      return result;
    }
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
    return result;
  }
  if (macos && cpu.empty())
    cpu = "apple-m1"; // every Apple-silicon Mac
  result.cpu = cpu.empty() ? "generic" : cpu.str();
  result.features = cpu.empty() ? "+v8.2a,+neon,+fullfp16" : "";
  result.requiredFeatures = cpu.empty() ? "+neon,+fullfp16" : "+neon";
  if (!cpu.empty()) {
    // A named core (neoverse-v1, neoverse-v2, ...) requires the checked features it has.
    std::string named = namedCpuFeatures(result.triple, result.cpu, kAArch64Checked);
    if (!named.empty())
      result.requiredFeatures = named;
    // Cores whose SVE vectors are wider than 128 bits get code for exactly that length.
    for (auto [core, bits] : kWideSveCores)
      if (result.cpu == core) {
        result.sveVectorBits = bits;
        result.requiredFeatures += ",+sve" + std::to_string(bits);
      }
  }
  return result;
}

/// What the kernels may use of the host's vector unit.
tcc::TargetInfo describeProcessor(const tcc::HostMachine &host) {
  tcc::TargetInfo info;
  info.attentionKernels = true; // tcc-cpu-lower-attention
  info.attentionByDefault = true;
  info.unfoldConvolutions = true; // tcc-unfold-convolutions
  // Without a fill, every CPU tile adds the values its output holds after the sum: a
  // residual's buffer (tcc-accumulate-residuals).
  info.accumulateResiduals = true;
  // The tiler converts a float contraction's 8-bit operand as it loads it
  // (Plan::bytesInput).
  info.byteContractionOperands = true;
  if (llvm::Triple(host.triple).isAArch64()) {
    // NEON: 32 registers of 128 bits; SVE's 32 registers of the core's vector length where
    // it is wider (fixed-length SVE code, resolveHost).
    info.vectorBits = host.sveVectorBits ? host.sveVectorBits : 128;
    info.vectorRegisters = 32;
    return info;
  }
  // x86-64: AVX-512 when the code may use it (--cpu=native on such a CPU, or a named one),
  // else AVX2; AVX-512 also doubles the register file.
  info.vectorBits = enables(host.features, "avx512f") ? 512 : 256;
  info.vectorRegisters = info.vectorBits >= 512 ? 32 : 16;
  info.splitWideFma = llvm::is_contained(kSplitWideFmaCpus, host.cpu);
  // Gathering every other column costs two loads and a permute per 512-bit vector, two
  // permutes and a blend per 256-bit one: measured, splitting pays for all widths at 256
  // bits, and at 512 where an output row fits one vector (tcc-split-strided-convolutions).
  // Not on AArch64 (not measured there; its ld2 deinterleaves in the load).
  info.splitStridedConvolutions = true;
  info.splitStridedAllWidths = info.vectorBits < 512;
  // Narrow maps' convolutions with output channels along the vectors (measured at 512 bits
  // only; the pass leaves other widths alone).
  info.channelVectorConvolutions = true;
  // Gathers of 32-bit table entries (vpgatherdd), measured on x86 only. On AArch64 with
  // fixed-length SVE, LLVM 22 cannot select the vectorized lookup loops ("Cannot select
  // AArch64ISD::NVCAST" on EfficientNet-B0's quantized swish, --cpu=neoverse-v1).
  info.lookupTables = true;
  info.int8Quads = enables(host.features, "avx512vnni") && enables(host.features, "avx512bw") &&
                   enables(host.features, "avx512vl");
  return info;
}

// Kernels on buffers to the LLVM dialect: contraction tiles for the target's vector
// registers, loops, kernels that take a range of their outer loop (kernel.launch, run
// through the runtime's parallel_for by tcc-cpu-lower-launches), run-time checks,
// polynomial math, LLVM. Each step is a registered
// pass that tcc-opt can run alone.
constexpr const char *kCpuKernelPipeline =
    "tcc-cpu-lower-attention{{vector-bits={0} vector-registers={1}},tcc-collapse-dims,cse,"
    "{4}tcc-tile-contractions{{vector-bits={0} vector-registers={1} "
    "split-wide-fma={2} "
    "word-permutes={5}},tcc-expand-copies,tcc-gather-transposes{{vector-bits={0}},tcc-order-loops,"
    "tcc-vector-column-reductions{{vector-bits={0}},"
    "convert-linalg-to-parallel-loops,"
    "tcc-range-kernels,tcc-lower-checks,tcc-approximate-math{{instruction-rounding=true},tcc-lower-"
    "runtime-calls,"
    "canonicalize,tcc-cpu-single-lane-stores,expand-strided-metadata,lower-affine,convert-scf-to-"
    "cf,convert-math-to-funcs,"
    "convert-vector-to-llvm{{enable-x86vector={3}},finalize-memref-to-llvm,convert-arith-to-llvm,"
    "convert-math-to-llvm,"
    "convert-index-to-llvm,convert-func-to-llvm,tcc-cpu-lower-launches,convert-cf-to-llvm,"
    "reconcile-unrealized-casts,"
    "canonicalize";

class CpuTarget final : public tcc::Target {
public:
  CpuTarget(tcc::HostMachine host) : Target(host, describeProcessor(host)) {}

  llvm::StringRef getName() const override { return "cpu"; }

  /// bf16 on x86-64 with AVX512-BF16 (tcc-pair-bf16-contractions and vdpbf16ps tiles);
  /// elsewhere (an AVX2 or AVX-512 level without it, AArch64 for now) the kernels stay
  /// float32, so that a library's levels all run.
  LogicalResult setPrecision(llvm::StringRef precision, std::string &error) override {
    if (precision == "fp32")
      return success();
    bool x86 = llvm::Triple(host.triple).getArch() == llvm::Triple::x86_64;
    if (precision == "bf16" && x86) {
      info.bf16Pairs = enables(host.features, "avx512bf16") && enables(host.features, "avx512vl");
      return success();
    }
    if (precision == "bf16") {
      error = "--precision=bf16 on the cpu target needs x86-64 (AVX512-BF16); AArch64's bf16 "
              "instructions are not used yet";
      return failure();
    }
    error = "--precision=" + precision.str() +
            " is not supported by the cpu target; it computes in fp32, or with bf16 inputs "
            "(--precision=bf16, on x86-64 CPUs with AVX512-BF16); tf32 and fp16: --target nvidia";
    return failure();
  }

  /// vpermi2w on 512-bit vectors (AVX512-BW; every x86-64-v4 level has it).
  bool wordPermutes() const { return info.vectorBits >= 512 && enables(host.features, "avx512bw"); }

  LogicalResult buildKernelPipeline(OpPassManager &pm) const override {
    return parsePassPipeline(
        llvm::formatv(kCpuKernelPipeline, info.vectorBits, info.vectorRegisters,
                      info.splitWideFma ? "true" : "false", info.bf16Pairs ? "true" : "false",
                      info.lookupTables ? "tcc-cpu-lookup-tables," : "",
                      wordPermutes() ? "true" : "false")
            .str(),
        pm);
  }
};
} // namespace

FailureOr<std::unique_ptr<tcc::Target>>
tcc::createCpuTarget(llvm::StringRef variant, llvm::StringRef cpu, std::string &error) {
  llvm::Triple host(llvm::sys::getDefaultTargetTriple());
  llvm::StringRef hostArch = host.getArch() == llvm::Triple::aarch64 ? "aarch64" : "x86_64";
  llvm::StringRef arch;
  bool macos = false;
  if (variant.empty())
    arch = hostArch;
  else if (variant == "x86_64-linux")
    arch = "x86_64";
  else if (variant == "aarch64-linux")
    arch = "aarch64";
  else if (variant == "arm64-macos")
    arch = "aarch64", macos = true;
  else
    return failure(); // createTarget names what is supported
  FailureOr<HostMachine> machine = resolveHost(arch, macos, cpu, hostArch, error);
  if (failed(machine))
    return failure();
  return std::unique_ptr<Target>(std::make_unique<CpuTarget>(*machine));
}

llvm::SmallVector<llvm::StringRef> tcc::cpuLevels(llvm::StringRef variant,
                                                  llvm::StringRef precision, bool quantized) {
  bool x86 = variant == "x86_64-linux" ||
             (variant.empty() &&
              llvm::Triple(llvm::sys::getDefaultTargetTriple()).getArch() == llvm::Triple::x86_64);
  if (!x86)
    return {};
  bool bf16 = precision == "bf16";
  if (bf16 && quantized)
    return {"x86-64-v4+avx512bf16+avx512vnni", "x86-64-v4+avx512vnni", "x86-64-v4", "x86-64-v3"};
  if (bf16)
    return {"x86-64-v4+avx512bf16", "x86-64-v4", "x86-64-v3"};
  if (quantized)
    return {"x86-64-v4+avx512vnni", "x86-64-v4", "x86-64-v3"};
  return {"x86-64-v4", "x86-64-v3"};
}

void tcc::registerCpuTarget() {
  registerCpuTargetPasses(); // tcc-cpu-lower-launches (Passes.td)
  // tcc-opt runs the default x86-64 pipeline by this name (the tiles' options can be set on
  // tcc-tile-contractions when the passes are given one by one).
  PassPipelineRegistration<>(
      "tcc-kernel-to-llvm", "Lower buffers and loops to the LLVM dialect (CPU, x86-64-v3)",
      [](OpPassManager &pm) {
        (void)parsePassPipeline(llvm::formatv(kCpuKernelPipeline, 256, 16, "false", "false",
                                              "tcc-cpu-lookup-tables,", "false")
                                    .str(),
                                pm);
      });
}
