"""Makes the model, inputs and reference outputs of conv-phases.test: convolutions with a
column stride, which tcc-split-strided-convolutions computes as sums over the input's column
phases on x86: a 3x3 window with stride 2 from 28x28 to 14x14 (24 -> 40 channels, bias and
ReLU after it), one from 56x56 to 28x28 over a dynamic batch, ResNet's 7x7 stem window
(stride 2, padding 3) over 3 channels, and a 5x5 window with stride 3 and uneven padding
(three phases of 2, 2 and 1 window columns). The reference is NumPy's in float64."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from conv_reference import conv

d = sys.argv[1]
f = TensorProto.FLOAT
rng = np.random.default_rng(5)
x1 = rng.standard_normal((1, 24, 28, 28)).astype(np.float32)
w1 = (rng.standard_normal((40, 24, 3, 3)) / 10).astype(np.float32)
b1 = rng.standard_normal(40).astype(np.float32)
x2 = rng.standard_normal((3, 16, 56, 56)).astype(np.float32)
w2 = (rng.standard_normal((24, 16, 3, 3)) / 10).astype(np.float32)
x3 = rng.standard_normal((1, 3, 32, 32)).astype(np.float32)
w3 = (rng.standard_normal((16, 3, 7, 7)) / 10).astype(np.float32)
x4 = rng.standard_normal((2, 8, 20, 20)).astype(np.float32)
w4 = (rng.standard_normal((12, 8, 5, 5)) / 10).astype(np.float32)

initializers = [helper.make_tensor(name, f, value.shape, value.flatten())
                for name, value in [("w1", w1), ("b1", b1), ("w2", w2), ("w3", w3), ("w4", w4)]]
graph = helper.make_graph(
    [helper.make_node("Conv", ["x1", "w1", "b1"], ["c1"], name="conv_14", pads=[1, 1, 1, 1],
                      strides=[2, 2]),
     helper.make_node("Relu", ["c1"], ["y1"], name="relu"),
     helper.make_node("Conv", ["x2", "w2"], ["y2"], name="conv_28", pads=[1, 1, 1, 1],
                      strides=[2, 2]),
     helper.make_node("Conv", ["x3", "w3"], ["y3"], name="stem", pads=[3, 3, 3, 3],
                      strides=[2, 2]),
     helper.make_node("Conv", ["x4", "w4"], ["y4"], name="stride3", pads=[1, 1, 2, 2],
                      strides=[3, 3])],
    "conv_phases",
    [helper.make_tensor_value_info("x1", f, [1, 24, 28, 28]),
     helper.make_tensor_value_info("x2", f, ["n", 16, 56, 56]),
     helper.make_tensor_value_info("x3", f, [1, 3, 32, 32]),
     helper.make_tensor_value_info("x4", f, [2, 8, 20, 20])],
    [helper.make_tensor_value_info("y1", f, [1, 40, 14, 14]),
     helper.make_tensor_value_info("y2", f, ["n", 24, 28, 28]),
     helper.make_tensor_value_info("y3", f, [1, 16, 16, 16]),
     helper.make_tensor_value_info("y4", f, [2, 12, 7, 7])],
    initializers)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "conv.onnx"))
for name, value in [("x1", x1), ("x2", x2), ("x3", x3), ("x4", x4)]:
    np.save(os.path.join(d, name + ".npy"), value)
y1 = np.maximum(conv(x1, w1, 2) + b1[None, :, None, None], 0)
np.save(os.path.join(d, "y1.npy"), y1.astype(np.float32))
np.save(os.path.join(d, "y2.npy"), conv(x2, w2, 2).astype(np.float32))
np.save(os.path.join(d, "y3.npy"), conv(x3, w3, 2, 3).astype(np.float32))
# Uneven padding: 1 before, 2 after, on both axes.
x4p = np.pad(x4, ((0, 0), (0, 0), (1, 2), (1, 2)))
np.save(os.path.join(d, "y4.npy"), conv(x4p, w4, 3, 0).astype(np.float32))
