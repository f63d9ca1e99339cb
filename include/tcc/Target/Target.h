//===- Target.h - the machine a model is compiled for ---------------------------*- C++ -*-===//
//
// One interface per target, one folder per implementation (lib/Target/<name>/). The stages
// before code generation (import, decomposition, lowering, fusion, planning) know no target
// beyond the TargetInfo they are given; everything that depends on the machine (the kernel
// pipeline, launch lowering, machine code, packaging, the link) is a member of the target.
// `--target` and `--cpu` are parsed once, by createTarget.
//
//===----------------------------------------------------------------------------------===//
#ifndef TCC_TARGET_TARGET_H
#define TCC_TARGET_TARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tcc {

/// The CPU that runs model.so's host code (and, for the CPU target, its kernels).
struct HostMachine {
  std::string triple;   ///< e.g. x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu
  std::string cpu;      ///< e.g. x86-64-v3, generic, neoverse-v2
  std::string features; ///< the LLVM feature string the code is generated with (may be empty)
  /// What the runtime checks at load, e.g. "+avx2,+fma" (model_abi.h, cpu_features).
  std::string requiredFeatures;
  /// AArch64 cores whose SVE vectors are wider than NEON's (Neoverse V1: 256 bits): the code
  /// is fixed-length SVE for exactly this vector length (functions get vscale_range), and
  /// requires it ("+sve256"); 0: NEON's 128 bits.
  int64_t sveVectorBits = 0;
};

/// What kernel code generation may ask of a target's processor.
struct TargetInfo {
  /// Widest vector register the kernels use, in bits (NEON 128, AVX2 256, AVX-512 512).
  int64_t vectorBits = 256;
  /// Architectural vector registers, which bound register tiles (x86: 16, 32 with AVX-512;
  /// AArch64: 32).
  int64_t vectorRegisters = 16;
  /// A full-width FMA issues as two halves (AMD Zen 4's AVX-512): tiles then prefer
  /// half-width vectors for short column tails.
  bool splitWideFma = false;
  /// Kernel formation: the narrowest row of a padded result computed in place in the padded
  /// buffer; narrower rows are computed contiguously (vector code merges them) and copied.
  /// Measured on x86-64 (Zen 4): 24.
  int64_t minInPlacePadRow = 24;
  /// Packaging: constants of at least this many bytes go into the weights blob; smaller ones
  /// stay inline in the code. A GPU packs them all (its host code must touch none of them:
  /// the blob is what is uploaded to the device).
  int64_t minPackedWeightBytes = 64;
  /// Kernel formation: the target computes `kernel.attention` (tcc-match-attention runs);
  /// otherwise attention stays the decomposed products and softmax.
  bool attentionKernels = false;
  /// `tcc --attention=auto` (the default) uses that kernel: it beats the decomposed products
  /// and softmax on this target (measured: docs/targets.md).
  bool attentionByDefault = false;
  /// With attentionKernels: 0, or the largest static value depth (E) its attention kernel
  /// takes (a GPU keeps E accumulators per lane); deeper or dynamic blocks stay decomposed.
  int64_t attentionMaxWidth = 0;
  /// With attentionByDefault: 0, or the fewest keys (a static extent) that
  /// `--attention=auto` fuses; shorter blocks stay decomposed (dynamic ones are fused).
  int64_t attentionMinKeys = 0;
  /// With attentionKernels: 0, or what the query and value depths must be static multiples
  /// of for the kernel to take a block (others stay decomposed).
  int64_t attentionDepthMultiple = 0;
  /// Kernel formation: 0, or the fewest reduction positions a slice keeps when
  /// tcc-split-reductions splits a long contraction over few output tiles into partial sums
  /// (GPUs: more blocks than output tiles); with at most `splitReductionMaxColumns` columns.
  int64_t splitReductionSlice = 0;
  int64_t splitReductionMaxColumns = 0;
  /// Kernel formation: tcc-unfold-convolutions computes 2-D convolutions on narrow maps as
  /// one matrix product over all output points where that fills `vectorBits`-wide vectors
  /// better (CPUs, whose tiles vectorize along the output rows).
  bool unfoldConvolutions = false;
  /// Kernel formation: tcc-channel-vector-convolutions computes 2-D float32 convolutions on
  /// narrow maps (a 7x7 map's 49 points leave 512-bit vectors partly empty) with the vectors
  /// along the output channels instead, the filter packed in blocks of 16 output channels
  /// while compiling (x86 CPUs, where it was measured).
  bool channelVectorConvolutions = false;
  /// Kernel formation: tcc-fuse-elementwise's `byte-operands`: a float32 multiply-add
  /// contraction reads 8-bit integers it converts as it loads them (CPUs, whose tiler does:
  /// a quantized depthwise convolution on channel blocks reads its input's bytes).
  bool byteContractionOperands = false;
  /// Kernel formation: tcc-accumulate-residuals starts a contraction from the residual its
  /// epilogue adds, so that it accumulates in the residual's buffer (CPUs, whose tiles add
  /// a no-fill output's values after the sum, and where it was measured).
  bool accumulateResiduals = false;
  /// Kernel formation: tcc-split-strided-convolutions computes 2-D convolutions with a column
  /// stride as sums of unit-stride ones over the input's column phases: those whose output
  /// rows fit one `vectorBits`-wide vector, or all of them with `splitStridedAllWidths`
  /// (x86 CPUs, whose strided vector loads cost permutes).
  bool splitStridedConvolutions = false;
  bool splitStridedAllWidths = false;
  /// The CPU kernel pipeline's tcc-cpu-lookup-tables: elementwise functions of one 8-bit
  /// value as 256-entry tables read by gathers (x86-64; AArch64 is not measured, and LLVM 22's
  /// fixed-length SVE instruction selection fails on the vectorized lookups).
  bool lookupTables = false;
  /// `--precision=bf16` on a CPU with AVX512-BF16: float32 contractions read their inputs
  /// as bf16 pairs (tcc-pair-bf16-contractions) and the tiles add them with vdpbf16ps.
  bool bf16Pairs = false;
  /// A CPU with AVX512-VNNI (and AVX512-BW, VL): quantized contractions are computed as
  /// uint8 x int8 products in int32 (tcc-integer-contractions), read as 4-byte quads
  /// (tcc-quad-int8-contractions) and added by the tiles with vpdpbusd.
  bool int8Quads = false;
};

