#!/usr/bin/env python3
"""Small transformer/RNN models in plain torch, exported to ONNX, with reference data.

Runs on the GPU machine (torch 2.11, onnx 1.23, onnxruntime CPU); everything runs on the CPU.
Every model is built with torch.manual_seed(0) and random weights (norm scales and biases
randomized too, so that a compiler that drops them fails), exported with the dynamo exporter
(`torch.onnx.export(dynamo=True, opset_version=20)`, dynamic batch/sequence axes; opset 18 and
other forms of dynamic_shapes are tried when that fails, the TorchScript exporter last for the
LSTM), and written in the corpus layout of ../shared/corpus:

    OUT/NAME/model.onnx
    OUT/NAME/input_<k>_<name>.npy, output_<k>_<name>.npy     (torch fp32 eager on CPU)
    OUT/NAME/other_size/input_<k>_<name>.npy, output_<k>_<name>.npy
    OUT/NAME/meta.json   (config, exporter attempts, opset, op histogram, ORT vs torch errors)

    python3 export_models.py --out DIR [--only gpt2_small,llama_small]
"""

import argparse
import collections
import hashlib
import json
import math
import os
import shutil
import sys
import time
import traceback

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# ----------------------------------------------------------------------------- building blocks


class RMSNorm(nn.Module):
    """x * rsqrt(mean(x^2) + eps) * weight (no mean subtraction, no bias)."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        ms = x.pow(2).mean(dim=-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(ms + self.eps))


class PreLNBlock(nn.Module):
    """Pre-LayerNorm transformer block: fused QKV projection, SDPA, GELU MLP (GPT-2 and ViT)."""

    def __init__(self, d, heads, mlp, causal, gelu_approx):
        super().__init__()
        self.heads, self.causal, self.gelu_approx = heads, causal, gelu_approx
        self.ln_1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, mlp)
        self.fc_out = nn.Linear(mlp, d)

    def forward(self, x):
        b, t, c = x.shape
        hd = c // self.heads
        q, k, v = self.qkv(self.ln_1(x)).split(c, dim=-1)
        q = q.reshape(b, t, self.heads, hd).transpose(1, 2)
        k = k.reshape(b, t, self.heads, hd).transpose(1, 2)
        v = v.reshape(b, t, self.heads, hd).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        y = y.transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        return x + self.fc_out(F.gelu(self.fc(self.ln_2(x)), approximate=self.gelu_approx))

    def forward_step(self, x, past):
        """forward for new positions x after cached ones: past = (keys, values), each
        [b, heads, p, head_dim]; returns the block's output and the caches with x's positions
        appended. The new positions see every cached one and, among themselves, the earlier
        ones (a causal mask offset by p)."""
        b, t, c = x.shape
        hd = c // self.heads
        q, k, v = self.qkv(self.ln_1(x)).split(c, dim=-1)
        q = q.reshape(b, t, self.heads, hd).transpose(1, 2)
        k = torch.cat((past[0], k.reshape(b, t, self.heads, hd).transpose(1, 2)), dim=2)
        v = torch.cat((past[1], v.reshape(b, t, self.heads, hd).transpose(1, 2)), dim=2)
        p = past[0].shape[2]
        if t == 1:  # a decode step: every key is visible
            y = F.scaled_dot_product_attention(q, k, v)
        else:
            visible = torch.ones(t, p + t, dtype=torch.bool, device=x.device).tril(p)
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=visible)
        y = y.transpose(1, 2).reshape(b, t, c)
        x = x + self.proj(y)
        x = x + self.fc_out(F.gelu(self.fc(self.ln_2(x)), approximate=self.gelu_approx))
        return x, (k, v)


# ----------------------------------------------------------------------------- GPT-2


class GPT2Small(nn.Module):
    def __init__(self, vocab, d, layers, heads, mlp, max_pos):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_pos, d)
        self.blocks = nn.ModuleList(PreLNBlock(d, heads, mlp, True, "tanh") for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)

    def forward(self, input_ids):
        t = input_ids.shape[1]
        pos = torch.arange(t, device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(pos)
        for blk in self.blocks:
            x = blk(x)
        return F.linear(self.ln_f(x), self.wte.weight)  # tied LM head

    def step(self, input_ids, pasts):
        """New positions after cached ones: pasts is one (keys, values) per block, each
        [batch, heads, past, head_dim] (past may be 0); returns logits and the presents."""
        t = input_ids.shape[1]
        pos = torch.arange(t, device=input_ids.device) + pasts[0][0].shape[2]
        x = self.wte(input_ids) + self.wpe(pos)
        presents = []
        for blk, past in zip(self.blocks, pasts):
            x, present = blk.forward_step(x, past)
            presents.append(present)
        return F.linear(self.ln_f(x), self.wte.weight), presents

    def empty_pasts(self, batch):
        """Caches of no positions, one (keys, values) per block."""
        heads = self.blocks[0].heads
        hd = self.wte.weight.shape[1] // heads
        return [(torch.zeros(batch, heads, 0, hd), torch.zeros(batch, heads, 0, hd))
                for _ in self.blocks]


class GPT2DecodeStep(nn.Module):
    """One decode step of GPT2Small with explicit per-layer caches (2 layers), the layout of
    transformers' GPT-2 past_key_values: [batch, heads, past, head_dim]."""

    def __init__(self, gpt2):
        super().__init__()
        assert len(gpt2.blocks) == 2
        self.gpt2 = gpt2

    def forward(self, input_ids, past_key_0, past_value_0, past_key_1, past_value_1):
        logits, pr = self.gpt2.step(input_ids, [(past_key_0, past_value_0), (past_key_1, past_value_1)])
        return logits, pr[0][0], pr[0][1], pr[1][0], pr[1][1]


