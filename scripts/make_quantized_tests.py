#!/usr/bin/python3
"""Writes test/data/quantized: conformance cases for integer matrix products of two run-time
tensors (QLinearMatMul and MatMulInteger with constant zero points, as quantized attention
has them: Q K^T and P V), with ONNX Runtime's outputs as the reference.

    /usr/bin/python3 scripts/make_quantized_tests.py [--out DIR]

The inputs' dims are symbolic (dim_param), so tcc compiles them as dynamic (the reduction
dim included); the data sets have reduction extents that are and are not multiples of 4.
Layout and reference as scripts/make_contrib_tests.py (onnxruntime-node under
~/.cache/tcc/onnxruntime-node, through ../shared/bench/ort-run.js).
"""
import argparse
import os
import shutil
import sys
import tempfile

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_contrib_tests import ROOT, elem_type, run_ort  # noqa: E402

RNG = np.random.default_rng(20261207)


def bytes_of(dtype, *shape):
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max + 1, size=shape).astype(dtype)


def write_case(root, name, op, inputs, a, b, constants, a_dims, b_dims, output_type):
    """One `op` node with input names `inputs`: run-time "A" and "B" (dims named by a_dims
    and b_dims) and the initializers `constants` (name: array)."""
    node = helper.make_node(op, inputs, ["Y"], name=name)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("A", elem_type(a), a_dims),
         helper.make_tensor_value_info("B", elem_type(b), b_dims)],
        [helper.make_tensor_value_info("Y", output_type, None)],
        [onnx.numpy_helper.from_array(array, n) for n, array in constants.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    folder = os.path.join(root, name)
    os.makedirs(folder)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    paths = [os.path.join(folder, "input_0_A.npy"), os.path.join(folder, "input_1_B.npy")]
    np.save(paths[0], a)
    np.save(paths[1], b)
    with tempfile.TemporaryDirectory() as scratch:
        (result,) = run_ort(os.path.join(folder, "model.onnx"), paths, scratch)
    np.save(os.path.join(folder, "output_0_Y.npy"), result)


def qlinear(root, name, a, b, a_zero, b_zero, y_zero, a_dims, b_dims):
    # Scales that are powers of two: the requantization's products are exact, so no
    # rounding tie depends on how an implementation orders them.
    f = lambda v: np.array(v, np.float32)
    constants = {"a_scale": f(0.5), "a_zero_point": a_zero, "b_scale": f(0.25),
                 "b_zero_point": b_zero, "y_scale": f(64.0), "y_zero_point": y_zero}
    inputs = ["A", "a_scale", "a_zero_point", "B", "b_scale", "b_zero_point", "y_scale",
              "y_zero_point"]
    write_case(root, name, "QLinearMatMul", inputs, a, b, constants, a_dims, b_dims,
               elem_type(y_zero))


def matmul_integer(root, name, a, b, a_zero, b_zero, a_dims, b_dims):
    write_case(root, name, "MatMulInteger", ["A", "B", "a_zero_point", "b_zero_point"], a, b,
               {"a_zero_point": a_zero, "b_zero_point": b_zero}, a_dims, b_dims,
               TensorProto.INT32)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "test", "data", "quantized"))
    out = parser.parse_args().out
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    u8, i8 = np.uint8, np.int8
    batch = ["batch", "heads", "rows", "depth"]
    # Attention's P V: softmax bytes without a zero point, values with one; a reduction of
    # 13 (not a multiple of 4).
    qlinear(out, "qlinearmatmul_u8_u8_pv", bytes_of(u8, 2, 3, 5, 13), bytes_of(u8, 2, 3, 13, 8),
            np.array(0, u8), np.array(130, u8), np.array(128, u8),
            batch, ["batch", "heads", "depth", "cols"])
    # Q K^T: both with zero points; a reduction of 16.
    qlinear(out, "qlinearmatmul_u8_u8_qk", bytes_of(u8, 2, 4, 6, 16), bytes_of(u8, 2, 4, 16, 7),
            np.array(123, u8), np.array(125, u8), np.array(100, u8),
            batch, ["batch", "heads", "depth", "cols"])
    # Signed bytes on both sides (read as uint8 by flipping their sign bits); 2-D, 10.
    qlinear(out, "qlinearmatmul_s8_s8", bytes_of(i8, 9, 10), bytes_of(i8, 10, 17),
            np.array(-5, i8), np.array(0, i8), np.array(3, i8),
            ["rows", "depth"], ["depth", "cols"])
    # The same with the zero point on B: B is then the side read as uint8 (fewer
    # corrections). (ONNX Runtime has no QLinearMatMul of int8 and uint8 operands.)
    qlinear(out, "qlinearmatmul_s8_s8_swap", bytes_of(i8, 3, 7, 21), bytes_of(i8, 3, 21, 5),
            np.array(0, i8), np.array(-5, i8), np.array(-2, i8),
            ["batch", "rows", "depth"], ["batch", "depth", "cols"])
    # MatMulInteger (int32 out) with zero points, reductions of 1 and 33.
    matmul_integer(out, "matmulinteger_u8_u8", bytes_of(u8, 4, 1), bytes_of(u8, 1, 6),
                   np.array(12, u8), np.array(200, u8), ["rows", "depth"], ["depth", "cols"])
    matmul_integer(out, "matmulinteger_u8_s8", bytes_of(u8, 2, 5, 33), bytes_of(i8, 2, 33, 9),
                   np.array(255, u8), np.array(-128, i8),
                   ["batch", "rows", "depth"], ["batch", "depth", "cols"])
    print("wrote", out)


if __name__ == "__main__":
    main()