/// A compilation target: a processor for the kernels and a host machine for the rest.
class Target {
public:
  virtual ~Target();

  /// The target's name as `--target` spells its kind: "cpu", "nvidia", "amd", later "apple".
  virtual llvm::StringRef getName() const = 0;
  const HostMachine &getHost() const { return host; }
  const TargetInfo &getInfo() const { return info; }
  /// The DLPack device type (DLDeviceType) the kernels run on: kDLCPU (1) for the CPU,
  /// kDLCUDA (2) for NVIDIA GPUs, kDLROCM (10) for AMD GPUs (model_abi.h's
  /// tcc_model_descriptor.device_type).
  virtual int32_t getDeviceType() const { return 1; }

  /// `--precision`: "fp32" (the default, what every target does) or a lower precision for
  /// the inputs of float32 contractions ("tf32", "bf16"; sums stay float32) where the target
  /// has instructions for it. Fails with `error` saying what the target accepts.
  virtual mlir::LogicalResult setPrecision(llvm::StringRef precision, std::string &error);

  /// Buffers and loops (the IR `--emit=kernel` prints) to the LLVM dialect: the target's
  /// kernel code generation, its launch lowering and the host code's lowering.
  virtual mlir::LogicalResult buildKernelPipeline(mlir::OpPassManager &pm) const = 0;

  /// Optimizes `module` (O3 unless `optimize` is false) and emits host machine code: an
  /// object file, or assembly when `assembly` is set.
  virtual mlir::LogicalResult emitHostCode(llvm::Module &module, bool assembly,
                                           llvm::SmallVectorImpl<char> &out, std::string &error,
                                           bool optimize = true) const;

