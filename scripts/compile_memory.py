#!/usr/bin/env python3
"""Measures tcc's peak memory (resident set) compiling a generated model with MEGABYTES of
float32 weights (make_weights_model.py), against the bound the compiler promises:

  peak RSS <= FACTOR x weights + OVERHEAD   (default 1.5 x weights + 200 MiB)

OVERHEAD is what compiling costs whatever the weights: the compiler's own code and data
(about 145 MiB for a tiny model here) and the IR of the generated layers. Also prints the
peak of compiling a tiny model (examples/tiny_mlp) with the same flags, for comparison.
Exit status 1 when the bound is exceeded or a compile fails.

usage: python3 scripts/compile_memory.py TCC MEGABYTES [--external] [--keep DIR]
       [--factor 1.5] [--overhead-mib 200] [-- TCC_FLAGS...]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MIB = 1 << 20


def peak_rss(command):
    """Runs `command`; returns (exit status, its peak resident set in bytes)."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode(errors="replace")
    if process.returncode != 0:
        print(stderr[-2000:], file=sys.stderr)
    return process.returncode, usage.ru_maxrss * 1024  # Linux reports KiB


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tcc")
    parser.add_argument("megabytes", type=float)
    parser.add_argument("--external", action="store_true")
    parser.add_argument("--keep", default="", help="write the model and library here")
    parser.add_argument("--factor", type=float, default=1.5)
    parser.add_argument("--overhead-mib", type=float, default=200)
    parser.add_argument("flags", nargs="*")
    args = parser.parse_args()

    folder = args.keep or tempfile.mkdtemp(prefix="tcc-memory-")
    os.makedirs(folder, exist_ok=True)
    model = os.path.join(folder, "weights_%g.onnx" % args.megabytes)
    generate = [sys.executable, os.path.join(HERE, "make_weights_model.py"),
                str(args.megabytes), model] + (["--external"] if args.external else [])
    subprocess.check_call(generate, stdout=subprocess.DEVNULL)
    weights = os.path.getsize(model + ".data" if args.external else model)
    library = os.path.join(folder, "model.so")
    tiny = os.path.join(HERE, "..", "examples", "tiny_mlp", "model.onnx")
    try:
        status, baseline = peak_rss([args.tcc, tiny, "-o", library] + args.flags)
        if status != 0:
            print("compile-memory: compiling tiny_mlp failed")
            return 1
        status, peak = peak_rss([args.tcc, model, "-o", library] + args.flags)
        if status != 0:
            print("compile-memory: compiling the %g MB model failed" % args.megabytes)
            return 1
        if os.path.getsize(library) < weights:
            print("compile-memory: the library (%d bytes) is smaller than its weights (%d)"
                  % (os.path.getsize(library), weights))
            return 1
    finally:
        if not args.keep:
            for name in os.listdir(folder):
                os.remove(os.path.join(folder, name))
            os.rmdir(folder)
    bound = args.factor * weights + args.overhead_mib * MIB
    print("weights %.1f MiB%s; peak RSS %.1f MiB (tiny model %.1f MiB): %.2f x the weights "
          "above the tiny model; bound %.2f x + %g MiB = %.1f MiB: %s" % (
              weights / MIB, " (external data)" if args.external else "", peak / MIB,
              baseline / MIB, (peak - baseline) / weights, args.factor, args.overhead_mib,
              bound / MIB, "ok" if peak <= bound else "EXCEEDED"))
    return 0 if peak <= bound else 1


if __name__ == "__main__":
    sys.exit(main())
