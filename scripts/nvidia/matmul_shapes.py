"""Matrix products of awkward shapes in every --precision, against float64 on the GPU machine.

The tensor-core tiles (--precision tf32|bf16|fp16) stage their inputs with 16-byte loads
when the innermost extent, the strides and the address allow it, else element by element;
tiles run past the ends of rows, columns and the reduction. These cases cover both forms,
both orientations of each input, a batch, a dynamic dim and a misaligned input pointer.
  here:  python3 matmul_shapes.py --write DIR   (writes DIR/NAME.onnxtxt; bundle.sh compiles
         each as models/shape_NAME_PRECISION/model.so)
  there: python3 matmul_shapes.py BUNDLE        (prints one table, exits 1 on a failure)
"""
import os
import sys

# name: (op, A shape, B shape, extra). At least 2^18 outputs: block or tensor-core tiles;
# fewer, over a reduction of 64 or more: lanes splitting each output's reduction.
SHAPES = {
    # Both inputs vectorized: K % 4 == 0 (A along the reduction), N % 4 == 0 (B along its
    # columns); 600 rows = 4 full + 1 partial tile.
    "m600_k100_n520": ("MatMul", [600, 100], [100, 520], None),
    # Neither: K = 99 and N = 502 are not multiples of 4.
    "m530_k99_n502": ("MatMul", [530, 99], [99, 502], None),
    # Gemm with B transposed: B read along the reduction too; a bias.
    "gemm_tb": ("Gemm", [640, 64], [512, 64], "transB"),
    # A batch of 3.
    "batch3": ("MatMul", [3, 300, 40], [3, 40, 300], None),
    # A dynamic row count (600 at run time).
    "dyn_rows": ("MatMul", ["n", 256], [256, 512], None),
    # Few outputs, long reductions: split lanes (4 a column along B's rows; 8 with B
    # transposed, the reduction not a multiple of the 32 positions an iteration takes).
    "lanes_m128_k1024_n256": ("MatMul", [128, 1024], [1024, 256], None),
    "lanes_gemm_tb_k200": ("Gemm", [96, 200], [72, 200], "transB"),
    # Dynamic rows, 37 at run time: the host picks the lanes.
    "lanes_dyn_k300": ("MatMul", ["n", 300], [300, 160], None),
}
PRECISIONS = ("fp32", "tf32", "bf16", "fp16")
# Relative L2 error against float64 allowed per precision (inputs ~ N(0, 1); products with
# few outputs stay float32 in every precision).
BARS = {"fp32": 1e-5, "tf32": 2e-3, "bf16": 1e-2, "fp16": 2e-3}


def dims(shape):
    return " ".join("dim { dim_param: \"%s\" }" % d if isinstance(d, str) else
                    "dim { dim_value: %d }" % d for d in shape)


def onnxtxt(name, op, a, b, extra):
    rows = a[-2]
    columns = b[-2] if extra == "transB" else b[-1]
    out = list(a[:-2]) + [rows, columns]
    inputs = [("a", a), ("b", b)]
    attributes = ""
    if op == "Gemm":
        inputs.append(("c", [columns]))
        attributes = ' attribute { name: "transB" i: 1 type: INT }'
    text = ['ir_version: 8', 'producer_name: "tcc-bench"',
            'opset_import { domain: "" version: 17 }', 'graph {', '  name: "%s"' % name]
    for n, s in inputs:
        text.append('  input { name: "%s" type { tensor_type { elem_type: 1 shape { %s } } } }'
                    % (n, dims(s)))
    text.append('  node { name: "product" op_type: "%s" %s output: "y"%s }' % (
        op, " ".join('input: "%s"' % n for n, _ in inputs), attributes))
    text.append('  output { name: "y" type { tensor_type { elem_type: 1 shape { %s } } } }'
                % dims(out))
    text.append('}')
    return "\n".join(text) + "\n"


def write(folder):
    os.makedirs(folder, exist_ok=True)
    for name, (op, a, b, extra) in SHAPES.items():
        with open(os.path.join(folder, name + ".onnxtxt"), "w") as f:
            f.write(onnxtxt(name, op, a, b, extra))


def run(bundle):
    import torch
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tcc_runtime
    from run_bundle import rel_l2

    rt = tcc_runtime.Runtime(os.path.join(bundle, "lib", "libtcc_runtime.so"))
    torch.manual_seed(0)
    failures = 0
    print("| shape | input | " + " | ".join(PRECISIONS) + " |")
    print("|---|---|" + "---|" * len(PRECISIONS))
    for name, (op, a, b, extra) in SHAPES.items():
        a_shape = [(37 if name.startswith("lanes") else 600) if isinstance(d, str) else d
                   for d in a]
        cases = [("aligned", 0)]
        if name == "m600_k100_n520":
            cases.append(("A at +4 bytes", 1))
        for label, shift in cases:
            # A view one element into a larger buffer: its address is 4 bytes past a 16-byte
            # boundary, so the vectorized form must not be taken.
            storage = torch.randn(shift + torch.Size(a_shape).numel(), device="cuda")
            x = storage[shift:].view(a_shape)
            y = torch.randn(b, device="cuda")
            inputs = [x, y]
            if op == "Gemm":
                inputs.append(torch.randn(b[0], device="cuda"))
                expected = x.double() @ y.double().t() + inputs[2].double()
            else:
                expected = x.double() @ y.double()
            cells = []
            for precision in PRECISIONS:
                path = os.path.join(bundle, "models", "shape_%s_%s" % (name, precision), "model.so")
                if not os.path.exists(path):
                    cells.append("not built")
                    continue
                out = torch.full(expected.shape, float("nan"), device="cuda")
                session = tcc_runtime.Session(rt, path)
                try:
                    session.prepare(inputs, [out])
                    session.run()
                    torch.cuda.synchronize()
                    error = rel_l2(out.cpu().numpy(), expected.cpu().numpy())
                    ok = error <= BARS[precision]
                    cells.append("%.1e%s" % (error, "" if ok else " FAIL"))
                    failures += not ok
                except RuntimeError as e:
                    cells.append("error: %s" % str(e)[:80])
                    failures += 1
                finally:
                    session.close()
            print("| %s | %s | %s |" % (name, label, " | ".join(cells)))
    print("bars (rel L2 vs float64): " + ", ".join("%s %.0e" % kv for kv in BARS.items()))
    return failures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--write":
        write(sys.argv[2])
    elif len(sys.argv) == 2:
        sys.exit(1 if run(sys.argv[1]) else 0)
    else:
        sys.exit(__doc__)
