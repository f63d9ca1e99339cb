#!/usr/bin/env python3
"""Exports the CPU benchmark models of issue #6 with random weights (python3-torch 1.13 and
python3-torchvision from apt; the legacy exporter, opset 17, dynamic batch).

    scripts/make_bench_models.py [OUT_DIR]   # default: ~/.cache/tcc/bench-models

One folder per model and batch size in the corpus layout (model.onnx, input_0_<name>.npy,
output_0_<name>.npy from torch eager fp32), for scripts/bench.py:
mobilenet_v2, efficientnet_b0, squeezenet1_1, resnet18, resnet50 (torchvision, 224x224 images) and
bert_256 (a BERT-like encoder: hidden 256, 4 layers, 4 heads, FFN 1024, sequence 128), each at
batch 1 and 8. Weights, biases and BatchNorm statistics are random (fixed seed) so a compiler
that drops one fails the comparison. The models are large: they are not kept in the repo.
"""
import math
import os
import sys

import numpy as np
import torch
import torchvision


class EncoderLayer(torch.nn.Module):
    """Post-norm BERT layer: attention + residual + LayerNorm, GELU FFN + residual + LayerNorm."""

    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(hidden, 3 * hidden)
        self.out = torch.nn.Linear(hidden, hidden)
        self.norm1 = torch.nn.LayerNorm(hidden)
        self.up = torch.nn.Linear(hidden, ffn)
        self.down = torch.nn.Linear(ffn, hidden)
        self.norm2 = torch.nn.LayerNorm(hidden)

    def forward(self, x, mask_bias):
        b, s, h = x.shape
        q, k, v = self.qkv(x).split(h, dim=-1)
        split = lambda t: t.reshape(b, s, self.heads, h // self.heads).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        scores = q @ k.transpose(-1, -2) / math.sqrt(h // self.heads) + mask_bias
        context = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, s, h)
        x = self.norm1(x + self.out(context))
        return self.norm2(x + self.down(torch.nn.functional.gelu(self.up(x))))


class Encoder(torch.nn.Module):
    def __init__(self, vocab=1000, hidden=256, layers=4, heads=4, ffn=1024, positions=512):
        super().__init__()
        self.tokens = torch.nn.Embedding(vocab, hidden)
        self.positions = torch.nn.Embedding(positions, hidden)
        self.norm = torch.nn.LayerNorm(hidden)
        self.layers = torch.nn.ModuleList(EncoderLayer(hidden, heads, ffn) for _ in range(layers))

    def forward(self, input_ids, attention_mask):
        s = input_ids.shape[1]
        x = self.norm(self.tokens(input_ids) + self.positions(torch.arange(s)))
        mask_bias = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
        for layer in self.layers:
            x = layer(x, mask_bias)
        return x


def randomize(model):
    """Random non-trivial biases, norm scales and BatchNorm statistics."""
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.2, 0.2)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.2, 0.2)
            elif isinstance(module, torch.nn.LayerNorm):
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.2, 0.2)
            elif isinstance(module, (torch.nn.Linear, torch.nn.Conv2d)) and module.bias is not None:
                module.bias.uniform_(-0.1, 0.1)
    return model.eval()


def export(model, inputs, names, dynamic, folder):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "model.onnx")
    with torch.no_grad():
        torch.onnx.export(model, tuple(inputs), path, input_names=names, output_names=["output"],
                          dynamic_axes=dynamic, opset_version=17, do_constant_folding=True)
        output = model(*inputs)
    for k, (name, value) in enumerate(zip(names, inputs)):
        np.save(os.path.join(folder, "input_%d_%s.npy" % (k, name)), value.numpy())
    np.save(os.path.join(folder, "output_0_output.npy"), output.numpy())
    print(folder, os.path.getsize(path) // 1024, "KiB")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/tcc/bench-models")
    torch.manual_seed(0)
    vision = {
        "mobilenet_v2": torchvision.models.mobilenet_v2,
        "efficientnet_b0": torchvision.models.efficientnet_b0,
        "squeezenet1_1": torchvision.models.squeezenet1_1,
        "resnet18": torchvision.models.resnet18,
        "resnet50": torchvision.models.resnet50,
    }
    for name, make in vision.items():
        model = randomize(make(weights=None))
        for batch in (1, 8):
            image = torch.randn(batch, 3, 224, 224)
            export(model, [image], ["image"], {"image": {0: "batch"}, "output": {0: "batch"}},
                   os.path.join(out, "%s_b%d" % (name, batch)))
    model = randomize(Encoder())
    for batch in (1, 8):
        ids = torch.randint(0, 1000, (batch, 128))
        mask = torch.ones(batch, 128, dtype=torch.int64)
        mask[:, 100:] = 0
        export(model, [ids, mask], ["input_ids", "attention_mask"],
               {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"},
                "output": {0: "batch", 1: "seq"}}, os.path.join(out, "bert_256_b%d" % batch))


if __name__ == "__main__":
    main()
