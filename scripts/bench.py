#!/usr/bin/env python3
"""tcc against ONNX Runtime on the same models and inputs, interleaved, in one run.

    scripts/bench.py [--threads 1,2] [--rounds 3] [--runs 30] [--cpu native|default|NAME]
                     [--flags "--precision=bf16"] [--baseline-flags "--attention=decomposed"]
                     [--rtol 1e-3] [MODEL_DIR ...]

Each MODEL_DIR holds model.onnx and input_<k>_<name>.npy (the corpus layout; default: the
models of ../shared/corpus and test/data/models). For each model tcc compiles a library for
the inputs' sizes (build/bin/tcc, --dim from the input shapes is not needed: symbolic dims
are fine), then for every thread count runs tcc-run --benchmark and ONNX Runtime's
ort-run.js alternately, `rounds` times, and prints the median of the rounds' medians, the
tcc/ORT ratio (below 1: tcc is faster), tcc's GFLOP/s (multiply-adds of the contractions and
convolutions of the decomposed model, x2) and memory (tcc's workspace and peak RSS).
With --flags, tcc's library is compiled with those flags too. With --baseline-flags, a second
library compiled with those tcc flags (not --flags) is timed in the same rounds (column
"base ms", ratio tcc/base): an A/B of one compiler choice beside ORT, e.g. --flags
"--precision=bf16" --baseline-flags "--precision=fp32". The outputs are checked against the
folder's references with --rtol (and an absolute 1e-4; bf16 runs need a looser --rtol: their
relative L2 error is printed either way).
Not a test: timings on shared machines drift; compare within one run.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "bin")
ORT_RUN = os.path.join(ROOT, "..", "shared", "bench", "ort-run.js")
ORT_MODULES = os.path.expanduser("~/.cache/tcc/onnxruntime-node/node_modules")


def dims(text):
    """The extents of a tensor type's text ("2x3xf32"); None if one is dynamic."""
    parts = text.split("x")[:-1]
    return None if "?" in parts else [int(d) for d in parts]


def flops(model, library, inputs):
    """2 x multiply-adds of prim.dot_general / prim.convolution at the inputs' sizes."""
    import numpy as np
    shapes = [np.load(f, mmap_mode="r").shape for f in inputs]
    # The symbols' values: tcc-run --info names the symbol of each input dim.
    info = subprocess.run([os.path.join(BIN, "tcc-run"), library, "--info"], capture_output=True,
                          text=True).stdout
    values = {}
    for index, dims_text in re.findall(r"^input (\d+) '[^']*': \S+ \[([^\]]*)\]", info, re.M):
        for d, name in enumerate(x.strip() for x in dims_text.split(",")):
            if name and not name.isdigit() and int(index) < len(shapes):
                values[name] = shapes[int(index)][d]
    args = []
    for name, value in values.items():
        args += ["--dim", "%s=%d" % (name, value)]
    ir = subprocess.run([os.path.join(BIN, "tcc"), model, "--emit=prim"] + args,
                        capture_output=True, text=True).stdout
    total = 0
    for m in re.finditer(r"prim.dot_general .* contracting = \[([\d, ]*)\] x .*: \(tensor<([^>]*)>, tensor<[^>]*>\) -> tensor<([^>]*)>", ir):
        lhs, out = dims(m.group(2)), dims(m.group(3))
        if lhs is None or out is None:
            return 0
        contracted = 1
        for c in m.group(1).split(","):
            if c.strip():
                contracted *= lhs[int(c)]
        total += 2 * contracted * int(np.prod(out))
    for m in re.finditer(r"prim.convolution .*: \(tensor<[^>]*>, tensor<([^>]*)>\) -> tensor<([^>]*)>", ir):
        w, out = dims(m.group(1)), dims(m.group(2))
        if w is None or out is None:
            return 0
        total += 2 * int(np.prod(out)) * int(np.prod(w[1:]))
    return total


def check_outputs(library, inputs, model_dir, rtol):
    """tcc's outputs against the folder's output_<k>_*.npy: 'PASS (rel L2 <worst>)' or what failed."""
    references = sorted(glob.glob(os.path.join(model_dir, "output_*.npy")),
                        key=lambda f: int(os.path.basename(f).split("_")[1]))
    if not references:
        return "no reference"
    out = subprocess.run([os.path.join(BIN, "tcc-run"), library, "--rtol", rtol, "--atol", "1e-4",
                          "--input"] + inputs + ["--compare"] + references, capture_output=True, text=True)
    errors = [float(e) for e in re.findall(r"rel_l2_error=(\S+)", out.stdout)]
    verdict = "PASS" if out.returncode == 0 and "FAIL" not in out.stdout else "FAIL"
    return "%s (rel L2 %.1e)" % (verdict, max(errors)) if errors else verdict


