"""Runs ONNX node test cases compiled for the GPU (tcc-conformance --export) on the GPU
machine and checks them as tcc-conformance does: |actual - expected| <= atol + rtol *
|expected| for floats (NaN equals NaN, infinities must match), exact for the rest.

usage: python3 run_conformance.py EXPORT_DIR [--rtol 1e-3] [--atol 1e-7] [--out FILE] [--host]
Prints one line per failing case and the summary "N of M cases pass on the GPU". --host passes
CPU tensors (the runtime stages them; Vulkan models, whose memory torch cannot hold).
"""
import argparse
import glob
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402


def compare(actual, expected, rtol, atol):
    if actual.shape != expected.shape:
        return "shape %s, expected %s" % (actual.shape, expected.shape)
    if expected.dtype.kind == "f":
        a, e = actual.astype(np.float64), expected.astype(np.float64)
        same = (a == e) | (np.isnan(a) & np.isnan(e))
        close = np.abs(a - e) <= atol + rtol * np.abs(e)
        bad = ~(same | close)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            return "element %d is %r, expected %r" % (k, a.ravel()[k], e.ravel()[k])
        return ""
    if not np.array_equal(actual, expected):
        k = int(np.flatnonzero(actual.ravel() != expected.ravel())[0])
        return "element %d is %r, expected %r" % (k, actual.ravel()[k], expected.ravel()[k])
    return ""


def to_torch(array, bfloat16=False):
    # A copy keeps 0-d arrays 0-d (np.ascontiguousarray would make them 1-d).
    tensor = torch.from_numpy(np.array(array, copy=True, order="C"))
    # libonnx stores bfloat16 data as uint16 (as tcc-conformance reads it: compare the bits).
    return tensor.view(torch.bfloat16) if bfloat16 and tensor.dtype == torch.uint16 else tensor


def run_library(rt, folder, rtol, atol, bfloat16=False, device="cuda"):
    session = tcc_runtime.Session(rt, os.path.join(folder, "model.so"))
    try:
        sets = sorted({os.path.basename(p).split("_input_")[0].split("_expected_")[0]
                       for p in glob.glob(os.path.join(folder, "*.npy"))})
        for name in sets:
            inputs = [np.load(p) for p in sorted(glob.glob(os.path.join(folder, name + "_input_*.npy")),
                                                key=lambda p: int(p.rsplit("_", 1)[1][:-4]))]
            expected = [np.load(p) for p in sorted(glob.glob(os.path.join(folder, name + "_expected_*.npy")),
                                                  key=lambda p: int(p.rsplit("_", 1)[1][:-4]))]
            device_inputs = [to_torch(x, bfloat16).to(device) for x in inputs]
            # The model's shapes: a data-dependent dim (NonZero...) is passed with its
            # capacity and comes back compact in the extent the data gave.
            shapes = session.output_shapes(device_inputs)
            outputs = [to_torch(np.empty(s, dtype=e.dtype), bfloat16).to(device)
                       for s, e in zip(shapes, expected)]
            session.prepare(device_inputs, outputs)
            session.run()
            actual = session.actual_shapes()
            for k, (o, e) in enumerate(zip(outputs, expected)):
                o = o.cpu().flatten()[:int(np.prod(actual[k]))].reshape(actual[k])
                if o.dtype == torch.bfloat16:
                    o = o.view(torch.uint16)
                diff = compare(o.numpy(), e, rtol, atol)
                if diff:
                    return "%s output %d: %s" % (name, k, diff)
        return ""
    finally:
        session.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("export")
    parser.add_argument("--runtime", required=True, help="libtcc_runtime.so")
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--atol", type=float, default=1e-7)
    parser.add_argument("--compile-log", default="", help="tcc-conformance's output (export)")
    parser.add_argument("--out", default="")
    parser.add_argument("--host", action="store_true", help="CPU tensors, staged by the runtime")
    parser.add_argument("--cases", default="",
                        help="run only these cases (comma-separated names), for bisecting")
    args = parser.parse_args()
    only = set(filter(None, args.cases.split(",")))
    device = "cpu" if args.host else "cuda"
    rt = tcc_runtime.Runtime(args.runtime)
    results = {}
    # Cases that did not compile for the GPU count as failures.
    if args.compile_log:
        for line in open(args.compile_log):
            if line.startswith("FAIL "):
                name, _, reason = line[5:].partition(": ")
                results[name] = "compile: " + reason.strip()[:200]
    for case in sorted(os.listdir(args.export)):
        if only and case not in only:
            continue
        folders = sorted(glob.glob(os.path.join(args.export, case, "*")))
        reason = ""
        for folder in folders:
            try:
                reason = run_library(rt, folder, args.rtol, args.atol, device=device)
            except Exception as error:  # a runtime status or a numpy/torch dtype problem
                reason = "run: " + str(error)[:200]
                if "expected bfloat16" in reason:
                    try:
                        reason = run_library(rt, folder, args.rtol, args.atol, bfloat16=True,
                                             device=device)
                    except Exception as again:
                        reason = "run: " + str(again)[:200]
            if reason:
                break
        if not folders:  # every compile of the case failed: keep the compiler's reason
            results.setdefault(case, "no library")
            continue
        results[case] = reason
    failed = {k: v for k, v in results.items() if v}
    for name, reason in sorted(failed.items()):
        print("FAIL %s: %s" % (name, reason))
    print("%d of %d cases pass on the GPU" % (len(results) - len(failed), len(results)))
    if args.out:
        with open(args.out, "w") as f:
            for name, reason in sorted(results.items()):
                f.write("%s\t%s\n" % (name, reason or "pass"))


if __name__ == "__main__":
    main()