# ----------------------------------------------------------------------------- Llama


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


class LlamaAttention(nn.Module):
    def __init__(self, d, q_heads, kv_heads, head_dim):
        super().__init__()
        self.qh, self.kvh, self.hd = q_heads, kv_heads, head_dim
        self.q_proj = nn.Linear(d, q_heads * head_dim, bias=False)
        self.k_proj = nn.Linear(d, kv_heads * head_dim, bias=False)
        self.v_proj = nn.Linear(d, kv_heads * head_dim, bias=False)
        self.o_proj = nn.Linear(q_heads * head_dim, d, bias=False)

    def forward(self, x, cos, sin, past):
        b, t, _ = x.shape
        q = self.q_proj(x).reshape(b, t, self.qh, self.hd).transpose(1, 2)
        k = self.k_proj(x).reshape(b, t, self.kvh, self.hd).transpose(1, 2)
        v = self.v_proj(x).reshape(b, t, self.kvh, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if past is not None:
            k = torch.cat((past[0], k), dim=2)
            v = torch.cat((past[1], v), dim=2)
        present = (k, v)
        s = k.shape[2]
        rep = self.qh // self.kvh
        kk = k[:, :, None].expand(b, self.kvh, rep, s, self.hd).reshape(b, self.qh, s, self.hd)
        vv = v[:, :, None].expand(b, self.kvh, rep, s, self.hd).reshape(b, self.qh, s, self.hd)
        # full sequence: causal; one decode token with a cache: it sees everything
        y = F.scaled_dot_product_attention(q, kk, vv, is_causal=past is None)
        y = y.transpose(1, 2).reshape(b, t, self.qh * self.hd)
        return self.o_proj(y), present


class LlamaLayer(nn.Module):
    def __init__(self, d, q_heads, kv_heads, head_dim, inter, eps):
        super().__init__()
        self.input_norm = RMSNorm(d, eps)
        self.attn = LlamaAttention(d, q_heads, kv_heads, head_dim)
        self.post_attn_norm = RMSNorm(d, eps)
        self.gate_proj = nn.Linear(d, inter, bias=False)
        self.up_proj = nn.Linear(d, inter, bias=False)
        self.down_proj = nn.Linear(inter, d, bias=False)

    def forward(self, x, cos, sin, past):
        a, present = self.attn(self.input_norm(x), cos, sin, past)
        x = x + a
        h = self.post_attn_norm(x)
        x = x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))
        return x, present


class LlamaCore(nn.Module):
    def __init__(self, vocab, d, layers, q_heads, kv_heads, inter, rope_theta=10000.0, eps=1e-5):
        super().__init__()
        head_dim = d // q_heads
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(LlamaLayer(d, q_heads, kv_heads, head_dim, inter, eps)
                                    for _ in range(layers))
        self.norm = RMSNorm(d, eps)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        inv_freq = 1.0 / (rope_theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, input_ids, pasts=None):
        t = input_ids.shape[1]
        past_len = 0 if pasts is None else pasts[0][0].shape[2]
        pos = torch.arange(t, device=input_ids.device) + past_len
        freqs = pos.to(torch.float32)[:, None] * self.inv_freq[None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos(), emb.sin()
        x = self.embed(input_ids)
        presents = []
        for i, layer in enumerate(self.layers):
            x, p = layer(x, cos, sin, None if pasts is None else pasts[i])
            presents.append(p)
        return self.lm_head(self.norm(x)), presents


class LlamaFull(nn.Module):
    def __init__(self, core):
        super().__init__()
        self.core = core

    def forward(self, input_ids):
        return self.core(input_ids)[0]


class LlamaDecodeStep(nn.Module):
    """One decode step with explicit per-layer caches (2 layers)."""

    def __init__(self, core):
        super().__init__()
        assert len(core.layers) == 2
        self.core = core

    def forward(self, input_ids, past_key_0, past_value_0, past_key_1, past_value_1):
        logits, pr = self.core(input_ids, [(past_key_0, past_value_0), (past_key_1, past_value_1)])
        return logits, pr[0][0], pr[0][1], pr[1][0], pr[1][1]


# ----------------------------------------------------------------------------- ViT


class ViTSmall(nn.Module):
    def __init__(self, image, patch, d, layers, heads, mlp, classes):
        super().__init__()
        n = (image // patch) ** 2
        self.patch_embed = nn.Conv2d(3, d, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.randn(1, 1, d) * 0.1)
        self.pos_embed = nn.Parameter(torch.randn(1, n + 1, d) * 0.1)
        self.blocks = nn.ModuleList(PreLNBlock(d, heads, mlp, False, "none") for _ in range(layers))
        self.norm = nn.LayerNorm(d, eps=1e-6)
        self.head = nn.Linear(d, classes)

    def forward(self, pixel_values):
        x = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos_embed
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x)[:, 0])


