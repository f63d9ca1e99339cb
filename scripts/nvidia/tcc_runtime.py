"""The tcc runtime (libtcc_runtime.so) from Python through ctypes, for the GPU bundle.

Runs a model compiled by tcc on torch tensors without copies: each tensor is handed to
tcc_session_run as a DLTensor pointing at its memory (a CUDA tensor as kDLCUDA, so that a
device model reads and writes it in place). Only what the bundle needs: load, one session,
run with given output tensors.
"""
import ctypes

import torch

K_DL_CPU, K_DL_CUDA = 1, 2


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("dim_symbols", ctypes.POINTER(ctypes.c_int32)),
                ("dim_names", ctypes.c_void_p)]


# DLPack type codes: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4; booleans are uint8.
_DTYPES = {torch.float32: (2, 32), torch.float16: (2, 16), torch.bfloat16: (4, 16),
           torch.float64: (2, 64), torch.int64: (0, 64), torch.int32: (0, 32),
           torch.int16: (0, 16), torch.int8: (0, 8), torch.uint8: (1, 8), torch.bool: (1, 8),
           torch.uint16: (1, 16), torch.uint32: (1, 32), torch.uint64: (1, 64)}


class Runtime:
    def __init__(self, library):
        self.lib = ctypes.CDLL(library)
        self.lib.tcc_status_message.restype = ctypes.c_char_p
        self.lib.tcc_model_load.argtypes = [ctypes.c_char_p, ctypes.c_void_p,
                                            ctypes.POINTER(ctypes.c_void_p)]
        self.lib.tcc_session_create.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                ctypes.POINTER(ctypes.c_void_p)]
        self.lib.tcc_session_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                             ctypes.c_void_p, ctypes.c_size_t]
        self.lib.tcc_session_release.argtypes = [ctypes.c_void_p]
        self.lib.tcc_model_release.argtypes = [ctypes.c_void_p]
        self.lib.tcc_status_free.argtypes = [ctypes.c_void_p]
        self.lib.tcc_status_message.argtypes = [ctypes.c_void_p]
        for name in ("tcc_model_num_symbols", "tcc_model_num_outputs"):
            getattr(self.lib, name).argtypes = [ctypes.c_void_p]
            getattr(self.lib, name).restype = ctypes.c_int32
        self.lib.tcc_model_bind_symbols.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                    ctypes.c_size_t, ctypes.c_void_p,
                                                    ctypes.c_size_t]
        self.lib.tcc_model_output_shapes.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                                     ctypes.c_size_t, ctypes.c_void_p,
                                                     ctypes.c_size_t]
        self.lib.tcc_model_output_info.argtypes = [ctypes.c_void_p, ctypes.c_int32,
                                                   ctypes.c_void_p]
        self.lib.tcc_session_output_shape.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                                      ctypes.c_void_p]
        for name in ("tcc_model_bind_symbols", "tcc_model_output_shapes",
                     "tcc_model_output_info", "tcc_session_output_shape"):
            getattr(self.lib, name).restype = ctypes.c_void_p
        self.lib.tcc_model_load.restype = ctypes.c_void_p
        self.lib.tcc_session_create.restype = ctypes.c_void_p
        self.lib.tcc_session_run.restype = ctypes.c_void_p

    def check(self, status, what):
        if status:
            message = self.lib.tcc_status_message(status).decode()
            self.lib.tcc_status_free(status)
            raise RuntimeError("%s: %s" % (what, message))


class Session:
    """A model and one session of it; run() takes and fills torch tensors."""

    def __init__(self, runtime, path):
        self.rt = runtime
        self.model = ctypes.c_void_p()
        runtime.check(runtime.lib.tcc_model_load(path.encode(), None, ctypes.byref(self.model)),
                      "tcc_model_load(%s)" % path)
        self.session = ctypes.c_void_p()
        runtime.check(runtime.lib.tcc_session_create(self.model, None,
                                                     ctypes.byref(self.session)),
                      "tcc_session_create")
        self._keep = []

    def _describe(self, tensors):
        array = (DLTensor * len(tensors))()
        pointers = (ctypes.POINTER(DLTensor) * len(tensors))()
        for k, t in enumerate(tensors):
            assert t.is_contiguous(), "tcc takes compact row-major tensors"
            shape = (ctypes.c_int64 * max(1, t.dim()))(*t.shape)
            self._keep.append(shape)
            code, bits = _DTYPES[t.dtype]
            device = DLDevice(K_DL_CUDA if t.is_cuda else K_DL_CPU, t.device.index or 0)
            array[k] = DLTensor(ctypes.c_void_p(t.data_ptr()), device, t.dim(),
                                DLDataType(code, bits, 1), shape, None, 0)
            pointers[k] = ctypes.pointer(array[k])
        self._keep.extend([array, pointers])
        return pointers

    def prepare(self, inputs, outputs):
        """Describes the tensors once, for repeated runs on the same memory."""
        self._keep = []
        self._inputs, self._outputs = self._describe(inputs), self._describe(outputs)
        self._counts = (len(inputs), len(outputs))

    def output_shapes(self, inputs):
        """The outputs' shapes for these inputs; a data-dependent dim (NonZero, Compress,
        Unique) has its capacity, and actual_shapes() gives its extent after a run."""
        lib = self.rt.lib
        num_symbols = lib.tcc_model_num_symbols(self.model)
        num_outputs = lib.tcc_model_num_outputs(self.model)
        keep = self._keep
        pointers = self._describe(inputs)
        symbols = (ctypes.c_int64 * max(1, num_symbols))()
        self.rt.check(lib.tcc_model_bind_symbols(self.model, pointers, len(inputs), symbols,
                                                 num_symbols), "tcc_model_bind_symbols")
        self._keep = keep
        ranks = [self.output_rank(k) for k in range(num_outputs)]
        arrays = [(ctypes.c_int64 * max(1, r))() for r in ranks]
        table = (ctypes.POINTER(ctypes.c_int64) * max(1, num_outputs))(
            *[ctypes.cast(a, ctypes.POINTER(ctypes.c_int64)) for a in arrays])
        self.rt.check(lib.tcc_model_output_shapes(self.model, symbols, num_symbols, table,
                                                  num_outputs), "tcc_model_output_shapes")
        return [tuple(a[:r]) for a, r in zip(arrays, ranks)]

    def output_rank(self, k):
        info = TensorInfo()
        self.rt.check(self.rt.lib.tcc_model_output_info(self.model, k, ctypes.byref(info)),
                      "tcc_model_output_info")
        return info.rank

    def actual_shapes(self):
        """The outputs' shapes after the last run (data-dependent dims as the data gave)."""
        shapes = []
        for k in range(self.rt.lib.tcc_model_num_outputs(self.model)):
            rank = self.output_rank(k)
            shape = (ctypes.c_int64 * max(1, rank))()
            self.rt.check(self.rt.lib.tcc_session_output_shape(self.session, k, shape),
                          "tcc_session_output_shape")
            shapes.append(tuple(shape[:rank]))
        return shapes

    def run(self):
        self.rt.check(self.rt.lib.tcc_session_run(self.session, self._inputs, self._counts[0],
                                                  self._outputs, self._counts[1]),
                      "tcc_session_run")

    def close(self):
        self.rt.lib.tcc_session_release(self.session)
        self.rt.lib.tcc_model_release(self.model)
