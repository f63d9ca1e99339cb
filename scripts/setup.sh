#!/usr/bin/env bash
# Installs what tcc needs from Debian 12's apt (skipping what is already there), then
# configures and builds into build/. Safe to run again; later runs are incremental.
#
#   scripts/setup.sh            # install + configure + build
#   TCC_SKIP_BUILD=1 scripts/setup.sh   # install only
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build ccache git
  llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 lld-22 liblld-22-dev llvm-22-tools
  libclang-rt-22-dev clang-format-22
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  libcli11-dev libfmt-dev catch2 libdlpack-dev
  python3 python3-numpy python3-onnx
  # --target cpu:aarch64-linux: the cross-built runtime and tcc-run, run under qemu in the tests
  gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
  # --target vulkan: the runtime's Vulkan backend (headers only: the loader is opened at run
  # time), spirv-val, which the tests run on SPIR-V modules, and Mesa's lavapipe, a Vulkan
  # device on the CPU that runs the kernels of --target vulkan in the tests
  libvulkan-dev spirv-tools mesa-vulkan-drivers
  # --target apple: SPIRV-Cross's C API turns the SPIR-V kernels into Metal Shading Language
  libspirv-cross-c-shared-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ONNX Runtime (npm's onnxruntime-node) is the second reference of the corpus tests; it is
# optional (TCC_SKIP_ORT=1 skips it) and lives in a per-user cache, not in the checkout.
ort_dir="$HOME/.cache/tcc/onnxruntime-node"
if [ "${TCC_SKIP_ORT:-0}" != 1 ] && [ ! -d "$ort_dir/node_modules/onnxruntime-node" ]; then
  if command -v npm >/dev/null && command -v node >/dev/null; then
    echo "setup: installing onnxruntime-node@1.30.0 into $ort_dir (test reference)"
    mkdir -p "$ort_dir"
    # --ignore-scripts: its install script downloads CUDA binaries; the CPU ones are in the package.
    (cd "$ort_dir" && npm install --ignore-scripts --no-audit --no-fund onnxruntime-node@1.30.0 >/dev/null) ||
      echo "setup: warning: could not install onnxruntime-node; the corpus tests compare with the reference evaluator only"
  else
    echo "setup: note: no node/npm; the corpus tests compare with the reference evaluator only"
  fi
fi

[ "${TCC_SKIP_BUILD:-0}" = 1 ] && exit 0

export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/tcc-ccache}"
# Precompiled headers and ccache: these sloppiness settings let ccache reuse PCH users.
export CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,include_file_ctime"
ccache --max-size=5G >/dev/null

if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
cmake --build build -j "${TCC_JOBS:-2}"
