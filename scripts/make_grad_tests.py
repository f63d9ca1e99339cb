#!/usr/bin/env python3
"""Whole-model gradient cases for `tcc --grad`, with torch autograd as the reference.

Writes test/data/grad/<model>/ for three small models with seeded random weights and a
scalar loss output: model.onnx (torch.onnx.export, opset 17, weights kept as initializers
under their state_dict names), input_<k>.npy in the graph's input order, loss.npy and
grad.<initializer>.npy (the gradient of the loss with respect to every float initializer,
which is what `tcc --grad --wrt params` differentiates, buffers included), and case.json
naming the loss output, the inputs and the gradients. test/grad/run.py compares tcc with them.

Needs torch (Debian 12: apt-get install python3-torch, 1.13); CI only reads the outputs.

    /usr/bin/python3 scripts/make_grad_tests.py [OUT_DIR]   (default test/data/grad)
"""
import json
import math
import os
import sys
import warnings

import numpy as np
import onnx
import onnx.numpy_helper
import torch
import torch.nn as nn
import torch.nn.functional as F


class Mlp(nn.Module):
    """Linear, GELU, Linear; MSE against a target input."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x, target):
        y = self.fc2(F.gelu(self.fc1(x)))
        return ((y - target) ** 2).mean()  # mse_loss (no ONNX symbolic in torch 1.13)

    @staticmethod
    def inputs(g):
        return {"x": torch.randn(4, 8, generator=g), "target": torch.randn(4, 3, generator=g)}


class Cnn(nn.Module):
    """Conv (stride 2, padding 1), ReLU, BatchNorm (eval), max pool, conv, ReLU, average pool,
    Flatten, Linear; cross-entropy against integer class targets."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 8, 3, stride=1, padding=1)
        self.fc = nn.Linear(8 * 2 * 2, 5)
        self.functional_bn = False

    def batch_norm(self, x):
        if not self.functional_bn:
            return self.bn1(x)
        # The same eval-mode formula, written out so that autograd also reaches the running
        # statistics (native_batch_norm has no derivative for them; tcc differentiates every
        # float initializer): y = (x - mean) / sqrt(var + eps) * scale + bias.
        shape = (1, -1, 1, 1)
        bn = self.bn1
        return ((x - bn.running_mean.view(shape)) / torch.sqrt(bn.running_var.view(shape) + bn.eps)
                * bn.weight.view(shape) + bn.bias.view(shape))

    def forward(self, x, labels):
        h = self.batch_norm(F.relu(self.conv1(x)))          # 2x6x8x8
        h = F.max_pool2d(h, 2)                               # 2x6x4x4
        h = F.avg_pool2d(F.relu(self.conv2(h)), 2)           # 2x8x2x2
        logits = self.fc(torch.flatten(h, 1))
        return F.cross_entropy(logits, labels)

    @staticmethod
    def inputs(g):
        return {"x": torch.randn(2, 3, 16, 16, generator=g),
                "labels": torch.randint(0, 5, (2,), generator=g)}

    def randomize_buffers(self, g):
        self.bn1.running_mean.copy_(torch.randn(6, generator=g) * 0.1)
        self.bn1.running_var.copy_(torch.rand(6, generator=g) + 0.5)
        self.bn1.weight.data.copy_(torch.rand(6, generator=g) + 0.5)
        self.bn1.bias.data.copy_(torch.randn(6, generator=g) * 0.1)


class TransformerBlock(nn.Module):
    """Pre-LayerNorm block: causal two-head self-attention (softmax over masked scores),
    residual, LayerNorm, Linear-GELU-Linear, residual; loss = mean(output * weights) with a
    fixed random weight tensor (a buffer, so an initializer with a gradient of its own).
    The LayerNorms keep torch's initial weights (see randomize_buffers)."""

    # No dropout or batch statistics, so training mode computes the same; exported in it so
    # that the equal LayerNorm initializers stay two initializers each.
    export_in_training_mode = True

    def __init__(self, seq=6, dim=16, heads=2):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)
        self.register_buffer("causal", torch.ones(seq, seq).tril().bool())
        self.register_buffer("loss_weights", torch.zeros(2, seq, dim))

    def forward(self, x):
        b, s, d = x.shape
        hd = d // self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q, k, v = (t.reshape(b, s, self.heads, hd).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(hd)
        scores = scores.masked_fill(~self.causal, float("-inf"))
        attn = torch.softmax(scores, dim=-1) @ v
        x = x + self.proj(attn.transpose(1, 2).reshape(b, s, d))
        x = x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        return (x * self.loss_weights).mean()

    @staticmethod
    def inputs(g):
        return {"x": torch.randn(2, 6, 16, generator=g)}

    def randomize_buffers(self, g):
        # The LayerNorms keep torch's initial ones and zeros: ln1.weight and ln2.weight (and
        # the biases) are equal initializers with different gradients, which a compiler that
        # merges equal constants before differentiating would mix up.
        self.loss_weights.copy_(torch.randn(self.loss_weights.shape, generator=g))


