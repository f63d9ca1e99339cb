#!/usr/bin/env python3
"""Accuracy of the compiled math (no libm: polynomial and rational approximations).

Builds one ONNX model whose outputs are Exp, Log, Tanh, Erf, Sigmoid, Softplus, Gelu (erf
form) and Sqrt of float32 sweeps (dense grids over each function's useful range, plus
special values), compiles it with tcc for each CPU target given (x86-64-v3 with 256-bit
vectors; the default library, whose x86-64-v4 level runs 512-bit vectors where the host has
AVX-512; `native`: the host's CPU),
runs it with tcc-run and compares every output with float64 NumPy references.

Error of one value: |tcc - ref| / max(ulp(ref), unit): units in the last place of the
float32 reference (ulp = spacing at |ref|), except that a function's `unit` sets the smallest
step counted, so results near a zero of the function or in float32's subnormal range are
judged by their absolute error (tanh and erf near 0 and GELU's left tail, where 1 + erf(x)
cancels, in steps of 2^-24; sigmoid below 1e-38). A function fails when its worst error
exceeds its bound (the table in sweeps(); docs/design-differences.md, "Math", lists the same) or
when a special value is wrong: NaN must stay NaN, infinities and signed zeros must be exact,
other special values are held to the same bound.

    run.py BIN_DIR WORK_DIR [--cpu x86-64-v3,default,native]
"""
import argparse
import math
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

N = 1 << 16

# name: (ONNX op, attributes, inputs, float64 reference, bound in ulp, smallest unit)
def sweeps():
    f = np.float32
    grid = lambda lo, hi: np.linspace(lo, hi, N).astype(f)
    logs = lambda lo, hi: np.geomspace(lo, hi, N).astype(f)
    erf = np.vectorize(math.erf)
    step = 2.0 ** -24
    return {
        "exp": ("Exp", {}, grid(-87.0, 88.0), np.exp, 2, 0.0),
        "log": ("Log", {}, logs(1e-30, 1e30), np.log, 2, 0.0),
        "tanh": ("Tanh", {}, grid(-12.0, 12.0), np.tanh, 3, step),
        "erf": ("Erf", {}, grid(-6.0, 6.0), erf, 5, step),
        "sigmoid": ("Sigmoid", {}, grid(-100.0, 40.0),
                    lambda x: 1.0 / (1.0 + np.exp(-x)), 4, 1e-38),
        "softplus": ("Softplus", {}, grid(-80.0, 80.0),
                     lambda x: np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0), 3, 0.0),
        "gelu": ("Gelu", {}, grid(-10.0, 10.0),
                 lambda x: 0.5 * x * (1.0 + erf(x / math.sqrt(2.0))), 8, step),
        "sqrt": ("Sqrt", {}, logs(1e-30, 1e30), np.sqrt, 0.5, 0.0),
    }

# Special values every function must get exactly (NaN compares as NaN).
SPECIAL = {
    "exp": [(np.inf, np.inf), (-np.inf, 0.0), (np.nan, np.nan), (0.0, 1.0), (-100.0, 0.0)],
    "log": [(np.inf, np.inf), (0.0, -np.inf), (-1.0, np.nan), (np.nan, np.nan), (1.0, 0.0)],
    "tanh": [(np.inf, 1.0), (-np.inf, -1.0), (np.nan, np.nan), (0.0, 0.0), (-0.0, -0.0)],
    "erf": [(np.inf, 1.0), (-np.inf, -1.0), (np.nan, np.nan), (0.0, 0.0), (-0.0, -0.0)],
    "sigmoid": [(np.inf, 1.0), (-np.inf, 0.0), (np.nan, np.nan), (0.0, 0.5)],
    "softplus": [(np.nan, np.nan), (0.0, math.log(2.0))],
    "gelu": [(np.nan, np.nan), (0.0, 0.0)],
    "sqrt": [(np.inf, np.inf), (0.0, 0.0), (-1.0, np.nan), (np.nan, np.nan)],
}


