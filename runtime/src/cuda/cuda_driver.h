//===- cuda_driver.h - the CUDA driver API as the CUDA backend loads it ------------------===//
//
// The runtime links against nothing of CUDA and includes none of its headers: the few driver
// types and functions the backend uses are declared here, as libcuda.so.1 (the NVIDIA driver)
// exports them, and cuda_driver.c dlopens the driver and resolves them on the first call that
// needs the GPU, once per process. Only the files of runtime/src/cuda include this.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_CUDA_DRIVER_H
#define TCC_RUNTIME_CUDA_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
typedef struct CUevent_st *CUevent;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
  CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
  CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
};
enum {
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };
enum { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8 };
/// cuStreamCreate's flags: a stream that waits for the legacy default stream (and that it
/// waits for), or one that does not.
enum { CU_STREAM_DEFAULT = 0, CU_STREAM_NON_BLOCKING = 1 };
/// cuStreamBeginCapture_v2's modes (CUstreamCaptureMode).
enum {
  CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
  CU_STREAM_CAPTURE_MODE_RELAXED = 2,
};

/// The driver functions the backend uses, by their exported (versioned) names: cuda.h maps
/// cuMemAlloc to cuMemAlloc_v2, cuStreamBeginCapture to cuStreamBeginCapture_v2 (the one with
/// a capture mode), and so on.
typedef struct cuda_driver {
  CUresult (*cuInit)(unsigned int flags);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuMemAlloc_v2)(CUdeviceptr *pointer, size_t bytes);
  CUresult (*cuMemFree_v2)(CUdeviceptr pointer);
  CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr destination, const void *source, size_t bytes);
  CUresult (*cuMemcpyDtoH_v2)(void *destination, CUdeviceptr source, size_t bytes);
  CUresult (*cuMemcpyDtoD_v2)(CUdeviceptr destination, CUdeviceptr source, size_t bytes);
  CUresult (*cuMemsetD8_v2)(CUdeviceptr destination, unsigned char value, size_t count);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned int flags);
  CUresult (*cuStreamDestroy_v2)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image, unsigned int num_options,
                                 int *options, void **option_values);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned int grid_x, unsigned int grid_y,
                             unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                             unsigned int block_z, unsigned int shared_bytes, CUstream stream,
                             void **params, void **extra);
  // Events, for profiles (cuEventElapsedTime_v2 where the driver has it, else
  // cuEventElapsedTime: the same signature).
  CUresult (*cuEventCreate)(CUevent *event, unsigned int flags);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent begin, CUevent end);
  CUresult (*cuEventDestroy_v2)(CUevent event);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  // CUDA graphs (CUDA 11.4 drivers and later). Optional: NULL, all of them, where the driver
  // lacks one (tcc_cuda_graphs_missing says which); the backend then records no graphs.
  CUresult (*cuStreamBeginCapture_v2)(CUstream stream, int mode);
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph *graph);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *exec, CUgraph graph,
                                          unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
  CUresult (*cuGraphDestroy)(CUgraph graph);
} cuda_driver;

/// The driver's functions: all NULL until tcc_cuda_enter (or tcc_cuda_ready) has succeeded
/// once, then set for good (only read).
extern cuda_driver tcc_cuda_driver;

/// Makes the driver ready (once per process) and the GPU's context current on the calling
/// thread. Fails with why the driver or the GPU cannot be used, as
/// "<device name> device: <function>: <why>". Thread-safe.
tcc_status tcc_cuda_enter(const tcc_device *device, const char *function);

/// Whether the driver was set up successfully, making the context current as tcc_cuda_enter
/// does (for the functions that cannot fail). Thread-safe.
int tcc_cuda_ready(void);

/// The GPU's ordinal: $TCC_CUDA_DEVICE, read once per process (0 when unset or bad; a bad
/// value fails tcc_cuda_enter). Needs no driver. Thread-safe.
int32_t tcc_cuda_ordinal(void);

/// The GPU's compute capability as major * 10 + minor (90 for sm_90); valid once
/// tcc_cuda_enter has succeeded. Thread-safe.
int tcc_cuda_arch(void);

/// The first graph function (cuda_driver) the driver lacks, or NULL when it has them all;
/// valid once tcc_cuda_enter has succeeded. Static string; thread-safe.
const char *tcc_cuda_graphs_missing(void);

/// Writes "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected". Thread-safe.
void tcc_cuda_describe(CUresult result, char *buffer, size_t capacity);

/// The status code of a driver error: what the caller can do about it. Thread-safe.
tcc_status_code tcc_cuda_code_of(CUresult result);

/// "<device name> device: <function>: <call> failed: <the driver's name and text of result>".
tcc_status tcc_cuda_failure(const tcc_device *device, const char *function, const char *call,
                            CUresult result);

#endif // TCC_RUNTIME_CUDA_DRIVER_H
