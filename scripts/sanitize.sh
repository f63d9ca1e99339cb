#!/usr/bin/env bash
# Builds the runtime, tcc-run, the runtime's unit tests and fixtures and the fuzz targets'
# replays with a sanitizer (a runtime-only build in build-SANITIZER/, clang-22) and runs them:
#   scripts/sanitize.sh asan   # AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer
#   scripts/sanitize.sh tsan   # ThreadSanitizer
# ctest `sanitize-runtime-asan` runs the first in CI. Exit status 1 on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-asan}
case "$kind" in
  asan) flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
        export ASAN_OPTIONS="allocator_may_return_null=1:detect_leaks=1:abort_on_error=0"
        export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" ;;
  tsan) flags="-fsanitize=thread"
        export TSAN_OPTIONS="allocator_may_return_null=1:halt_on_error=1" ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan" >&2; exit 2 ;;
esac
dir=build-$kind
if [ ! -f "$dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$dir" -DTCC_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS="$flags -g" -DCMAKE_CXX_FLAGS="$flags -g" >/dev/null
fi
targets=(tcc-runtime-tests tcc-runtime-fixtures tcc-run)
for replay in test/fuzz/corpus/*/; do
  targets+=("tcc-fuzz-replay-$(basename "$replay")")
done
cmake --build "$dir" --target "${targets[@]}" -j "${TCC_JOBS:-2}" >/dev/null
# One test asks for an impossible workspace on purpose (allocator_may_return_null).
TCC_FIXTURES_DIR="$dir/test/runtime/fixtures" "$dir/test/runtime/tcc-runtime-tests"
for replay in test/fuzz/corpus/*/; do
  "$dir/bin/tcc-fuzz-replay-$(basename "$replay")" "$replay"
done
echo "sanitize $kind: runtime tests and fuzz replays clean"
