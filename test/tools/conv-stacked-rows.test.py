"""Makes the model, inputs and reference outputs of conv-stacked-rows.test: 3x3 convolutions
(padding 1) on maps whose rows fit one vector, where the CPU's register tiles stack output
rows (a tile's vectors are rows y, y + 1, ... of one output channel block): 7x7 maps with
40 output channels (not a multiple of the tile's rows) plus bias, residual and ReLU (the
epilogue), and 14x14 maps with stride 2 -> 7x7. Batch 2. The reference is NumPy's in
float64."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

d = sys.argv[1]
f = TensorProto.FLOAT
rng = np.random.default_rng(11)
x = rng.standard_normal((2, 32, 7, 7)).astype(np.float32)
w = (rng.standard_normal((40, 32, 3, 3)) / 10).astype(np.float32)
bias = rng.standard_normal(40).astype(np.float32)
residual = rng.standard_normal((2, 40, 7, 7)).astype(np.float32)
x2 = rng.standard_normal((2, 24, 14, 14)).astype(np.float32)
w2 = (rng.standard_normal((20, 24, 3, 3)) / 10).astype(np.float32)


def conv(image, filt, stride):
    """Cross-correlation with padding 1, float64."""
    n, c, h, wd = image.shape
    padded = np.pad(image.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    oh, ow = (h + 2 - 3) // stride + 1, (wd + 2 - 3) // stride + 1
    out = np.zeros((n, filt.shape[0], oh, ow))
    for ky in range(3):
        for kx in range(3):
            window = padded[:, :, ky:ky + stride * oh:stride, kx:kx + stride * ow:stride]
            out += np.einsum("nchw,oc->nohw", window, filt[:, :, ky, kx].astype(np.float64))
    return out


graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w", "bias"], ["c"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Add", ["c", "residual"], ["sum"], name="add_residual"),
     helper.make_node("Relu", ["sum"], ["y"], name="relu"),
     helper.make_node("Conv", ["x2", "w2"], ["y2"], name="conv_stride2", pads=[1, 1, 1, 1],
                      strides=[2, 2])],
    "conv_stacked_rows",
    [helper.make_tensor_value_info("x", f, [2, 32, 7, 7]),
     helper.make_tensor_value_info("residual", f, [2, 40, 7, 7]),
     helper.make_tensor_value_info("x2", f, [2, 24, 14, 14])],
    [helper.make_tensor_value_info("y", f, [2, 40, 7, 7]),
     helper.make_tensor_value_info("y2", f, [2, 20, 7, 7])],
    [helper.make_tensor("w", f, w.shape, w.flatten()),
     helper.make_tensor("bias", f, [40], bias),
     helper.make_tensor("w2", f, w2.shape, w2.flatten())])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "conv.onnx"))
np.save(os.path.join(d, "x.npy"), x)
np.save(os.path.join(d, "residual.npy"), residual)
np.save(os.path.join(d, "x2.npy"), x2)
y = np.maximum(conv(x, w, 1) + bias[None, :, None, None] + residual, 0)
np.save(os.path.join(d, "y.npy"), y.astype(np.float32))
np.save(os.path.join(d, "y2.npy"), conv(x2, w2, 2).astype(np.float32))
