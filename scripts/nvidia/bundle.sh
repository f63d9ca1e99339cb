#!/bin/bash
# Builds the NVIDIA bundle (.bundle/, at most 64 MiB): the models compiled for the GPU, the
# runtime, tcc-run, the inputs and references, and the scripts that run them there.
#   [EXPORTS=DIR] [CONFORMANCE=DIR] bash scripts/nvidia/bundle.sh [ARCH]   (ARCH: sm_90)
# EXPORTS: the folder of the models make_models.py exported on the GPU machine (EXPORT_MODELS:
# which of them, default all four; CORPUS_MODELS likewise for ../shared/corpus: the device
# tool carries 64 MiB a call, the repository included), their torch
# definitions in torch_models.py: run_bundle.py times torch eager and torch.compile on them);
# FUSED_MODELS: exports also compiled with --attention=fused (NAME_fused).
# BF16_MODELS: which exports to compile also with --precision=bf16 (NAME_bf16, timed against
# torch under bf16 autocast); MATMUL_PRECISIONS: matmul_bench.py's
# tensor-core rows (default "tf32 bf16 fp16"); SHAPES=0: without matmul_shapes.py's models.
# REPO_MODELS: test/data/models entries to check for correctness (default none).
# SIZE_SETS: folders in bench.py's layout (model.onnx, input_*.npy, output_*.npy; what
# scripts/transformer_sizes.py writes, with ONNX Runtime's outputs), checked likewise, named
# after their folders. ATTENTION=0: without attention_bench.py's blocks (attention_models.py:
# plain and causal, each with --attention=fused and =decomposed, in att/).
# CONFORMANCE: a tcc-conformance --export folder (its log beside it as DIR.log), packed as
# conformance.tar.xz for run_conformance.py.
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
# The runtime's unit tests and their fixtures: there, the [gpu] cases run on the H200
#   TCC_FIXTURES_DIR=.bundle/runtime-tests .bundle/runtime-tests/tcc-runtime-tests "[cuda]"
mkdir -p "$OUTDIR/runtime-tests"
cp "$ROOT/build/test/runtime/tcc-runtime-tests" "$ROOT"/build/test/runtime/fixtures/*.so \
  "$OUTDIR/runtime-tests/"

entries=()
# add NAME ONNX DIR_OF_NPY [TORCH_NAME [PRECISION [FLAGS]]]: compiles the model (with
# --precision PRECISION, default fp32, and any other tcc FLAGS) and copies input_*.npy and
# output_*.npy (fp32 references: a bf16 model's rel L2 is its error against fp32).
add() {
  local name=$1 onnx=$2 data=$3 torch=${4:-} precision=${5:-fp32} flags=${6:-}
  local dir=$OUTDIR/models/$name
  mkdir -p "$dir"
  local start=$(date +%s.%N)
  # shellcheck disable=SC2086 # FLAGS are words
  if ! "$TCC" "$onnx" --target "nvidia:$ARCH" --precision "$precision" $flags -o "$dir/model.so" \
      2>"$dir/compile.log"; then
    echo "$name: compile failed: $(head -c 300 "$dir/compile.log")" >&2
    rm -rf "$dir"
    return
  fi
  local seconds=$(printf "%.3f" "$(echo "$(date +%s.%N) - $start" | bc)")
  cp "$data"/input_*.npy "$data"/output_*.npy "$dir/"
  local inputs refs
  inputs=$(cd "$dir" && ls input_*.npy | sort -V | sed 's/.*/"&"/' | paste -sd,)
  refs=$(cd "$dir" && ls output_*.npy | sort -V | sed 's/.*/"&"/' | paste -sd,)
  entries+=("{\"name\": \"$name\", \"dir\": \"models/$name\", \"so\": \"model.so\", \"inputs\": [$inputs], \"refs\": [$refs], \"compile_s\": $seconds, \"torch\": \"$torch\", \"precision\": \"$precision\"}")
  echo "$name: compiled in ${seconds}s"
}

add tiny_mlp "$ROOT/examples/tiny_mlp/model.onnx" "$ROOT/examples/tiny_mlp"
for m in ${CORPUS_MODELS-resnet18_small bert_small}; do
  [ -d "$CORPUS/$m" ] && add "$m" "$CORPUS/$m/model.onnx" "$CORPUS/$m"
done
# REPO_MODELS: models of test/data/models (torch 2.11 exports with references), checked for
# correctness only (no torch definition here: EXPORTS has those).
for m in ${REPO_MODELS-}; do
  [ -f "$ROOT/test/data/models/$m/model.onnx" ] &&
    add "$m" "$ROOT/test/data/models/$m/model.onnx" "$ROOT/test/data/models/$m"
