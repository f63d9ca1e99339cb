#!/usr/bin/env python3
"""One float32 GEMM (an ONNX MatMul, B an initializer) against the machine's ceilings, in one run.

    scripts/gemm_bench.py [--sizes 1024,2048x512x768] [--threads 1,2] [--rounds 5] [--runs 30]

A size is N (N x N x N) or MxKxN. Each round runs, one after another: the FMA loop of
scripts/fma_peak.c (one copy per thread: the ceiling), tcc with default flags, tcc
--cpu=native, ONNX Runtime (ort-run.js, when onnxruntime-node is installed as for
scripts/bench.py) and OpenBLAS's cblas_sgemm (when libopenblas.so.0 is there: apt
libopenblas0-pthread; the environment's OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are dropped
for it only, as ../shared/bench/README.md says). It prints the median GFLOP/s of the rounds
(2 x M x K x N / time) and each as a share of the FMA loop's, and checks tcc's product
against NumPy's in float64. Not a test: timings drift; compare within one run.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import BIN, ORT_MODULES, ORT_RUN, ROOT, run_json  # noqa: E402 (scripts/bench.py)

# Run in a subprocess without OPENBLAS_*: cblas_sgemm's median time over `runs` calls.
OPENBLAS_TIMER = r"""
import ctypes, json, sys, time
import numpy as np
m, k, n, threads, runs = map(int, sys.argv[1:6])
blas = ctypes.CDLL("libopenblas.so.0")
blas.openblas_set_num_threads(threads)
rng = np.random.default_rng(0)
a = rng.standard_normal((m, k), dtype=np.float32)
b = rng.standard_normal((k, n), dtype=np.float32)
c = np.zeros((m, n), np.float32)
p = lambda x: x.ctypes.data_as(ctypes.c_void_p)
one, zero = ctypes.c_float(1.0), ctypes.c_float(0.0)
def call():  # row-major (101), no transposes (111)
    blas.cblas_sgemm(101, 111, 111, m, n, k, one, p(a), k, p(b), n, zero, p(c), n)
for _ in range(5):
    call()
times = []
for _ in range(runs):
    t = time.perf_counter(); call(); times.append((time.perf_counter() - t) * 1e3)
times.sort()
print(json.dumps({"median_ms": times[len(times) // 2]}))
"""


def parse_size(text):
    parts = [int(p) for p in text.split("x")]
    return parts * 3 if len(parts) == 1 else parts


def make_model(folder, m, k, n):
    """model.onnx (Y = A . B, B a seeded initializer) and a.npy; returns (model, a, b)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["y"], name="gemm")], "gemm",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])],
        [numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = os.path.join(folder, "model.onnx")
    onnx.save(model, path)
    np.save(os.path.join(folder, "a.npy"), a)
    return path, os.path.join(folder, "a.npy"), a, b


def fma_peak(binary, threads):
    """GFLOP/s of `threads` copies of the FMA loop run at once (their sum)."""
    copies = [subprocess.Popen([binary, "100000000"], stdout=subprocess.PIPE, text=True)
              for _ in range(threads)]
    return sum(float(p.communicate()[0].split()[0]) for p in copies)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1024")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=30)
    options = parser.parse_args()
    import numpy as np

    work = tempfile.mkdtemp(prefix="tcc-gemm-")
    peak_binary = os.path.join(work, "fma_peak")
    clang = "/usr/lib/llvm-22/bin/clang"
    subprocess.run([clang if os.path.exists(clang) else "cc", "-O2", "-march=native",
                    os.path.join(ROOT, "scripts", "fma_peak.c"), "-o", peak_binary], check=True)
    ort_env = dict(os.environ, NODE_PATH=ORT_MODULES)
    have_ort = os.path.isdir(os.path.join(ORT_MODULES, "onnxruntime-node"))
    blas_env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")}
    have_blas = subprocess.run([sys.executable, "-c", "import ctypes; ctypes.CDLL('libopenblas.so.0')"],
                               capture_output=True).returncode == 0
    engines = ["FMA loop", "tcc (default flags)", "tcc --cpu=native"]
    engines += ["ONNX Runtime"] if have_ort else []
    engines += ["OpenBLAS sgemm"] if have_blas else []
    print("| size MxKxN | threads | " + " | ".join(engines) + " |")
    print("|---|---|" + "---|" * len(engines))
    for size in options.sizes.split(","):
        m, k, n = parse_size(size)
        folder = os.path.join(work, "%dx%dx%d" % (m, k, n))
        os.makedirs(folder)
        model, a_file, a, b = make_model(folder, m, k, n)
        libraries = {}
        for name, flags in (("default", []), ("native", ["--cpu=native"])):
            libraries[name] = os.path.join(folder, name + ".so")
            subprocess.run([os.path.join(BIN, "tcc"), model, "-o", libraries[name]] + flags, check=True)
            # The product against float64 NumPy: the benchmark times a correct kernel.
            out = os.path.join(folder, "out-" + name)
            subprocess.run([os.path.join(BIN, "tcc-run"), libraries[name], "--input", a_file,
                            "--output-dir", out], check=True, capture_output=True)
            got = np.load(os.path.join(out, "output_0.npy")).astype(np.float64)
            want = a.astype(np.float64) @ b.astype(np.float64)
            error = np.linalg.norm(got - want) / np.linalg.norm(want)
            if not error < 1e-5:
                sys.exit("tcc %s: the product is wrong (rel L2 %.2e)" % (name, error))
        work_flops = 2.0 * m * k * n
        for threads in [int(t) for t in options.threads.split(",")]:
            rates = {e: [] for e in engines}
            for _ in range(options.rounds):
                rates["FMA loop"].append(fma_peak(peak_binary, threads))
                for engine, name in (("tcc (default flags)", "default"), ("tcc --cpu=native", "native")):
                    t = run_json([os.path.join(BIN, "tcc-run"), libraries[name], "--threads",
                                  str(threads), "--benchmark", str(options.runs), "--input", a_file])
                    rates[engine].append(work_flops / (t["median_ms"] * 1e6))
                if have_ort:
                    t = run_json(["node", ORT_RUN, model, "--threads", str(threads), "--runs",
                                  str(options.runs), "--input", a_file], ort_env)
                    rates["ONNX Runtime"].append(work_flops / (t["median_ms"] * 1e6))
                if have_blas:
                    t = run_json([sys.executable, "-c", OPENBLAS_TIMER, str(m), str(k), str(n),
                                  str(threads), str(options.runs)], blas_env)
                    rates["OpenBLAS sgemm"].append(work_flops / (t["median_ms"] * 1e6))
            peak = statistics.median(rates["FMA loop"])
            cells = ["%.1f" % peak] + ["%.1f (%.0f%%)" % (statistics.median(rates[e]),
                                                           100 * statistics.median(rates[e]) / peak)
                                       for e in engines[1:]]
            print("| %dx%dx%d | %d | %s |" % (m, k, n, threads, " | ".join(cells)))
            sys.stdout.flush()
    print("\nGFLOP/s, medians of %d rounds (each tcc/ORT/OpenBLAS round itself a median of %d runs); "
          "%% of the FMA loop's GFLOP/s in the same run." % (options.rounds, options.runs))


if __name__ == "__main__":
    main()
