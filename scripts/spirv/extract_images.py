#!/usr/bin/env python3
"""Writes the device images of a compiled model to files, read through the runtime's own API
(tcc_model_load, tcc_model_device_image), for spirv-val, spirv-dis or spirv-cross:

    extract_images.py libtcc_runtime.so model.so OUTDIR  ->  OUTDIR/<k>-<arch>.<format>, a line each

Exits 1 when the model does not load or has no images.
"""
import ctypes
import os
import sys

EXTENSIONS = {1: "ptx", 2: "cubin", 3: "hsaco", 4: "spv"}


class DeviceImage(ctypes.Structure):
    _fields_ = [("arch", ctypes.c_char_p), ("format", ctypes.c_int32),
                ("reserved", ctypes.c_int32), ("data", ctypes.c_void_p),
                ("size", ctypes.c_int64)]


def main():
    runtime_path, model_path, folder = sys.argv[1:4]
    runtime = ctypes.CDLL(runtime_path)
    runtime.tcc_model_load.argtypes = [ctypes.c_char_p, ctypes.c_void_p,
                                       ctypes.POINTER(ctypes.c_void_p)]
    runtime.tcc_model_load.restype = ctypes.c_void_p
    runtime.tcc_status_message.argtypes = [ctypes.c_void_p]
    runtime.tcc_status_message.restype = ctypes.c_char_p
    runtime.tcc_model_num_device_images.argtypes = [ctypes.c_void_p]
    runtime.tcc_model_device_image.argtypes = [ctypes.c_void_p, ctypes.c_int32,
                                               ctypes.POINTER(DeviceImage)]
    runtime.tcc_model_device_image.restype = ctypes.c_void_p
    model = ctypes.c_void_p()
    status = runtime.tcc_model_load(model_path.encode(), None, ctypes.byref(model))
    if status:
        print("extract_images: %s" % runtime.tcc_status_message(status).decode(), file=sys.stderr)
        return 1
    count = runtime.tcc_model_num_device_images(model)
    if count <= 0:
        print("extract_images: %s has no device images" % model_path, file=sys.stderr)
        return 1
    os.makedirs(folder, exist_ok=True)
    for k in range(count):
        image = DeviceImage()
        status = runtime.tcc_model_device_image(model, k, ctypes.byref(image))
        if status:
            print("extract_images: %s" % runtime.tcc_status_message(status).decode(),
                  file=sys.stderr)
            return 1
        name = "%d-%s.%s" % (k, image.arch.decode(), EXTENSIONS.get(image.format, "bin"))
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(ctypes.string_at(image.data, image.size))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
