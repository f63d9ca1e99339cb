#!/bin/bash
# The installed package in use (ctest package-example): installs the build into a fresh prefix,
# builds examples/cmake_project against it from a clean tree (tcc_add_model compiles a copy of
# tiny_mlp whose weights are external data), runs it, checks that a second build does nothing
# and that touching the weights file rebuilds the model, with Ninja and with Makefiles, and
# builds examples/run_model.c with pkg-config's flags for the runtime.
#   test/package/example.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work/model"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in bin/tcc bin/tcc-run lib/libtcc_runtime.so lib/libtcc_runtime.a include/tcc/runtime.h \
    include/tcc/model_abi.h lib/cmake/tcc/tccConfig.cmake lib/pkgconfig/tcc-runtime.pc; do
  [ -e "$work/prefix/$f" ] || { echo "FAIL: the install has no $f"; exit 1; }
done
"$work/prefix/bin/tcc" --version

/usr/bin/python3 - "$source/examples/tiny_mlp/model.onnx" "$work/model/model.onnx" <<'PY'
import sys, onnx
model = onnx.load(sys.argv[1])
onnx.save_model(model, sys.argv[2], save_as_external_data=True, all_tensors_to_one_file=True,
                location="weights.bin", size_threshold=0)
PY

cmake -S "$source/examples/cmake_project" -B "$work/example" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DTINY_MLP_MODEL="$work/model/model.onnx" > "$work/configure.log"
cmake --build "$work/example" > "$work/build1.log"
grep -q "tcc: compiling" "$work/build1.log" || { cat "$work/build1.log"; echo "FAIL: no model compile"; exit 1; }
"$work/example/classify" | tee "$work/classify.txt"
grep -q "^sample 1: class [0-3] (p = 0\.[0-9]*)$" "$work/classify.txt"

cmake --build "$work/example" > "$work/build2.log"
grep -q "ninja: no work to do" "$work/build2.log" || { cat "$work/build2.log"; echo "FAIL: the second build did work"; exit 1; }

sleep 1 && touch "$work/model/weights.bin"
cmake --build "$work/example" > "$work/build3.log"
grep -q "tcc: compiling" "$work/build3.log" || { cat "$work/build3.log"; echo "FAIL: touching the external data did not rebuild"; exit 1; }

# A newer tcc rebuilds the model too.
sleep 1 && touch "$work/prefix/bin/tcc"
cmake --build "$work/example" > "$work/build4.log"
grep -q "tcc: compiling" "$work/build4.log" || { cat "$work/build4.log"; echo "FAIL: a newer tcc did not rebuild"; exit 1; }

# The same with Makefiles: make reads tcc's depfile too.
cmake -S "$source/examples/cmake_project" -B "$work/example-make" -G "Unix Makefiles" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DTINY_MLP_MODEL="$work/model/model.onnx" > "$work/configure-make.log"
cmake --build "$work/example-make" > "$work/make1.log"
grep -q "tcc: compiling" "$work/make1.log" || { cat "$work/make1.log"; echo "FAIL: make: no model compile"; exit 1; }
"$work/example-make/classify" > "$work/classify-make.txt"
cmp "$work/classify.txt" "$work/classify-make.txt"
cmake --build "$work/example-make" > "$work/make2.log"
if grep -q "tcc: compiling" "$work/make2.log"; then
  cat "$work/make2.log"; echo "FAIL: make: the second build compiled the model again"; exit 1
fi
sleep 1 && touch "$work/model/weights.bin"
cmake --build "$work/example-make" > "$work/make3.log"
grep -q "tcc: compiling" "$work/make3.log" || { cat "$work/make3.log"; echo "FAIL: make: touching the external data did not rebuild"; exit 1; }

export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 "$source/examples/run_model.c" $(pkg-config --cflags --libs tcc-runtime) \
  -Wl,-rpath,"$work/prefix/lib" -o "$work/run_model"
"$work/run_model" "$work/example/tiny_mlp.so" batch=2 > "$work/run_model.txt"
grep -q "probs" "$work/run_model.txt" || { cat "$work/run_model.txt"; echo "FAIL: run_model"; exit 1; }
echo "package-example: ok"
