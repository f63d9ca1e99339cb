#!/usr/bin/env python3
"""Generates docs/ops.md: every ONNX operator, whether tcc has a rule for it, at which opsets,
how many conformance cases exercise it (and pass), the input dtypes they exercise, and the
limits (docs/op-limits.txt).

    scripts/gen_ops_doc.py TCC_BINARY           # rewrite docs/ops.md
    scripts/gen_ops_doc.py TCC_BINARY --check   # exit 1 if docs/ops.md is not current

Sources: the rule registry (TCC_BINARY --list-ops --format=json), onnx 1.23's schemas
(test/data/onnx-schemas.json) and the conformance ratchets (test/conformance/*.txt), whose
cases' models are read with the onnx Python package to find the ops they use.
"""
import json
import os
import subprocess
import sys

import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "docs", "ops.md")
TESTDATA = "/usr/share/libonnx-testdata/data"
SUITES = {  # ratchet name -> folder of cases
    "node": os.path.join(TESTDATA, "node"),
    "pytorch-converted": os.path.join(TESTDATA, "pytorch-converted"),
    "pytorch-operator": os.path.join(TESTDATA, "pytorch-operator"),
    "simple": os.path.join(TESTDATA, "simple"),
    "node-opset18plus": os.path.join(ROOT, "test", "data", "node-opset18plus"),
    "models": os.path.join(ROOT, "test", "data", "models"),
    "contrib": os.path.join(ROOT, "test", "data", "contrib"),
}
DTYPES = {v: k.lower() for k, v in onnx.TensorProto.DataType.items()}


def ratchet(mode, suite):
    """The cases of `suite` that pass in `mode` (reference, or compiled for the CPU)."""
    path = os.path.join(ROOT, "test", "conformance", "%s.txt" % suite)
    if not os.path.exists(path):
        return set()
    passing, excluded = set(), set()
    with open(path) as f:
        # A name alone passes wherever no exclusion applies; `!NAME  REASON` is excluded
        # everywhere, `!NAME [SCOPE]  REASON` in SCOPE (a mode or a target) only.
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if not line.startswith("!"):
                passing.add(line)
                continue
            name, _, rest = line[1:].partition(" ")
            rest = rest.strip()
            scope = rest[1:rest.index("]")] if rest.startswith("[") else ""
            if scope in ("", mode, "cpu"):
                excluded.add(name)
            else:
                passing.add(name)
    return passing - excluded


def case_ops(path):
    """(op types of the main graph, {op: dtypes of its first input when known})."""
    model = onnx.load(os.path.join(path, "model.onnx"), load_external_data=False)
    graph = model.graph
    types = {}
    for value in list(graph.input) + list(graph.value_info) + list(graph.output):
        if value.type.HasField("tensor_type"):
            types[value.name] = value.type.tensor_type.elem_type
    for init in graph.initializer:
        types[init.name] = init.data_type
    ops, dtypes = set(), {}
    for node in graph.node:
        key = node.op_type if node.domain in ("", "ai.onnx") else "%s:%s" % (node.domain, node.op_type)
        ops.add(key)
        if node.input and node.input[0] in types and types[node.input[0]] in DTYPES:
            dtypes.setdefault(key, set()).add(DTYPES[types[node.input[0]]])
    return ops, dtypes


