#!/usr/bin/env python3
"""Collect ONNX backend node test cases that are new since onnx 1.12 or use opset >= 18.

Runs where a recent onnx is installed (the GPU machine has onnx 1.23). A case is written when its
model imports ai.onnx at opset >= --min-opset, or when its name is not in --known (the cases
shipped with onnx 1.12, scripts/gpu/node-cases-onnx-1.12.txt). Layout, as onnx writes it:

    OUT/CASE/model.onnx
    OUT/CASE/test_data_set_N/input_K.pb, output_K.pb

Tensor data are TensorProto; sequence and optional values are whatever onnx writes for them
(SequenceProto, OptionalProto); index.json records the kind of every input and output. Cases
whose data cannot be read back (maps, unparsable files, no data sets) are listed in skipped.txt
with the reason.

The cases come from onnx's stored test data (onnx.backend.test.loader); where a build of onnx
ships none, they are generated from onnx.backend.test.case.node.

    python3 make_node_tests.py --known node-cases-onnx-1.12.txt --out DIR [--tar X.tar.gz]
"""

import argparse
import collections
import json
import os
import shutil
import sys
import tarfile
import tempfile

import onnx
from onnx import numpy_helper


def ai_onnx_opset(model):
    for imp in model.opset_import:
        if imp.domain in ("", "ai.onnx"):
            return int(imp.version)
    return None


def other_domains(model):
    return {imp.domain: int(imp.version) for imp in model.opset_import
            if imp.domain not in ("", "ai.onnx")}


def value_kind(type_proto):
    which = type_proto.WhichOneof("value")
    return {"tensor_type": "tensor", "sequence_type": "sequence", "optional_type": "optional",
            "map_type": "map", "sparse_tensor_type": "sparse_tensor"}.get(which, str(which))


PARSERS = {
    "tensor": onnx.TensorProto,
    "sequence": onnx.SequenceProto,
    "optional": onnx.OptionalProto,
    "map": onnx.MapProto,
}


def check_data_sets(model, case_dir):
    """Returns (data_sets, io_kinds, reason); reason is None when every file parses."""
    sets = sorted(d for d in os.listdir(case_dir)
                  if d.startswith("test_data_set_") and os.path.isdir(os.path.join(case_dir, d)))
    in_kinds = [value_kind(v.type) for v in model.graph.input]
    out_kinds = [value_kind(v.type) for v in model.graph.output]
    if not sets:
        return sets, (in_kinds, out_kinds), "no test_data_set directory"
    for kinds in (in_kinds, out_kinds):
        for k in kinds:
            if k not in ("tensor", "sequence", "optional"):
                return sets, (in_kinds, out_kinds), f"graph has a {k} value (not TensorProto/SequenceProto/OptionalProto)"
    for s in sets:
        sdir = os.path.join(case_dir, s)
        for prefix, kinds in (("input", in_kinds), ("output", out_kinds)):
            files = sorted(f for f in os.listdir(sdir) if f.startswith(prefix + "_") and f.endswith(".pb"))
            for f in files:
                try:
                    j = int(f[len(prefix) + 1:-3])
                except ValueError:
                    return sets, (in_kinds, out_kinds), f"{s}/{f}: unexpected file name"
                if j >= len(kinds):
                    return sets, (in_kinds, out_kinds), f"{s}/{f}: more data files than graph {prefix}s"
                proto = PARSERS[kinds[j]]()
                try:
                    with open(os.path.join(sdir, f), "rb") as fh:
                        proto.ParseFromString(fh.read())
                except Exception as e:  # noqa: BLE001
                    return sets, (in_kinds, out_kinds), f"{s}/{f}: does not parse as {type(proto).__name__}: {e}"
    return sets, (in_kinds, out_kinds), None


def stored_cases():
    """([(name, case_dir)] from onnx's stored node test data, api, in-memory cases)."""
    try:
        from onnx.backend.test import loader
    except Exception as e:  # noqa: BLE001
        print(f"onnx.backend.test.loader unavailable: {e}")
        return [], "none", []
    cases = None
    for fn_name, kwargs in (("load_node_model_tests", {}), ("load_model_tests", {"kind": "node"})):
        fn = getattr(loader, fn_name, None)
        if fn is None:
            continue
        try:
            cases = fn(**kwargs)
            api = f"onnx.backend.test.loader.{fn_name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
            break
        except Exception as e:  # noqa: BLE001
            print(f"{fn_name} failed: {e}")
    if cases is None:
        return [], "none", []
    out = []
    for c in cases:
        d = getattr(c, "model_dir", None)
        if d and os.path.exists(os.path.join(d, "model.onnx")):
            out.append((c.name, d))
    print(f"{api}: {len(cases)} cases, {len(out)} with a model.onnx on disk")
    in_memory = [c for c in cases if getattr(c, "model", None) is not None and getattr(c, "data_sets", None)]
    return out, api, in_memory


