"""Exports the models of torch_models.py to ONNX on the GPU machine (torch 2.11's dynamo
exporter, dynamic batch), with an input at batch 2 and torch's fp32 output on the CPU as the
reference, one folder per model in the corpus layout, each packed into OUT/<model>.tar (the
device tool returns files of at most 16 MiB).

usage: python3 make_models.py OUT
"""
import os
import sys
import tarfile
import traceback

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_models  # noqa: E402


def export(name, folder):
    model, inputs = torch_models.build(name)
    example = inputs(2)
    with torch.no_grad():
        reference = model(*example)
    batch = torch.export.Dim("batch", min=1, max=1024)
    torch.onnx.export(model, example, os.path.join(folder, "model.onnx"), dynamo=True,
                      input_names=["x"], output_names=["y"],
                      dynamic_shapes=({0: batch},), external_data=False)
    np.save(os.path.join(folder, "input_0_x.npy"), example[0].numpy())
    np.save(os.path.join(folder, "output_0_y.npy"), reference.numpy())


def main():
    out = sys.argv[1]
    torch.backends.cuda.matmul.allow_tf32 = False
    made = []
    for name in torch_models.NAMES:
        folder = os.path.join(out, "exports", name)
        os.makedirs(folder, exist_ok=True)
        try:
            export(name, folder)
            made.append(name)
            print("exported", name, os.path.getsize(os.path.join(folder, "model.onnx")), flush=True)
        except Exception:
            print("export of %s failed:" % name, traceback.format_exc()[-1500:], flush=True)
    for name in made:
        path = os.path.join(out, name + ".tar")
        with tarfile.open(path, "w") as tar:
            tar.add(os.path.join(out, "exports", name), arcname=name)
        print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
