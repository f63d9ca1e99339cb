"""Makes the model, inputs and reference outputs of conv-stacked-rows.test and
conv-unfold.test: 3x3 convolutions on maps whose rows fit one vector, where the CPU's
register tiles stack output rows (AVX2) or the AVX-512 level unfolds the windows into one
matrix product: 7x7 maps with 40 output channels (not a multiple of the tile's rows) plus
bias, residual and ReLU (the epilogue); 14x14 maps with stride 2 -> 7x7 (batch 2); and a
dilated (2) strided (2) window with padding 2 from 14x14 over a dynamic batch (3 here).
The reference is NumPy's in float64."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from conv_reference import conv

d = sys.argv[1]
f = TensorProto.FLOAT
rng = np.random.default_rng(11)
x = rng.standard_normal((2, 32, 7, 7)).astype(np.float32)
w = (rng.standard_normal((40, 32, 3, 3)) / 10).astype(np.float32)
bias = rng.standard_normal(40).astype(np.float32)
residual = rng.standard_normal((2, 40, 7, 7)).astype(np.float32)
x2 = rng.standard_normal((2, 24, 14, 14)).astype(np.float32)
w2 = (rng.standard_normal((20, 24, 3, 3)) / 10).astype(np.float32)
x3 = rng.standard_normal((3, 24, 14, 14)).astype(np.float32)
w3 = (rng.standard_normal((20, 24, 3, 3)) / 10).astype(np.float32)


graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w", "bias"], ["c"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Add", ["c", "residual"], ["sum"], name="add_residual"),
     helper.make_node("Relu", ["sum"], ["y"], name="relu"),
     helper.make_node("Conv", ["x2", "w2"], ["y2"], name="conv_stride2", pads=[1, 1, 1, 1],
                      strides=[2, 2]),
     helper.make_node("Conv", ["x3", "w3"], ["y3"], name="conv_dilated", pads=[2, 2, 2, 2],
                      strides=[2, 2], dilations=[2, 2])],
    "conv_stacked_rows",
    [helper.make_tensor_value_info("x", f, [2, 32, 7, 7]),
     helper.make_tensor_value_info("residual", f, [2, 40, 7, 7]),
     helper.make_tensor_value_info("x2", f, [2, 24, 14, 14]),
     helper.make_tensor_value_info("x3", f, ["n", 24, 14, 14])],
    [helper.make_tensor_value_info("y", f, [2, 40, 7, 7]),
     helper.make_tensor_value_info("y2", f, [2, 20, 7, 7]),
     helper.make_tensor_value_info("y3", f, ["n", 20, 7, 7])],
    [helper.make_tensor("w", f, w.shape, w.flatten()),
     helper.make_tensor("bias", f, [40], bias),
     helper.make_tensor("w2", f, w2.shape, w2.flatten()),
     helper.make_tensor("w3", f, w3.shape, w3.flatten())])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "conv.onnx"))
np.save(os.path.join(d, "x.npy"), x)
np.save(os.path.join(d, "residual.npy"), residual)
np.save(os.path.join(d, "x2.npy"), x2)
np.save(os.path.join(d, "x3.npy"), x3)
y = np.maximum(conv(x, w, 1) + bias[None, :, None, None] + residual, 0)
np.save(os.path.join(d, "y.npy"), y.astype(np.float32))
np.save(os.path.join(d, "y2.npy"), conv(x2, w2, 2).astype(np.float32))
np.save(os.path.join(d, "y3.npy"), conv(x3, w3, 2, 2, 2).astype(np.float32))
