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
#   scripts/sanitize.sh import    # the importer and the decomposition under ASan + UBSan (only
#                                 # what the importer's fuzz replays link, from the same
#                                 # build-fuzz-compiler/; ~90 of the compiler's 260 files):
#                                 # every model file of the tests through them - the ONNX
#                                 # node, PyTorch and simple suites, the repository's models
#                                 # and contrib/opset-18+ cases, the fuzz corpora and the
#                                 # hostile models of test/Import
#   scripts/sanitize.sh configure-compiler  # only configure that build
# ctest `sanitize-runtime-asan` runs the first in CI, `sanitize-import` the `import` subset.
# Exit status 1 on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-asan}
configure_compiler() {
  # CMakePresets.json's `sanitize` preset (`cmake --preset sanitize` by hand). Its flags: the
  # fuzzer's coverage instrumentation (fuzzer-no-link) costs little, and one build then
  # serves both; line tables suffice for reports. ASan through LLVM's own option, which also
  # drops its `-z defs` (a sanitized shared library, the runtime, leaves the sanitizer's
  # symbols to the program); UBSan without vptr and function (LLVM has no RTTI).
  # (LLVM's installed CMake leaves its UBSan flags empty: they are given there.)
  if [ ! -f build-fuzz-compiler/build.ninja ]; then
    cmake --preset sanitize >/dev/null
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
  import)
    configure_compiler
    dir=build-fuzz-compiler
    cmake --build "$dir" --target tcc-fuzz-replay-onnx tcc-fuzz-replay-onnxtxt \
      -j "${TCC_JOBS:-2}" >/dev/null
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    # The text models of the lit tests (the hostile models, the error tests...) are sections
    # of their .test files: split into files first.
    sections=$(mktemp -d)
    trap 'rm -rf "$sections"' EXIT
    k=0
    for file in $(grep -rl '^#--- .*\.onnxtxt' test --include='*.test'); do
      /usr/lib/llvm-22/bin/split-file "$file" "$sections/$((k += 1))"
    done
    testdata=/usr/share/libonnx-testdata/data
    "$dir/bin/tcc-fuzz-replay-onnx" test/fuzz/corpus/onnx
    find "$testdata" test/data -name model.onnx -print0 |
      xargs -0 "$dir/bin/tcc-fuzz-replay-onnx"
    "$dir/bin/tcc-fuzz-replay-onnxtxt" test/fuzz/corpus/onnxtxt
    find "$sections" test -path test/fuzz -prune -o -name '*.onnxtxt' -print0 |
      xargs -0 "$dir/bin/tcc-fuzz-replay-onnxtxt"
    echo "sanitize import: every model of the tests imported and decomposed clean"
    exit 0 ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan|compiler|import|configure-compiler" >&2; exit 2 ;;
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
