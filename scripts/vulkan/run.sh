#!/bin/bash
# Runs the Vulkan bundle on the GPU machine (see bundle.sh): unpacks the Vulkan loader
# carried in .gl/, then for every model: tcc-run --device vulkan against the references
# (--compare, the tolerances of the repo's model tests), then --benchmark 30 on Vulkan and,
# where the bundle has it, the same model compiled for CUDA in the same call.
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
RUN=$BUNDLE/bin/tcc-run
for dir in "$WORK"/*/; do
  name=$(basename "$dir")
  inputs=() compares=()
  for f in "$dir"/input_*.npy; do inputs+=(--input "$f"); done
  for f in "$dir"/output_*.npy; do compares+=(--compare "$f"); done
  echo "== $name"
  "$RUN" "$dir/vulkan.so" --device vulkan "${inputs[@]}" "${compares[@]}" --rtol 1e-4 --atol 1e-5
  echo "$name vulkan compare rc=$?"
  "$RUN" "$dir/vulkan.so" --device vulkan "${inputs[@]}" --benchmark 30 --warmup 5
  if [ -f "$dir/nvidia.so" ]; then
    "$RUN" "$dir/nvidia.so" --device cuda "${inputs[@]}" "${compares[@]}" --rtol 1e-4 --atol 1e-5
    "$RUN" "$dir/nvidia.so" --device cuda "${inputs[@]}" --benchmark 30 --warmup 5
  fi
done
