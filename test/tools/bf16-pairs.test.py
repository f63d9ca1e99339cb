"""Makes the model, inputs and references of bf16-pairs.test and bf16-levels-haswell.test:
contractions that tcc-pair-bf16-contractions pairs under --precision=bf16 (a padded 3x3
convolution over a dynamic batch with bias and ReLU, a stride-2 one (split into column
phases), one on a 7x7 map (unfolded into a matrix product), a matrix product with constant
weights and a bias, a batched product of two activations, a convolution over 3 input
channels (odd: the last pair completed by a zero)) and one it leaves in float32 (a product
over 2 points, shorter than min-extent). References in float64: `*_bf16.npy` from the inputs
rounded to bf16 (to nearest, ties to even) where the pass pairs them, `*_f32.npy` from the
float32 inputs (what a level without AVX512-BF16 computes)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from conv_reference import conv


def bf16(a):
    """float32 rounded to bf16 (to nearest, ties to even), as float32."""
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return bits.astype(np.uint32).view(np.float32)


d = sys.argv[1]
f = TensorProto.FLOAT
rng = np.random.default_rng(11)
x1 = rng.standard_normal((2, 16, 20, 20)).astype(np.float32)
w1 = (rng.standard_normal((24, 16, 3, 3)) / 8).astype(np.float32)
b1 = rng.standard_normal(24).astype(np.float32)
w2 = (rng.standard_normal((8, 16, 3, 3)) / 8).astype(np.float32)
x3 = rng.standard_normal((1, 32, 7, 7)).astype(np.float32)
w3 = (rng.standard_normal((40, 32, 3, 3)) / 8).astype(np.float32)
x4 = rng.standard_normal((2, 6, 64)).astype(np.float32)
w4 = (rng.standard_normal((64, 40)) / 8).astype(np.float32)
b4 = rng.standard_normal(40).astype(np.float32)
x5 = rng.standard_normal((2, 64, 10)).astype(np.float32)
x6 = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
w6 = (rng.standard_normal((8, 3, 3, 3)) / 4).astype(np.float32)
x7 = rng.standard_normal((2, 6, 2)).astype(np.float32)
w7 = rng.standard_normal((2, 40)).astype(np.float32)

initializers = [helper.make_tensor(name, f, value.shape, value.flatten())
                for name, value in [("w1", w1), ("b1", b1), ("w2", w2), ("w3", w3),
                                    ("w4", w4), ("b4", b4), ("w6", w6), ("w7", w7)]]
graph = helper.make_graph(
    [helper.make_node("Conv", ["x1", "w1", "b1"], ["c1"], name="conv3x3", pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["c1"], ["y1"], name="relu"),
     helper.make_node("Conv", ["x1", "w2"], ["y2"], name="conv_stride2", pads=[1, 1, 1, 1],
                      strides=[2, 2]),
     helper.make_node("Conv", ["x3", "w3"], ["y3"], name="conv_7x7_map", pads=[1, 1, 1, 1]),
     helper.make_node("MatMul", ["x4", "w4"], ["m4"], name="matmul"),
     helper.make_node("Add", ["m4", "b4"], ["y4"], name="bias"),
     helper.make_node("MatMul", ["x4", "x5"], ["y5"], name="activations"),
     helper.make_node("Conv", ["x6", "w6"], ["y6"], name="three_channels", pads=[1, 1, 1, 1]),
     helper.make_node("MatMul", ["x7", "w7"], ["y7"], name="two_points")],
    "bf16_pairs",
    [helper.make_tensor_value_info("x1", f, ["n", 16, 20, 20]),
     helper.make_tensor_value_info("x3", f, [1, 32, 7, 7]),
     helper.make_tensor_value_info("x4", f, [2, 6, 64]),
     helper.make_tensor_value_info("x5", f, [2, 64, 10]),
     helper.make_tensor_value_info("x6", f, [1, 3, 16, 16]),
     helper.make_tensor_value_info("x7", f, [2, 6, 2])],
    [helper.make_tensor_value_info("y1", f, ["n", 24, 20, 20]),
     helper.make_tensor_value_info("y2", f, ["n", 8, 10, 10]),
     helper.make_tensor_value_info("y3", f, [1, 40, 7, 7]),
     helper.make_tensor_value_info("y4", f, [2, 6, 40]),
     helper.make_tensor_value_info("y5", f, [2, 6, 10]),
     helper.make_tensor_value_info("y6", f, [1, 8, 16, 16]),
     helper.make_tensor_value_info("y7", f, [2, 6, 40])],
    initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "pairs.onnx"))
for name, value in [("x1", x1), ("x3", x3), ("x4", x4), ("x5", x5), ("x6", x6), ("x7", x7)]:
    np.save(os.path.join(d, name + ".npy"), value)


def outputs(r):
    """The seven outputs with the paired contractions' inputs passed through r."""
    y1 = np.maximum(conv(r(x1), r(w1)) + b1[None, :, None, None], 0)
    y2 = conv(r(x1), r(w2), 2)
    y3 = conv(r(x3), r(w3))
    y4 = r(x4).astype(np.float64) @ r(w4).astype(np.float64) + b4
    y5 = r(x4).astype(np.float64) @ r(x5).astype(np.float64)
    y6 = conv(r(x6), r(w6))
    y7 = x7.astype(np.float64) @ w7.astype(np.float64)
    return [y1, y2, y3, y4, y5, y6, y7]


for kind, r in [("bf16", bf16), ("f32", lambda a: a)]:
    for k, y in enumerate(outputs(r)):
        np.save(os.path.join(d, "y%d_%s.npy" % (k + 1, kind)), y.astype(np.float32))
