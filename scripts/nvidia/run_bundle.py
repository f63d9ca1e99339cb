"""Runs a bundle made by scripts/nvidia/bundle.sh on the GPU machine and prints one table.

For each model of manifest.json: the outputs of tcc's library on the GPU against the
references (relative L2 error, inputs and outputs as CUDA tensors handed over without
copies, and once as host tensors that the runtime stages), the latency of a run (median of
warm runs, CUDA tensors, wall clock around tcc_session_run, which returns when the GPU is
done), and, where the bundle has the model's torch definition, torch eager and
torch.compile on the same inputs in the same process.

usage: python3 run_bundle.py BUNDLE_DIR [--runs N] [--out RESULTS.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402


def unpack(bundle):
    """Unpacks models.tar.xz (bundle.sh packs the libraries) unless models/ is there."""
    packed = os.path.join(bundle, "models.tar.xz")
    if not os.path.isdir(os.path.join(bundle, "models")) and os.path.exists(packed):
        import tarfile
        with tarfile.open(packed) as archive:
            archive.extractall(bundle)


def rel_l2(actual, expected):
    a = np.asarray(actual, dtype=np.float64).ravel()
    e = np.asarray(expected, dtype=np.float64).ravel()
    if a.shape != e.shape:
        return float("inf")
    denominator = np.linalg.norm(e)
    return float(np.linalg.norm(a - e) / (denominator if denominator > 0 else 1.0))


def timed(function, runs, warmup=10):
    for _ in range(warmup):
        function()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def run_model(rt, bundle, entry, runs):
    row = {"model": entry["name"], "precision": entry.get("precision", "fp32")}
    folder = os.path.join(bundle, entry["dir"])
    inputs = [np.load(os.path.join(folder, f)) for f in entry["inputs"]]
    refs = [np.load(os.path.join(folder, f)) for f in entry["refs"]]
    session = tcc_runtime.Session(rt, os.path.join(folder, entry["so"]))
    try:
        device_inputs = [torch.from_numpy(np.array(x, copy=True, order="C")).cuda()
                         for x in inputs]
        device_outputs = [torch.empty(r.shape, dtype=torch.from_numpy(r).dtype, device="cuda")
                          for r in refs]
        session.prepare(device_inputs, device_outputs)
        session.run()
        torch.cuda.synchronize()
        errors = [rel_l2(o.cpu().numpy(), r) for o, r in zip(device_outputs, refs)]
        row["rel_l2"] = max(errors)
        # The runtime stages host tensors itself.
        host_inputs = [torch.from_numpy(np.array(x, copy=True, order="C")) for x in inputs]
        host_outputs = [torch.empty(r.shape, dtype=torch.from_numpy(r).dtype) for r in refs]
        session.prepare(host_inputs, host_outputs)
        session.run()
        row["rel_l2_host"] = max(rel_l2(o.numpy(), r) for o, r in zip(host_outputs, refs))
        session.prepare(device_inputs, device_outputs)
        row["tcc_ms"] = timed(session.run, runs)
        # ... and run again after the timed runs (CUDA graph replays): still the reference's.
        session.run()
        torch.cuda.synchronize()
        row["rel_l2_replayed"] = max(rel_l2(o.cpu().numpy(), r) for o, r in zip(device_outputs, refs))
    except RuntimeError as error:
        row["error"] = str(error)[:300]
    finally:
        session.close()
    return row


def run_torch_comparison(rt, bundle, entry, batches, runs, compile_torch, mode="default"):
    """tcc against torch eager and torch.compile (`mode`: default or max-autotune) on the model's torch
    definition (torch_models.py: the same weights as the export), random inputs of each
    batch size, fp32 with TF32 off. Also the largest relative difference between tcc's and
    torch's outputs on the GPU."""
    import torch_models
    model, make_inputs = torch_models.build(entry["torch"])
    model = model.cuda()
    compiled = None
    rows = []
    path = os.path.join(bundle, entry["dir"], entry["so"])
    session = tcc_runtime.Session(rt, path)
    # A second session without CUDA graphs (read when a session is created), to show what
    # replaying the run as a graph saves.
    os.environ["TCC_CUDA_GRAPHS"] = "0"
    plain = tcc_runtime.Session(rt, path)
    del os.environ["TCC_CUDA_GRAPHS"]
    try:
        for batch in batches:
            row = {"model": entry["name"], "batch": batch}
            (x,) = make_inputs(batch)
            x = x.cuda()
            # A model compiled with --precision=bf16 (fp16) is compared with torch under bf16
            # (fp16) autocast (matmuls in the low precision, fp32 where autocast keeps it),
            # fp32 ones in fp32.
            low = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(entry.get("precision"))
            autocast = torch.autocast("cuda", dtype=low or torch.bfloat16, enabled=low is not None)
            with torch.no_grad(), autocast:
                expected = model(x).float()
                row["eager_ms"] = timed(lambda: model(x), runs)
                if compile_torch:
                    if compiled is None:
                        compiled = torch.compile(model, mode=mode)
                    start = time.perf_counter()
                    compiled(x)
                    torch.cuda.synchronize()
                    row["compile_s"] = time.perf_counter() - start
                    row["compiled_ms"] = timed(lambda: compiled(x), runs)
            y = torch.empty_like(expected)
            session.prepare([x.contiguous()], [y])
            try:
                session.run()
                torch.cuda.synchronize()
                row["rel_l2_vs_torch"] = rel_l2(y.cpu().numpy(), expected.cpu().numpy())
                row["tcc_ms"] = timed(session.run, runs)
                plain.prepare([x.contiguous()], [y])
                row["tcc_no_graphs_ms"] = timed(plain.run, runs)
            except RuntimeError as error:
                row["error"] = str(error)[:300]
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        session.close()
        plain.close()
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--out", default="")
    parser.add_argument("--batches", default="1,32")
    parser.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    parser.add_argument("--torch-mode", default="default", choices=["default", "max-autotune"],
                        help="torch.compile's mode (max-autotune: 1-3 minutes of compiling a "
                             "model and batch size)")
    parser.add_argument("--models", default="", help="only these manifest entries (a,b,...)")
    args = parser.parse_args()
    bundle = os.path.abspath(args.bundle)
    unpack(bundle)
    with open(os.path.join(bundle, "manifest.json")) as f:
        manifest = json.load(f)
    print("GPU: %s, torch %s" % (torch.cuda.get_device_name(0), torch.__version__), flush=True)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    rt = tcc_runtime.Runtime(os.path.join(bundle, "lib", "libtcc_runtime.so"))
    rows = []
    if args.models:
        wanted = args.models.split(",")
        manifest["models"] = [e for e in manifest["models"] if e["name"] in wanted]
    for entry in manifest["models"]:
        row = run_model(rt, bundle, entry, args.runs)
        # The command-line runner too (host tensors, its own comparison).
        folder = os.path.join(bundle, entry["dir"])
        command = [os.path.join(bundle, "bin", "tcc-run"), os.path.join(folder, entry["so"]),
                   "--device", "cuda"]
        for f in entry["inputs"]:
            command += ["--input", os.path.join(folder, f)]
        for f in entry["refs"]:
            command += ["--compare", os.path.join(folder, f)]
        if entry.get("precision", "fp32") != "fp32":
            # Compared with fp32 references: bf16 inputs round at 2^-9 relative.
            command += ["--rtol", "5e-2", "--atol", "5e-2"]
        result = subprocess.run(command, capture_output=True, text=True)
        row["tcc_run"] = "ok" if result.returncode == 0 else \
            ("rc=%d %s" % (result.returncode, (result.stdout + result.stderr)[-200:]))
        rows.append(row)
        print(json.dumps(row), flush=True)
    print()
    print("| model | precision | rel L2 (device tensors) | rel L2 (host, staged) | rel L2 "
          "(after replays) | tcc ms (reference input) | tcc-run | compile s (tcc, 2 cores) |")
    print("|---|---|---|---|---|---|---|---|")
    compile_s = {e["name"]: e.get("compile_s") for e in manifest["models"]}
    for r in rows:
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["model"], r["precision"],
            "%.2e" % r["rel_l2"] if "rel_l2" in r else r.get("error", "-"),
            "%.2e" % r["rel_l2_host"] if "rel_l2_host" in r else "-",
            "%.2e" % r["rel_l2_replayed"] if "rel_l2_replayed" in r else "-",
            "%.3f" % r["tcc_ms"] if "tcc_ms" in r else "-", r["tcc_run"],
            compile_s.get(r["model"])))
    speed = []
    batches = [int(b) for b in args.batches.split(",")]
    for entry in manifest["models"]:
        if entry.get("torch"):
            speed += run_torch_comparison(rt, bundle, entry, batches, args.runs,
                                          not args.no_compile, args.torch_mode)
    if speed:
        print()
        print("torch.compile mode: %s" % args.torch_mode)
        print("| model | batch | tcc ms | tcc ms, no CUDA graphs | torch eager ms | "
              "torch.compile ms | tcc / compile | torch compile s | rel L2 tcc vs torch |")
        print("|---|---|---|---|---|---|---|---|---|")
        ratios = []
        for r in speed:
            ratio = r["tcc_ms"] / r["compiled_ms"] if "tcc_ms" in r and "compiled_ms" in r else None
            if ratio:
                ratios.append(ratio)
            print("| %s | %d | %s | %s | %.3f | %s | %s | %s | %s |" % (
                r["model"], r["batch"], "%.3f" % r["tcc_ms"] if "tcc_ms" in r else r.get("error"),
                "%.3f" % r["tcc_no_graphs_ms"] if "tcc_no_graphs_ms" in r else "-",
                r["eager_ms"], "%.3f" % r["compiled_ms"] if "compiled_ms" in r else "-",
                "%.2f" % ratio if ratio else "-",
                "%.1f" % r["compile_s"] if "compile_s" in r else "-",
                "%.2e" % r["rel_l2_vs_torch"] if "rel_l2_vs_torch" in r else "-"))
        if ratios:
            print("geomean tcc / torch.compile: %.2f over %d rows" % (
                float(np.exp(np.mean(np.log(ratios)))), len(ratios)))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"models": rows, "speed": speed}, f, indent=1)


if __name__ == "__main__":
    main()
