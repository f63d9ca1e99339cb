#!/usr/bin/python3
"""Writes the tiny MLP example: model.onnx and one test data set (inputs and the reference
outputs computed with numpy), in the ONNX backend-test layout that tcc-conformance reads and
as .npy files for tcc-run.

    /usr/bin/python3 examples/tiny_mlp/make_model.py   # (python3-onnx, python3-numpy)
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)
w1 = rng.standard_normal((8, 16)).astype(np.float32)
b1 = rng.standard_normal(16).astype(np.float32)
w2 = rng.standard_normal((16, 4)).astype(np.float32)
b2 = rng.standard_normal(4).astype(np.float32)

graph = helper.make_graph(
    [
        helper.make_node("MatMul", ["x", "w1"], ["h0"], name="fc1"),
        helper.make_node("Add", ["h0", "b1"], ["h1"], name="fc1_bias"),
        helper.make_node("Relu", ["h1"], ["h2"], name="relu"),
        helper.make_node("Gemm", ["h2", "w2", "b2"], ["logits"], name="fc2"),
        helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=-1),
    ],
    "tiny_mlp",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8])],
    [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 4])],
    [numpy_helper.from_array(a, n) for a, n in [(w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2")]],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                          producer_name="tcc-example")
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "model.onnx"))

x = rng.standard_normal((3, 8)).astype(np.float32)
h = np.maximum(x @ w1 + b1, 0)
logits = h @ w2 + b2
e = np.exp(logits - logits.max(axis=-1, keepdims=True))
probs = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
data = os.path.join(here, "test_data_set_0")
os.makedirs(data, exist_ok=True)
with open(os.path.join(data, "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(x, "x").SerializeToString())
with open(os.path.join(data, "output_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(probs, "probs").SerializeToString())
# The same data as .npy, for tcc-run.
np.save(os.path.join(here, "input_0_x.npy"), x)
np.save(os.path.join(here, "output_0_probs.npy"), probs)