def run_json(command, env=None):
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(" ".join(command) + ": " + out.stderr.strip()[-400:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--cpu", default="native",
                        help="tcc's --cpu (default native: ONNX Runtime also picks its kernels for "
                        "this CPU); 'default': no --cpu (what a user who types no flag gets)")
    parser.add_argument("--flags", default="", help="extra tcc flags for tcc's library")
    parser.add_argument("--baseline-flags", default="",
                        help="also time a library compiled with these extra tcc flags")
    parser.add_argument("--rtol", default="1e-3",
                        help="relative tolerance of the output check (absolute: 1e-4)")
    options = parser.parse_args()
    models = options.models or sorted(
        [d for d in glob.glob(os.path.join(ROOT, "..", "shared", "corpus", "*")) if os.path.isdir(d)] +
        [d for d in glob.glob(os.path.join(ROOT, "test", "data", "models", "*")) if os.path.isdir(d)])
    env = dict(os.environ, NODE_PATH=ORT_MODULES)
    work = os.path.join(ROOT, "build", "bench")
    os.makedirs(work, exist_ok=True)
    base = options.baseline_flags.split()
    cpu_flags = [] if options.cpu == "default" else ["--cpu", options.cpu]
    print("| model | threads | tcc ms | ORT ms | tcc/ORT | %stcc GFLOP/s | workspace MiB | peak RSS MiB | output vs reference |"
          % ("base ms | tcc/base | " if base else ""))
    print("|---|---|---|---|---|%s---|---|---|---|" % ("---|---|" if base else ""))
    ratios = []
    for model_dir in models:
        name = os.path.basename(os.path.normpath(model_dir))
        model = os.path.join(model_dir, "model.onnx")
        inputs = sorted(glob.glob(os.path.join(model_dir, "input_*.npy")),
                        key=lambda f: int(os.path.basename(f).split("_")[1]))
        library = os.path.join(work, name + ".so")
        compiled = subprocess.run([os.path.join(BIN, "tcc"), model, "-o", library] + cpu_flags +
                                  options.flags.split(),
                                  capture_output=True, text=True)
        if compiled.returncode != 0:
            # A model whose rules need static sizes (e.g. RNNs): fix them from the inputs.
            errors = [l for l in compiled.stderr.splitlines() if ": error: " in l] or [""]
            print("| %s | - | does not compile with symbolic dims: %s |" %
                  (name, errors[0].split(": error: ", 1)[-1][:100]))
            continue
        base_library = os.path.join(work, name + ".base.so")
        if base:
            subprocess.run([os.path.join(BIN, "tcc"), model, "-o", base_library] + cpu_flags + base,
                           check=True, capture_output=True)
        work_flops = flops(model, library, inputs)
        check = check_outputs(library, inputs, model_dir, options.rtol)
        for threads in [int(t) for t in options.threads.split(",")]:
            tcc_times, ort_times, base_times, last = [], [], [], None
            for _ in range(options.rounds):
                last = run_json([os.path.join(BIN, "tcc-run"), library, "--threads", str(threads),
                                 "--benchmark", str(options.runs), "--input"] + inputs)
                tcc_times.append(last["median_ms"])
                if base:
                    base_times.append(run_json(
                        [os.path.join(BIN, "tcc-run"), base_library, "--threads", str(threads),
                         "--benchmark", str(options.runs), "--input"] + inputs)["median_ms"])
                ort = run_json(["node", ORT_RUN, model, "--threads", str(threads), "--runs",
                                str(options.runs)] + sum([["--input", f] for f in inputs], []), env)
                ort_times.append(ort["median_ms"])
            t, o = statistics.median(tcc_times), statistics.median(ort_times)
            ratios.append(t / o)
            b = statistics.median(base_times) if base else 0.0
            print("| %s | %d | %.3f | %.3f | %.2f | %s%.1f | %.1f | %.1f | %s |" % (
                name, threads, t, o, t / o, "%.3f | %.2f | " % (b, t / b) if base else "",
                work_flops / (t * 1e6) if work_flops else 0.0,
                last["workspace_bytes"] / 2**20, last["peak_rss_kib"] / 1024, check))
            sys.stdout.flush()
    if ratios:
        geomean = 1.0
        for r in ratios:
            geomean *= r
        print("\ngeomean tcc/ORT over %d rows: %.2f" % (len(ratios), geomean ** (1.0 / len(ratios))))


if __name__ == "__main__":
    main()
