"""Makes the model, inputs and references of int8-vnni.test: integer contractions that
tcc-quad-int8-contractions computes on u8 x s8 quads (vpdpbusd) where the CPU level has
AVX512-VNNI: QLinearConv 3x3 padded over a dynamic batch with bias (u8 activations with a zero
point, s8 weights per output channel), a stride-2 one, one over 3 input channels (the last quad
completed), QLinearMatMul with constant s8 weights, the same from int8 activations (moved to
uint8 by +128), MatMulInteger (int32 out) and ConvInteger; and one that stays on the int32 path
(QLinearMatMul with uint8 weights whose zero point is not 0: w - z does not fit int8).

The references follow the operators' definitions: the int32 accumulator exactly (NumPy float64
over integers), then y = saturate(round_half_even(acc * (s_x * s_w / s_y)) + z_y) with the
multiplier and the product in float32, as the decomposition computes them; so every output
must match exactly, whichever path computed the accumulator."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

from conv_reference import conv

d = sys.argv[1]
rng = np.random.default_rng(5)
U8, I8, I32, F = TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32, TensorProto.FLOAT
tensors, nodes, inputs, outputs, refs = [], [], [], [], []


def const(name, value, kind):
    tensors.append(helper.make_tensor(name, kind, value.shape, value.flatten().tolist()))
    return name


def requantize(acc, sx, sw, sy, zy, lo=0, hi=255, dtype=np.uint8):
    factor = (np.float32(sx) * sw.astype(np.float32)) / np.float32(sy)
    v = np.rint(acc.astype(np.float32) * factor.astype(np.float32))
    return np.clip(v + zy, lo, hi).astype(dtype)


def qconv(name, x, zx, w, stride=1, pad=1, bias=True, dims=None):
    c_out = w.shape[0]
    sx, sy, zy = np.float32(0.02), np.float32(0.05), 110
    sw = (rng.random(c_out) * 0.01 + 0.002).astype(np.float32)
    b = rng.integers(-2000, 2000, c_out).astype(np.int32)
    args = [name + "_x", const(name + "_sx", np.array(sx), F), const(name + "_zx", np.array(zx, np.uint8), U8),
            const(name + "_w", w, I8), const(name + "_sw", sw, F),
            const(name + "_zw", np.zeros(c_out, np.int8), I8),
            const(name + "_sy", np.array(sy), F), const(name + "_zy", np.array(zy, np.uint8), U8)]
    if bias:
        args.append(const(name + "_b", b, I32))
    nodes.append(helper.make_node("QLinearConv", args, [name + "_y"], name=name,
                                  pads=[pad] * 4, strides=[stride] * 2))
    acc = conv(x.astype(np.int64) - zx, w, stride, pad)
    if bias:
        acc = acc + b[None, :, None, None]
    y = requantize(acc, sx, sw[None, :, None, None], sy, zy)
    add(name, x, U8, dims, y, U8)


def add(name, x, kind, dims, y, ykind):
    inputs.append(helper.make_tensor_value_info(name + "_x", kind, dims or list(x.shape)))
    outputs.append(helper.make_tensor_value_info(name + "_y", ykind, None))
    np.save(os.path.join(d, name + "_x.npy"), x)
    refs.append((name, y))


x1 = rng.integers(0, 256, (2, 16, 12, 12)).astype(np.uint8)
qconv("conv3x3", x1, 120, rng.integers(-127, 128, (24, 16, 3, 3)).astype(np.int8),
      dims=["n", 16, 12, 12])
qconv("conv_stride2", rng.integers(0, 256, (1, 32, 14, 14)).astype(np.uint8), 3,
      rng.integers(-127, 128, (16, 32, 3, 3)).astype(np.int8), stride=2, bias=False)
qconv("three_channels", rng.integers(0, 256, (1, 3, 16, 16)).astype(np.uint8), 128,
      rng.integers(-127, 128, (8, 3, 3, 3)).astype(np.int8))


def qmatmul(name, x, zx, xkind, w, wkind, zw, sw):
    sx, sy, zy = np.float32(0.03), np.float32(0.2), 100
    xt = np.int8 if xkind == I8 else np.uint8
    wt = np.int8 if wkind == I8 else np.uint8
    args = [name + "_x", const(name + "_sx", np.array(sx), F), const(name + "_zx", np.array(zx, xt), xkind),
            const(name + "_w", w, wkind), const(name + "_sw", sw, F),
            const(name + "_zw", np.array(zw, wt) if np.ndim(zw) == 0 else zw.astype(wt), wkind),
            const(name + "_sy", np.array(sy), F), const(name + "_zy", np.array(zy, np.uint8), U8)]
    nodes.append(helper.make_node("QLinearMatMul", args, [name + "_y"], name=name))
    acc = (x.astype(np.int64) - zx) @ (w.astype(np.int64) - zw)
    add(name, x, xkind, None, requantize(acc, sx, sw, sy, zy), U8)


qmatmul("matmul", rng.integers(0, 256, (2, 6, 64)).astype(np.uint8), 131, U8,
        rng.integers(-127, 128, (64, 40)).astype(np.int8), I8, np.zeros(40, np.int64),
        (rng.random(40) * 0.01 + 0.002).astype(np.float32))
qmatmul("matmul_s8", rng.integers(-128, 128, (3, 48)).astype(np.int8), -5, I8,
        rng.integers(-127, 128, (48, 20)).astype(np.int8), I8, 0, np.float32(0.004))
qmatmul("matmul_u8_weights", rng.integers(0, 256, (3, 48)).astype(np.uint8), 7, U8,
        rng.integers(0, 256, (48, 20)).astype(np.uint8), U8, 121, np.float32(0.004))

# MatMulInteger and ConvInteger: the int32 accumulator is the output.
x8 = rng.integers(0, 256, (4, 80)).astype(np.uint8)
w8 = rng.integers(-128, 128, (80, 24)).astype(np.int8)
nodes.append(helper.make_node("MatMulInteger", ["matmul_integer_x", const("mi_w", w8, I8),
                                                const("mi_zx", np.array(9, np.uint8), U8)],
                              ["matmul_integer_y"], name="matmul_integer"))
add("matmul_integer", x8, U8, None, ((x8.astype(np.int64) - 9) @ w8).astype(np.int32), I32)
x9 = rng.integers(0, 256, (1, 8, 9, 9)).astype(np.uint8)
w9 = rng.integers(-128, 128, (12, 8, 3, 3)).astype(np.int8)
nodes.append(helper.make_node("ConvInteger", ["conv_integer_x", const("ci_w", w9, I8),
                                              const("ci_zx", np.array(77, np.uint8), U8)],
                              ["conv_integer_y"], name="conv_integer", pads=[1, 1, 1, 1]))
add("conv_integer", x9, U8, None, conv(x9.astype(np.int64) - 77, w9).astype(np.int32), I32)

graph = helper.make_graph(nodes, "int8_vnni", inputs, outputs, tensors)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "int8.onnx"))
for name, y in refs:
    np.save(os.path.join(d, name + "_ref.npy"), y)
with open(os.path.join(d, "args.txt"), "w") as f:
    f.write(" ".join("%s/%s_x.npy" % (d, n) for n, _ in refs) + "\n")
    f.write(" ".join("%s/%s_ref.npy" % (d, n) for n, _ in refs) + "\n")

# The QDQ form (what onnxruntime's quantize_static writes by default): float operators between
# QuantizeLinear/DequantizeLinear pairs, weights int8 per output channel, the bias int32 at
# scale s_x * s_w. References from the integer accumulators, in float64: the VNNI level computes
# them exactly, a float level sums the dequantized products (within 1e-5 of them before the
# last rounding; the output QuantizeLinear may then differ by one step).
qnodes, qtensors, qrefs = [], [], []
tensors = qtensors


def quantized_input(name, x, sx, zx):
    qnodes.append(helper.make_node("QuantizeLinear", [name, const(name + "_s", np.array(sx), F),
                                                      const(name + "_z", np.array(zx, np.uint8), U8)],
                                   [name + "_q"], name=name + "_quantize"))
    qnodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_s", name + "_z"],
                                   [name + "_dq"], name=name + "_dequantize"))
    q = np.clip(np.rint(x.astype(np.float32) / np.float32(sx)) + zx, 0, 255)
    return q.astype(np.int64) - zx


def dequantized_weight(name, w, sw, axis):
    qnodes.append(helper.make_node("DequantizeLinear", [const(name + "_q", w, I8),
                                                        const(name + "_s", sw, F)],
                                   [name], name=name + "_dequantize", axis=axis))


xa = rng.standard_normal((2, 16, 12, 12)).astype(np.float32)
wa = rng.integers(-127, 128, (24, 16, 3, 3)).astype(np.int8)
swa = (rng.random(24) * 0.004 + 0.001).astype(np.float32)
ba = rng.integers(-3000, 3000, 24).astype(np.int32)
qa = quantized_input("xa", xa, 0.03, 128)
dequantized_weight("wa", wa, swa, 0)
qnodes.append(helper.make_node("DequantizeLinear", [const("ba_q", ba, I32),
                                                    const("ba_s", (np.float32(0.03) * swa).astype(np.float32), F)],
                               ["ba"], name="ba_dequantize", axis=0))
qnodes.append(helper.make_node("Conv", ["xa_dq", "wa", "ba"], ["ca"], name="qdq_conv", pads=[1, 1, 1, 1]))
qnodes.append(helper.make_node("Relu", ["ca"], ["ra"], name="qdq_relu"))
qnodes.append(helper.make_node("QuantizeLinear", ["ra", const("ya_s", np.array(0.08, np.float32), F),
                                                  const("ya_z", np.array(0, np.uint8), U8)],
                               ["ya_q"], name="ya_quantize"))
qnodes.append(helper.make_node("DequantizeLinear", ["ya_q", "ya_s", "ya_z"], ["ya"], name="ya_dequantize"))
acc = conv(qa, wa) + ba[None, :, None, None]
ra = np.maximum(acc * (0.03 * swa.astype(np.float64))[None, :, None, None], 0)
qrefs.append(("ya", np.clip(np.rint(ra / 0.08), 0, 255) * np.float32(0.08)))

xb = rng.standard_normal((2, 6, 64)).astype(np.float32)
wb = rng.integers(-127, 128, (64, 40)).astype(np.int8)
swb = (rng.random(40) * 0.004 + 0.001).astype(np.float32)
bb = rng.standard_normal(40).astype(np.float32)
qb = quantized_input("xb", xb, 0.025, 120)
dequantized_weight("wb", wb, swb, 1)
qnodes.append(helper.make_node("MatMul", ["xb_dq", "wb"], ["mb"], name="qdq_matmul"))
qnodes.append(helper.make_node("Add", ["mb", const("bb", bb, F)], ["yb"], name="qdq_bias"))
qrefs.append(("yb", (qb @ wb.astype(np.int64)) * (0.025 * swb.astype(np.float64)) + bb))

graph = helper.make_graph(
    qnodes, "int8_qdq",
    [helper.make_tensor_value_info("xa", F, ["n", 16, 12, 12]),
     helper.make_tensor_value_info("xb", F, [2, 6, 64])],
    [helper.make_tensor_value_info("ya", F, None), helper.make_tensor_value_info("yb", F, None)],
    qtensors)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "qdq.onnx"))
np.save(os.path.join(d, "xa.npy"), xa)
np.save(os.path.join(d, "xb.npy"), xb)
for name, y in qrefs:
    np.save(os.path.join(d, name + "_ref.npy"), y.astype(np.float32))
