#!/usr/bin/env python3
"""Writes model.onnx: a 2-16-1 MLP (tanh) with a mean-squared-error loss output, the model
examples/train_mlp.c trains with `tcc model.onnx --train sgd --lr 0.05 --loss loss`.

Inputs: x [32, 2] (a batch of points), t [32, 1] (targets). Outputs: y [32, 1] (the
prediction), loss [] (mean((y - t)^2)). Weights are seeded random initializers W1, b1, W2, b2.
Uses only the onnx package (no framework): python3 make_model.py
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
weights = {
    "W1": (rng.standard_normal((2, 16)) * 0.8).astype(np.float32),
    "b1": np.zeros(16, np.float32),
    "W2": (rng.standard_normal((16, 1)) * 0.3).astype(np.float32),
    "b2": np.zeros(1, np.float32),
}
nodes = [
    helper.make_node("MatMul", ["x", "W1"], ["h0"], name="fc1"),
    helper.make_node("Add", ["h0", "b1"], ["h1"], name="fc1_bias"),
    helper.make_node("Tanh", ["h1"], ["h"], name="act"),
    helper.make_node("MatMul", ["h", "W2"], ["y0"], name="fc2"),
    helper.make_node("Add", ["y0", "b2"], ["y"], name="fc2_bias"),
    helper.make_node("Sub", ["y", "t"], ["err"], name="error"),
    helper.make_node("Mul", ["err", "err"], ["sq"], name="square"),
    helper.make_node("ReduceMean", ["sq"], ["loss"], name="mse", keepdims=0),
]
graph = helper.make_graph(
    nodes, "train_mlp",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [32, 2]),
     helper.make_tensor_value_info("t", TensorProto.FLOAT, [32, 1])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [32, 1]),
     helper.make_tensor_value_info("loss", TensorProto.FLOAT, [])],
    [numpy_helper.from_array(v, k) for k, v in weights.items()])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, "model.onnx")
