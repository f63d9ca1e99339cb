#!/usr/bin/env bash
# The README's first command: set up, build, compile the example model and run it.
#
# Today tcc compiles ONNX to its `prim` IR; machine-code generation is being built. So the
# example is decomposed to prim (printed) and run by tcc's reference evaluator against the
# numpy reference outputs stored beside the model.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo "== tcc examples/tiny_mlp/model.onnx --emit=prim"
build/bin/tcc examples/tiny_mlp/model.onnx --emit=prim
echo "== run it (reference evaluator) and compare with examples/tiny_mlp/test_data_set_0"
build/bin/tcc-conformance examples/tiny_mlp
