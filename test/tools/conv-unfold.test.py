"""Makes the model, inputs and reference outputs of conv-unfold.test: convolutions on 7x7
output maps, which the AVX-512 level computes unfolded (tcc-unfold-convolutions: the
windows copied out as channels, then one matrix product over the 49 points): a 3x3 window
with padding 1, 40 output channels, bias, residual and ReLU (the epilogue); and a dilated
(2) strided (2) 3x3 window with padding 2 from 14x14, over a dynamic batch. The reference is
NumPy's in float64."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

d = sys.argv[1]
f = TensorProto.FLOAT
rng = np.random.default_rng(5)
x = rng.standard_normal((2, 32, 7, 7)).astype(np.float32)
w = (rng.standard_normal((40, 32, 3, 3)) / 10).astype(np.float32)
bias = rng.standard_normal(40).astype(np.float32)
residual = rng.standard_normal((2, 40, 7, 7)).astype(np.float32)
x2 = rng.standard_normal((3, 24, 14, 14)).astype(np.float32)
w2 = (rng.standard_normal((20, 24, 3, 3)) / 10).astype(np.float32)


def conv(image, filt, stride, pad, dilation):
    """Cross-correlation, float64."""
    n, c, h, wd = image.shape
    padded = np.pad(image.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    span = dilation * 2 + 1
    oh, ow = (h + 2 * pad - span) // stride + 1, (wd + 2 * pad - span) // stride + 1
    out = np.zeros((n, filt.shape[0], oh, ow))
    for ky in range(3):
        for kx in range(3):
            y0, x0 = ky * dilation, kx * dilation
            window = padded[:, :, y0:y0 + stride * oh:stride, x0:x0 + stride * ow:stride]
            out += np.einsum("nchw,oc->nohw", window, filt[:, :, ky, kx].astype(np.float64))
    return out


graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w", "bias"], ["c"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Add", ["c", "residual"], ["sum"], name="add_residual"),
     helper.make_node("Relu", ["sum"], ["y"], name="relu"),
     helper.make_node("Conv", ["x2", "w2"], ["y2"], name="conv_dilated", pads=[2, 2, 2, 2],
                      strides=[2, 2], dilations=[2, 2])],
    "conv_unfold",
    [helper.make_tensor_value_info("x", f, [2, 32, 7, 7]),
     helper.make_tensor_value_info("residual", f, [2, 40, 7, 7]),
     helper.make_tensor_value_info("x2", f, ["n", 24, 14, 14])],
    [helper.make_tensor_value_info("y", f, [2, 40, 7, 7]),
     helper.make_tensor_value_info("y2", f, ["n", 20, 7, 7])],
    [helper.make_tensor("w", f, w.shape, w.flatten()),
     helper.make_tensor("bias", f, [40], bias),
     helper.make_tensor("w2", f, w2.shape, w2.flatten())])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "conv.onnx"))
np.save(os.path.join(d, "x.npy"), x)
np.save(os.path.join(d, "residual.npy"), residual)
np.save(os.path.join(d, "x2.npy"), x2)
y = np.maximum(conv(x, w, 1, 1, 1) + bias[None, :, None, None] + residual, 0)
np.save(os.path.join(d, "y.npy"), y.astype(np.float32))
np.save(os.path.join(d, "y2.npy"), conv(x2, w2, 2, 2, 2).astype(np.float32))
