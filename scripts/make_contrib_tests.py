#!/usr/bin/python3
"""Writes test/data/contrib: conformance cases for the com.microsoft contrib ops that
lib/Decompose/Contrib.cpp decomposes, with ONNX Runtime's outputs as the reference.

    /usr/bin/python3 scripts/make_contrib_tests.py [--out DIR]

Each case is one node in a model (opset ai.onnx 17 + com.microsoft 1) in the corpus layout:
DIR/<case>/model.onnx, input_<k>_<name>.npy (random, fixed seed) and output_<k>_<name>.npy,
written by onnxruntime-node 1.30 (CPU) through ../shared/bench/ort-run.js. Needs numpy, onnx
and node with onnxruntime-node under ~/.cache/tcc/onnxruntime-node (scripts/setup.sh).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
import onnx.numpy_helper
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE_PATH = os.path.expanduser("~/.cache/tcc/onnxruntime-node/node_modules")
ORT_RUN = os.path.join(ROOT, "..", "shared", "bench", "ort-run.js")
MS = "com.microsoft"
RNG = np.random.default_rng(20240617)


def randn(*shape, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def elem_type(array):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[array.dtype]


def run_ort(model_path, input_paths, out_dir):
    """ONNX Runtime's outputs for the inputs, in the model's output order."""
    args = ["node", ORT_RUN, model_path, "--runs", "1", "--warmup", "0", "--threads", "1",
            "--output-dir", out_dir]
    for path in input_paths:
        args += ["--input", path]
    env = dict(os.environ, NODE_PATH=NODE_PATH)
    result = subprocess.run(args, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("ort-run failed for %s:\n%s" % (model_path, result.stderr))
    outputs, k = [], 0
    while os.path.exists(os.path.join(out_dir, "output_%d.npy" % k)):
        outputs.append(np.load(os.path.join(out_dir, "output_%d.npy" % k)))
        k += 1
    return outputs


def write_case(root, name, op, inputs, outputs, domain=MS, constants=(), nodes=(),
               initializers=(), output_type=TensorProto.FLOAT, **attrs):
    """One node `op` with `inputs` (a list of (name, array), None for an absent optional
    input; those named in `constants` become initializers, those with array None are
    computed by `nodes` from the others and `initializers`) and `outputs` (names, "" for
    an output not requested) of element type `output_type`."""
    given = [i for i in inputs if i]
    graph_inputs = [(n, a) for n, a in given if n not in constants and a is not None]
    node = helper.make_node(op, [i[0] if i else "" for i in inputs], list(outputs),
                            domain=domain, name=name, **attrs)
    constant_arrays = [(n, a) for n, a in given if n in constants] + list(initializers)
    graph = helper.make_graph(
        list(nodes) + [node], name,
        [helper.make_tensor_value_info(n, elem_type(a), a.shape) for n, a in graph_inputs],
        [helper.make_tensor_value_info(o, output_type, None) for o in outputs if o],
        [onnx.numpy_helper.from_array(a, n) for n, a in constant_arrays])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    folder = os.path.join(root, name)
    os.makedirs(folder)
    onnx.save(model, os.path.join(folder, "model.onnx"))
    paths = []
    for k, (n, a) in enumerate(graph_inputs):
        paths.append(os.path.join(folder, "input_%d_%s.npy" % (k, n)))
        np.save(paths[-1], a)
    with tempfile.TemporaryDirectory() as scratch:
        results = run_ort(os.path.join(folder, "model.onnx"), paths, scratch)
    for k, (o, r) in enumerate(zip([o for o in outputs if o], results)):
        np.save(os.path.join(folder, "output_%d_%s.npy" % (k, o)), r)


def pack(values, bits):
    """Packs `bits`-wide fields along the last dim into bytes, low bits first."""
    per = 8 // bits
    pad = (-values.shape[-1]) % per
    values = np.concatenate([values, np.zeros(values.shape[:-1] + (pad,), values.dtype)], -1)
    values = values.reshape(values.shape[:-1] + (-1, per)).astype(np.uint32)
    out = np.zeros(values.shape[:-1], np.uint32)
    for j in range(per):
        out |= values[..., j] << (j * bits)
    return out.astype(np.uint8)


def activations(root):
    write_case(root, "fusedmatmul_basic", "FusedMatMul",
               [("A", randn(2, 3, 4)), ("B", randn(4, 5))], ["Y"])
    write_case(root, "fusedmatmul_trans_alpha", "FusedMatMul",
               [("A", randn(2, 4, 3)), ("B", randn(2, 5, 4))], ["Y"],
               alpha=0.5, transA=1, transB=1)
    write_case(root, "fusedmatmul_broadcast", "FusedMatMul",
               [("A", randn(2, 1, 3, 4)), ("B", randn(3, 5, 4))], ["Y"], transB=1, alpha=2.0)
    write_case(root, "fusedmatmul_transbatch", "FusedMatMul",
               [("A", randn(4, 2, 3, 5)), ("B", randn(6, 2, 3, 5))], ["Y"],
               transBatchA=1, transBatchB=1, transB=1)
    write_case(root, "fusedmatmul_transbatch_transa", "FusedMatMul",
               [("A", randn(4, 2, 5, 3)), ("B", randn(2, 5, 4, 6))], ["Y"],
               transBatchA=1, transA=1, alpha=-1.5)
    write_case(root, "biasgelu", "BiasGelu", [("A", randn(2, 3, 8, scale=2)), ("B", randn(8))],
               ["C"])
    write_case(root, "fastgelu", "FastGelu", [("X", randn(2, 3, 8, scale=2))], ["Y"])
    write_case(root, "fastgelu_bias", "FastGelu",
               [("X", randn(2, 3, 8, scale=2)), ("bias", randn(8))], ["Y"])
    write_case(root, "gelu", "Gelu", [("X", randn(3, 16, scale=3))], ["Y"])
    write_case(root, "quickgelu", "QuickGelu", [("X", randn(3, 16, scale=3))], ["Y"])
    write_case(root, "quickgelu_alpha", "QuickGelu", [("X", randn(2, 3, 8, scale=3))], ["Y"],
               alpha=1.0)


def normalizations(root):
    x, skip, gamma, beta, bias = randn(2, 3, 16), randn(2, 3, 16), randn(16), randn(16), randn(16)
    write_case(root, "skiplayernorm", "SkipLayerNormalization",
               [("input", x), ("skip", skip), ("gamma", gamma), ("beta", beta)], ["output"],
               epsilon=1e-5)
    write_case(root, "skiplayernorm_bias_all_outputs", "SkipLayerNormalization",
               [("input", x), ("skip", skip), ("gamma", gamma), ("beta", beta), ("bias", bias)],
               ["output", "mean", "inv_std_var", "input_skip_bias_sum"], epsilon=1e-5)
    write_case(root, "skiplayernorm_skip2d_nobeta", "SkipLayerNormalization",
               [("input", x), ("skip", randn(3, 16)), ("gamma", gamma), None, ("bias", bias)],
               ["output", "", "", "input_skip_bias_sum"])
    write_case(root, "skipsimplifiedlayernorm", "SkipSimplifiedLayerNormalization",
               [("input", x), ("skip", skip), ("gamma", gamma)], ["output"], epsilon=1e-6)
    write_case(root, "skipsimplifiedlayernorm_bias_all_outputs",
               "SkipSimplifiedLayerNormalization",
               [("input", randn(5, 16)), ("skip", randn(5, 16)), ("gamma", gamma),
                ("bias", bias)], ["output", "mean", "inv_std_var", "input_skip_bias_sum"])
    write_case(root, "simplifiedlayernorm", "SimplifiedLayerNormalization",
               [("X", x), ("scale", gamma)], ["Y", "inv_std_var"], domain="", epsilon=1e-6)
    write_case(root, "simplifiedlayernorm_axis1", "SimplifiedLayerNormalization",
               [("X", randn(2, 3, 4)), ("scale", randn(3, 4))], ["Y"], domain="", axis=1)


def rotary(root):
    cos, sin = randn(16, 4), randn(16, 4)
    positions = RNG.integers(0, 16, (2, 3)).astype(np.int64)
    write_case(root, "rotary_3d", "RotaryEmbedding",
               [("input", randn(2, 3, 16)), ("position_ids", positions), ("cos_cache", cos),
                ("sin_cache", sin)], ["output"])
    write_case(root, "rotary_3d_interleaved", "RotaryEmbedding",
               [("input", randn(2, 3, 16)), ("position_ids", positions), ("cos_cache", cos),
                ("sin_cache", sin)], ["output"], interleaved=1)
    write_case(root, "rotary_4d_start_position", "RotaryEmbedding",
               [("input", randn(2, 2, 3, 8)), ("position_ids", np.array([5], np.int64)),
                ("cos_cache", cos), ("sin_cache", sin)], ["output"])
    write_case(root, "rotary_partial_num_heads", "RotaryEmbedding",
               [("input", randn(2, 3, 32)), ("position_ids", positions), ("cos_cache", cos),
                ("sin_cache", sin)], ["output"], num_heads=2, rotary_embedding_dim=8,
               interleaved=1)


def mha_inputs(q, k=None, v=None, bias=None, mask=None, attn_bias=None, past_k=None,
               past_v=None):
    named = [("query", q), ("key", k), ("value", v), ("bias", bias), ("key_padding_mask", mask),
             ("attention_bias", attn_bias), ("past_key", past_k), ("past_value", past_v)]
    inputs = [(n, a) if a is not None else None for n, a in named]
    while inputs[-1] is None:
        inputs.pop()
    return inputs


def multi_head_attention(root):
    B, S, N, H = 2, 3, 2, 4
    write_case(root, "mha_basic", "MultiHeadAttention",
               mha_inputs(randn(B, S, N * H), randn(B, 5, N * H), randn(B, 5, N * H)),
               ["output"], num_heads=N)
    mask = np.ones((B, S), np.int32)
    mask[0, 2] = 0
    mask[1, 0] = 0
    write_case(root, "mha_bias_mask", "MultiHeadAttention",
               mha_inputs(randn(B, S, N * H), randn(B, S, N * H), randn(B, S, N * 6),
                          bias=randn(2 * N * H + N * 6), mask=mask),
               ["output"], num_heads=N, scale=0.3)
    write_case(root, "mha_key_lengths_attention_bias", "MultiHeadAttention",
               mha_inputs(randn(B, S, N * H), randn(B, 4, N * H), randn(B, 4, N * H),
                          mask=np.array([3, 4], np.int32), attn_bias=randn(1, N, S, 4)),
               ["output"], num_heads=N)
    mask3 = (RNG.random((B, S, 4)) > 0.4).astype(np.int32)
    mask3[..., 0] = 1
    write_case(root, "mha_mask3d_filter", "MultiHeadAttention",
               mha_inputs(randn(B, S, N * H), randn(B, 4, N * H), randn(B, 4, N * H), mask=mask3),
               ["output"], num_heads=N, mask_filter_value=-50.0)
    write_case(root, "mha_past_causal", "MultiHeadAttention",
               mha_inputs(randn(B, S, N * H), randn(B, S, N * H), randn(B, S, N * H),
                          bias=randn(3 * N * H), past_k=randn(B, N, 2, H),
                          past_v=randn(B, N, 2, H)),
               ["output", "present_key", "present_value"], num_heads=N, unidirectional=1)
    pmask = np.ones((B, 3), np.int32)
    pmask[1, 0] = 0
    write_case(root, "mha_decode_step", "MultiHeadAttention",
               mha_inputs(randn(B, 1, N * H), randn(B, 1, N * H), randn(B, 1, N * H), mask=pmask,
                          past_k=randn(B, N, 2, H), past_v=randn(B, N, 2, H)),
               ["output", "present_key", "present_value"], num_heads=N, unidirectional=1)
    write_case(root, "mha_cross_bnsh", "MultiHeadAttention",
               mha_inputs(randn(B, S, N * H), randn(B, N, 5, H), randn(B, N, 5, H),
                          bias=randn(3 * N * H)),
               ["output"], num_heads=N)


def gqa_case(root, name, B, S, P, N, Nkv, H, seqlens=None, packed=False, rotary=None,
             attn_bias=False, total="input", **attrs):
    """total_sequence_length P + S as an input, a constant, or computed from the shapes of
    past_key and query (Shape, Gather, Add, Cast to int32), as exporters write it."""
    q = randn(B, S, (N + 2 * Nkv) * H) if packed else randn(B, S, N * H)
    k = None if packed else randn(B, S, Nkv * H)
    v = None if packed else randn(B, S, Nkv * H)
    seqlens = np.array(seqlens if seqlens is not None else [P + S - 1] * B, np.int32)
    total_value = np.array(P + S, np.int32)
    inputs = [("query", q), ("key", k) if k is not None else None,
              ("value", v) if v is not None else None]
    inputs += [("past_key", randn(B, Nkv, P, H)), ("past_value", randn(B, Nkv, P, H))]
    inputs += [("seqlens_k", seqlens),
               ("total_sequence_length", None if total == "shapes" else total_value)]
    nodes, initializers = [], []
    if total == "shapes":
        nodes = [helper.make_node("Shape", ["past_key"], ["past_shape"]),
                 helper.make_node("Gather", ["past_shape", "two"], ["past_length"], axis=0),
                 helper.make_node("Shape", ["query"], ["query_shape"]),
                 helper.make_node("Gather", ["query_shape", "one"], ["new_length"], axis=0),
                 helper.make_node("Add", ["past_length", "new_length"], ["total64"]),
                 helper.make_node("Cast", ["total64"], ["total_sequence_length"],
                                  to=TensorProto.INT32)]
        initializers = [("two", np.array(2, np.int64)), ("one", np.array(1, np.int64))]
    if rotary:
        inputs += [("cos_cache", randn(16, rotary // 2)), ("sin_cache", randn(16, rotary // 2))]
    if attn_bias:
        inputs += [None] * (9 - len(inputs)) + [None, ("attention_bias", randn(1, N, S, P + S))]
    # present_key/value are always requested: without them ORT attends only to the new keys.
    write_case(root, name, "GroupQueryAttention", inputs,
               ["output", "present_key", "present_value"], num_heads=N, kv_num_heads=Nkv,
               do_rotary=int(bool(rotary)), nodes=nodes, initializers=initializers,
               constants=("total_sequence_length",) if total == "constant" else (), **attrs)


def group_query_attention(root):
    gqa_case(root, "gqa_prompt", 2, 4, 0, 4, 2, 8)
    gqa_case(root, "gqa_prompt_padded", 2, 4, 0, 4, 2, 8, seqlens=[3, 1])
    gqa_case(root, "gqa_decode_ragged", 2, 1, 5, 4, 2, 8, seqlens=[5, 2])
    # As a graph input, total_sequence_length makes the cache length depend on data (the
    # compiled cases bind it as a constant); as a constant or from shapes it does not.
    gqa_case(root, "gqa_decode_constant_total", 2, 1, 4, 4, 2, 8, seqlens=[4, 3],
             total="constant")
    gqa_case(root, "gqa_decode_total_from_shapes", 2, 1, 4, 4, 2, 8, seqlens=[4, 2],
             total="shapes")
    gqa_case(root, "gqa_decode_window_softcap", 2, 1, 6, 4, 1, 8, seqlens=[6, 4],
             local_window_size=3, softcap=2.0, scale=0.4)
    gqa_case(root, "gqa_prompt_window", 1, 5, 0, 2, 2, 8, local_window_size=2)
    gqa_case(root, "gqa_rotary_decode", 2, 1, 3, 4, 2, 16, seqlens=[3, 1], rotary=16)
    gqa_case(root, "gqa_rotary_interleaved_partial", 2, 3, 0, 2, 1, 32, rotary=16,
             rotary_interleaved=1)
    gqa_case(root, "gqa_packed_qkv", 2, 1, 3, 4, 2, 8, packed=True)
    gqa_case(root, "gqa_subsequent_prompt_bias", 1, 3, 4, 4, 2, 8, attn_bias=True)


def attention(root):
    B, S, Din, N = 2, 3, 6, 2

    def case(name, hidden=(8, 8, 8), mask=None, past=0, attn_bias=False, outputs=("output",),
             **attrs):
        x, w, b = randn(B, S, Din), randn(Din, sum(hidden)), randn(sum(hidden))
        inputs = [("input", x), ("weights", w), ("bias", b)]
        inputs.append(("mask_index", mask) if mask is not None else None)
        inputs.append(("past", randn(2, B, N, past, hidden[1] // N)) if past else None)
        inputs.append(("attention_bias", randn(1, N, S, past + S)) if attn_bias else None)
        while inputs[-1] is None:
            inputs.pop()
        if hidden != (8, 8, 8):
            attrs["qkv_hidden_sizes"] = list(hidden)
        write_case(root, name, "Attention", inputs, list(outputs), num_heads=N, **attrs)

    case("attention_basic")
    case("attention_attention_bias", attn_bias=True)
    case("attention_key_lengths", mask=np.array([2, 3], np.int32))
    case("attention_ends_starts", mask=np.array([3, 2, 1, 0], np.int32))
    raw = np.ones((B, S), np.int32)
    raw[0, 1] = 0
    case("attention_raw_mask_causal", mask=raw, unidirectional=1, mask_filter_value=-100.0)
    mask3 = (RNG.random((B, S, S)) > 0.4).astype(np.int32)
    mask3[..., 0] = 1
    case("attention_mask3d_qkv_sizes", hidden=(8, 8, 12), mask=mask3, scale=0.25)
    raw5 = np.ones((B, 5), np.int32)
    raw5[1, 0] = 0
    case("attention_past_present", mask=raw5, past=2, unidirectional=1,
         outputs=("output", "present"))


def matmul_nbits(root):
    def case(name, K, N, block, bits=4, zero_points="uint8", bias=False, a_shape=(2, 3)):
        blocks = (K + block - 1) // block
        q = RNG.integers(0, 2 ** bits, (N, blocks, block)).astype(np.uint8)
        inputs = [("A", randn(*a_shape, K)), ("B", pack(q, bits)),
                  ("scales", (RNG.random((N, blocks)) * 0.1 + 0.01).astype(np.float32))]
        if zero_points == "uint8":
            inputs.append(("zero_points", pack(RNG.integers(0, 2 ** bits, (N, blocks)), bits)))
        elif zero_points == "float":
            inputs.append(("zero_points", (RNG.random((N, blocks)) * 2 ** bits).astype(np.float32)))
        else:
            inputs.append(None)
        if bias:
            inputs += [None, ("bias", randn(N))]
        while inputs[-1] is None:
            inputs.pop()
        write_case(root, name, "MatMulNBits", inputs, ["Y"], K=K, N=N, bits=bits,
                   block_size=block)

    case("matmulnbits_zero_points", 64, 16, 32)
    case("matmulnbits_no_zero_points", 64, 16, 16, zero_points=None)
    case("matmulnbits_odd_blocks_bias", 48, 8, 16, bias=True, a_shape=(5,))
    case("matmulnbits_k_not_multiple", 40, 8, 16)
    case("matmulnbits_float_zero_points", 32, 8, 16, zero_points="float")
    case("matmulnbits_8bit", 32, 8, 16, bits=8)
    case("matmulnbits_2bit", 64, 8, 32, bits=2, a_shape=(1, 2, 3))


def quantized(root):
    """ONNX Runtime's quantized ops (its tool's QOperator format and its optimizer's fusions):
    scales and zero points are initializers, as the tool writes them."""
    U8, I8 = TensorProto.UINT8, TensorProto.INT8

    def u8(*shape):
        return RNG.integers(0, 256, shape).astype(np.uint8)

    def s8(*shape):
        return RNG.integers(-128, 128, shape).astype(np.int8)

    def f(v):
        return np.array(v, np.float32)

    def case(name, op, inputs, output_type, **attrs):
        constants = [i[0] for i in inputs if i and i[0][:2] in ("s_", "z_", "k_")]
        write_case(root, name, op, inputs, ["Y"], constants=constants, output_type=output_type,
                   **attrs)

    def params(prefix, scale, zero_point):
        return [("s_" + prefix, f(scale)), ("z_" + prefix, zero_point) if zero_point is not None
                else None]

    case("qlinearadd_broadcast", "QLinearAdd",
         [("A", u8(2, 3, 4, 5))] + params("a", 0.05, np.uint8(120)) + [("B", u8(4, 1))]
         + params("b", 0.03, np.uint8(130)) + params("c", 0.07, np.uint8(125)), U8)
    case("qlinearadd_int8", "QLinearAdd",
         [("A", s8(3, 8))] + params("a", 0.02, np.int8(5)) + [("B", s8(1, 8))]
         + params("b", 0.04, np.int8(-6)) + params("c", 0.05, np.int8(-4)), I8)
    case("qlinearmul", "QLinearMul",
         [("A", u8(2, 8))] + params("a", 0.05, np.uint8(128)) + [("B", u8(8))]
         + params("b", 0.02, np.uint8(100)) + params("c", 0.1, np.uint8(90)), U8)
    case("qlinearmul_int8", "QLinearMul",
         [("A", s8(4, 6))] + params("a", 0.03, np.int8(-4)) + [("B", s8(4, 6))]
         + params("b", 0.05, np.int8(7)) + params("c", 0.2, np.int8(-10)), I8)
    case("qlinearsigmoid", "QLinearSigmoid",
         [("X", u8(4, 16))] + params("x", 0.05, np.uint8(128)) + params("y", 1 / 256, np.uint8(0)),
         U8)
    case("qlinearleakyrelu_int8", "QLinearLeakyRelu",
         [("X", s8(4, 16))] + params("x", 0.04, np.int8(-3)) + params("y", 0.03, np.int8(-20)),
         I8, alpha=0.1)
    case("qlinearsoftmax", "QLinearSoftmax",
         [("X", u8(3, 10))] + params("x", 0.1, np.uint8(100)) + params("y", 1 / 256, np.uint8(0)),
         U8, axis=-1, opset=13)
    case("qlinearsoftmax_axis0", "QLinearSoftmax",
         [("X", u8(4, 6))] + params("x", 0.05, np.uint8(100)) + params("y", 1 / 256, np.uint8(0)),
         U8, axis=0, opset=13)
    case("qlinearsoftmax_int8_opset11", "QLinearSoftmax",
         [("X", s8(2, 3, 4))] + params("x", 0.02, np.int8(0))
         + params("y", 1 / 256, np.int8(-128)), I8, axis=1, opset=11)
    case("qlinearglobalaveragepool", "QLinearGlobalAveragePool",
         [("X", u8(2, 4, 5, 6))] + params("x", 0.05, np.uint8(128))
         + params("y", 0.02, np.uint8(100)), U8)
    case("qlinearglobalaveragepool_nhwc_int8", "QLinearGlobalAveragePool",
         [("X", s8(1, 5, 6, 4))] + params("x", 0.05, np.int8(3))
         + params("y", 0.01, np.int8(-7)), I8, channels_last=1)
    case("qlinearaveragepool", "QLinearAveragePool",
         [("X", u8(1, 3, 9, 9))] + params("x", 0.05, np.uint8(128))
         + params("y", 0.04, np.uint8(110)), U8, kernel_shape=[3, 3], pads=[1, 1, 1, 1],
         strides=[2, 2])
    case("qlinearaveragepool_ceil_include_pad", "QLinearAveragePool",
         [("X", s8(1, 2, 8, 8))] + params("x", 0.05, np.int8(0))
         + params("y", 0.03, np.int8(5)), I8, kernel_shape=[3, 3], pads=[1, 1, 1, 1],
         strides=[2, 2], ceil_mode=1, count_include_pad=1)
    case("qlinearconcat", "QLinearConcat",
         params("y", 0.05, np.uint8(128)) + [("X0", u8(1, 2, 3))]
         + [("s_0", f(0.05)), ("z_0", np.uint8(128))] + [("X1", u8(1, 4, 3))]
         + params("1", 0.1, np.uint8(10)), U8, axis=1)
    case("qlinearconcat_int8", "QLinearConcat",
         params("y", 0.05, np.int8(-2)) + [("X0", s8(2, 3))] + params("0", 0.02, np.int8(1))
         + [("X1", s8(2, 1))] + params("1", 0.08, np.int8(-3)) + [("X2", s8(2, 2))]
         + params("2", 0.05, np.int8(-2)), I8, axis=-1)
    case("qlinearwhere", "QLinearWhere",
         [("condition", RNG.random((3, 4)) < 0.5), ("X", s8(3, 4))]
         + params("x", 0.03, np.int8(2)) + [("X1", s8(4))] + params("y", 0.06, np.int8(-9))
         + params("z", 0.05, np.int8(0)), I8)
    case("qgemm_quantized", "QGemm",
         [("A", u8(4, 8))] + params("a", 0.02, np.uint8(120)) + [("B", s8(6, 8))]
         + [("s_b", (RNG.random(6) * 0.01 + 0.002).astype(np.float32)),
            ("z_b", np.zeros(6, np.int8)), ("k_C", RNG.integers(-500, 500, 6).astype(np.int32))]
         + params("y", 0.05, np.uint8(128)), U8, transB=1)
    case("qgemm_float_alpha", "QGemm",
         [("A", u8(5, 3))] + params("a", 0.02, np.uint8(120)) + [("B", u8(5, 4))]
         + params("b", 0.01, np.uint8(128)), TensorProto.FLOAT, transA=1, alpha=0.5)
    case("qgemm_int8", "QGemm",
         [("A", s8(3, 8))] + params("a", 0.02, np.int8(3)) + [("B", s8(8, 5))]
         + params("b", 0.01, np.int8(0)) + [("k_C", RNG.integers(-300, 300, (3, 1)).astype(np.int32))]
         + params("y", 0.04, np.int8(-1)), I8)
    case("matmulintegertofloat", "MatMulIntegerToFloat",
         [("A", u8(2, 3, 8)), ("B", s8(8, 5)), ("s_a", f(0.02)),
          ("s_b", (RNG.random(5) * 0.01 + 0.002).astype(np.float32)), ("z_a", np.uint8(128)),
          ("z_b", np.zeros(5, np.int8)), ("k_bias", randn(5))], TensorProto.FLOAT)
    case("dynamicquantizematmul", "DynamicQuantizeMatMul",
         [("A", randn(2, 4, 8)), ("B", s8(8, 6)),
          ("s_b", (RNG.random(6) * 0.01 + 0.002).astype(np.float32)),
          ("z_b", np.zeros(6, np.int8)), ("k_bias", randn(6))], TensorProto.FLOAT)
    case("dynamicquantizematmul_uint8", "DynamicQuantizeMatMul",
         [("A", randn(3, 8)), ("B", u8(8, 4))] + params("b", 0.01, np.uint8(128)),
         TensorProto.FLOAT)
    case("ms_quantizelinear_axis", "QuantizeLinear",
         [("X", randn(2, 3, 4)), ("s_x", f([0.01, 0.02, 0.05])),
          ("z_x", np.array([0, 128, 255], np.uint8))], U8, axis=1)
    case("ms_dequantizelinear", "DequantizeLinear",
         [("X", s8(2, 5))] + params("x", 0.03, np.int8(-5)), TensorProto.FLOAT)
    case("ms_qlinearconv_nhwc", "QLinearConv",
         [("X", u8(1, 6, 6, 4))] + params("x", 0.02, np.uint8(128))
         + [("W", s8(5, 4, 3, 3)), ("s_w", (RNG.random(5) * 0.01 + 0.002).astype(np.float32)),
            ("z_w", np.zeros(5, np.int8))] + params("y", 0.05, np.uint8(100))
         + [("k_bias", RNG.integers(-500, 500, 5).astype(np.int32))], U8, pads=[1, 1, 1, 1],
         channels_last=1)
    # Grouped QLinearConv and ConvInteger of the default domain (ORT's QOperator depthwise
    # convolutions): sums small enough for float32 (9 products) and too large (2 x 150 x 9).
    write_case(root, "qlinearconv_depthwise", "QLinearConv",
               [("X", u8(1, 8, 10, 10))] + params("x", 0.02, np.uint8(128))
               + [("W", s8(8, 1, 3, 3)), ("s_w", (RNG.random(8) * 0.01 + 0.002).astype(np.float32)),
                  ("z_w", np.zeros(8, np.int8))] + params("y", 0.05, np.uint8(100))
               + [("k_bias", RNG.integers(-500, 500, 8).astype(np.int32))], ["Y"], domain="",
               constants=["s_x", "z_x", "W", "s_w", "z_w", "s_y", "z_y", "k_bias"],
               output_type=U8, pads=[1, 1, 1, 1], group=8, strides=[2, 2])
    write_case(root, "convinteger_grouped_wide", "ConvInteger",
               [("X", u8(1, 300, 5, 5)), ("W", u8(4, 150, 3, 3)), ("z_x", np.uint8(120)),
                ("z_w", np.uint8(130))], ["Y"], domain="", constants=["W", "z_x", "z_w"],
               output_type=TensorProto.INT32, group=2)
    write_case(root, "convinteger_depthwise", "ConvInteger",
               [("X", u8(2, 6, 7, 7)), ("W", u8(6, 1, 5, 5)), ("z_x", np.uint8(3)),
                ("z_w", np.uint8(250))], ["Y"], domain="", constants=["W", "z_x", "z_w"],
               output_type=TensorProto.INT32, group=6, pads=[2, 2, 2, 2])


README = """# com.microsoft contrib ops, with ONNX Runtime's outputs

