"""Writes an ONNX model (protobuf text format) whose If nodes nest DEPTH deep: each then-branch
holds the next If, each else-branch an Identity. usage: nested_if.py DEPTH OUT.onnxtxt"""
import sys

TENSOR = 'type { tensor_type { elem_type: 1 shape { dim { dim_value: 2 } } } }'


def branch(depth):
    if depth == 0:
        return 'name: "leaf" node { op_type: "Identity" input: "x" output: "o0" } ' \
               'output { name: "o0" %s }' % TENSOR
    other = 'name: "else%d" node { op_type: "Identity" input: "x" output: "e%d" } ' \
            'output { name: "e%d" %s }' % (depth, depth, depth, TENSOR)
    return ('name: "then%d" node { name: "if%d" op_type: "If" input: "c" output: "o%d" '
            'attribute { name: "then_branch" type: GRAPH g { %s } } '
            'attribute { name: "else_branch" type: GRAPH g { %s } } } '
            'output { name: "o%d" %s }' % (depth, depth, depth, branch(depth - 1), other,
                                          depth, TENSOR))


depth = int(sys.argv[1])
sys.setrecursionlimit(10 * depth + 1000)
with open(sys.argv[2], "w") as f:
    f.write('ir_version: 8\nopset_import { domain: "" version: 17 }\n'
            'graph { input { name: "c" type { tensor_type { elem_type: 9 shape { } } } } '
            'input { name: "x" %s } %s }\n' % (TENSOR, branch(depth)))
