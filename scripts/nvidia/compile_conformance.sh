#!/bin/bash
# Compiles the ONNX node test cases listed as passing (test/conformance/node.txt) for an
# NVIDIA architecture, into DIR/<case>/{model.so, test_data_set_0/*.pb} plus DIR/compile.tsv
# (case, status, first line of the error): what run_conformance.py runs on the GPU.
#   bash scripts/nvidia/compile_conformance.sh DIR [ARCH]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$1
ARCH=${2:-sm_90}
DATA=/usr/share/libonnx-testdata/data/node
mkdir -p "$OUT"
: > "$OUT/compile.tsv"
grep -v -e '^#' -e '^!' -e '^$' "$ROOT/test/conformance/node.txt" | while read -r name; do
  [ -d "$DATA/$name" ] || continue
  mkdir -p "$OUT/$name"
  # PTX only: the driver compiles it (cubins would double the bundle).
  if TCC_PTXAS=none "$ROOT/build/bin/tcc" "$DATA/$name/model.onnx" --target "nvidia:$ARCH" \
      -o "$OUT/$name/model.so" 2>"$OUT/$name/compile.log"; then
    cp -r "$DATA/$name/test_data_set_0" "$OUT/$name/"
    rm -f "$OUT/$name/compile.log"
    printf '%s\tcompiled\t\n' "$name" >> "$OUT/compile.tsv"
  else
    printf '%s\tfailed\t%s\n' "$name" "$(grep -m1 error "$OUT/$name/compile.log" | cut -c1-300)" >> "$OUT/compile.tsv"
    rm -rf "$OUT/$name"
  fi
done
awk -F'\t' '{n[$2]++} END {for (k in n) print k, n[k]}' "$OUT/compile.tsv"
