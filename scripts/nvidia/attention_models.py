#!/usr/bin/env python3
"""The one-block attention models of attention_bench.py, as ONNX (numpy/onnx only).

att.onnx: softmax(q kᵀ / 8) v over q, k, v of [B, 4, S, 64] (batch and sequence dynamic).
att_causal.onnx: the same with the causal mask the dynamo exporter writes for
scaled_dot_product_attention(is_causal=True): ones [S, S] (ConstantOfShape of the keys'
extents), Trilu (lower), Equal 0, Where(-inf, 0), added to the scores.

    python3 attention_models.py OUT_DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def model(causal):
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["q", "kt"], ["s"]),
        helper.make_node("Div", ["s", "eight"], ["scaled"]),
    ]
    scores = "scaled"
    if causal:
        nodes += [
            helper.make_node("Shape", ["s"], ["s_shape"], start=2),
            helper.make_node("ConstantOfShape", ["s_shape"], ["ones"],
                             value=helper.make_tensor("one", f, [1], [1.0])),
            helper.make_node("Trilu", ["ones"], ["tri"], upper=0),
            helper.make_node("Equal", ["tri", "zero"], ["above"]),
            helper.make_node("Where", ["above", "minus_inf", "zero"], ["mask"]),
            helper.make_node("Add", ["scaled", "mask"], ["masked"]),
        ]
        scores = "masked"
    nodes += [
        helper.make_node("Softmax", [scores], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "v"], ["out"]),
    ]
    inits = [helper.make_tensor("eight", f, [], [8.0]),
             helper.make_tensor("zero", f, [], [0.0]),
             helper.make_tensor("minus_inf", f, [], [-np.inf])]
    if not causal:
        inits = inits[:1]
    shape = ["B", 4, "S", 64]
    graph = helper.make_graph(
        nodes, "att_causal" if causal else "att",
        [helper.make_tensor_value_info(n, f, shape) for n in ("q", "k", "v")],
        [helper.make_tensor_value_info("out", f, shape)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    onnx.save(model(False), os.path.join(out, "att.onnx"))
    onnx.save(model(True), os.path.join(out, "att_causal.onnx"))