done

for d in ${SIZE_SETS-}; do
  [ -f "$d/model.onnx" ] && add "$(basename "$d")" "$d/model.onnx" "$d"
done
if [ "${ATTENTION:-1}" = 1 ]; then
  mkdir -p "$OUTDIR/att"
  python3 "$ROOT/scripts/nvidia/attention_models.py" "$OUTDIR/att"
  for stem in att att_causal; do
    for kind in fused decomposed; do
      "$TCC" "$OUTDIR/att/$stem.onnx" --target "nvidia:$ARCH" --attention=$kind \
        -o "$OUTDIR/att/${stem}_$kind.so"
    done
  done
fi

# A 4096^3 matrix product for matmul_bench.py (inputs made on the GPU, no references).
mkdir -p "$OUTDIR/models/matmul_4096"
"$TCC" "$ROOT/scripts/nvidia/matmul_4096.onnxtxt" --target "nvidia:$ARCH" \
  -o "$OUTDIR/models/matmul_4096/model.so"
for precision in ${MATMUL_PRECISIONS-tf32 bf16 fp16}; do
  mkdir -p "$OUTDIR/models/matmul_4096_$precision"
  "$TCC" "$ROOT/scripts/nvidia/matmul_4096.onnxtxt" --target "nvidia:$ARCH" \
    --precision "$precision" -o "$OUTDIR/models/matmul_4096_$precision/model.so"
done
# Awkward shapes in every precision for matmul_shapes.py (SHAPES=0 leaves them out).
if [ "${SHAPES:-1}" = 1 ]; then
  shapes=$(mktemp -d)
  python3 "$ROOT/scripts/nvidia/matmul_shapes.py" --write "$shapes"
  for f in "$shapes"/*.onnxtxt; do
    for precision in fp32 tf32 bf16 fp16; do
      dir="$OUTDIR/models/shape_$(basename "$f" .onnxtxt)_$precision"
      mkdir -p "$dir"
      "$TCC" "$f" --target "nvidia:$ARCH" --precision "$precision" -o "$dir/model.so"
    done
  done
  rm -rf "$shapes"
fi
if [ -n "${EXPORTS:-}" ]; then
  for m in ${EXPORT_MODELS:-gpt2 llama vit bert}; do
    [ -f "$EXPORTS/$m/model.onnx" ] && add "$m" "$EXPORTS/$m/model.onnx" "$EXPORTS/$m" "$m"
  done
  # BF16_MODELS (FP16_MODELS): exports also compiled with --precision=bf16 (fp16), as
  # NAME_bf16 (NAME_fp16).
  for m in ${BF16_MODELS:-}; do
    [ -f "$EXPORTS/$m/model.onnx" ] &&
      add "${m}_bf16" "$EXPORTS/$m/model.onnx" "$EXPORTS/$m" "$m" bf16
  done
  # FUSED_MODELS: exports also compiled with --attention=fused, as NAME_fused (the GPU's
  # attention kernel against the default, the products and softmax).
  for m in ${FUSED_MODELS:-}; do
    [ -f "$EXPORTS/$m/model.onnx" ] &&
      add "${m}_fused" "$EXPORTS/$m/model.onnx" "$EXPORTS/$m" "$m" fp32 --attention=fused
  done
  for m in ${FP16_MODELS:-}; do
    [ -f "$EXPORTS/$m/model.onnx" ] &&
      add "${m}_fp16" "$EXPORTS/$m/model.onnx" "$EXPORTS/$m" "$m" fp16
  done
fi
if [ -n "${CONFORMANCE:-}" ]; then
  tar -C "$CONFORMANCE" -cJf "$OUTDIR/conformance.tar.xz" .
  cp "$CONFORMANCE.log" "$OUTDIR/conformance.log"
fi
cp "$ROOT/scripts/nvidia/"*.py "$OUTDIR/"

(IFS=,; echo "{\"arch\": \"$ARCH\", \"models\": [${entries[*]}]}") > "$OUTDIR/manifest.json"
# The libraries (PTX text and cubins) pack to about a third: run_bundle.py unpacks
# models.tar.xz where models/ is missing (run it before matmul_*.py; PACK=0: not packed).
if [ "${PACK:-1}" = 1 ]; then
  tar -C "$OUTDIR" -cJf "$OUTDIR/models.tar.xz" models && rm -rf "$OUTDIR/models"
fi
du -sh "$OUTDIR"
