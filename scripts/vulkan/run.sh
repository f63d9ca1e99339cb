#!/bin/bash
# Runs the Vulkan bundle on the GPU machine (see bundle.sh): unpacks the Vulkan loader
# carried in .gl/, then for every model: tcc-run --device vulkan against the references
# (--compare, the tolerances of the repo's model tests), then --benchmark 30 on Vulkan (both
# variants: vulkan's and vulkan:subgroups') and,
# where the bundle has it, the same model compiled for CUDA in the same call; a fat library
# (fat.so: cpu,nvidia:sm_90,vulkan) runs on each of its three devices. BENCHMARK=0: no
# benchmarks. PARTS: what to run, "models conformance" by default.
#   bash run.sh BUNDLE_DIR
set -uo pipefail
BUNDLE=$(cd "$1" && pwd)
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
WORK=$(mktemp -d)
tar -C "$WORK" -xJf "$BUNDLE/models.tar.xz"
# A fresh machine has no shader cache: the first run of a model compiles every pipeline in
# NVIDIA's driver (more than 45 s for bert_small and the llamas, 2026-12-03), so each run gets
# RUN_SECONDS (default 150).
RUN=(timeout "${RUN_SECONDS:-150}" "$BUNDLE/bin/tcc-run")
PARTS=${PARTS:-models conformance}
for dir in "$WORK"/*/; do
  [[ " $PARTS " == *" models "* ]] || break
  name=$(basename "$dir")
  inputs=() compares=()
  for f in "$dir"/input_*.npy; do inputs+=(--input "$f"); done
  for f in "$dir"/output_*.npy; do compares+=(--compare "$f"); done
  echo "== $name"
  for variant in vulkan subgroups; do
    [ -f "$dir/$variant.so" ] || continue
    "${RUN[@]}" "$dir/$variant.so" --device vulkan "${inputs[@]}" "${compares[@]}" --rtol 1e-4 --atol 1e-5
    echo "$name $variant compare rc=$?"
    [ "${BENCHMARK:-1}" = 1 ] || continue
    echo -n "$name $variant: "
    "${RUN[@]}" "$dir/$variant.so" --device vulkan "${inputs[@]}" --benchmark 30 --warmup 5
  done
  if [ -f "$dir/nvidia.so" ]; then
    "${RUN[@]}" "$dir/nvidia.so" --device cuda "${inputs[@]}" "${compares[@]}" --rtol 1e-4 --atol 1e-5
    if [ "${BENCHMARK:-1}" = 1 ]; then
      echo -n "$name cuda: "
      "${RUN[@]}" "$dir/nvidia.so" --device cuda "${inputs[@]}" --benchmark 30 --warmup 5
    fi
  fi
  if [ -f "$dir/fat.so" ]; then
    "$BUNDLE/bin/tcc-run" "$dir/fat.so" --info | grep -E "^(variants|variant|device)"
    for device in cpu cuda vulkan; do
      "${RUN[@]}" "$dir/fat.so" --device $device "${inputs[@]}" "${compares[@]}" --rtol 1e-4 --atol 1e-5
      echo "$name fat --device $device compare rc=$?"
    done
  fi
done
for variant in vulkan subgroups; do
  [[ " $PARTS " == *" conformance "* ]] || break
  [ -f "$BUNDLE/conformance-$variant.tar.xz" ] || continue
  mkdir -p "$WORK/$variant"
  tar -C "$WORK/$variant" -xJf "$BUNDLE/conformance-$variant.tar.xz"
  echo "== node cases, $variant"
  timeout "${CONFORMANCE_SECONDS:-300}" python3 "$BUNDLE/run_conformance.py" "$WORK/$variant/conf" \
    --host --runtime "$BUNDLE/libtcc_runtime.so" --compile-log "$WORK/$variant/conformance.log" \
    --out "${OUT:-$WORK}/conformance-$variant.txt" | tail -3
done
