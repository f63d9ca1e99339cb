#!/usr/bin/env bash
# Builds with a sanitizer (clang-22) and runs what was built:
#   scripts/sanitize.sh asan      # the runtime, tcc-run, the runtime's unit tests and fixtures
#                                 # and the runtime's fuzz replays (a runtime-only build in
#                                 # build-asan/) under AddressSanitizer + UndefinedBehavior-
#                                 # Sanitizer + LeakSanitizer
#   scripts/sanitize.sh tsan      # the same under ThreadSanitizer (build-tsan/)
#   scripts/sanitize.sh compiler  # the whole compiler and runtime under ASan + UBSan (the
#                                 # build of scripts/fuzz.sh's compiler targets,
#                                 # build-fuzz-compiler/; about an hour on two cores the first
#                                 # time): the importer's fuzz replays, then the lit tests of
#                                 # TCC_SANITIZE_LIT (default: import, decomposition, package,
#                                 # tools; `.` for all of them)
#   scripts/sanitize.sh configure-compiler  # only configure that build
# ctest `sanitize-runtime-asan` runs the first in CI. Exit status 1 on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-asan}
configure_compiler() {
  local dir=build-fuzz-compiler
  # The fuzzer's coverage instrumentation (fuzzer-no-link) costs little, and one build then
  # serves both; line tables suffice for reports. ASan through LLVM's own option, which also
  # drops its `-z defs` (a sanitized shared library, the runtime, leaves the sanitizer's
  # symbols to the program); UBSan without vptr and function (LLVM has no RTTI).
  # (LLVM's installed CMake leaves its UBSan flags empty: they are given here.)
  local flags="-fsanitize=fuzzer-no-link -fno-omit-frame-pointer -gline-tables-only"
  flags="$flags -fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all"
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -G Ninja -S . -B "$dir" -DTCC_FUZZ=ON -DCMAKE_BUILD_TYPE=Release \
      -DLLVM_USE_SANITIZER="Address;Undefined" \
      -DLLVM_USE_LINKER=lld -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
      -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
  fi
}
case "$kind" in
  asan) flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
        export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:abort_on_error=0"
        export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" ;;
  tsan) flags="-fsanitize=thread"
        export TSAN_OPTIONS="allocator_may_return_null=1:halt_on_error=1" ;;
  configure-compiler) configure_compiler; exit 0 ;;
  compiler)
    configure_compiler
    dir=build-fuzz-compiler
    # Everything the lit tests run (tcc, tcc-opt, tcc-run, tcc-conformance, the examples, the
    # runtime's fixtures) and the fuzz replays.
    cmake --build "$dir" -j "${TCC_JOBS:-2}" >/dev/null
    # MLIR keeps some registrations until exit by design: leaks are checked on the runtime
    # (`asan`), not here.
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    for format in onnx onnxtxt; do
      "$dir/bin/tcc-fuzz-replay-$format" "test/fuzz/corpus/$format"
    done
    /usr/lib/llvm-22/bin/lit -q "$dir/test" \
      --filter "${TCC_SANITIZE_LIT:-^tcc :: (Import|Decompose|Package|tools)/}"
    echo "sanitize compiler: fuzz replays and lit tests clean"
    exit 0 ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan|compiler|configure-compiler" >&2; exit 2 ;;
esac
dir=build-$kind
if [ ! -f "$dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$dir" -DTCC_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS="$flags -g" -DCMAKE_CXX_FLAGS="$flags -g" >/dev/null
fi
# The runtime's fuzz targets (the compiler's, onnx and onnxtxt, need a full build).
runtime_targets=(npy hsaco descriptor)
targets=(tcc-runtime-tests tcc-runtime-fixtures tcc-run)
for target in "${runtime_targets[@]}"; do
  targets+=("tcc-fuzz-replay-$target")
done
cmake --build "$dir" --target "${targets[@]}" -j "${TCC_JOBS:-2}" >/dev/null
# One test asks for an impossible workspace on purpose (allocator_may_return_null).
TCC_FIXTURES_DIR="$dir/test/runtime/fixtures" "$dir/test/runtime/tcc-runtime-tests"
for target in "${runtime_targets[@]}"; do
  "$dir/bin/tcc-fuzz-replay-$target" "test/fuzz/corpus/$target"
done
echo "sanitize $kind: runtime tests and fuzz replays clean"