MODELS = {"mlp": Mlp, "cnn": Cnn, "transformer": TransformerBlock}


def make_case(name, cls, out_dir, seed):
    warnings.filterwarnings("ignore", category=torch.jit.TracerWarning)  # shapes read while tracing
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    model = cls()
    with torch.no_grad():
        if hasattr(model, "randomize_buffers"):
            model.randomize_buffers(g)
    # Eval mode, but for models without dropout or batch statistics that keep equal
    # initializers apart: in eval mode the exporter merges initializers of equal value.
    model.train(getattr(cls, "export_in_training_mode", False))
    inputs = cls.inputs(g)
    case = os.path.join(out_dir, name)
    os.makedirs(case, exist_ok=True)
    for f in os.listdir(case):
        os.remove(os.path.join(case, f))
    path = os.path.join(case, "model.onnx")
    # PRESERVE (the model's own mode) skips the eval peephole, which would fold
    # BatchNorm into the convolution and rename its weights; no constant folding for the
    # same reason: every initializer keeps its state_dict name.
    torch.onnx.export(model, tuple(inputs.values()), path, opset_version=17,
                      input_names=list(inputs), output_names=["loss"],
                      do_constant_folding=False,
                      training=torch.onnx.TrainingMode.PRESERVE)
    proto = onnx.load(path)
    onnx.checker.check_model(proto)
    graph_inputs = [i.name for i in proto.graph.input]
    if graph_inputs != list(inputs):
        sys.exit(f"{name}: the exported inputs are {graph_inputs}, expected {list(inputs)}")

    # The reference: torch autograd with respect to every float tensor the exporter kept as
    # an initializer, looked up by name in the state_dict.
    state = dict(model.state_dict(keep_vars=True))
    initializers = [(init.name, onnx.numpy_helper.to_array(init)) for init in proto.graph.initializer]
    wrt = []
    for init_name, array in initializers:
        if array.dtype.kind != "f":
            continue
        if init_name not in state:
            sys.exit(f"{name}: float initializer '{init_name}' is not a state_dict entry")
        tensor = state[init_name]
        if not np.array_equal(tensor.detach().numpy(), array):
            sys.exit(f"{name}: initializer '{init_name}' differs from the state_dict entry")
        wrt.append((init_name, tensor))
    kept = {init_name for init_name, _ in wrt}
    for entry, tensor in state.items():
        if tensor.is_floating_point() and entry not in kept:
            sys.exit(f"{name}: the exporter merged or folded state_dict entry '{entry}'")
    for _, tensor in wrt:
        tensor.requires_grad_(True)
    if hasattr(model, "functional_bn"):
        model.functional_bn = True
    loss = model(*inputs.values())
    grads = torch.autograd.grad(loss, [t for _, t in wrt], allow_unused=True)

    for k, (input_name, value) in enumerate(inputs.items()):
        np.save(os.path.join(case, f"input_{k}.npy"), value.numpy())
    np.save(os.path.join(case, "loss.npy"), loss.detach().numpy())
    names = []
    for (init_name, tensor), grad in zip(wrt, grads):
        if grad is None:
            grad = torch.zeros_like(tensor)
        np.save(os.path.join(case, f"grad.{init_name}.npy"), grad.numpy().astype(np.float32))
        names.append(init_name)
    with open(os.path.join(case, "case.json"), "w") as f:
        json.dump({"loss": "loss", "inputs": list(inputs), "gradients": names,
                   "generator": "scripts/make_grad_tests.py", "torch": torch.__version__},
                  f, indent=1)
        f.write("\n")
    size = sum(os.path.getsize(os.path.join(case, f)) for f in os.listdir(case))
    ops = sorted({n.op_type for n in proto.graph.node})
    print(f"{name}: {len(names)} gradients, loss {loss.item():.6f}, {size} bytes; ops {' '.join(ops)}")


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "test", "data", "grad")
    for seed, (name, cls) in enumerate(MODELS.items()):
        make_case(name, cls, out_dir, seed)


if __name__ == "__main__":
    main()
