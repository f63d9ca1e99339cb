# lit configuration for tcc's FileCheck tests.
import os
import shutil

import lit.formats

config.name = "tcc"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".test", ".onnxtxt"]
# test/fuzz/corpus holds fuzz inputs (some .onnxtxt), replayed by ctest, not lit tests.
config.excludes = ["Inputs", "corpus", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcc_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.tcc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%python", "/usr/bin/python3"))
corpus = os.path.join(config.tcc_src_root, "..", "shared", "corpus")
config.substitutions.append(("%corpus", corpus))
# Tests of the shared real-exporter models need ../shared beside the checkout (CI has it).
if os.path.isdir(corpus):
    config.available_features.add("corpus")
config.substitutions.append(("%testdata", "/usr/share/libonnx-testdata/data"))
# The hand-written models of test/runtime/fixtures (built as %fixtures/NAME.so) and the
# folder of libtcc_runtime.so.
config.substitutions.append(("%fixtures", config.tcc_fixtures_dir))
config.substitutions.append(("%tcc_libdir", config.tcc_lib_dir))
config.substitutions.append(("%tcc_tools", config.tcc_tools_dir))
# `llvm-nm -D --undefined-only LIB | %imports-beyond-libc | count 0`: a model library imports
# nothing but the libc functions code generation may call (DESIGN.md; the same list as
# tcc-conformance's checkImports in tools/tcc-conformance/Executors.cpp).
config.substitutions.append(
    ("%imports-beyond-libc", "{ grep -v -E ' U (memset|memcpy|memmove)$' || true; }"))

# AArch64: models compiled with --target cpu:aarch64-linux run under qemu-aarch64 with the
# cross-built tcc-run (cmake/CrossRuntime.cmake), when the build made one.
aarch64_run = os.path.join(config.tcc_aarch64_bin_dir, "tcc-run")
if os.path.isfile(aarch64_run) and os.path.isfile(config.qemu_aarch64):
    config.available_features.add("aarch64-qemu")
    config.substitutions.append(
        ("%aarch64-tcc-run", "%s -L /usr/aarch64-linux-gnu %s" % (config.qemu_aarch64, aarch64_run)))
    # The two apart, for other qemu options (SVE's vector length).
    config.substitutions.append(("%aarch64_qemu", config.qemu_aarch64))
    config.substitutions.append(("%aarch64_tcc_run", aarch64_run))
    # scripts/aarch64/run_conformance.py's options naming the two.
    config.substitutions.append(
        ("%aarch64_runner", "--tcc-run %s --qemu %s" % (aarch64_run, config.qemu_aarch64)))
config.substitutions.append(("%examples", os.path.join(config.tcc_src_root, "examples")))
config.substitutions.append(("%scripts", os.path.join(config.tcc_src_root, "scripts")))
# x86-64 CPU levels: qemu-user's x86-64 emulator as a CPU without AVX-512 (Haswell: AVX2, FMA,
# BMI; its CPUID reports no AVX-512, so the runtime chooses the x86-64-v3 code).
qemu_x86 = "/usr/bin/qemu-x86_64"
if os.access(qemu_x86, os.X_OK) and os.uname().machine == "x86_64":
    config.available_features.add("x86-qemu")
    config.substitutions.append(
        ("%haswell", "%s -cpu Haswell-noTSX,-pcid,-x2apic,-tsc-deadline,-invpcid" % qemu_x86))
# x86-64 CPUs with AVX512-BF16 run --precision=bf16's vdpbf16ps code (tools/bf16-pairs.test), and
# those with AVX512-VNNI quantized models' vpdpbusd code (tools/int8-vnni.test).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = cpuinfo.read()
        if " avx512_bf16" in flags:
            config.available_features.add("avx512bf16")
        if " avx512_vnni" in flags:
            config.available_features.add("avx512vnni")
except OSError:
    pass
# NVIDIA: CUDA's ptxas assembles the PTX into cubins when the machine has it (CI does not).
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# Vulkan: Mesa's lavapipe (a Vulkan 1.3 device on the CPU, apt mesa-vulkan-drivers) runs the
# SPIR-V kernels of --target vulkan for real; its subgroups are 8 wide, so it refuses those of
# vulkan:subgroups (which need 32). The tests name it alone (VK_DRIVER_FILES).
lavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
if os.path.exists(lavapipe):
    config.available_features.add("vulkan-lavapipe")
    config.environment["VK_DRIVER_FILES"] = lavapipe
