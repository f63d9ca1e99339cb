#!/usr/bin/env python3
"""Makes the int8 benchmark models of issue #20 with onnxruntime's quantization tool, or with
torch's (FX graph mode, static, the fbgemm x86 configuration).

    scripts/make_int8_models.py OUT_DIR [MODEL:FORMAT[+FORMAT],...]   # onnxruntime's tool: torch,
                                          # torchvision, onnx, onnxruntime (the GPU machine has
                                          # them; this machine has no onnxruntime for Python);
                                          # e.g. resnet18:qdq+qop,mobilenet_v2:qop
    scripts/make_int8_models.py --torch OUT_DIR [MODEL,...]   # torch's: apt's python3-torch and
                                          # python3-torchvision (1.13) on this machine

The float models are scripts/make_bench_models.py's architectures (random weights, fixed seed,
opset 17, dynamic batch), quantized statically from 8 random calibration samples:
  <model>_qdq  QuantFormat.QDQ: QuantizeLinear/DequantizeLinear pairs around float operators,
               activations uint8, weights int8 per output channel (U8S8, the x86 configuration
               ORT documents for VNNI);
  <model>_qop  QuantFormat.QOperator: QLinearConv/QLinearMatMul/QLinearAdd... with the same types.
  <model>_torchq  torch.ao.quantization.quantize_fx (fbgemm: activations uint8 per tensor,
               weights int8 per output channel), exported by torch.onnx (opset 13): QDQ pairs
               with Cast nodes and per-channel zero points.
Only model.onnx is written per folder. The benchmark folders (scripts/bench.py's layout) take
the float models' inputs (scripts/make_bench_models.py) and ONNX Runtime's outputs, made where
the benchmark runs, by the ONNX Runtime it compares with:

    ORT_RUN=$PWD/../shared/bench/ort-run.js   # from the repository's root
    for m in resnet18 resnet50 mobilenet_v2; do for b in 1 8; do
      f=~/.cache/tcc/int8-models/${m}_torchq_b$b; mkdir -p $f
      ln -sf OUT_DIR/${m}_torchq/model.onnx $f/model.onnx
      cp ~/.cache/tcc/bench-models/${m}_b$b/input_0_image.npy $f/
      (cd $f && NODE_PATH=~/.cache/tcc/onnxruntime-node/node_modules node $ORT_RUN \
         model.onnx --input input_0_image.npy --runs 1 --output-dir . &&
       mv output_0.npy output_0_output.npy)
    done; done
"""
import os
import sys

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_bench_models import Encoder, randomize  # noqa: E402


def torch_quantized(out, names):
    """torch's FX static quantization of the torchvision models `names`."""
    from torch.ao.quantization import get_default_qconfig_mapping
    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    torch.manual_seed(0)
    for name in names:
        model = randomize(getattr(torchvision.models, name)(weights=None))
        image = torch.randn(1, 3, 224, 224)
        prepared = prepare_fx(model, get_default_qconfig_mapping("fbgemm"), example_inputs=(image,))
        with torch.no_grad():
            for _ in range(8):
                prepared(torch.randn(1, 3, 224, 224))
        folder = os.path.join(out, name + "_torchq")
        os.makedirs(folder, exist_ok=True)
        torch.onnx.export(convert_fx(prepared), image, os.path.join(folder, "model.onnx"),
                          input_names=["image"], output_names=["output"],
                          dynamic_axes={"image": {0: "batch"}, "output": {0: "batch"}},
                          opset_version=13)
        print(folder, os.path.getsize(os.path.join(folder, "model.onnx")) // 1024, "KiB",
              flush=True)


def export_float(model, inputs, names, dynamic, path):
    with torch.no_grad():
        torch.onnx.export(model, tuple(inputs), path, input_names=names, output_names=["output"],
                          dynamic_axes=dynamic, opset_version=17, do_constant_folding=True,
                          dynamo=False)


def quantize(float_path, feeds, folder, fmt):
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Samples(CalibrationDataReader):
        def __init__(self, feeds):
            self.feeds = iter(feeds)

        def get_next(self):
            return next(self.feeds, None)

    os.makedirs(folder, exist_ok=True)
    prepared = float_path.replace(".onnx", ".pre.onnx")
    if not os.path.exists(prepared):
        quant_pre_process(float_path, prepared)
    quantize_static(prepared, os.path.join(folder, "model.onnx"), Samples(feeds),
                    quant_format=QuantFormat.QDQ if fmt == "qdq" else QuantFormat.QOperator,
                    activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8, per_channel=True)
    print(folder, os.path.getsize(os.path.join(folder, "model.onnx")) // 1024, "KiB", flush=True)


def main():
    if sys.argv[1] == "--torch":
        names = sys.argv[3].split(",") if len(sys.argv) > 3 else [
            "resnet18", "resnet50", "mobilenet_v2"]
        return torch_quantized(sys.argv[2], names)
    out = sys.argv[1]
    work = os.path.join(out, "float")
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    wanted = sys.argv[2].split(",") if len(sys.argv) > 2 else [
        "resnet18:qdq+qop", "resnet50:qdq", "mobilenet_v2:qdq", "bert_256:qdq+qop"]
    for item in wanted:
        name, _, formats = item.partition(":")
        if not formats or any(f not in ("qdq", "qop") for f in formats.split("+")):
            sys.exit("make_int8_models.py: %r: expected MODEL:FORMAT[+FORMAT] with formats "
                     "qdq and qop (items are separated by commas)" % item)
        path = os.path.join(work, name + ".onnx")
        if name == "bert_256":
            model = randomize(Encoder())
            ids = torch.randint(0, 1000, (1, 128))
            mask = torch.ones(1, 128, dtype=torch.int64)
            export_float(model, [ids, mask], ["input_ids", "attention_mask"],
                         {"input_ids": {0: "batch", 1: "seq"},
                          "attention_mask": {0: "batch", 1: "seq"},
                          "output": {0: "batch", 1: "seq"}}, path)
            feeds = []
            for _ in range(8):
                m = np.ones((1, 128), np.int64)
                m[:, 100:] = 0
                feeds.append({"input_ids": rng.integers(0, 1000, (1, 128)).astype(np.int64),
                              "attention_mask": m})
        else:
            model = randomize(getattr(torchvision.models, name)(weights=None))
            export_float(model, [torch.randn(1, 3, 224, 224)], ["image"],
                         {"image": {0: "batch"}, "output": {0: "batch"}}, path)
            feeds = [{"image": rng.standard_normal((1, 3, 224, 224), np.float32)}
                     for _ in range(8)]
        for fmt in formats.split("+"):
            quantize(path, list(feeds), os.path.join(out, "%s_%s" % (name, fmt)), fmt)


if __name__ == "__main__":
    main()