Written by scripts/make_contrib_tests.py (do not edit by hand): one node per case (ai.onnx 17 +
com.microsoft 1), random float32 inputs from a fixed seed, outputs from onnxruntime-node 1.30
(CPU). The rules are in lib/Decompose/Contrib.cpp and, for the quantized ops (QLinear*,
QGemm, MatMulIntegerToFloat, DynamicQuantizeMatMul; integer inputs), ContribQuantization.cpp;
grouped QLinearConv and ConvInteger of the default domain are in Quantization.cpp.

    build/bin/tcc-conformance --mode reference --atol 1e-5 --rtol 1e-4 test/data/contrib
    build/bin/tcc-conformance --mode compiled --atol 1e-5 --rtol 1e-4 test/data/contrib

GroupQueryAttention's total_sequence_length arrives as a graph input in most cases, which
makes the present outputs' length depend on data: compiled, those cases run with it bound
as a constant (gqa_decode_constant_total and gqa_decode_total_from_shapes compile as they are).
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "test", "data", "contrib"))
    args = parser.parse_args()
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    for family in (activations, normalizations, rotary, multi_head_attention,
                   group_query_attention, attention, matmul_nbits, quantized):
        family(args.out)
    with open(os.path.join(args.out, "README.md"), "w") as f:
        f.write(README)
    cases = sorted(c for c in os.listdir(args.out) if c != "README.md")
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(args.out) for f in fs)
    print("%d cases, %.0f kB in %s" % (len(cases), size / 1024, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