# ----------------------------------------------------------------------------- T5


def relative_position_bucket(rel, bidirectional, num_buckets, max_distance):
    """T5-style buckets: exact for small distances, logarithmic up to max_distance."""
    ret = torch.zeros_like(rel)
    if bidirectional:
        num_buckets = num_buckets // 2
        ret = ret + (rel > 0).to(rel.dtype) * num_buckets
        n = rel.abs()
    else:
        n = torch.clamp(-rel, min=0)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    # clamp before the log so that no -inf reaches the integer cast (those lanes are not selected)
    scaled = torch.log(torch.clamp(n, min=1).to(torch.float32) / max_exact) / math.log(max_distance / max_exact)
    large = max_exact + (scaled * (num_buckets - max_exact)).to(rel.dtype)
    large = torch.clamp(large, max=num_buckets - 1)
    return ret + torch.where(is_small, n, large)


class T5Attention(nn.Module):
    def __init__(self, d, heads, d_kv):
        super().__init__()
        self.h, self.dk = heads, d_kv
        self.q = nn.Linear(d, heads * d_kv, bias=False)
        self.k = nn.Linear(d, heads * d_kv, bias=False)
        self.v = nn.Linear(d, heads * d_kv, bias=False)
        self.o = nn.Linear(heads * d_kv, d, bias=False)

    def forward(self, x, kv, bias):
        b, t, _ = x.shape
        s = kv.shape[1]
        q = self.q(x).reshape(b, t, self.h, self.dk).transpose(1, 2)
        k = self.k(kv).reshape(b, s, self.h, self.dk).transpose(1, 2)
        v = self.v(kv).reshape(b, s, self.h, self.dk).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2))  # T5: no 1/sqrt(d) scaling
        if bias is not None:
            scores = scores + bias
        y = torch.matmul(torch.softmax(scores, dim=-1), v)
        return self.o(y.transpose(1, 2).reshape(b, t, self.h * self.dk))


class T5FF(nn.Module):
    def __init__(self, d, ff):
        super().__init__()
        self.wi = nn.Linear(d, ff, bias=False)
        self.wo = nn.Linear(ff, d, bias=False)

    def forward(self, x):
        return self.wo(F.relu(self.wi(x)))


class T5EncLayer(nn.Module):
    def __init__(self, d, heads, d_kv, ff, eps):
        super().__init__()
        self.attn_norm = RMSNorm(d, eps)
        self.attn = T5Attention(d, heads, d_kv)
        self.ff_norm = RMSNorm(d, eps)
        self.ff = T5FF(d, ff)

    def forward(self, x, bias):
        h = self.attn_norm(x)
        x = x + self.attn(h, h, bias)
        return x + self.ff(self.ff_norm(x))


class T5DecLayer(nn.Module):
    def __init__(self, d, heads, d_kv, ff, eps):
        super().__init__()
        self.self_norm = RMSNorm(d, eps)
        self.self_attn = T5Attention(d, heads, d_kv)
        self.cross_norm = RMSNorm(d, eps)
        self.cross_attn = T5Attention(d, heads, d_kv)
        self.ff_norm = RMSNorm(d, eps)
        self.ff = T5FF(d, ff)

    def forward(self, x, enc, bias):
        h = self.self_norm(x)
        x = x + self.self_attn(h, h, bias)
        x = x + self.cross_attn(self.cross_norm(x), enc, None)
        return x + self.ff(self.ff_norm(x))


