#!/usr/bin/env bash
# One model.so, compiled with the model's symbolic dims, against two references at several
# sizes: the reference evaluator (tcc-conformance --size, in one process) and, when
# onnxruntime-node is installed, ONNX Runtime on the very same inputs.
#
#   symbolic-sizes.sh BIN_DIR CASE_DIR WORK_DIR ORT_NODE_MODULES|none --size NAME=V,... ...
set -euo pipefail
bin=$1 case=$2 work=$3 ort=$4
shift 4
name=$(basename "$case")
ort_run="$(cd "$case/../.." && pwd)/bench/ort-run.js"
rm -rf "$work"
mkdir -p "$work"

# 1. The reference evaluator at every size; the inputs and its outputs are kept.
"$bin/tcc-conformance" -v --mode compiled "$case" --save "$work/sets" "$@"

# 2. ONNX Runtime on the same inputs, compared with the same kind of library built by tcc.
if [ "$ort" = none ] || [ ! -d "$ort/onnxruntime-node" ] || ! command -v node >/dev/null; then
  echo "symbolic-sizes: ONNX Runtime (onnxruntime-node) is not installed; compared with the reference evaluator only"
  exit 0
fi
"$bin/tcc" "$case/model.onnx" -o "$work/model.so"
count=0
for dir in "$work/sets/$name"/*/; do
  inputs=()
  while IFS= read -r f; do inputs+=("$f"); done < <(ls "$dir"input_*.npy | sort -V)
  ort_args=()
  for f in "${inputs[@]}"; do ort_args+=(--input "$f"); done
  NODE_PATH="$ort" node "$ort_run" "$case/model.onnx" "${ort_args[@]}" --threads 1 --runs 1 \
    --warmup 0 --output-dir "$dir/ort" >/dev/null
  references=()
  while IFS= read -r f; do references+=("$f"); done < <(ls "$dir"ort/output_*.npy | sort -V)
  echo "$(basename "$dir") vs ONNX Runtime:"
  "$bin/tcc-run" "$work/model.so" --threads 2 --input "${inputs[@]}" --compare "${references[@]}"
  count=$((count + 1))
done
echo "symbolic-sizes: $name matches ONNX Runtime at $count sizes with one model.so"
