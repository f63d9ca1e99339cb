#!/usr/bin/env bash
# Fuzzes one target of test/fuzz with libFuzzer for SECONDS, with ASan and UBSan on everything
# it runs. The runtime's targets (npy, hsaco, descriptor) use a runtime-only build in
# build-fuzz/; the compiler's (onnx: binary model bytes, onnxtxt: protobuf text, both through
# the importer and the decomposition) a build of the compiler's libraries in
# build-fuzz-compiler/ (about 80 files; half an hour on two cores the first time). clang-22 and
# apt libclang-rt-22-dev. Not a CI test: CI replays the kept inputs (ctest fuzz-replay-*).
#   scripts/fuzz.sh npy|hsaco|descriptor|onnx|onnxtxt SECONDS
# The corpus grows in DIR/corpus-TARGET (seeded from test/fuzz/corpus/TARGET, and for onnx
# and onnxtxt from every node test case of libonnx-testdata); a crash is written to DIR/crashes-TARGET/
# and ends the run (exit status 1). Once fixed, copy the input into test/fuzz/corpus/TARGET/
# so that ctest replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh npy|hsaco|descriptor|onnx|onnxtxt SECONDS}
seconds=${2:-60}
case "$target" in
  onnx|onnxtxt)
    # The compiler's sanitizer build (scripts/sanitize.sh compiler uses it too).
    dir=build-fuzz-compiler
    scripts/sanitize.sh configure-compiler ;;
  *)
    dir=build-fuzz
    flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link -g"
    if [ ! -f "$dir/build.ninja" ]; then
      cmake -G Ninja -S . -B "$dir" -DTCC_RUNTIME_ONLY=ON -DTCC_FUZZ=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
        -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
    fi ;;
esac
cmake --build "$dir" --target "tcc-fuzz-$target" -j "${TCC_JOBS:-2}"
# The node test cases as seeds: binary, and for onnxtxt in protobuf text format (protoc).
if [ "$target" = onnx ] && [ ! -d "$dir/corpus-onnx" ]; then
  mkdir -p "$dir/corpus-onnx"
  for model in /usr/share/libonnx-testdata/data/node/*/model.onnx; do
    cp "$model" "$dir/corpus-onnx/$(basename "$(dirname "$model")").onnx"
  done
fi
if [ "$target" = onnxtxt ] && [ ! -d "$dir/corpus-onnxtxt" ]; then
  mkdir -p "$dir/corpus-onnxtxt"
  for model in /usr/share/libonnx-testdata/data/node/*/model.onnx; do
    protoc --decode=onnx.ModelProto -I/usr/include onnx/onnx.proto < "$model" \
      > "$dir/corpus-onnxtxt/$(basename "$(dirname "$model")").onnxtxt" || true
  done
fi
mkdir -p "$dir/corpus-$target" "$dir/crashes-$target"
"$dir/bin/tcc-fuzz-$target" "$dir/corpus-$target" "test/fuzz/corpus/$target" \
  -max_total_time="$seconds" -artifact_prefix="$dir/crashes-$target/" -print_final_stats=1 \
  -max_len=1048576 -rss_limit_mb=4096
