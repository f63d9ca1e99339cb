#!/usr/bin/env python3
"""Writes every operator schema onnx knows (all domains, all versions) as JSON.

Run where a recent onnx is installed (the GPU machine has onnx 1.23):
    python3 scripts/gpu/dump_schemas.py > onnx-schemas.json
tcc keeps the result as test/data/onnx-schemas.json: which versions of each op exist, and
for each version its inputs, outputs, attributes and type constraints. The decomposition
registry is checked against it (a rule covers later versions only when their signature is
unchanged) and docs/ops.md is generated from it.
"""
import json
import sys

import onnx
from onnx import defs


def formal(p):
    return {
        "name": p.name,
        "type": p.type_str,
        "option": {0: "single", 1: "optional", 2: "variadic"}.get(int(p.option), str(p.option)),
    }


def attribute(a):
    default = None
    if a.default_value is not None and a.default_value.type != 0:
        v = onnx.helper.get_attribute_value(a.default_value)
        if isinstance(v, bytes):
            v = v.decode("utf-8", "replace")
        elif isinstance(v, (list, tuple)):
            v = [x.decode("utf-8", "replace") if isinstance(x, bytes) else x for x in v]
        elif not isinstance(v, (int, float, str)):
            v = str(type(v).__name__)
        default = v
    return {"name": a.name, "type": str(a.type).split(".")[-1], "required": bool(a.required),
            "default": default}


def main():
    out = []
    for s in defs.get_all_schemas_with_history():
        out.append({
            "domain": s.domain or "ai.onnx",
            "name": s.name,
            "since_version": s.since_version,
            "deprecated": bool(s.deprecated),
            "function": bool(s.has_function) or bool(getattr(s, "has_context_dependent_function", False)),
            "inputs": [formal(p) for p in s.inputs],
            "outputs": [formal(p) for p in s.outputs],
            "attributes": [attribute(a) for _, a in sorted(s.attributes.items())],
            "type_constraints": [{"param": t.type_param_str, "allowed": sorted(t.allowed_type_strs)}
                                 for t in s.type_constraints],
        })
    out.sort(key=lambda e: (e["domain"], e["name"], e["since_version"]))
    json.dump({"onnx_version": onnx.__version__, "schemas": out}, sys.stdout, indent=0,
              sort_keys=True)


if __name__ == "__main__":
    main()
