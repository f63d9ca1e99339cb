"""Times tcc's attention kernel against the decomposed products and torch's SDPA on the GPU.

The bundle holds one attention block (scripts: q, k, v of [B, 4, S, 64], softmax(q kᵀ / 8) v,
batch and sequence dynamic) compiled twice for NVIDIA: --attention=fused (att_fused.so) and
--attention=decomposed (att_decomposed.so). For each sequence length: random inputs, torch's
fp32 result as the reference (TF32 off), both libraries run on the same CUDA tensors through
the runtime (no copies; tcc_runtime.py), checked against it and timed (median of warm runs,
wall clock around a run, which returns when the GPU is done), and torch.nn.functional.
scaled_dot_product_attention timed the same way on the same tensors.

With --causal, the causal block of attention_models.py (att_causal_fused.so,
att_causal_decomposed.so: the exporter's Trilu/Equal/Where mask, which tcc's matcher turns
into the kernel's causal diagonal) against torch's masked softmax and SDPA(is_causal=True).

usage: python3 attention_bench.py DIR [--batch 8] [--seqs 128,512,1024,2048] [--causal]
"""
import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcc_runtime  # noqa: E402
from run_bundle import timed  # noqa: E402


def rel_l2(actual, expected):
    return float(torch.linalg.vector_norm((actual - expected).double()) /
                 torch.linalg.vector_norm(expected.double()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seqs", default="128,512,1024,2048")
    parser.add_argument("--causal", action="store_true")
    args = parser.parse_args()
    stem = "att_causal" if args.causal else "att"
    torch.backends.cuda.matmul.allow_tf32 = False
    rt = tcc_runtime.Runtime(os.path.join(args.dir, "lib", "libtcc_runtime.so"))
    sessions = {kind: tcc_runtime.Session(rt, os.path.join(args.dir, "att", "%s_%s.so" % (stem, kind)))
                for kind in ("fused", "decomposed")}
    print("| B | S | fused ms | decomposed ms | torch SDPA ms | fused / decomposed | "
          "fused / SDPA | fused rel L2 | decomposed rel L2 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for seq in [int(s) for s in args.seqs.split(",")]:
        g = torch.Generator(device="cuda").manual_seed(seq)
        q, k, v = [torch.randn(args.batch, 4, seq, 64, device="cuda", generator=g)
                   for _ in range(3)]
        scores = (q @ k.transpose(-1, -2)) / 8
        if args.causal:
            scores = scores.masked_fill(
                torch.ones(seq, seq, dtype=torch.bool, device="cuda").triu(1), float("-inf"))
        ref = torch.softmax(scores, -1) @ v
        del scores
        row = {"B": args.batch, "S": seq, "causal": args.causal}
        for kind, session in sessions.items():
            out = torch.empty_like(ref)
            try:
                session.prepare([q, k, v], [out])
                session.run()
                torch.cuda.synchronize()
                row[kind + "_rel_l2"] = "%.2e" % rel_l2(out, ref)
                row[kind + "_ms"] = timed(session.run, 30)
            except RuntimeError as error:
                row[kind + "_rel_l2"] = str(error)[:100]
                row[kind + "_ms"] = float("nan")
        sdpa = torch.nn.functional.scaled_dot_product_attention
        with torch.no_grad():
            row["sdpa_ms"] = timed(lambda: sdpa(q, k, v, is_causal=args.causal), 30)
        print("| %d | %d | %.4f | %.4f | %.4f | %.2f | %.2f | %s | %s |" % (
            row["B"], seq, row["fused_ms"], row["decomposed_ms"], row["sdpa_ms"],
            row["fused_ms"] / row["decomposed_ms"], row["fused_ms"] / row["sdpa_ms"],
            row["fused_rel_l2"], row["decomposed_rel_l2"]), flush=True)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
