#!/usr/bin/env python3
"""Whole-model gradients of `tcc --grad` against torch autograd.

For each case of test/data/grad (scripts/make_grad_tests.py: model.onnx, input_<k>.npy,
loss.npy, grad.<initializer>.npy, case.json), compiles
`tcc model.onnx --grad --wrt params --loss <loss>`, runs the library with tcc-run on the
inputs and compares the loss and every gradient with torch's: the error of an output is
max |tcc - torch| / max |torch|, and a case fails when any output's error exceeds the
tolerance (1e-4, float32). Prints the compile time and the largest error per case.

    run.py BIN_DIR DATA_DIR WORK_DIR [--tolerance T] [CASE...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def relative_error(actual, expected):
    scale = float(np.max(np.abs(expected))) if expected.size else 0.0
    diff = float(np.max(np.abs(actual.astype(np.float64) - expected))) if expected.size else 0.0
    return diff / scale if scale > 0 else diff


def check_case(args, case_dir, work):
    name = os.path.basename(case_dir)
    with open(os.path.join(case_dir, "case.json")) as f:
        case = json.load(f)
    library = os.path.join(work, name + ".so")
    start = time.monotonic()
    compiled = run([os.path.join(args.bin, "tcc"), os.path.join(case_dir, "model.onnx"),
                    "--grad", "--wrt", "params", "--loss", case["loss"], "-o", library])
    seconds = time.monotonic() - start
    if compiled.returncode != 0:
        print(f"{name}: FAIL: tcc --grad failed after {seconds:.2f} s:\n{compiled.stdout.rstrip()}")
        return False
    print(f"{name}: compiled with --grad in {seconds:.2f} s")

    # The library's outputs, by name: the loss, then grad.<initializer> for each one.
    info = run([os.path.join(args.bin, "tcc-run"), library, "--info"])
    if info.returncode != 0:
        print(f"{name}: FAIL: tcc-run --info:\n{info.stdout.rstrip()}")
        return False
    outputs = re.findall(r"^output (\d+) '([^']*)'", info.stdout, re.M)
    index = {out: int(k) for k, out in outputs}
    expected = {case["loss"]: "loss.npy"}
    expected.update({"grad." + g: f"grad.{g}.npy" for g in case["gradients"]})
    missing = sorted(set(expected) - set(index))
    extra = sorted(set(index) - set(expected))
    if missing or extra:
        print(f"{name}: FAIL: outputs differ from the reference: missing {missing}, unexpected {extra}")
        return False

    out_dir = os.path.join(work, name + "-outputs")
    os.makedirs(out_dir, exist_ok=True)
    inputs = [os.path.join(case_dir, f"input_{k}.npy") for k in range(len(case["inputs"]))]
    ran = run([os.path.join(args.bin, "tcc-run"), library, "--threads", "2", "--input", *inputs,
               "--output-dir", out_dir])
    if ran.returncode != 0:
        print(f"{name}: FAIL: tcc-run:\n{ran.stdout.rstrip()}")
        return False

    worst, worst_name, ok = 0.0, "", True
    for out, ref_file in expected.items():
        actual = np.load(os.path.join(out_dir, f"output_{index[out]}.npy"))
        reference = np.load(os.path.join(case_dir, ref_file))
        if actual.shape != reference.shape:
            print(f"{name}: FAIL: {out} has shape {actual.shape}, torch's {reference.shape}")
            ok = False
            continue
        error = relative_error(actual, reference)
        if args.verbose:
            print(f"  {out}: {error:.3g}")
        if not error <= args.tolerance:
            print(f"{name}: FAIL: {out}: max |tcc - torch| / max |torch| = {error:.3g} "
                  f"> {args.tolerance:g}")
            ok = False
        if not error <= worst:
            worst, worst_name = error, out
    print(f"{name}: {'ok' if ok else 'FAIL'}: loss and {len(case['gradients'])} gradients, "
          f"max relative error {worst:.3g} ({worst_name})")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bin", help="the folder holding tcc and tcc-run")
    parser.add_argument("data", help="test/data/grad")
    parser.add_argument("work", help="a scratch folder (emptied of this script's outputs)")
    parser.add_argument("cases", nargs="*", help="case names (default: every case of DATA)")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("-v", "--verbose", action="store_true", help="print every output's error")
    args = parser.parse_args()
    cases = args.cases or sorted(d for d in os.listdir(args.data)
                                 if os.path.isfile(os.path.join(args.data, d, "case.json")))
    if not cases:
        sys.exit(f"run.py: no cases in {args.data}")
    os.makedirs(args.work, exist_ok=True)
    failed = [c for c in cases if not check_case(args, os.path.join(args.data, c), args.work)]
    print(f"grad-models: {len(cases) - len(failed)} of {len(cases)} models match torch"
          + (f"; failed: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