def write_value(path, value, type_proto, name):
    kind = value_kind(type_proto)
    if isinstance(value, (onnx.TensorProto, onnx.SequenceProto, onnx.OptionalProto, onnx.MapProto)):
        # onnx hands some values over already as protos (e.g. float8/int4/bfloat16 tensors)
        if isinstance(value, onnx.MapProto) or (kind == "tensor") != isinstance(value, onnx.TensorProto):
            raise ValueError(f"a {type(value).__name__} for a {kind} value")
        proto = value
    elif kind == "tensor":
        proto = numpy_helper.from_array(value, name)
    elif kind == "sequence":
        proto = numpy_helper.from_list(value, name)
    elif kind == "optional":
        proto = numpy_helper.from_optional(value, name)
    else:
        raise ValueError(f"{kind} value cannot be written as TensorProto/SequenceProto/OptionalProto")
    with open(path, "wb") as f:
        f.write(proto.SerializeToString())


def generated_cases(tmp_root, cases=None):
    """Writes in-memory node cases (default: onnx.backend.test.case.node's) into tmp_root."""
    if cases is None:
        import onnx.backend.test.case.node as node_test
        try:
            cases = node_test.collect_testcases(None)
        except TypeError:
            cases = node_test.collect_testcases()
    out, failed = [], []
    for case in cases:
        d = os.path.join(tmp_root, case.name)
        try:
            os.makedirs(d)
            with open(os.path.join(d, "model.onnx"), "wb") as f:
                f.write(case.model.SerializeToString())
            for i, (inputs, outputs) in enumerate(case.data_sets):
                sd = os.path.join(d, f"test_data_set_{i}")
                os.makedirs(sd)
                for j, v in enumerate(inputs):
                    vi = case.model.graph.input[j]
                    write_value(os.path.join(sd, f"input_{j}.pb"), v, vi.type, vi.name)
                for j, v in enumerate(outputs):
                    vo = case.model.graph.output[j]
                    write_value(os.path.join(sd, f"output_{j}.pb"), v, vo.type, vo.name)
            out.append((case.name, d))
        except Exception as e:  # noqa: BLE001
            failed.append((case.name, f"cannot serialize: {type(e).__name__}: {e}"))
            shutil.rmtree(d, ignore_errors=True)
    return out, failed