class T5Small(nn.Module):
    def __init__(self, vocab, d, heads, d_kv, ff, enc_layers, dec_layers, num_buckets, max_distance, eps=1e-6):
        super().__init__()
        self.d, self.nb, self.maxd = d, num_buckets, max_distance
        self.shared = nn.Embedding(vocab, d)
        self.enc_rel_bias = nn.Embedding(num_buckets, heads)
        self.dec_rel_bias = nn.Embedding(num_buckets, heads)
        self.encoder = nn.ModuleList(T5EncLayer(d, heads, d_kv, ff, eps) for _ in range(enc_layers))
        self.enc_norm = RMSNorm(d, eps)
        self.decoder = nn.ModuleList(T5DecLayer(d, heads, d_kv, ff, eps) for _ in range(dec_layers))
        self.dec_norm = RMSNorm(d, eps)

    def position_bias(self, table, t, s, bidirectional, device):
        ctx = torch.arange(t, device=device)[:, None]
        mem = torch.arange(s, device=device)[None, :]
        bucket = relative_position_bucket(mem - ctx, bidirectional, self.nb, self.maxd)
        return table(bucket).permute(2, 0, 1).unsqueeze(0)  # [1, heads, t, s]

    def forward(self, input_ids, decoder_input_ids):
        dev = input_ids.device
        x = self.shared(input_ids)
        s = input_ids.shape[1]
        eb = self.position_bias(self.enc_rel_bias, s, s, True, dev)
        for layer in self.encoder:
            x = layer(x, eb)
        enc = self.enc_norm(x)

        y = self.shared(decoder_input_ids)
        t = decoder_input_ids.shape[1]
        db = self.position_bias(self.dec_rel_bias, t, t, False, dev)
        causal = torch.triu(torch.ones(t, t, dtype=torch.bool, device=dev), diagonal=1)
        db = db.masked_fill(causal, float("-inf"))
        for layer in self.decoder:
            y = layer(y, enc, db)
        y = self.dec_norm(y) * (self.d ** -0.5)
        return F.linear(y, self.shared.weight)  # tied LM head, T5 v1.0 rescaling


# ----------------------------------------------------------------------------- LSTM


class LSTMSmall(nn.Module):
    def __init__(self, features, hidden, layers, out):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, out)

    def forward(self, features):
        y, _ = self.lstm(features)
        return self.head(y)


# ----------------------------------------------------------------------------- helpers


