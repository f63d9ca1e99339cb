#!/usr/bin/env python3
"""One-convolution models with the shapes of ResNet-18 and ResNet-50, for scripts/bench.py.

    scripts/conv_shapes.py --out DIR [--only NAME,NAME]
    scripts/bench.py --threads 1 --cpu default DIR/*

Each DIR/<name> holds model.onnx (Conv with bias, then Relu: a convolution and its epilogue,
as in the networks), input_0_x.npy and output_0_y.npy, the output computed here in float64 by
NumPy (test/tools/conv_reference.py: a direct sum over the window, independent of tcc and
ONNX Runtime). bench.py then prints tcc's GFLOP/s shape by shape, checks the output, and with
--baseline-flags (or two runs under two tcc builds) A/B-tests a compiler choice per shape.
Its ORT column is not ORT's convolution time: for a lone convolution ONNX Runtime also
reorders the input into and the output out of its NCHWc layout (r18_l1_3x3 at 1 thread:
3.8 ms for ORT, whose convolution takes 1.13 ms inside ResNet-18), so compare against ORT
per layer of the whole network with scripts/ort_profile.js beside tcc-run --profile.
Not a test: a benchmark input. Needs numpy and onnx (the system python3 has both).
"""
import argparse
import os
import sys

import numpy as np

# name: (input channels, output channels, input map, window, stride) at batch 1; padding is
# window // 2, as in torchvision's ResNets. The stride-2 3x3 ones are the first convolution
# of a stage (ResNet-18's conv1, ResNet-50's conv2 of a bottleneck).
SHAPES = {
    "r18_conv1_7x7s2": (3, 64, 224, 7, 2),
    "r18_l1_3x3": (64, 64, 56, 3, 1),
    "r18_l2_3x3s2": (64, 128, 56, 3, 2),
    "r18_l2_3x3": (128, 128, 28, 3, 1),
    "r18_l3_3x3s2": (128, 256, 28, 3, 2),
    "r18_l3_3x3": (256, 256, 14, 3, 1),
    "r18_l4_3x3s2": (256, 512, 14, 3, 2),
    "r18_l4_3x3": (512, 512, 7, 3, 1),
    "r50_l1_1x1_expand": (64, 256, 56, 1, 1),
    "r50_l1_1x1_reduce": (256, 64, 56, 1, 1),
    "r50_l2_3x3s2": (128, 128, 56, 3, 2),
    "r50_l3_3x3s2": (256, 256, 28, 3, 2),
    "r50_l4_3x3s2": (512, 512, 14, 3, 2),
    "r50_l4_1x1_expand": (512, 2048, 7, 1, 1),
}


def reference(x, w, b, stride, pad):
    """relu(conv(x, w) + b) in float64 (test/tools/conv_reference.py's convolution)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "test", "tools"))
    from conv_reference import conv
    y = conv(x, w, stride=stride, pad=pad) + b.astype(np.float64)[None, :, None, None]
    return np.maximum(y, 0.0).astype(np.float32)


def write(directory, name, shape):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    channels, out_channels, size, window, stride = shape
    pad = window // 2
    rng = np.random.default_rng(0)
    scale = 1.0 / np.sqrt(channels * window * window)
    w = (rng.standard_normal((out_channels, channels, window, window)) * scale).astype(np.float32)
    b = (rng.standard_normal(out_channels) * 0.1).astype(np.float32)
    x = rng.standard_normal((1, channels, size, size)).astype(np.float32)
    y = reference(x, w, b, stride, pad)
    conv = helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", kernel_shape=[window] * 2,
                            pads=[pad] * 4, strides=[stride] * 2)
    relu = helper.make_node("Relu", ["c"], ["y"], name="relu")
    graph = helper.make_graph(
        [conv, relu], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    folder = os.path.join(directory, name)
    os.makedirs(folder, exist_ok=True)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    np.save(os.path.join(folder, "input_0_x.npy"), x)
    np.save(os.path.join(folder, "output_0_y.npy"), y)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the folder to write the model folders into")
    parser.add_argument("--only", default="", help="comma-separated names (default: all)")
    options = parser.parse_args()
    names = [n for n in options.only.split(",") if n] or list(SHAPES)
    for name in names:
        if name not in SHAPES:
            raise SystemExit("unknown shape %r; known: %s" % (name, ", ".join(SHAPES)))
        write(options.out, name, SHAPES[name])
        print(os.path.join(options.out, name))


if __name__ == "__main__":
    main()