def dir_bytes(d):
    total = 0
    for root, _, files in os.walk(d):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def make_tar(src_dir, tar_path, arcname):
    with tarfile.open(tar_path, "w:gz", compresslevel=9) as tf:
        tf.add(src_dir, arcname=arcname)
    return os.path.getsize(tar_path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--known", required=True, help="file with the onnx 1.12 case names, one a line")
    ap.add_argument("--out", required=True, help="directory to write the cases into (created)")
    ap.add_argument("--min-opset", type=int, default=18)
    ap.add_argument("--tar", help="also pack OUT into this .tar.gz")
    ap.add_argument("--max-tar-bytes", type=int, default=0,
                    help="drop the largest cases until the tarball fits (0: no limit)")
    ap.add_argument("--generate", action="store_true", help="generate instead of copying stored data")
    args = ap.parse_args()

    with open(args.known) as f:
        known = {ln.strip() for ln in f if ln.strip() and not ln.startswith("#")}
    print(f"onnx {onnx.__version__}; {len(known)} known onnx 1.12 cases")

    tmp = tempfile.mkdtemp(prefix="nodegen-")
    skipped = []  # (name, reason)
    source = None
    cases, in_memory = [], []
    if not args.generate:
        cases, source, in_memory = stored_cases()
    if not cases and in_memory:
        cases, failed = generated_cases(tmp, in_memory)
        skipped += failed
        source = f"{source}, written from the cases' in-memory models and data sets"
        print(f"wrote {len(cases)} in-memory cases, {len(failed)} failed to serialize")
    if not cases:
        try:
            cases, failed = generated_cases(tmp)
        except Exception as e:  # noqa: BLE001
            print(f"generating node cases failed: {type(e).__name__}: {e}")
            cases, failed = [], [("*", f"no stored data and generation failed: {e}")]
        skipped += failed
        source = "generated with onnx.backend.test.case.node.collect_testcases"
        print(f"generated {len(cases)} cases, {len(failed)} failed to serialize")

    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    written = {}
    n_considered = 0
    for name, d in sorted(cases):
        try:
            model = onnx.load(os.path.join(d, "model.onnx"), load_external_data=False)
        except Exception as e:  # noqa: BLE001
            skipped.append((name, f"model.onnx does not load: {e}"))
            continue
        opset = ai_onnx_opset(model)
        new = name not in known
        if not ((opset is not None and opset >= args.min_opset) or new):
            continue
        n_considered += 1
        sets, (in_kinds, out_kinds), reason = check_data_sets(model, d)
        if reason:
            skipped.append((name, reason))
            continue
        dst = os.path.join(args.out, name)
        shutil.copytree(d, dst)
        written[name] = {
            "ai_onnx_opset": opset,
            "other_domains": other_domains(model),
            "new_since_onnx_1_12": new,
            "ops": sorted({(n.domain + ":" if n.domain not in ("", "ai.onnx") else "") + n.op_type
                           for n in model.graph.node}),
            "inputs": in_kinds,
            "outputs": out_kinds,
            "data_sets": len(sets),
            "bytes": dir_bytes(dst),
        }

    def summary():
        per_opset = collections.Counter(str(v["ai_onnx_opset"]) for v in written.values())
        return {
            "onnx_version": onnx.__version__,
            "source": source,
            "selection": f"ai.onnx opset >= {args.min_opset}, or name not among the {len(known)} node cases of onnx 1.12",
            "cases_selected": n_considered,
            "cases_written": len(written),
            "cases_skipped": len(skipped),
            "written_per_ai_onnx_opset": dict(sorted(per_opset.items(), key=lambda kv: (len(kv[0]), kv[0]))),
            "written_new_since_onnx_1_12": sum(v["new_since_onnx_1_12"] for v in written.values()),
            "written_with_sequence_or_optional_values": sum(
                any(k != "tensor" for k in v["inputs"] + v["outputs"]) for v in written.values()),
            "total_bytes": sum(v["bytes"] for v in written.values()),
            "cases": dict(sorted(written.items())),
        }

    def write_meta():
        with open(os.path.join(args.out, "index.json"), "w") as f:
            json.dump(summary(), f, indent=1, sort_keys=False)
        with open(os.path.join(args.out, "skipped.txt"), "w") as f:
            f.write("# case<TAB>reason\n")
            for n, r in sorted(skipped):
                f.write(f"{n}\t{r}\n")
        s = summary()
        with open(os.path.join(args.out, "README.md"), "w") as f:
            f.write(
                "# ONNX node test cases, opset 18+ and new since onnx 1.12\n\n"
                f"Written by scripts/gpu/make_node_tests.py from onnx {s['onnx_version']} ({s['source']}).\n"
                f"Selection: {s['selection']}.\n\n"
                f"{s['cases_written']} cases written, {s['cases_skipped']} skipped (skipped.txt says why); "
                f"{s['written_new_since_onnx_1_12']} of them are new since onnx 1.12.\n"
                f"Per ai.onnx opset: {json.dumps(s['written_per_ai_onnx_opset'])}.\n\n"
                "Layout: CASE/model.onnx, CASE/test_data_set_N/input_K.pb and output_K.pb. Tensors are\n"
                "TensorProto; sequence and optional values are SequenceProto and OptionalProto, as onnx\n"
                "writes them (index.json gives every case's opset, ops and input/output kinds).\n")

    write_meta()
    s = summary()
    print(json.dumps({k: v for k, v in s.items() if k != "cases"}, indent=1))

    if args.tar:
        arc = os.path.basename(os.path.normpath(args.out))
        size = make_tar(args.out, args.tar, arc)
        print(f"{args.tar}: {size} bytes")
        while args.max_tar_bytes and size > args.max_tar_bytes and written:
            # drop the largest cases, about as many bytes as the excess (scaled by the compression ratio)
            ratio = size / max(1, sum(v["bytes"] for v in written.values()))
            excess = (size - args.max_tar_bytes) / max(ratio, 1e-3) * 1.05
            for name in sorted(written, key=lambda n: -written[n]["bytes"]):
                if excess <= 0:
                    break
                excess -= written[name]["bytes"]
                skipped.append((name, f"dropped for size ({written[name]['bytes']} bytes; tarball limit {args.max_tar_bytes})"))
                shutil.rmtree(os.path.join(args.out, name))
                del written[name]
            write_meta()
            size = make_tar(args.out, args.tar, arc)
            print(f"{args.tar}: {size} bytes after dropping large cases")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
