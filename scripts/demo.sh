#!/usr/bin/env bash
# The README's first command: set up, build, compile the example model and run it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
example=examples/tiny_mlp
echo "== tcc $example/model.onnx --dim batch=3 -o build/tiny_mlp.so"
build/bin/tcc "$example/model.onnx" --dim batch=3 -o build/tiny_mlp.so
echo "== tcc-run build/tiny_mlp.so (outputs written to build/tiny_mlp-out, compared with numpy)"
build/bin/tcc-run build/tiny_mlp.so --input "$example/input_0_x.npy" \
  --output-dir build/tiny_mlp-out --compare "$example/output_0_probs.npy"
/usr/bin/python3 -c "import numpy as np; print('probs =', np.load('build/tiny_mlp-out/output_0.npy'))"
