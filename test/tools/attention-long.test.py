"""Makes the model, inputs and reference outputs of attention-long.test: attention over more
keys than a CPU kernel keeps on its stack (8192), so that it reads them in chunks with an
online softmax: without a mask, with a causal mask that Trilu(k = N - M) writes (the diagonal
of M new queries after N - M cached keys), and with a padding mask input that hides the first
8200 keys (the whole first chunk is -inf, the rows' keys all in the second). The blocks read
different queries (q, q2, q3): with the same, their products would be one and the blocks not
fused."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

d = sys.argv[1]
M, N, D, H = 16, 8300, 16, 2
scale = 1.0 / np.sqrt(D)

f = TensorProto.FLOAT
nodes = [
    helper.make_node("Transpose", ["k"], ["kt"], name="kt", perm=[0, 1, 3, 2]),
    helper.make_node("MatMul", ["q", "kt"], ["s"], name="qk"),
    helper.make_node("Mul", ["s", "scale"], ["ss"], name="scale"),
    helper.make_node("Softmax", ["ss"], ["p"], name="softmax", axis=-1),
    helper.make_node("MatMul", ["p", "v"], ["plain"], name="pv"),
    # Causal: ones [M, N], lower triangle from diagonal N - M, 0 there and -inf elsewhere.
    helper.make_node("ConstantOfShape", ["mask_shape"], ["ones"], name="ones",
                     value=helper.make_tensor("one", f, [1], [1.0])),
    helper.make_node("Trilu", ["ones", "diagonal"], ["tri"], name="trilu", upper=0),
    helper.make_node("Equal", ["tri", "zero"], ["above"], name="equal"),
    helper.make_node("Where", ["above", "minus_inf", "zero"], ["mask"], name="where"),
    helper.make_node("MatMul", ["q2", "kt"], ["s2"], name="qk_causal"),
    helper.make_node("Mul", ["s2", "scale"], ["ss2"], name="scale_causal"),
    helper.make_node("Add", ["ss2", "mask"], ["masked"], name="add_mask"),
    helper.make_node("Softmax", ["masked"], ["pc"], name="softmax_causal", axis=-1),
    helper.make_node("MatMul", ["pc", "v"], ["causal"], name="pv_causal"),
    helper.make_node("MatMul", ["q3", "kt"], ["s3"], name="qk_padded"),
    helper.make_node("Mul", ["s3", "scale"], ["ss3"], name="scale_padded"),
    helper.make_node("Add", ["ss3", "pad"], ["padded_scores"], name="add_pad"),
    helper.make_node("Softmax", ["padded_scores"], ["pp"], name="softmax_padded", axis=-1),
    helper.make_node("MatMul", ["pp", "v"], ["padded"], name="pv_padded"),
]
inits = [
    helper.make_tensor("scale", f, [], [scale]),
    helper.make_tensor("mask_shape", TensorProto.INT64, [2], [M, N]),
    helper.make_tensor("diagonal", TensorProto.INT64, [], [N - M]),
    helper.make_tensor("zero", f, [], [0.0]),
    helper.make_tensor("minus_inf", f, [], [-np.inf]),
]
graph = helper.make_graph(
    nodes, "long_attention",
    [helper.make_tensor_value_info("q", f, [1, H, M, D]),
     helper.make_tensor_value_info("q2", f, [1, H, M, D]),
     helper.make_tensor_value_info("k", f, [1, H, N, D]),
     helper.make_tensor_value_info("v", f, [1, H, N, D]),
     helper.make_tensor_value_info("q3", f, [1, H, M, D]),
     helper.make_tensor_value_info("pad", f, [1, 1, 1, N])],
    [helper.make_tensor_value_info("plain", f, [1, H, M, D]),
     helper.make_tensor_value_info("causal", f, [1, H, M, D]),
     helper.make_tensor_value_info("padded", f, [1, H, M, D])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "long.onnx"))

rng = np.random.default_rng(0)
q, q2, k, v, q3 = (rng.standard_normal((1, H, rows, D)).astype(np.float32)
                   for rows in (M, M, N, N, M))
pad = np.where(np.arange(N) < 8200, -np.inf, 0.0).astype(np.float32).reshape(1, 1, 1, N)
for name, value in (("q", q), ("q2", q2), ("k", k), ("v", v), ("q3", q3), ("pad", pad)):
    np.save(os.path.join(d, name + ".npy"), value)


def attention(queries, mask):
    s = np.einsum("bhmd,bhnd->bhmn", queries.astype(np.float64), k.astype(np.float64)) * scale + mask
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return np.einsum("bhmn,bhnd->bhmd", p, v.astype(np.float64)).astype(np.float32)


i = np.arange(M)[:, None]
j = np.arange(N)[None, :]
np.save(os.path.join(d, "plain.npy"), attention(q, 0.0))
np.save(os.path.join(d, "causal.npy"), attention(q2, np.where(j <= i + N - M, 0.0, -np.inf)))
np.save(os.path.join(d, "padded.npy"), attention(q3, pad.astype(np.float64)))
