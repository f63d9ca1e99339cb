#!/usr/bin/env python3
"""Runs ONNX node cases compiled for AArch64 under qemu-aarch64 and checks them.

The cases come from `tcc-conformance --mode compiled --target cpu:aarch64-linux --export DIR`
(DIR/<case>/<k>/model.so with <set>_input_<i>.npy and <set>_expected_<o>.npy); each data set
runs through the cross-built tcc-run (build/aarch64/bin/tcc-run) under qemu-aarch64, which
compares every output as tcc-conformance does: |actual - expected| <= atol + rtol |expected|
for floats (NaN equal to NaN), exact for the rest.

usage: run_conformance.py DIR [--jobs N] [--rtol 1e-3] [--atol 1e-7] [--tcc-run PATH]
                              [--qemu PATH] [--qemu-cpu CPU] [--sysroot /usr/aarch64-linux-gnu]
(--qemu-cpu max,sve-default-vector-length=32: 256-bit SVE, for libraries compiled with
tcc-conformance --cpu neoverse-v1.)
Prints each failing case and "N of M cases pass under qemu-aarch64"; exits 1 if any fails.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def numbered(folder, prefix, kind):
    """The files <prefix>_<kind>_<i>.npy of `folder`, by i."""
    pattern = re.compile(re.escape(prefix) + "_" + kind + r"_(\d+)\.npy$")
    found = [(int(m.group(1)), name) for name in os.listdir(folder)
             for m in [pattern.match(name)] if m]
    return [os.path.join(folder, name) for _, name in sorted(found)]


def run_case(case_dir, args):
    """None when every data set of every library of the case passes, else why not."""
    libraries = sorted(d for d in os.listdir(case_dir)
                       if os.path.isfile(os.path.join(case_dir, d, "model.so")))
    if not libraries:
        return "no library"
    for library in libraries:
        folder = os.path.join(case_dir, library)
        sets = sorted({m.group(1) for name in os.listdir(folder)
                       for m in [re.match(r"(.*)_expected_\d+\.npy$", name)] if m})
        if not sets:
            return "%s: no data set" % library
        for data_set in sets:
            command = [args.qemu] + (["-cpu", args.qemu_cpu] if args.qemu_cpu else []) + \
                ["-L", args.sysroot, args.tcc_run,
                       os.path.join(folder, "model.so"), "--rtol", str(args.rtol),
                       "--atol", str(args.atol), "--threads", "1"]
            for path in numbered(folder, data_set, "input"):
                command += ["--input", path]
            for path in numbered(folder, data_set, "expected"):
                command += ["--compare", path]
            try:
                result = subprocess.run(command, capture_output=True, text=True,
                                        timeout=args.timeout)
            except subprocess.TimeoutExpired:
                return "%s/%s: timed out after %d s" % (library, data_set, args.timeout)
            if result.returncode != 0:
                lines = [line for line in (result.stdout + result.stderr).splitlines()
                         if "PASS" not in line]
                return "%s/%s: %s" % (library, data_set, " | ".join(lines)[:300])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--rtol", type=float, default=1e-3)
    parser.add_argument("--atol", type=float, default=1e-7)
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--tcc-run", default=os.path.join(ROOT, "build", "aarch64", "bin",
                                                          "tcc-run"))
    parser.add_argument("--qemu", default="qemu-aarch64")
    parser.add_argument("--qemu-cpu", default="", help="qemu's -cpu (e.g. SVE's vector length)")
    parser.add_argument("--sysroot", default="/usr/aarch64-linux-gnu")
    args = parser.parse_args()
    cases = sorted(d for d in os.listdir(args.dir) if os.path.isdir(os.path.join(args.dir, d)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda c: run_case(os.path.join(args.dir, c), args), cases))
    failed = 0
    for case, why in zip(cases, results):
        if why:
            failed += 1
            print("FAIL %s: %s" % (case, why))
    print("%d of %d cases pass under qemu-aarch64" % (len(cases) - failed, len(cases)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
