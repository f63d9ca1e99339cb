#!/usr/bin/env python3
"""Transformers at several sequence lengths from one library each, against ONNX Runtime.

    scripts/transformer_sizes.py [--lengths 1,7,64,max] [--batch 2] [--cpu default|native|NAME]
                                 [--out DIR] [MODEL_DIR ...]

Each MODEL_DIR holds model.onnx, input_<k>_<name>.npy and meta.json (the layout of
../shared/corpus and test/data/models; default: bert_small of the corpus and gpt2_small,
llama_small, t5_small of test/data/models). Inputs of type int64 and rank 2 are token ids
[batch, seq] (or masks, named *mask*): for every length L they are made again at [batch, L]
(ids uniform over the vocabulary of meta.json's config, seed 0; a mask pads the last quarter
of the last row). `max` is the model's own limit (its config's max_positions /
max_position_embeddings), else 2048. ONNX Runtime computes the reference outputs; one tcc
library (symbolic dims, compiled once) runs every length and its outputs are compared with
tcc-run --compare (rtol 1e-3, atol 1e-4). Per model it prints the --explain=attention count,
then per length the verdict, the worst relative L2 error, and the run's workspace with fused
attention and with --attention=decomposed (the score matrices: seq^2). The folders it writes
(OUT/<model>_b<batch>_s<L>, default build/sizes) are in bench.py's layout: time them with
scripts/bench.py OUT/*.
Not a test: a table for the transformer issue's "what to show".
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "bin")
ORT_RUN = os.path.join(ROOT, "..", "shared", "bench", "ort-run.js")
ORT_MODULES = os.path.expanduser("~/.cache/tcc/onnxruntime-node/node_modules")
DEFAULT_MODELS = [os.path.join(ROOT, "..", "shared", "corpus", "bert_small")] + [
    os.path.join(ROOT, "test", "data", "models", m) for m in ("gpt2_small", "llama_small", "t5_small")]


def ordered(folder, prefix):
    files = glob.glob(os.path.join(folder, prefix + "_*.npy"))
    return sorted(files, key=lambda f: int(re.match(r"[a-z]+_(\d+)", os.path.basename(f)).group(1)))


def config_of(model_dir):
    with open(os.path.join(model_dir, "meta.json")) as f:
        return json.load(f).get("config", {})


def make_inputs(examples, length, batch, vocab, folder):
    """The example inputs remade at [batch, length]; the paths written, in input order."""
    rng = np.random.default_rng(0)
    paths = []
    for example in examples:
        name = os.path.basename(example)
        value = np.load(example)
        if value.dtype == np.int64 and value.ndim == 2:
            if "mask" in name:
                value = np.ones((batch, length), np.int64)
                value[-1, length - length // 4:] = 0
            else:
                value = rng.integers(0, vocab, (batch, length), dtype=np.int64)
        else:  # not a sequence: the example's first row, repeated to the batch
            value = np.repeat(value[:1], batch, axis=0)
        path = os.path.join(folder, name)
        np.save(path, value)
        paths.append(path)
    return paths


def run(command, env=None):
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(" ".join(command) + ": " + (out.stderr + out.stdout).strip()[-600:])
    return out


def workspace_mib(library, inputs):
    line = run([os.path.join(BIN, "tcc-run"), library, "--threads", "1", "--benchmark", "1",
                "--warmup", "0", "--input"] + inputs).stdout.strip().splitlines()[-1]
    return json.loads(line)["workspace_bytes"] / 2**20


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="*")
    parser.add_argument("--lengths", default="1,7,64,max")
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--cpu", default="default")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "sizes"))
    options = parser.parse_args()
    env = dict(os.environ, NODE_PATH=ORT_MODULES)
    cpu_flags = [] if options.cpu == "default" else ["--cpu", options.cpu]
    os.makedirs(options.out, exist_ok=True)
    failures = 0
    print("| model | batch | seq | outputs vs ORT | worst rel L2 | workspace MiB | decomposed MiB |")
    print("|---|---|---|---|---|---|---|")
    for model_dir in options.models or DEFAULT_MODELS:
        name = os.path.basename(os.path.normpath(model_dir))
        model = os.path.join(model_dir, "model.onnx")
        config = config_of(model_dir)
        limit = config.get("max_positions") or config.get("max_position_embeddings") or 2048
        vocab = config.get("vocab_size", 1000)
        library = os.path.join(options.out, name + ".so")
        decomposed = os.path.join(options.out, name + ".decomposed.so")
        explained = run([os.path.join(BIN, "tcc"), model, "-o", library, "--explain=attention"] +
                        cpu_flags)
        counts = re.findall(r"attention: (\d+) of (\d+) blocks fused", explained.stderr)
        run([os.path.join(BIN, "tcc"), model, "-o", decomposed, "--attention=decomposed"] + cpu_flags)
        print("| %s: attention blocks fused %s | | | | | | |" %
              (name, ", ".join("%s of %s" % c for c in counts) or "none found"))
        examples = ordered(model_dir, "input")
        lengths = []
        for word in options.lengths.split(","):
            length = limit if word == "max" else int(word)
            if length <= limit and length not in lengths:
                lengths.append(length)
        for length in lengths:
            folder = os.path.join(options.out, "%s_b%d_s%d" % (name, options.batch, length))
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            shutil.copy(model, os.path.join(folder, "model.onnx"))
            inputs = make_inputs(examples, length, options.batch, vocab, folder)
            run(["node", ORT_RUN, model, "--threads", "1", "--runs", "1", "--warmup", "0",
                 "--output-dir", folder] + sum([["--input", f] for f in inputs], []), env)
            # bench.py's layout: output_<k>_<name>.npy
            references = []
            for k, produced in enumerate(ordered(folder, "output")):
                named = os.path.join(folder, "output_%d_ort.npy" % k)
                os.replace(produced, named)
                references.append(named)
            out = subprocess.run([os.path.join(BIN, "tcc-run"), library, "--threads", "1",
                                  "--rtol", "1e-3", "--atol", "1e-4", "--input"] + inputs +
                                 ["--compare"] + references, capture_output=True, text=True)
            errors = [float(e) for e in re.findall(r"rel_l2_error=(\S+)", out.stdout)]
            verdict = "PASS" if out.returncode == 0 and "FAIL" not in out.stdout else "FAIL"
            failures += verdict != "PASS"
            print("| %s | %d | %d | %s | %s | %.2f | %.2f |" % (
                name, options.batch, length, verdict,
                "%.1e" % max(errors) if errors else "-", workspace_mib(library, inputs),
                workspace_mib(decomposed, inputs)))
            sys.stdout.flush()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
