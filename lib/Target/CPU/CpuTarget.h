//===- CpuTarget.h - x86-64 and AArch64 CPUs: kernels in the host code ------*- C++ -*-===//
#ifndef TCC_LIB_TARGET_CPU_CPUTARGET_H
#define TCC_LIB_TARGET_CPU_CPUTARGET_H

#include "tcc/Target/Target.h"

namespace tcc {

/// The CPU target for `variant` ("" for this machine's architecture, "x86_64-linux",
/// "aarch64-linux") and `cpu` ("" for the portable baseline: x86-64-v3, or armv8.2-a with
/// NEON and fp16; "native"; or a CPU LLVM knows). Fails with `error` set for a `cpu` that
/// cannot be used, and with `error` empty for an unknown variant.
mlir::FailureOr<std::unique_ptr<Target>> createCpuTarget(llvm::StringRef variant,
                                                         llvm::StringRef cpu, std::string &error);

/// The CPU levels a library for `variant` (as createCpuTarget) carries when no `--cpu` is
/// given, best first, each a `cpu` for createCpuTarget; the runtime runs the first its host
/// can (the way ONNX Runtime's MLAS picks kernels at load). x86-64: the AVX-512 level
/// (x86-64-v4) and the baseline (x86-64-v3); empty where there is one level (AArch64 and
/// macOS for now) or for an unknown variant. With `precision` bf16, x86-64 first has the
/// AVX-512 level with AVX512-BF16 ("x86-64-v4+avx512bf16"), whose contractions use it. For a
/// `quantized` model (integer contractions or QDQ), first the AVX-512 level with AVX512-VNNI
/// ("x86-64-v4+avx512vnni"), whose contractions are uint8 x int8 (TargetInfo::int8Quads).
llvm::SmallVector<llvm::StringRef>
cpuLevels(llvm::StringRef variant, llvm::StringRef precision = "fp32", bool quantized = false);

/// Registers the CPU target's passes and its kernel pipeline (`tcc-kernel-to-llvm`) for
/// tcc-opt.
void registerCpuTarget();

} // namespace tcc

#endif // TCC_LIB_TARGET_CPU_CPUTARGET_H
