"""Runs one bundle model's tcc session N times on random inputs of a batch size (torch
tensors on the GPU) under torch.profiler (CUPTI; nsys does not run on the lent machine) and
prints the GPU time per kernel, largest first, per run:
    python3 profile_model.py BUNDLE MODEL BATCH [RUNS] [--torch-compile]
The kernels are named after the tcc kernels (kernel_<n>_<ONNX node>_kernel[_k]). With
--torch-compile, the same model under torch.compile (default mode) instead of tcc's library:
the two tables side by side show where the time differs."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402
import torch_models  # noqa: E402


def main():
    compiled = "--torch-compile" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--torch-compile"]
    bundle, name, batch = args[0], args[1], int(args[2])
    runs = int(args[3]) if len(args) > 3 else 20
    os.environ["TCC_CUDA_GRAPHS"] = "0"  # one launch per kernel, as the profiler counts them
    rt = tcc_runtime.Runtime(os.path.join(bundle, "lib", "libtcc_runtime.so"))
    model, make_inputs = torch_models.build(name)
    (x,) = make_inputs(batch)
    x = x.cuda()
    with torch.no_grad():
        y = torch.empty_like(model.cuda()(x))
    if compiled:
        fn = torch.compile(model)

        def run():
            with torch.no_grad():
                fn(x)
    else:
        session = tcc_runtime.Session(rt, os.path.join(bundle, "models", name, "model.so"))
        session.prepare([x], [y])
        run = session.run
    for _ in range(3):  # warm: the module loaded (compiled), the workspace planned
        run()
    torch.cuda.synchronize()
    activities = [torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=activities) as prof:
        for _ in range(runs):
            run()
        torch.cuda.synchronize()
    if not compiled:
        session.close()
    print(prof.key_averages().table(sort_by="self_device_time_total", row_limit=0)[:0], end="")
    totals = {}
    for event in prof.key_averages():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            totals[event.key] = (event.device_time_total / runs, event.count // runs)
    total = sum(t for t, _ in totals.values())
    print(f"{name}{' (torch.compile)' if compiled else ''} batch {batch}: {total / 1000:.3f} ms of kernels per run")
    print("| us per run | % | launches | kernel |\n|---|---|---|---|")
    for key, (t, count) in sorted(totals.items(), key=lambda kv: -kv[1][0])[:25]:
        print(f"| {t:.1f} | {100 * t / total:.1f} | {count} | {key[:70]} |")


if __name__ == "__main__":
    main()