  /// The host code of a library (emitMachineCodeParts): its objects, made on up to `jobs`
  /// threads, the same bytes for any `jobs`.
  virtual mlir::LogicalResult emitHostObjects(llvm::Module &module, unsigned jobs,
                                              llvm::StringRef symbolPrefix,
                                              std::vector<llvm::SmallVector<char, 0>> &objects,
                                              std::string &error) const;

  /// Links `objects` into the shared library at `outputPath` (ELF or Mach-O by the host
  /// triple), with the host's compiler builtins linked in statically.
  virtual mlir::LogicalResult linkLibrary(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                                          llvm::StringRef outputPath, std::string &error) const;

protected:
  Target(HostMachine host, TargetInfo info) : host(std::move(host)), info(info) {}

  HostMachine host;
  TargetInfo info;
};

/// Parses `--target` ("host", "cpu", "cpu:x86_64-linux", "cpu:aarch64-linux") and `--cpu`
/// ("" for the target's portable baseline, "native", or a CPU name) into a target. On a bad
/// value, `error` says what is accepted.
mlir::FailureOr<std::unique_ptr<Target>> createTarget(llvm::StringRef spec, llvm::StringRef cpu,
                                                      std::string &error);

/// Parses a `--target` list ("cpu,nvidia:sm_80,sm_90,amd:gfx942") into its targets, each as
/// createTarget reads it, for one library with code for all of them (a fat model). A comma
/// followed by a kind's name starts a new target; other commas separate one target's chips.
/// The targets must be of different kinds and share their host (the library's OS and
/// architecture). With `cpuLevels` (a library is made) and no `cpu`, the CPU target becomes
/// one target per CPU level the runtime chooses from at load, best first (x86-64: x86-64-v4,
/// then x86-64-v3; with `precision` bf16, x86-64-v4+avx512bf16 before them; for a `quantized`
/// model, x86-64-v4+avx512vnni); without it (IR, assembly, objects), the baseline alone.
mlir::FailureOr<std::vector<std::unique_ptr<Target>>>
createTargets(llvm::StringRef spec, llvm::StringRef cpu, std::string &error, bool cpuLevels = false,
              llvm::StringRef precision = "fp32", bool quantized = false);

/// Registers each target's passes and pipelines under their names, for tcc-opt.
void registerTargetPasses();

/// A library's host code: optimizes `module` at O3, then emits its object code as one object,
/// or for a larger module as several (a number that depends on the module alone), each made
/// in parallel on up to `jobs` threads; the objects are the same bytes for any `jobs`. Local
/// symbols of a split module become hidden ones named `symbolPrefix` + their name (a prefix
/// of its own for each module linked into one library).
mlir::LogicalResult emitMachineCodeParts(llvm::Module &module, const HostMachine &machine,
                                         unsigned jobs, llvm::StringRef symbolPrefix,
                                         std::vector<llvm::SmallVector<char, 0>> &objects,
                                         std::string &error);

/// Optimizes and emits machine code for `machine` (the helper behind emitHostCode, for
/// targets that generate more than one kind of code).
mlir::LogicalResult emitMachineCode(llvm::Module &module, const HostMachine &machine, bool assembly,
                                    llvm::SmallVectorImpl<char> &out, std::string &error,
                                    bool optimize = true);

/// Links `objects` into a shared library for `triple` with the in-process LLD and the
/// compiler builtins found for that triple (compiler-rt, else the cross toolchain's libgcc);
/// for amdgcn-amd-amdhsa, an HSA code object (no builtins, no undefined symbols).
/// In-process links are serialized.
mlir::LogicalResult linkSharedLibrary(llvm::ArrayRef<llvm::SmallVector<char, 0>> objects,
                                      llvm::StringRef triple, llvm::StringRef outputPath,
                                      std::string &error);

} // namespace tcc

#endif // TCC_TARGET_TARGET_H
