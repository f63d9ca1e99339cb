"""Makes the model, inputs and reference output of gemm-chunks.test: Y = Relu(A . B + bias)
with A [203, 1031] and B [1031, 700] inputs, so that the CPU's register tiles read B in
column panels of 256 (the last 188 wide), the reduction in chunks of 256 (1031 is prime:
the fifth chunk is 7 long), and threads take one panel and one group of row tiles at a time
(203 rows: 34 tiles of 6, the last of 5 rows, in groups of 9, the last of 7). The reference
is NumPy's in float64."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

d = sys.argv[1]
M, K, N = 203, 1031, 700
f = TensorProto.FLOAT
rng = np.random.default_rng(7)
a = rng.standard_normal((M, K)).astype(np.float32)
b = rng.standard_normal((K, N)).astype(np.float32)
bias = rng.standard_normal(N).astype(np.float32)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["a", "b"], ["ab"], name="matmul"),
     helper.make_node("Add", ["ab", "bias"], ["sum"], name="add_bias"),
     helper.make_node("Relu", ["sum"], ["y"], name="relu")],
    "gemm_chunks",
    [helper.make_tensor_value_info("a", f, [M, K]), helper.make_tensor_value_info("b", f, [K, N])],
    [helper.make_tensor_value_info("y", f, [M, N])],
    [helper.make_tensor("bias", f, [N], bias)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "gemm.onnx"))
np.save(os.path.join(d, "a.npy"), a)
np.save(os.path.join(d, "b.npy"), b)
y = np.maximum(a.astype(np.float64) @ b.astype(np.float64) + bias, 0)
np.save(os.path.join(d, "y.npy"), y.astype(np.float32))
