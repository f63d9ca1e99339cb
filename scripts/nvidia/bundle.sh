#!/bin/bash
# Builds the NVIDIA bundle (.bundle/, at most 64 MiB): the models compiled for the GPU, the
# runtime, tcc-run, the inputs and references, and the scripts that run them there.
#   bash scripts/nvidia/bundle.sh [ARCH]      (ARCH: default sm_90)
# Then run it on the GPU machine in one call (device tool: carry .bundle):
#   python3 .bundle/run_bundle.py .bundle --out $OUT/results.json
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ARCH=${1:-sm_90}
TCC=$ROOT/build/bin/tcc
OUTDIR=$ROOT/.bundle
CORPUS=$ROOT/../shared/corpus
rm -rf "$OUTDIR" && mkdir -p "$OUTDIR/bin" "$OUTDIR/lib" "$OUTDIR/models"
cp "$ROOT/build/bin/tcc-run" "$OUTDIR/bin/"
cp -L "$ROOT/build/lib/libtcc_runtime.so" "$OUTDIR/lib/"
cp "$ROOT/scripts/nvidia/run_bundle.py" "$ROOT/scripts/nvidia/tcc_runtime.py" "$OUTDIR/"

entries=()
# add NAME ONNX DIR_OF_NPY: compiles the model and copies input_*.npy / output_*.npy.
add() {
  local name=$1 onnx=$2 data=$3
  local dir=$OUTDIR/models/$name
  mkdir -p "$dir"
  local start=$(date +%s.%N)
  if ! "$TCC" "$onnx" --target "nvidia:$ARCH" -o "$dir/model.so" 2>"$dir/compile.log"; then
    echo "$name: compile failed: $(head -c 300 "$dir/compile.log")" >&2
    rm -rf "$dir"
    return
  fi
  local seconds=$(printf "%.3f" "$(echo "$(date +%s.%N) - $start" | bc)")
  cp "$data"/input_*.npy "$data"/output_*.npy "$dir/"
  local inputs refs
  inputs=$(cd "$dir" && ls input_*.npy | sort -V | sed 's/.*/"&"/' | paste -sd,)
  refs=$(cd "$dir" && ls output_*.npy | sort -V | sed 's/.*/"&"/' | paste -sd,)
  entries+=("{\"name\": \"$name\", \"dir\": \"models/$name\", \"so\": \"model.so\", \"inputs\": [$inputs], \"refs\": [$refs], \"compile_s\": $seconds}")
  echo "$name: compiled in ${seconds}s"
}

add tiny_mlp "$ROOT/examples/tiny_mlp/model.onnx" "$ROOT/examples/tiny_mlp"
for m in resnet18_small bert_small; do
  [ -d "$CORPUS/$m" ] && add "$m" "$CORPUS/$m/model.onnx" "$CORPUS/$m"
done

(IFS=,; echo "{\"arch\": \"$ARCH\", \"models\": [${entries[*]}]}") > "$OUTDIR/manifest.json"
du -sh "$OUTDIR"
