"""Makes the model and inputs of random.test, or (with `check`) checks what tcc-run wrote."""
import os
import sys

import numpy as np

d = sys.argv[1]
if len(sys.argv) == 2:
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    nodes = [
        helper.make_node("RandomUniform", [], ["u"], name="ru", shape=[100000], seed=3.0, low=-1.0, high=3.0),
        helper.make_node("RandomNormal", [], ["nrm"], name="rn", shape=[100000], seed=5.0, mean=2.0, scale=0.5),
        helper.make_node("RandomUniformLike", ["x"], ["ul"], name="rul", seed=4.0),
        helper.make_node("Bernoulli", ["p"], ["b"], name="bern", seed=1.0),
        helper.make_node("Multinomial", ["logits"], ["m"], name="mult", sample_size=20000, seed=2.0),
        helper.make_node("RandomUniform", [], ["u3"], name="ru3", shape=[100000], seed=4.0, low=-1.0, high=3.0),
    ]
    outs = [("u", 1), ("nrm", 1), ("ul", 1), ("b", 1), ("m", 6), ("u3", 1)]
    graph = helper.make_graph(
        nodes, "r",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1000]),
         helper.make_tensor_value_info("p", TensorProto.FLOAT, [100000]),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info(n, t, None) for n, t in outs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    model.ir_version = 8
    onnx.save(model, os.path.join(d, "r.onnx"))
    x = np.zeros(1000, np.float32)
    p = np.full(100000, 0.3, np.float32)
    logits = np.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]], np.float32))
    for name, value in [("x", x), ("p", p), ("l", logits)]:
        np.save(os.path.join(d, name + ".npy"), value)
    # A conformance case of a small model: its expected output is what the compiled code
    # draws (written by the check step), so reference and compiled must agree bit for bit.
    small = helper.make_graph(
        [helper.make_node("RandomNormalLike", ["x"], ["y"], name="n", seed=9.0),
         helper.make_node("Bernoulli", ["q"], ["z"], name="b", seed=7.0)], "s",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64]),
         helper.make_tensor_value_info("q", TensorProto.FLOAT, [64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, None)])
    smodel = helper.make_model(small, opset_imports=[helper.make_opsetid("", 15)])
    smodel.ir_version = 8
    case = os.path.join(d, "case")
    os.makedirs(os.path.join(case, "test_data_set_0"))
    onnx.save(smodel, os.path.join(case, "model.onnx"))
    q = np.linspace(0, 1, 64).astype(np.float32)
    for k, (name, value) in enumerate([("x", np.zeros(64, np.float32)), ("q", q)]):
        np.save(os.path.join(case, name + ".npy"), value)
        with open(os.path.join(case, "test_data_set_0", "input_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(value).SerializeToString())
    sys.exit(0)

if sys.argv[2] == "expect":
    from onnx import numpy_helper
    for k in range(2):
        value = np.load(os.path.join(d, "case-out", "output_%d.npy" % k))
        with open(os.path.join(d, "case", "test_data_set_0", "output_%d.pb" % k), "wb") as f:
            f.write(numpy_helper.from_array(value).SerializeToString())
    sys.exit(0)

a = lambda i: np.load(os.path.join(d, "a", "output_%d.npy" % i))
b = lambda i: np.load(os.path.join(d, "b", "output_%d.npy" % i))
def report(name, ok):
    print(name + ": " + ("ok" if ok else "FAIL"))
u = a(0)
report("uniform in [-1, 3)", u.min() >= -1 and u.max() < 3)
report("uniform mean and variance", abs(u.mean() - 1) < 0.02 and abs(u.var() - 16 / 12) < 0.02)
n = a(1)
report("normal mean and std", abs(n.mean() - 2) < 0.01 and abs(n.std() - 0.5) < 0.01)
ul = a(2)
report("uniform like", ul.shape == (1000,) and ul.min() >= 0 and ul.max() < 1 and abs(ul.mean() - 0.5) < 0.05)
bern = a(3)
report("bernoulli", set(np.unique(bern)) <= {0.0, 1.0} and abs(bern.mean() - 0.3) < 0.01)
m = a(4)
freq = [np.bincount(m[i], minlength=3) / m.shape[1] for i in range(2)]
report("multinomial frequencies", m.dtype == np.int32 and
       np.abs(freq[0] - [0.2, 0.3, 0.5]).max() < 0.015 and np.abs(freq[1] - [0.7, 0.2, 0.1]).max() < 0.015)
report("same numbers on every run", all(np.array_equal(a(i), b(i)) for i in range(6)))
report("other seed, other numbers", not np.array_equal(a(0), a(5)))
