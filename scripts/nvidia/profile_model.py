"""Runs one bundle model's tcc session N times on random inputs of a batch size (torch
tensors on the GPU), for a profiler to attribute the GPU time to tcc's kernels:
    nsys profile --stats=true python3 profile_model.py BUNDLE MODEL BATCH [RUNS]
The kernels are named after the tcc kernels (kernel_<n>_<ONNX node>_kernel[_k])."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402
import torch_models  # noqa: E402


def main():
    bundle, name, batch = sys.argv[1], sys.argv[2], int(sys.argv[3])
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    os.environ["TCC_CUDA_GRAPHS"] = "0"  # one launch per kernel, as the profiler counts them
    rt = tcc_runtime.Runtime(os.path.join(bundle, "lib", "libtcc_runtime.so"))
    model, make_inputs = torch_models.build(name)
    (x,) = make_inputs(batch)
    x = x.cuda()
    with torch.no_grad():
        y = torch.empty_like(model.cuda()(x))
    session = tcc_runtime.Session(rt, os.path.join(bundle, "models", name, "model.so"))
    session.prepare([x], [y])
    for _ in range(runs):
        session.run()
    torch.cuda.synchronize()
    session.close()


if __name__ == "__main__":
    main()