def randomize_(model, seed=1):
    """Norm scales 1 + N(0, 0.1^2), norm biases N(0, 0.05^2), embeddings N(0, 0.5^2)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, (nn.LayerNorm, RMSNorm)):
                m.weight.copy_(1 + 0.1 * torch.randn(m.weight.shape, generator=g))
                if getattr(m, "bias", None) is not None:
                    m.bias.copy_(0.05 * torch.randn(m.bias.shape, generator=g))
            elif isinstance(m, nn.Embedding):
                m.weight.copy_(0.5 * torch.randn(m.weight.shape, generator=g))


def param_stats(model):
    ps = list(model.parameters())
    return sum(p.numel() for p in ps), float(sum(p.detach().double().sum() for p in ps))


def op_histogram(graph, hist):
    for n in graph.node:
        key = n.op_type if n.domain in ("", "ai.onnx") else f"{n.domain}:{n.op_type}"
        hist[key] += 1
        for a in n.attribute:
            if a.type == a.GRAPH:
                op_histogram(a.g, hist)
            for g in a.graphs:
                op_histogram(g, hist)
    return hist


def onnx_info(path):
    import onnx
    from onnx import TensorProto
    m = onnx.load(path)
    hist = op_histogram(m.graph, collections.Counter())
    fhist = collections.Counter()
    for f in m.functions:
        for n in f.node:
            fhist[(f.domain + ":" if f.domain else "") + f.name + "/" + n.op_type] += 1

    def vi(v):
        t = v.type.tensor_type
        shape = [d.dim_param if d.HasField("dim_param") else (d.dim_value if d.HasField("dim_value") else None)
                 for d in t.shape.dim] if t.HasField("shape") else None
        return {"name": v.name, "elem_type": TensorProto.DataType.Name(t.elem_type), "shape": shape}

    with open(path, "rb") as f:
        data = f.read()
    return {
        "file_bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "ir_version": m.ir_version,
        "opset_import": {(i.domain or "ai.onnx"): int(i.version) for i in m.opset_import},
        "producer": f"{m.producer_name} {m.producer_version}".strip(),
        "n_nodes": len(m.graph.node),
        "n_nodes_with_subgraphs": sum(hist.values()),
        "n_initializers": len(m.graph.initializer),
        "initializer_numel": int(sum(int(np.prod(t.dims)) if len(t.dims) else 1 for t in m.graph.initializer)),
        "n_functions": len(m.functions),
        "function_op_hist": dict(fhist.most_common()),
        "inputs": [vi(v) for v in m.graph.input],
        "outputs": [vi(v) for v in m.graph.output],
        "op_histogram": dict(sorted(hist.items(), key=lambda kv: (-kv[1], kv[0]))),
    }


def save_onnx_program(prog, path):
    """Saves an ONNXProgram with the weights inside model.onnx."""
    import onnx
    try:
        prog.save(path, external_data=False)
    except TypeError:
        prog.save(path)
    data = path + ".data"
    if os.path.exists(data) or any(f.startswith(os.path.basename(path) + ".") for f in os.listdir(os.path.dirname(path))):
        m = onnx.load(path)  # pulls external data in
        for f in os.listdir(os.path.dirname(path)):
            if f.startswith(os.path.basename(path) + "."):
                os.remove(os.path.join(os.path.dirname(path), f))
        onnx.save(m, path)


def to_dynamic_shapes(dyn, form):
    """dyn: {input: {axis: name}} -> the form torch.onnx.export(dynamo=True) takes."""
    if form == "str":
        return {k: dict(v) for k, v in dyn.items()}
    from torch.export import Dim
    if form == "Dim":
        dims = {}
        out = {}
        for k, axes in dyn.items():
            out[k] = {}
            for ax, name in axes.items():
                if name not in dims:
                    dims[name] = Dim(name, min=1, max=4096)
                out[k][ax] = dims[name]
        return out
    if form == "Dim.DYNAMIC":
        return {k: {ax: Dim.DYNAMIC for ax in axes} for k, axes in dyn.items()}
    raise ValueError(form)


def ort_compare(path, input_names, inputs, refs, output_names):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.log_severity_level = 3
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    feed = {n: a for n, a in zip(input_names, inputs)}
    sess_in = [i.name for i in sess.get_inputs()]
    if sorted(sess_in) != sorted(input_names):
        feed = {sn: a for sn, a in zip(sess_in, inputs)}
    sess_out = [o.name for o in sess.get_outputs()]
    got = sess.run(None, feed)
    res = []
    for j, ref in enumerate(refs):
        name = output_names[j]
        g = got[sess_out.index(name)] if name in sess_out else got[j]
        r = {"name": name, "shape": list(ref.shape), "ort_shape": list(g.shape)}
        if g.shape != ref.shape:
            r["error"] = "shape mismatch"
        else:
            d = g.astype(np.float64) - ref.astype(np.float64)
            r["max_abs"] = float(np.abs(d).max()) if d.size else 0.0
            nref = float(np.linalg.norm(ref.astype(np.float64)))
            r["rel_l2"] = float(np.linalg.norm(d) / nref) if nref > 0 else float(np.linalg.norm(d))
            r["ref_max_abs"] = float(np.abs(ref).max()) if ref.size else 0.0
        res.append(r)
    return res


def run_torch(model, inputs):
    with torch.no_grad():
        out = model(*[torch.from_numpy(a) for a in inputs])
    if isinstance(out, torch.Tensor):
        out = (out,)
    return [o.detach().cpu().numpy().astype(np.float32) if o.dtype.is_floating_point else o.detach().cpu().numpy()
            for o in out]


def write_set(d, input_names, inputs, output_names, outputs):
    os.makedirs(d, exist_ok=True)
    files = []
    for k, (n, a) in enumerate(zip(input_names, inputs)):
        f = f"input_{k}_{n}.npy"
        np.save(os.path.join(d, f), a)
        files.append(f)
    for k, (n, a) in enumerate(zip(output_names, outputs)):
        f = f"output_{k}_{n}.npy"
        np.save(os.path.join(d, f), a)
        files.append(f)
    return files


def ok_errors(cmp, tol=1e-3):
    return all("error" not in r and r["rel_l2"] < tol for r in cmp)


def export_and_check(spec, model, mdir):
    """Tries the exporter plans in order; keeps the first whose ORT output matches torch at both sizes."""
    path = os.path.join(mdir, "model.onnx")
    in_names, out_names, dyn = spec["input_names"], spec["output_names"], spec["dynamic"]
    sets = spec["sets"]  # [(inputs, refs)] main then other
    plans = []
    for opset in (20, 18):
        for form in ("str", "Dim", "Dim.DYNAMIC"):
            plans.append(("dynamo", opset, form))
    if spec.get("torchscript_fallback"):
        plans += [("torchscript", 20, "dynamic_axes"), ("torchscript", 17, "dynamic_axes")]
    attempts = []
    kept = None
    tmp = os.path.join(mdir, "_try.onnx")
    t_start = time.time()
    for exporter, opset, form in plans:
        if exporter == "dynamo" and attempts and time.time() - t_start > spec.get("dynamo_seconds", 150):
            attempts.append({"exporter": exporter, "opset_version": opset, "dynamic_shapes": form,
                             "ok": False, "error": "not tried: time for dynamo attempts used up"})
            continue
        att = {"exporter": exporter, "opset_version": opset, "dynamic_shapes": form}
        t0 = time.time()
        try:
            args = tuple(torch.from_numpy(a) for a in sets[0][0])
            for f in os.listdir(mdir):
                if f.startswith("_try.onnx"):
                    os.remove(os.path.join(mdir, f))
            if exporter == "dynamo":
                prog = torch.onnx.export(model, args, dynamo=True, opset_version=opset,
                                         dynamic_shapes=to_dynamic_shapes(dyn, form),
                                         input_names=in_names, output_names=out_names)
                save_onnx_program(prog, tmp)
            else:
                torch.onnx.export(model, args, tmp, dynamo=False, opset_version=opset,
                                  input_names=in_names, output_names=out_names,
                                  dynamic_axes={k: dict(v) for k, v in dyn.items()})
            att["export_seconds"] = round(time.time() - t0, 2)
            import onnx
            m = onnx.load(tmp)
            att["opset_import"] = {(i.domain or "ai.onnx"): int(i.version) for i in m.opset_import}
            try:
                onnx.checker.check_model(m)
                att["onnx_checker"] = "ok"
            except Exception as e:  # noqa: BLE001
                att["onnx_checker"] = f"{type(e).__name__}: {str(e)[:300]}"
            cmps = []
            for inputs, refs in sets:
                try:
                    cmps.append(ort_compare(tmp, in_names, inputs, refs, out_names))
                except Exception as e:  # noqa: BLE001
                    cmps.append([{"error": f"ORT: {type(e).__name__}: {str(e)[:500]}"}])
            att["ort_ok_main_size"] = ok_errors(cmps[0])
            att["ort_ok_other_size"] = ok_errors(cmps[1])
            att["ok"] = att["ort_ok_main_size"] and att["ort_ok_other_size"]
            if not att["ok"]:
                att["ort"] = cmps
            if kept is None or (att["ok"] and not kept[0]["ok"]):
                os.replace(tmp, path)
                kept = (att, cmps)
        except Exception as e:  # noqa: BLE001
            att["export_seconds"] = round(time.time() - t0, 2)
            att["ok"] = False
            msg = f"{type(e).__name__}: {e}"
            att["error"] = msg[:1500]
            print(f"  {exporter} opset {opset} {form}: FAILED {msg[:600]}")
            traceback.print_exc(limit=3)
        attempts.append(att)
        print(f"  attempt {att}"[:800])
        if att["ok"]:
            break
    for f in os.listdir(mdir):
        if f.startswith("_try.onnx"):
            os.remove(os.path.join(mdir, f))
    return attempts, kept


# ----------------------------------------------------------------------------- the models


def ids(gen, shape, vocab):
    return torch.randint(0, vocab, shape, generator=gen, dtype=torch.int64).numpy()


def build_specs():
    specs = {}

    def gpt2_model():
        cfg = dict(vocab_size=1000, hidden_size=128, num_layers=2, num_heads=4, mlp_size=512,
                   max_positions=2048, gelu="tanh", attention="F.scaled_dot_product_attention(is_causal=True)",
                   lm_head="tied to wte")
        torch.manual_seed(0)
        m = GPT2Small(cfg["vocab_size"], cfg["hidden_size"], cfg["num_layers"], cfg["num_heads"],
                      cfg["mlp_size"], cfg["max_positions"])
        randomize_(m)
        m.eval()
        return m, cfg

    def gpt2():
        m, cfg = gpt2_model()
        g = torch.Generator().manual_seed(123)
        main = [ids(g, (2, 16), cfg["vocab_size"])]
        other = [ids(g, (3, 9), cfg["vocab_size"])]
        return m, cfg, dict(input_names=["input_ids"], output_names=["logits"],
                            dynamic={"input_ids": {0: "batch", 1: "seq"}}, inputs=[main, other])

    def llama_core():
        cfg = dict(vocab_size=1000, hidden_size=128, num_layers=2, num_q_heads=4, num_kv_heads=2,
                   head_dim=32, intermediate_size=256, rope_theta=10000.0, rms_norm_eps=1e-5,
                   mlp="SwiGLU", lm_head="untied")
        torch.manual_seed(0)
        core = LlamaCore(cfg["vocab_size"], cfg["hidden_size"], cfg["num_layers"], cfg["num_q_heads"],
                         cfg["num_kv_heads"], cfg["intermediate_size"], cfg["rope_theta"], cfg["rms_norm_eps"])
        randomize_(core)
        core.eval()
        return core, cfg

    def llama():
        core, cfg = llama_core()
        g = torch.Generator().manual_seed(123)
        main = [ids(g, (2, 16), cfg["vocab_size"])]
        other = [ids(g, (3, 9), cfg["vocab_size"])]
        return LlamaFull(core), cfg, dict(input_names=["input_ids"], output_names=["logits"],
                                          dynamic={"input_ids": {0: "batch", 1: "seq"}}, inputs=[main, other])

    def decode_step(step_module, cfg, same_weights_as, heads, prefill, full_sequence):
        """The spec of a decode step with per-layer caches: for batches of 2 and 3 after 16
        and 7 cached positions, a random prefix run through `prefill` (ids -> logits,
        caches) gives the caches and one new token the step's input; the step's logits are
        checked against `full_sequence` (ids -> logits) at the last position."""
        cfg = dict(cfg, decode_step="input_ids [batch, 1] + per-layer past [batch, %s, past, head_dim]" % heads,
                   same_weights_as=same_weights_as)
        g = torch.Generator().manual_seed(321)
        sets = []
        checks = []
        for b, past in ((2, 16), (3, 7)):
            prefix = ids(g, (b, past), cfg["vocab_size"])
            tok = ids(g, (b, 1), cfg["vocab_size"])
            with torch.no_grad():
                _, presents = prefill(torch.from_numpy(prefix))
                full = full_sequence(torch.from_numpy(np.concatenate([prefix, tok], axis=1)))
                step = step_module(torch.from_numpy(tok), *[t for kv in presents for t in kv])[0]
            # consistency of the cached decode step with the full sequence
            checks.append({"batch": b, "past": past,
                           "max_abs_decode_vs_full_last_position": float((step[:, -1] - full[:, -1]).abs().max())})
            inputs = [tok]
            for k, v in presents:
                inputs += [k.numpy().copy(), v.numpy().copy()]
            sets.append(inputs)
        cfg["cache_consistency_check_torch"] = checks
        pdim = {0: "batch", 2: "past"}
        names = ["input_ids", "past_key_0", "past_value_0", "past_key_1", "past_value_1"]
        return step_module, cfg, dict(
            input_names=names,
            output_names=["logits", "present_key_0", "present_value_0", "present_key_1", "present_value_1"],
            dynamic={"input_ids": {0: "batch"}, "past_key_0": pdim, "past_value_0": pdim,
                     "past_key_1": pdim, "past_value_1": pdim},
            inputs=sets)

    def llama_kv():
        core, cfg = llama_core()
        return decode_step(LlamaDecodeStep(core), cfg, "llama_small", "kv_heads",
                           lambda x: core(x), lambda x: core(x)[0])

    def gpt2_kv():
        m, cfg = gpt2_model()
        return decode_step(GPT2DecodeStep(m), cfg, "gpt2_small", "heads",
                           lambda x: m.step(x, m.empty_pasts(x.shape[0])), m)

    def vit():
        cfg = dict(image_size=32, patch_size=4, channels=3, hidden_size=128, num_layers=2, num_heads=4,
                   mlp_size=256, num_classes=10, gelu="exact", layer_norm="pre-LN")
        torch.manual_seed(0)
        m = ViTSmall(cfg["image_size"], cfg["patch_size"], cfg["hidden_size"], cfg["num_layers"],
                     cfg["num_heads"], cfg["mlp_size"], cfg["num_classes"])
        randomize_(m)
        g = torch.Generator().manual_seed(123)
        main = [torch.randn(2, 3, 32, 32, generator=g).numpy()]
        other = [torch.randn(5, 3, 32, 32, generator=g).numpy()]
        return m, cfg, dict(input_names=["pixel_values"], output_names=["logits"],
                            dynamic={"pixel_values": {0: "batch"}}, inputs=[main, other])

    def t5():
        cfg = dict(vocab_size=512, d_model=128, num_heads=4, d_kv=32, d_ff=256, encoder_layers=2,
                   decoder_layers=2, relative_attention_num_buckets=32, relative_attention_max_distance=128,
                   feed_forward="ReLU", norm="RMS (no mean subtraction, no bias)",
                   lm_head="tied to shared embedding, scaled by d_model**-0.5")
        torch.manual_seed(0)
        m = T5Small(cfg["vocab_size"], cfg["d_model"], cfg["num_heads"], cfg["d_kv"], cfg["d_ff"],
                    cfg["encoder_layers"], cfg["decoder_layers"], cfg["relative_attention_num_buckets"],
                    cfg["relative_attention_max_distance"])
        randomize_(m)
        g = torch.Generator().manual_seed(123)
        main = [ids(g, (2, 16), cfg["vocab_size"]), ids(g, (2, 8), cfg["vocab_size"])]
        other = [ids(g, (3, 11), cfg["vocab_size"]), ids(g, (3, 5), cfg["vocab_size"])]
        return m, cfg, dict(input_names=["input_ids", "decoder_input_ids"], output_names=["logits"],
                            dynamic={"input_ids": {0: "batch", 1: "seq"},
                                     "decoder_input_ids": {0: "batch", 1: "decoder_seq"}},
                            inputs=[main, other])

    def lstm():
        cfg = dict(input_size=16, hidden_size=32, num_layers=2, batch_first=True, out_features=8)
        torch.manual_seed(0)
        m = LSTMSmall(cfg["input_size"], cfg["hidden_size"], cfg["num_layers"], cfg["out_features"])
        g = torch.Generator().manual_seed(123)
        main = [torch.randn(2, 16, 16, generator=g).numpy()]
        other = [torch.randn(3, 7, 16, generator=g).numpy()]
        return m, cfg, dict(input_names=["features"], output_names=["output"],
                            dynamic={"features": {0: "batch", 1: "seq"}}, inputs=[main, other],
                            torchscript_fallback=True)

    specs["gpt2_small"] = gpt2
    specs["gpt2_small_kv"] = gpt2_kv
    specs["llama_small"] = llama
    specs["llama_small_kv"] = llama_kv
    specs["vit_small"] = vit
    specs["t5_small"] = t5
    specs["lstm_small"] = lstm
    return specs


def do_model(name, builder, out_root):
    mdir = os.path.join(out_root, name)
    if os.path.exists(mdir):
        shutil.rmtree(mdir)
    os.makedirs(mdir)
    model, cfg, spec = builder()
    model.eval()
    n_params, checksum = param_stats(model)
    sets = []
    for inputs in spec["inputs"]:
        sets.append((inputs, run_torch(model, inputs)))
    spec["sets"] = sets
    files_main = write_set(mdir, spec["input_names"], sets[0][0], spec["output_names"], sets[0][1])
    files_other = write_set(os.path.join(mdir, "other_size"), spec["input_names"], sets[1][0],
                            spec["output_names"], sets[1][1])
    attempts, kept = export_and_check(spec, model, mdir)
    meta = {
        "name": name,
        "config": cfg,
        "param_count": n_params,
        "param_checksum": checksum,
        "torch_version": torch.__version__,
        "export_attempts": attempts,
        "export_ok": kept is not None,
    }
    if kept is not None:
        att, cmps = kept
        meta["exporter"] = att["exporter"]
        meta["exporter_opset_version_requested"] = att["opset_version"]
        meta["dynamic_shapes_form"] = att["dynamic_shapes"]
        meta["onnx"] = onnx_info(os.path.join(mdir, "model.onnx"))
        meta["opset"] = meta["onnx"]["opset_import"].get("ai.onnx")
        meta["dynamic_axes"] = {k: {str(a): n for a, n in v.items()} for k, v in spec["dynamic"].items()}
        for key, (inputs, _), cmp in (("ort_cpu_vs_torch_test_input", sets[0], cmps[0]),
                                      ("ort_cpu_vs_torch_other_shape", sets[1], cmps[1])):
            meta[key] = {"input_shapes": {n: list(a.shape) for n, a in zip(spec["input_names"], inputs)},
                         "outputs": cmp}
    try:
        import onnxruntime
        meta["onnxruntime_version"] = onnxruntime.__version__
        import onnx
        meta["onnx_version"] = onnx.__version__
    except Exception:  # noqa: BLE001
        pass
    meta["files"] = files_main
    meta["other_size_files"] = ["other_size/" + f for f in files_other]
    meta["reference"] = "torch fp32 eager on CPU, same weights as model.onnx"
    with open(os.path.join(mdir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    torch.set_num_threads(max(1, min(8, os.cpu_count() or 1)))
    os.makedirs(args.out, exist_ok=True)
    specs = build_specs()
    names = [n for n in specs if not args.only or n in args.only.split(",")]
    summary = {"torch": torch.__version__, "models": {}}
    for name in names:
        print(f"=== {name}", flush=True)
        t0 = time.time()
        try:
            meta = do_model(name, specs[name], args.out)
            s = {"export_ok": meta["export_ok"], "seconds": round(time.time() - t0, 1)}
            if meta["export_ok"]:
                s.update(exporter=meta["exporter"], opset=meta["opset"], file_bytes=meta["onnx"]["file_bytes"],
                         ok=meta["export_attempts"][-1]["ok"] if meta["export_attempts"] else False,
                         attempts=len(meta["export_attempts"]),
                         ort=[{k: r.get(k) for k in ("name", "max_abs", "rel_l2", "error")}
                              for key in ("ort_cpu_vs_torch_test_input", "ort_cpu_vs_torch_other_shape")
                              for r in meta[key]["outputs"]],
                         op_histogram=meta["onnx"]["op_histogram"])
            summary["models"][name] = s
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            summary["models"][name] = {"export_ok": False, "error": f"{type(e).__name__}: {e}"[:2000]}
        print(json.dumps(summary["models"][name], indent=1)[:3000], flush=True)
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
