"""A 4096^3 matrix product: tcc's fp32 kernel (compiled from matmul_4096.onnxtxt) against
torch.mm in fp32 (TF32 off), TF32, bf16 and fp16, in TFLOP/s (2 * 4096^3 / median time), on
the GPU machine; tcc's tf32, bf16 and fp16 rows are the same model compiled with --precision
(tensor cores: float32 inputs rounded as they are staged, float32 sums). torch.mm's bf16 and
fp16 rows take inputs already converted; one more row times its bf16 product including the
casts from the float32 tensors tcc is given.
usage: python3 matmul_bench.py BUNDLE"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402
from run_bundle import rel_l2, timed  # noqa: E402

N = 4096


def tflops(ms):
    return 2 * N ** 3 / (ms * 1e-3) / 1e12


def main():
    bundle = sys.argv[1]
    rt = tcc_runtime.Runtime(os.path.join(bundle, "lib", "libtcc_runtime.so"))
    torch.manual_seed(0)
    a = torch.randn(N, N, device="cuda")
    b = torch.randn(N, N, device="cuda")
    y = torch.empty(N, N, device="cuda")
    session = tcc_runtime.Session(rt, os.path.join(bundle, "models", "matmul_4096", "model.so"))
    session.prepare([a, b], [y])
    session.run()
    torch.backends.cuda.matmul.allow_tf32 = False
    expected = torch.mm(a.double(), b.double())
    rows = [("tcc fp32 (CUDA cores)", timed(session.run, 10, 2), rel_l2(y.cpu().numpy(), expected.cpu().numpy()))]
    # The same product compiled with --precision=tf32 / bf16 (tensor cores), when bundled.
    for precision in ("tf32", "bf16", "fp16"):
        path = os.path.join(bundle, "models", "matmul_4096_" + precision, "model.so")
        if not os.path.exists(path):
            continue
        other = tcc_runtime.Session(rt, path)
        other.prepare([a, b], [y])
        other.run()
        rows.append(("tcc %s (tensor cores)" % precision, timed(other.run, 10, 2),
                     rel_l2(y.cpu().numpy(), expected.cpu().numpy())))
        other.close()
    rows.append(("torch.mm fp32 (TF32 off)", timed(lambda: torch.mm(a, b), 10, 2),
                 rel_l2(torch.mm(a, b).cpu().numpy(), expected.cpu().numpy())))
    torch.backends.cuda.matmul.allow_tf32 = True
    rows.append(("torch.mm tf32", timed(lambda: torch.mm(a, b), 10, 2),
                 rel_l2(torch.mm(a, b).cpu().numpy(), expected.cpu().numpy())))
    a16, b16 = a.bfloat16(), b.bfloat16()
    rows.append(("torch.mm bf16", timed(lambda: torch.mm(a16, b16), 10, 2),
                 rel_l2(torch.mm(a16, b16).float().cpu().numpy(), expected.cpu().numpy())))
    h16, g16 = a.half(), b.half()
    rows.append(("torch.mm fp16", timed(lambda: torch.mm(h16, g16), 10, 2),
                 rel_l2(torch.mm(h16, g16).float().cpu().numpy(), expected.cpu().numpy())))
    # What a bf16 product costs torch from float32 tensors, as tcc is given them.
    rows.append(("torch.mm bf16 incl. casts from fp32",
                 timed(lambda: torch.mm(a.bfloat16(), b.bfloat16()), 10, 2), None))
    print("| 4096^3 matmul | ms | TFLOP/s | rel L2 vs fp64 |")
    print("|---|---|---|---|")
    for name, ms, error in rows:
        print("| %s | %.3f | %.1f | %s |" % (name, ms, tflops(ms),
                                           "-" if error is None else "%.1e" % error))
    session.close()


if __name__ == "__main__":
    main()