def build_model(cases, path):
    inputs, outputs, nodes = [], [], []
    for name, (op, attrs, x, _, _, _) in cases.items():
        size = len(x) + len(SPECIAL[name])
        inputs.append(helper.make_tensor_value_info("x_" + name, TensorProto.FLOAT, [size]))
        outputs.append(helper.make_tensor_value_info("y_" + name, TensorProto.FLOAT, [size]))
        nodes.append(helper.make_node(op, ["x_" + name], ["y_" + name], name=name, **attrs))
    graph = helper.make_graph(nodes, "math", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    onnx.save(model, path)


def ulp_errors(actual, reference, unit):
    """|actual - reference| / max(ulp(reference as float32), unit); equal infinities are 0."""
    reference = np.asarray(reference, dtype=np.float64)
    actual = np.asarray(actual, dtype=np.float64)
    spacing = np.spacing(np.abs(reference.astype(np.float32))).astype(np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.where(actual == reference, 0.0, np.abs(actual - reference))
    return diff / np.maximum(spacing, unit)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bin")
    parser.add_argument("work")
    parser.add_argument("--cpu", default="x86-64-v3,default,native")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    cases = sweeps()
    model = os.path.join(args.work, "math.onnx")
    build_model(cases, model)
    feeds = []
    for name, (_, _, x, _, _, _) in cases.items():
        values = np.concatenate([x, np.array([s for s, _ in SPECIAL[name]], dtype=np.float32)])
        path = os.path.join(args.work, "x_%s.npy" % name)
        np.save(path, values)
        feeds.append(path)

    failed = []
    for cpu in args.cpu.split(","):
        library = os.path.join(args.work, "math-%s.so" % cpu)
        command = [os.path.join(args.bin, "tcc"), model, "-o", library]
        if cpu != "default":
            command += ["--cpu", cpu]
        compiled = subprocess.run(command, capture_output=True, text=True)
        if compiled.returncode != 0:
            print("FAIL: tcc --cpu %s: %s" % (cpu, compiled.stderr.strip()))
            failed.append(cpu)
            continue
        out = os.path.join(args.work, "out-" + cpu)
        ran = subprocess.run([os.path.join(args.bin, "tcc-run"), library, "--input", *feeds,
                              "--output-dir", out], capture_output=True, text=True)
        if ran.returncode != 0:
            print("FAIL: tcc-run (%s): %s" % (cpu, ran.stdout + ran.stderr))
            failed.append(cpu)
            continue
        for k, (name, (_, _, x, reference, bound, unit)) in enumerate(cases.items()):
            y = np.load(os.path.join(out, "output_%d.npy" % k))
            swept, special = y[:len(x)], y[len(x):]
            errors = ulp_errors(swept, reference(x.astype(np.float64)), unit)
            worst = int(np.argmax(errors))
            ok = errors[worst] <= bound

            def special_ok(expected, got):
                if np.isnan(expected) or np.isnan(got):
                    return bool(np.isnan(expected) and np.isnan(got))
                if np.isinf(expected) or np.isinf(got):
                    return bool(expected == got)
                if expected == 0.0 and got == 0.0:  # signed zeros must keep their sign
                    return bool(np.signbit(expected) == np.signbit(got))
                return float(ulp_errors(got, expected, unit)) <= bound

            wrong = [(s, e, float(v)) for (s, e), v in zip(SPECIAL[name], special)
                     if not special_ok(e, float(v))]
            status = "ok" if ok and not wrong else "FAIL"
            print("%-8s %-9s max %.2f ulp (bound %g) at x = %.8g: %.9g vs %.9g%s" % (
                cpu, name, errors[worst], bound, x[worst], swept[worst],
                reference(np.float64(x[worst])),
                "" if not wrong else "; special values wrong (x, expected, got): %s" % wrong))
            if status != "ok":
                failed.append("%s/%s" % (cpu, name))
    if failed:
        print("math accuracy: FAILED: " + ", ".join(failed))
        return 1
    print("math accuracy: every function within its bound on " + args.cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())
