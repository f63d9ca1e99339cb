#!/bin/bash
# Builds the Vulkan bundle (.vkbundle/, at most 64 MiB with the repository): the models of
# test/data/models, ../shared/corpus and examples/tiny_mlp compiled with --target vulkan,
# tcc-run, the inputs and references, and run.sh, which runs them on the GPU machine through
# its Vulkan driver (the loader's Debian package carried in .gl/, as the device tool's README
# says), each also as --target vulkan:subgroups (SUBGROUPS=0: not). NVIDIA_MODELS: models also
# compiled for --target nvidia:sm_90, timed in the same call (NVIDIA_MODELS=" ": none).
# FAT_MODELS: models also compiled as one fat library for cpu,nvidia:sm_90,vulkan, whose three
# variants run there (default: none). CONFORMANCE=1: the node cases too (for the variants
# compiled).
#   bash scripts/vulkan/bundle.sh
# There (device tool: carry .vkbundle and .gl):
#   bash .vkbundle/run.sh .vkbundle
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TCC=$ROOT/build/bin/tcc
OUTDIR=$ROOT/.vkbundle
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
MODELS=${MODELS:-"tiny_mlp bert_small resnet18_small gpt2_small llama_small llama_small_kv vit_small lstm_small t5_small"}
NVIDIA_MODELS=${NVIDIA_MODELS:-"bert_small gpt2_small resnet18_small"}
FAT_MODELS=${FAT_MODELS:-}
rm -rf "$OUTDIR" && mkdir -p "$OUTDIR/bin"
cp "$ROOT/build/bin/tcc-run" "$OUTDIR/bin/"
cp "$ROOT/scripts/vulkan/run.sh" "$OUTDIR/"
source_of() {
  for dir in "$ROOT/test/data/models/$1" "$ROOT/../shared/corpus/$1" "$ROOT/examples/$1"; do
    [ -f "$dir/model.onnx" ] && { echo "$dir"; return; }
  done
  echo "bundle.sh: no model $1" >&2
  exit 1
}
for name in $MODELS; do
  src=$(source_of "$name")
  mkdir -p "$STAGE/$name"
  cp "$src"/input_*.npy "$src"/output_*.npy "$STAGE/$name/"
  start=$(date +%s.%N)
  "$TCC" "$src/model.onnx" --target vulkan -o "$STAGE/$name/vulkan.so"
  echo "$name vulkan: compiled in $(echo "$(date +%s.%N) - $start" | bc) s"
  [ "${SUBGROUPS:-1}" = 1 ] && "$TCC" "$src/model.onnx" --target vulkan:subgroups -o "$STAGE/$name/subgroups.so"
done
for name in $NVIDIA_MODELS; do
  src=$(source_of "$name")
  env -u CUDA_HOME "$TCC" "$src/model.onnx" --target nvidia:sm_90 -o "$STAGE/$name/nvidia.so"
done
for name in $FAT_MODELS; do
  src=$(source_of "$name")
  mkdir -p "$STAGE/$name"
  cp "$src"/input_*.npy "$src"/output_*.npy "$STAGE/$name/"
  env -u CUDA_HOME "$TCC" "$src/model.onnx" --target cpu,nvidia:sm_90,vulkan -o "$STAGE/$name/fat.so"
done
tar -C "$STAGE" -cJf "$OUTDIR/models.tar.xz" .
# CONFORMANCE=1: the ONNX node cases compiled for both variants, for run_conformance.py --host
# there.
if [ "${CONFORMANCE:-0}" = 1 ]; then
  variants="vulkan subgroups"
  [ "${SUBGROUPS:-1}" = 1 ] || variants=vulkan
  for variant in $variants; do
    target=vulkan
    [ "$variant" = subgroups ] && target=vulkan:subgroups
    conf=$(mktemp -d)
    "$ROOT/build/bin/tcc-conformance" -q --mode compiled --target "$target" --export "$conf/conf" \
      --expected "$ROOT/test/conformance/node.txt" /usr/share/libonnx-testdata/data/node \
      > "$conf/conformance.log" 2>&1 || true
    tail -1 "$conf/conformance.log"
    tar -C "$conf" -cJf "$OUTDIR/conformance-$variant.tar.xz" conf conformance.log
    rm -rf "$conf"
  done
  cp -L "$ROOT/build/lib/libtcc_runtime.so" "$ROOT/scripts/nvidia/run_conformance.py" \
    "$ROOT/scripts/nvidia/tcc_runtime.py" "$OUTDIR/"
fi
du -sh "$OUTDIR"
