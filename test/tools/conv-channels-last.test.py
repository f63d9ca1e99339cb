"""Makes the model, inputs and reference outputs of conv-channels-last.test: a ResNet stage
in small that the AVX-512 level computes channels last (tcc-channel-vector-convolutions'
chains): a 3x3 stride-2 convolution from 16 to 32 channels (56x56 to 28x28) with bias and
ReLU, then a 3x3 one with bias, plus a stride-2 pointwise downsample of the input as the
residual, and ReLU; then a block of two 3x3 convolutions with bias, the residual and ReLU.
Five convolutions for two transposing copies (the input and the result), over a dynamic
batch (2 here). The reference is NumPy's in float64.

    conv-channels-last.test.py DIR [IN_CHANNELS CHANNELS SIZE]

IN_CHANNELS, CHANNELS and SIZE (the input's maps) are 16, 32 and 56 by default; 128, 256 and
14 make ResNet-18's layer 4 at half width (7x7 maps, 256-channel filters that the tiler runs in
chunks of one ky row)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from conv_reference import conv

d = sys.argv[1]
cin, ch, size = (int(v) for v in sys.argv[2:5]) if len(sys.argv) > 2 else (16, 32, 56)
f = TensorProto.FLOAT
rng = np.random.default_rng(17)
x = rng.standard_normal((2, cin, size, size)).astype(np.float32)


def weights(o, c, k):
    return (rng.standard_normal((o, c, k, k)) / np.sqrt(c * k * k)).astype(np.float32)


w1, w2, wd, w3, w4 = (weights(ch, cin, 3), weights(ch, ch, 3), weights(ch, cin, 1),
                      weights(ch, ch, 3), weights(ch, ch, 3))
b1, b2, b3, b4 = (rng.standard_normal(ch).astype(np.float32) for _ in range(4))
inits = {"w1": w1, "w2": w2, "wd": wd, "w3": w3, "w4": w4, "b1": b1, "b2": b2, "b3": b3, "b4": b4}

nodes = [
    helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1],
                     strides=[2, 2]),
    helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
    helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
    helper.make_node("Conv", ["x", "wd"], ["down"], name="downsample", strides=[2, 2]),
    helper.make_node("Add", ["c2", "down"], ["s2"], name="add1"),
    helper.make_node("Relu", ["s2"], ["r2"], name="relu2"),
    helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], name="conv3", pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c3"], ["r3"], name="relu3"),
    helper.make_node("Conv", ["r3", "w4", "b4"], ["c4"], name="conv4", pads=[1, 1, 1, 1]),
    helper.make_node("Add", ["c4", "r2"], ["s4"], name="add2"),
    helper.make_node("Relu", ["s4"], ["y"], name="relu4"),
]
graph = helper.make_graph(
    nodes, "conv_channels_last", [helper.make_tensor_value_info("x", f, ["n", cin, size, size])],
    [helper.make_tensor_value_info("y", f, ["n", ch, size // 2, size // 2])],
    [helper.make_tensor(k, f, v.shape, v.flatten()) for k, v in inits.items()])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "conv.onnx"))
np.save(os.path.join(d, "x.npy"), x)


def bias(v):
    return v[None, :, None, None]


r1 = np.maximum(conv(x, w1, 2) + bias(b1), 0)
r2 = np.maximum(conv(r1, w2) + bias(b2) + conv(x, wd, 2, 0), 0)
r3 = np.maximum(conv(r2, w3) + bias(b3), 0)
y = np.maximum(conv(r3, w4) + bias(b4) + r2, 0)
np.save(os.path.join(d, "y.npy"), y.astype(np.float32))
