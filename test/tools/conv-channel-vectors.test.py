"""Makes the model, inputs and reference outputs of conv-channel-vectors.test: convolutions
that the AVX-512 level vectorizes along their output channels
(tcc-channel-vector-convolutions): a 3x3 window on a 7x7 map with 256 input channels and 48
output channels (three blocks of 16: the stacked tiles of four leave a remainder) plus bias,
residual and ReLU, batch 2; and a pointwise convolution with 2048 input channels and 32
output channels over a dynamic batch (3 here). Both filters are larger than the tiler's L2
share per stacked tile, so the reduction runs in chunks. The reference is NumPy's in
float64."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from conv_reference import conv

d = sys.argv[1]
f = TensorProto.FLOAT
rng = np.random.default_rng(13)
x = rng.standard_normal((2, 256, 7, 7)).astype(np.float32)
w = (rng.standard_normal((48, 256, 3, 3)) / 30).astype(np.float32)
bias = rng.standard_normal(48).astype(np.float32)
residual = rng.standard_normal((2, 48, 7, 7)).astype(np.float32)
x2 = rng.standard_normal((3, 2048, 7, 7)).astype(np.float32)
w2 = (rng.standard_normal((32, 2048, 1, 1)) / 30).astype(np.float32)

graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w", "bias"], ["c"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Add", ["c", "residual"], ["sum"], name="add_residual"),
     helper.make_node("Relu", ["sum"], ["y"], name="relu"),
     helper.make_node("Conv", ["x2", "w2"], ["y2"], name="conv_pointwise")],
    "conv_channel_vectors",
    [helper.make_tensor_value_info("x", f, [2, 256, 7, 7]),
     helper.make_tensor_value_info("residual", f, [2, 48, 7, 7]),
     helper.make_tensor_value_info("x2", f, ["n", 2048, 7, 7])],
    [helper.make_tensor_value_info("y", f, [2, 48, 7, 7]),
     helper.make_tensor_value_info("y2", f, ["n", 32, 7, 7])],
    [helper.make_tensor("w", f, w.shape, w.flatten()),
     helper.make_tensor("bias", f, [48], bias),
     helper.make_tensor("w2", f, w2.shape, w2.flatten())])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "conv.onnx"))
np.save(os.path.join(d, "x.npy"), x)
np.save(os.path.join(d, "residual.npy"), residual)
np.save(os.path.join(d, "x2.npy"), x2)
y = np.maximum(conv(x, w, 1) + bias[None, :, None, None] + residual, 0)
np.save(os.path.join(d, "y.npy"), y.astype(np.float32))
np.save(os.path.join(d, "y2.npy"), conv(x2, w2, 1, 0).astype(np.float32))