def generate(tcc):
    rules = json.loads(subprocess.check_output([tcc, "--list-ops", "--format=json"]))
    with open(os.path.join(ROOT, "test", "data", "onnx-schemas.json")) as f:
        schemas = json.load(f)
    versions = {}
    for s in schemas["schemas"]:
        key = s["name"] if s["domain"] == "ai.onnx" else "%s:%s" % (s["domain"], s["name"])
        versions.setdefault(key, []).append(s["since_version"])
    limits = {}
    with open(os.path.join(ROOT, "docs", "op-limits.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                op, text = line.split(":", 1)
                limits[op.strip()] = text.strip()

    ranges = {}
    for r in rules:
        key = r["op_type"] if r["domain"] == "ai.onnx" else "%s:%s" % (r["domain"], r["op_type"])
        ranges.setdefault(key, []).append((r["since"], r["until"]))
    passing = {"compiled": {}, "reference": {}}
    exercised, dtypes = {}, {}
    total = {"compiled": 0, "reference": 0}
    for suite, folder in SUITES.items():
        if not os.path.isdir(folder):
            continue
        listed = {m: ratchet(m, suite) for m in passing}
        for case in sorted(os.listdir(folder)):
            path = os.path.join(folder, case)
            if not os.path.exists(os.path.join(path, "model.onnx")):
                continue
            ops, seen = case_ops(path)
            for op in ops:
                exercised[op] = exercised.get(op, 0) + 1
            for mode in passing:
                if case in listed[mode]:
                    total[mode] += 1
                    for op in ops:
                        passing[mode][op] = passing[mode].get(op, 0) + 1
            if case in listed["compiled"]:
                for op, d in seen.items():
                    dtypes.setdefault(op, set()).update(d)

    def span(pairs):
        merged = []
        for since, until in sorted(pairs):
            if merged and since == merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], until)
            else:
                merged.append((since, until))
        return ", ".join("%d-%d" % p if p[0] != p[1] else "%d" % p[0] for p in merged)

    onnx_ops = sorted(k for k in versions if ":" not in k)
    supported = [op for op in onnx_ops if op in ranges]
    lines = [
        "# ONNX operators in tcc",
        "",
        "Generated by `scripts/gen_ops_doc.py` from the rule registry (`tcc --list-ops`), onnx %s's"
        % schemas["onnx_version"],
        "operator schemas (test/data/onnx-schemas.json) and the conformance ratchets",
        "(test/conformance/*.txt); the `ops-doc` test fails when this file is not current.",
        "",
        "tcc has rules for %d of the %d operators of the default domain (ai.onnx) in onnx %s,"
        % (len(supported), len(onnx_ops), schemas["onnx_version"]),
        "at opsets 1 to 28. String tensors are supported (Cast, StringNormalizer, Equal,",
        "StringConcat, RegexFullMatch and data movement; not StringSplit). The ai.onnx.ml",
        "domain is refused with an error that names the node. A later version of an op is",
        "covered by an older rule only when ONNX kept its inputs, outputs and attributes.",
        "",
        "Cases: backend test cases and models that use the op and pass compiled (and with the",
        "reference evaluator), out of those that use it; %d cases pass compiled, %d reference."
        % (total["compiled"], total["reference"]),
        "Dtypes: element types of the op's first input in the passing compiled cases, where the",
        "model declares them.",
        "",
        "| op | opsets | cases: compiled / reference / all | dtypes exercised | limits |",
        "|---|---|---|---|---|",
    ]
    for op in supported:
        lines.append("| %s | %s | %d / %d / %d | %s | %s |" % (
            op, span(ranges[op]), passing["compiled"].get(op, 0), passing["reference"].get(op, 0),
            exercised.get(op, 0), " ".join(sorted(dtypes.get(op, []))), limits.get(op, "")))
    # Contrib domains, and default-domain names ONNX does not define (ORT's own ops).
    others = sorted(k for k in ranges if ":" in k or k not in versions)
    if others:
        lines += ["", "## Other domains", "",
                  "Contrib ops of ONNX Runtime's com.microsoft domain (Hugging Face Optimum and ORT's",
                  "optimizer write them); their cases are checked against ONNX Runtime's outputs.", "",
                  "| op | opsets | cases: compiled / reference / all | dtypes exercised |",
                  "|---|---|---|---|"]
        for op in others:
            lines.append("| %s | %s | %d / %d / %d | %s |" % (
                op if ":" in op else "%s (ORT, default domain)" % op,
                ", ".join(str(since) for since, _ in sorted(ranges[op])), passing["compiled"].get(op, 0),
                passing["reference"].get(op, 0), exercised.get(op, 0),
                " ".join(sorted(dtypes.get(op, [])))))
    lines += ["", "## Operators without a rule", "",
              "| op | ONNX versions | cases |", "|---|---|---|"]
    for op in onnx_ops:
        if op not in ranges:
            lines.append("| %s | %s | %d |" % (op, " ".join(str(v) for v in sorted(versions[op])),
                                               exercised.get(op, 0)))
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    text = generate(sys.argv[1])
    if "--check" in sys.argv:
        current = open(OUTPUT).read() if os.path.exists(OUTPUT) else ""
        if current != text:
            print("docs/ops.md is not current: run scripts/gen_ops_doc.py build/bin/tcc")
            return 1
        print("docs/ops.md is current")
        return 0
    with open(OUTPUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
