"""Makes the model, inputs and references of int8-single-lane-rows.test: squeeze-excitation
style QLinearConv 1x1 on [n, C, 1, 1] (EfficientNet-B0's fc1 and fc2) followed by a quantized
sigmoid (DequantizeLinear, Sigmoid, QuantizeLinear: a lookup table in the convolution's
epilogue on x86, its i32 entries truncated to bytes), whose tiles on the VNNI level take the
output channels as rows of one-lane vectors. Each row's byte is a masked store of lane 0 of a
truncated vector; LLVM 22 stored it as 4 bytes (tcc-cpu-single-lane-stores), so with two
threads a tile overwrote the other tile's first rows. The convolution's reference is exact as
int8-vnni.test.py's; the sigmoid's is float64, so the test allows one quantization step."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

d = sys.argv[1]
rng = np.random.default_rng(11)
U8, I8, I32, F = TensorProto.UINT8, TensorProto.INT8, TensorProto.INT32, TensorProto.FLOAT
tensors, nodes, inputs, outputs, names = [], [], [], [], []


def const(name, value, kind):
    tensors.append(helper.make_tensor(name, kind, value.shape, value.flatten().tolist()))
    return name


for k, (c_in, c_out) in enumerate([(120, 20), (64, 29), (96, 7)]):
    name = "se%d" % k
    x = rng.integers(0, 256, (1, c_in, 1, 1)).astype(np.uint8)
    w = rng.integers(-127, 128, (c_out, c_in, 1, 1)).astype(np.int8)
    zx, sx, sy, zy = 17, np.float32(0.02), np.float32(0.5), 120
    sw = (rng.random(c_out) * 0.01 + 0.002).astype(np.float32)
    b = rng.integers(-2000, 2000, c_out).astype(np.int32)
    args = [name + "_x", const(name + "_sx", np.array(sx), F),
            const(name + "_zx", np.array(zx, np.uint8), U8), const(name + "_w", w, I8),
            const(name + "_sw", sw, F), const(name + "_zw", np.zeros(c_out, np.int8), I8),
            const(name + "_sy", np.array(sy), F), const(name + "_zy", np.array(zy, np.uint8), U8),
            const(name + "_b", b, I32)]
    nodes.append(helper.make_node("QLinearConv", args, [name + "_c"], name=name))
    # y = QuantizeLinear(Sigmoid(DequantizeLinear(c)), 1/256, 0).
    nodes.append(helper.make_node("DequantizeLinear", [name + "_c", name + "_sy", name + "_zy"],
                                  [name + "_d"], name=name + "_dequantize"))
    nodes.append(helper.make_node("Sigmoid", [name + "_d"], [name + "_s"], name=name + "_sigmoid"))
    nodes.append(helper.make_node("QuantizeLinear", [name + "_s",
                                                     const(name + "_ss", np.array(1 / 256, np.float32), F),
                                                     const(name + "_zs", np.array(0, np.uint8), U8)],
                                  [name + "_y"], name=name + "_quantize"))
    acc = np.einsum("oc,c->o", w[:, :, 0, 0].astype(np.int64), x[0, :, 0, 0].astype(np.int64) - zx) + b
    factor = (sx * sw) / sy
    c = np.clip(np.rint(acc.astype(np.float32) * factor.astype(np.float32)) + zy, 0, 255)
    sig = 1 / (1 + np.exp(-(c.astype(np.float64) - zy) * np.float64(sy)))
    y = np.clip(np.rint(sig * 256), 0, 255)
    inputs.append(helper.make_tensor_value_info(name + "_x", U8, ["n", c_in, 1, 1]))
    outputs.append(helper.make_tensor_value_info(name + "_y", U8, None))
    np.save(os.path.join(d, name + "_x.npy"), x)
    np.save(os.path.join(d, name + "_ref.npy"), y.astype(np.uint8).reshape(1, c_out, 1, 1))
    names.append(name)

graph = helper.make_graph(nodes, "single_lane_rows", inputs, outputs, tensors)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, os.path.join(d, "se.onnx"))
with open(os.path.join(d, "args.txt"), "w") as f:
    f.write(" ".join("%s/%s_x.npy" % (d, n) for n in names) + "\n")
    f.write(" ".join("%s/%s_ref.npy" % (d, n) for n in names) + "\n")
