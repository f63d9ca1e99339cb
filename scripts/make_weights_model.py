#!/usr/bin/env python3
"""Writes an ONNX model with about MEGABYTES of float32 weights, for measuring the compiler's
peak memory against the weight size (issue: compile memory bounded). Plain Python (the
protobuf wire format written by hand; no onnx or numpy needed), deterministic bytes.

The graph is a chain of D x D MatMuls with a bias and a Relu each:
  y = relu(... relu(relu(x W0 + b0) W1 + b1) ...)   x: [batch, D], batch symbolic
Each weight is distinct (its own seeded values), so nothing can be shared between them.

usage: python3 scripts/make_weights_model.py MEGABYTES OUT.onnx [--dim D]
       [--external]       weights in OUT.onnx.data beside the model (ONNX external data)
       [--reference DIR]  also DIR/input_0_x.npy (batch 2) and DIR/output_0_y.npy, computed
                          here (small models only)
       [--wrong-dims]     declare the first weight [D, D + 1]: its bytes disagree (a test)
"""
import argparse
import os
import random
import struct
import sys


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, wire_type):
    return varint((number << 3) | wire_type)


def int_field(number, value):
    return field(number, 0) + varint(value)


def bytes_field(number, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return field(number, 2) + varint(len(payload)) + payload


def value_info(name, dims):
    """ValueInfoProto of a float tensor; a str dim is symbolic (dim_param)."""
    shape = b"".join(
        bytes_field(1, bytes_field(2, d) if isinstance(d, str) else int_field(1, d))
        for d in dims)
    tensor_type = int_field(1, 1) + bytes_field(2, shape)
    return bytes_field(1, name) + bytes_field(2, bytes_field(1, tensor_type))


def node(op_type, inputs, outputs, name):
    body = b"".join(bytes_field(1, i) for i in inputs)
    body += b"".join(bytes_field(2, o) for o in outputs)
    return body + bytes_field(3, name) + bytes_field(4, op_type)


def weights(seed, count, scale):
    """`count` float32 values: a 64 Ki-value block of this seed's values, repeated."""
    rng = random.Random(seed)
    block_count = min(count, 1 << 16)
    block = struct.pack("<%df" % block_count,
                        *(rng.uniform(-scale, scale) for _ in range(block_count)))
    whole, rest = divmod(count, block_count)
    return block * whole + block[:rest * 4]


def tensor(name, dims, data, external=None):
    """TensorProto: raw_data inline, or external data (location, offset, length)."""
    body = b"".join(int_field(1, d) for d in dims) + int_field(2, 1) + bytes_field(8, name)
    if external is None:
        return body + bytes_field(9, data)
    location, offset = external
    entries = [("location", location), ("offset", str(offset)), ("length", str(len(data)))]
    body += b"".join(bytes_field(13, bytes_field(1, k) + bytes_field(2, v)) for k, v in entries)
    return body + int_field(14, 1)  # data_location = EXTERNAL


def npy(path, rows, cols, values):
    """A float32 .npy file of shape [rows, cols]."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (127 - 10 - len(header)) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def reference(folder, layers, d):
    """The chain on a seeded [2, d] input, in float64 from the float32 weights."""
    rng = random.Random(12345)
    x = [rng.uniform(-1, 1) for _ in range(2 * d)]
    x = list(struct.unpack("<%df" % len(x), struct.pack("<%df" % len(x), *x)))
    npy(os.path.join(folder, "input_0_x.npy"), 2, d, x)
    rows = [x[:d], x[d:]]
    for i in range(layers):
        w = struct.unpack("<%df" % (d * d), weights(2 * i, d * d, 1.0 / d ** 0.5))
        b = struct.unpack("<%df" % d, weights(2 * i + 1, d, 0.1))
        rows = [[max(0.0, b[j] + sum(row[k] * w[k * d + j] for k in range(d))) for j in range(d)]
                for row in rows]
    npy(os.path.join(folder, "output_0_y.npy"), 2, d, rows[0] + rows[1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("megabytes", type=float)
    parser.add_argument("out")
    parser.add_argument("--dim", type=int, default=1024)
    parser.add_argument("--external", action="store_true")
    parser.add_argument("--reference", default="")
    parser.add_argument("--wrong-dims", action="store_true")
    args = parser.parse_args()
    d = args.dim
    layers = max(1, round(args.megabytes * 1e6 / (4 * (d * d + d))))
    data_path = args.out + ".data"
    data_file = open(data_path, "wb") if args.external else None
    nodes, initializers = [], []
    current = "x"
    for i in range(layers):
        w, b = weights(2 * i, d * d, 1.0 / d ** 0.5), weights(2 * i + 1, d, 0.1)
        w_dims = [d, d + 1] if args.wrong_dims and i == 0 else [d, d]
        for name, dims, data in (("w%d" % i, w_dims, w), ("b%d" % i, [d], b)):
            external = None
            if data_file is not None:
                external = (os.path.basename(data_path), data_file.tell())
                data_file.write(data)
            initializers.append(tensor(name, dims, data, external))
        out = "y" if i == layers - 1 else "h%d" % i
        nodes.append(node("MatMul", [current, "w%d" % i], ["m%d" % i], "matmul_%d" % i))
        nodes.append(node("Add", ["m%d" % i, "b%d" % i], ["a%d" % i], "add_%d" % i))
        nodes.append(node("Relu", ["a%d" % i], [out], "relu_%d" % i))
        current = out
    if data_file is not None:
        data_file.close()
    graph = b"".join(bytes_field(1, n) for n in nodes) + bytes_field(2, "weights_chain")
    graph += b"".join(bytes_field(5, t) for t in initializers)
    graph += bytes_field(11, value_info("x", ["batch", d]))
    graph += bytes_field(12, value_info("y", ["batch", d]))
    model = int_field(1, 8) + bytes_field(2, "make_weights_model.py")
    model += bytes_field(7, graph) + bytes_field(8, bytes_field(1, "") + int_field(2, 17))
    with open(args.out, "wb") as f:
        f.write(model)
    if args.reference:
        if layers * d * d > 1 << 20:
            sys.exit("--reference: too large to compute here")
        reference(args.reference, layers, d)
    total = layers * 4 * (d * d + d)
    print("%s: %d layers of %dx%d, %.1f MB of weights" % (args.out, layers, d, d, total / 1e6))


if __name__ == "__main__":
    main()
