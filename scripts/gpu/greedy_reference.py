#!/usr/bin/env python3
"""The reference tokens of examples/generate.c: greedy decoding in torch with the KV cache.

Runs on the GPU machine (torch 2.11; on its CPU). Rebuilds the torch model of llama_small
(or gpt2_small) with export_models.py's seeds (the weights of test/data/models/MODEL/model.onnx),
checks that it still computes that export's reference logits, then feeds the prompt one token at a
time through the cached decode step (as the C example does, from an empty cache) and
generates tokens greedily (argmax of the last logits). Writes the prompt and the tokens, one
line each, and prints the smallest gap between the top two logits over the steps.

    python3 greedy_reference.py [--model llama_small_kv|gpt2_small_kv] [--steps 48] [--data DIR] [--out F]
"""

import argparse
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import export_models  # noqa: E402

# Any tokens of the 1000-token vocabulary: the example starts from them.
PROMPT = [17, 423, 9, 771, 256, 64, 998]


def decoder(name):
    """(step, full) of the model whose weights `name`'s export holds: step(ids, caches or
    None) -> (logits, caches) and full(ids) -> logits, the whole sequence at once."""
    specs = export_models.build_specs()
    if name == "llama_small_kv":
        core = specs["llama_small"]()[0].core
        core.eval()
        return (lambda ids, caches: core(ids, caches)), (lambda ids: core(ids)[0])
    if name == "gpt2_small_kv":
        gpt2 = specs["gpt2_small"]()[0]
        gpt2.eval()

        def step(ids, caches):
            return gpt2.step(ids, gpt2.empty_pasts(ids.shape[0]) if caches is None else caches)
        return step, gpt2
    sys.exit("unknown model %s (llama_small_kv, gpt2_small_kv)" % name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="llama_small_kv", choices=["llama_small_kv", "gpt2_small_kv"])
    parser.add_argument("--steps", type=int, default=48)
    parser.add_argument("--data", default=None,
                        help="the export's folder (default test/data/models/MODEL)")
    parser.add_argument("--out", default=None,
                        help="default examples/generate/reference_tokens.txt (llama_small_kv), "
                             "reference_tokens_gpt2.txt (gpt2_small_kv)")
    args = parser.parse_args()
    if args.out is None:
        args.out = os.path.join(ROOT, "examples", "generate", "reference_tokens.txt"
                                if args.model == "llama_small_kv" else "reference_tokens_gpt2.txt")

    torch.manual_seed(0)
    core, full_sequence = decoder(args.model)

    # The weights are the export's: its reference decode step, recomputed.
    data = args.data or os.path.join(ROOT, "test", "data", "models", args.model)
    inputs = [np.load(os.path.join(data, "input_%d_%s.npy" % (k, name)))
              for k, name in enumerate(["input_ids", "past_key_0", "past_value_0",
                                        "past_key_1", "past_value_1"])]
    expected = np.load(os.path.join(data, "output_0_logits.npy"))
    with torch.no_grad():
        pasts = [(torch.from_numpy(inputs[1]), torch.from_numpy(inputs[2])),
                 (torch.from_numpy(inputs[3]), torch.from_numpy(inputs[4]))]
        logits, _ = core(torch.from_numpy(inputs[0]), pasts)
    error = float(np.abs(logits.numpy() - expected).max())
    print("export's reference logits recomputed: max abs error %.3g" % error)
    if error > 1e-5:
        sys.exit("the rebuilt model is not the exported one")

    tokens, gaps = [], []
    with torch.no_grad():
        presents = None
        sequence = list(PROMPT)
        for step in range(len(PROMPT) + args.steps - 1):
            token = torch.tensor([[sequence[step]]], dtype=torch.int64)
            logits, presents = core(token, presents)
            if step + 1 < len(PROMPT):
                continue
            last = logits[0, -1]
            top = torch.topk(last, 2).values
            gaps.append(float(top[0] - top[1]))
            sequence.append(int(torch.argmax(last)))
        tokens = sequence[len(PROMPT):]
        # The same tokens without the cache: the whole sequence at once.
        full = full_sequence(torch.tensor([sequence[:-1]], dtype=torch.int64))
        uncached = [int(t) for t in torch.argmax(full[0, len(PROMPT) - 1:], dim=-1)]
    print("cached and uncached greedy tokens agree: %s" % (uncached == tokens))
    print("smallest top-2 logit gap: %.3g" % min(gaps))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(" ".join(str(t) for t in PROMPT) + "\n")
        f.write(" ".join(str(t) for t in tokens) + "\n")
    print("wrote %s: %d prompt tokens, %d generated" % (args.out, len(PROMPT), len(tokens)))


if __name__ == "__main__":
    main()
