"""Writes the models and inputs of runtime-loop.test."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

d = sys.argv[1]


def model(scan):
    outputs = [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
               helper.make_tensor_value_info("x_out", TensorProto.FLOAT, [3])]
    nodes = [helper.make_node("Cast", ["i"], ["fi"], to=1, name="cast"),
             helper.make_node("Mul", ["x_in", "two"], ["x2"], name="mul"),
             helper.make_node("Add", ["x2", "fi"], ["x_out"], name="add"),
             helper.make_node("Identity", ["c_in"], ["c_out"], name="keep")]
    if scan:
        nodes.append(helper.make_node("Identity", ["x_out"], ["s"], name="scan"))
        outputs.append(helper.make_tensor_value_info("s", TensorProto.FLOAT, [3]))
    body = helper.make_graph(
        nodes, "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x_in", TensorProto.FLOAT, [3])],
        outputs, [numpy_helper.from_array(np.array(2.0, np.float32), "two")])
    outs = ["x", "xs"] if scan else ["x"]
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M", "", "x0"], outs, name="loop", body=body)], "g",
        [helper.make_tensor_value_info("M", TensorProto.INT64, []),
         helper.make_tensor_value_info("x0", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


def while_model(with_trip_count=True, scan=False):
    """x = 2x while max(x) < 100 (cond computed in the body), at most M times (or without M:
    a plain while loop); the output is the final x (a scan of x would be refused)."""
    body = helper.make_graph(
        [helper.make_node("Mul", ["x_in", "two"], ["x_out"], name="mul"),
         helper.make_node("ReduceMax", ["x_out"], ["top"], keepdims=0, name="top"),
         helper.make_node("Less", ["top", "hundred"], ["c_out"], name="less")]
        + ([helper.make_node("Identity", ["x_out"], ["x_scan"], name="scan")] if scan else []),
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x_in", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x_out", TensorProto.FLOAT, [3])]
        + ([helper.make_tensor_value_info("x_scan", TensorProto.FLOAT, [3])] if scan else []),
        [numpy_helper.from_array(np.array(2.0, np.float32), "two"),
         numpy_helper.from_array(np.array(100.0, np.float32), "hundred")])
    inputs = [helper.make_tensor_value_info("x0", TensorProto.FLOAT, [3])]
    if with_trip_count:
        inputs.insert(0, helper.make_tensor_value_info("M", TensorProto.INT64, []))
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M" if with_trip_count else "", "", "x0"],
                          ["x"] + (["xs"] if scan else []), name="loop", body=body)], "g",
        inputs, [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)]
        + ([helper.make_tensor_value_info("xs", TensorProto.FLOAT, None)] if scan else []))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m


onnx.save(while_model(), os.path.join(d, "while.onnx"))
onnx.save(while_model(False), os.path.join(d, "while_no_m.onnx"))
onnx.save(while_model(True, scan=True), os.path.join(d, "while_scan.onnx"))
onnx.save(while_model(False, scan=True), os.path.join(d, "while_scan_no_m.onnx"))
np.save(os.path.join(d, "m20.npy"), np.array(20, np.int64))
# What exporters write for a while loop: M = INT64_MAX.
np.save(os.path.join(d, "m_max.npy"), np.array(np.iinfo(np.int64).max, np.int64))
onnx.save(model(False), os.path.join(d, "loop.onnx"))
onnx.save(model(True), os.path.join(d, "scan.onnx"))
x0 = np.array([1, 2, 3], np.float32)
np.save(os.path.join(d, "m5.npy"), np.array(5, np.int64))
np.save(os.path.join(d, "m0.npy"), np.array(0, np.int64))
np.save(os.path.join(d, "x0.npy"), x0)
# A conformance case (M = 7): the reference evaluator and the compiled loop against NumPy.
case = os.path.join(d, "case", "test_data_set_0")
os.makedirs(case)
onnx.save(model(False), os.path.join(d, "case", "model.onnx"))
x = x0.copy()
for i in range(7):
    x = x * 2 + i
for k, value in enumerate([np.array(7, np.int64), x0]):
    with open(os.path.join(case, "input_%d.pb" % k), "wb") as f:
        f.write(numpy_helper.from_array(value).SerializeToString())
with open(os.path.join(case, "output_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(x).SerializeToString())
# A while loop without M as a conformance case: doubling [1, 2, 3] until max >= 100.
while_case = os.path.join(d, "while_case", "test_data_set_0")
os.makedirs(while_case)
onnx.save(while_model(False), os.path.join(d, "while_case", "model.onnx"))
with open(os.path.join(while_case, "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(x0).SerializeToString())
with open(os.path.join(while_case, "output_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.array([64, 128, 192], np.float32), "x").SerializeToString())
