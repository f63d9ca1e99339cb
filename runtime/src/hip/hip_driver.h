//===- hip_driver.h - the HIP module API as the HIP backend loads it ---------------------===//
//
// The runtime links against nothing of ROCm and includes none of its headers: the few HIP
// types and functions the backend uses are declared here, as libamdhip64.so (the ROCm HIP
// runtime) exports them, and hip_driver.c dlopens the library and resolves them on the first
// call that needs the GPU, once per process. Only the files of runtime/src/hip include this.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_HIP_DRIVER_H
#define TCC_RUNTIME_HIP_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

// hipError_t is an enum of int values (a 32-bit integer in registers, as int); device memory
// (hipDeviceptr_t) is a void *.
typedef int hipError_t;
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct ihipGraph *hipGraph_t;
typedef struct hipGraphExec *hipGraphExec_t;
typedef struct ihipEvent_t *hipEvent_t;

/// The result codes the backend tells apart (hipError_t in hip_runtime_api.h, ROCm 5 to 7).
enum {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInsufficientDriver = 35,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorInvalidKernelFile = 218,
  hipErrorSharedObjectInitFailed = 303,
  hipErrorNotFound = 500,
  hipErrorLaunchOutOfResources = 701,
  hipErrorNotSupported = 801,
};
/// hipStreamCreateWithFlags's flags: a stream that waits for the null stream (and that it
/// waits for), or one that does not.
enum { hipStreamDefault = 0, hipStreamNonBlocking = 1 };
/// hipStreamBeginCapture's modes (hipStreamCaptureMode).
enum {
  hipStreamCaptureModeGlobal = 0,
  hipStreamCaptureModeThreadLocal = 1,
  hipStreamCaptureModeRelaxed = 2,
};

/// The library's functions the backend uses, by their exported names.
typedef struct hip_driver {
  hipError_t (*hipInit)(unsigned int flags);
  hipError_t (*hipGetDeviceCount)(int *count);
  hipError_t (*hipSetDevice)(int device);
  // The device's properties, into a hipDeviceProp_t of the version the name says (hip_driver.c
  // reads gcnArchName from it): R0600 in ROCm 6 and later, the unversioned name the R0000
  // layout of ROCm 5 (which later versions keep under that name). At least one is present.
  hipError_t (*hipGetDevicePropertiesR0600)(void *properties, int device);
  hipError_t (*hipGetDeviceProperties)(void *properties, int device);
  hipError_t (*hipMalloc)(void **pointer, size_t bytes);
  hipError_t (*hipFree)(void *pointer);
  hipError_t (*hipMemcpyHtoD)(void *destination, void *source, size_t bytes);
  hipError_t (*hipMemcpyDtoH)(void *destination, void *source, size_t bytes);
  hipError_t (*hipMemcpyDtoD)(void *destination, void *source, size_t bytes);
  hipError_t (*hipMemsetD8)(void *destination, unsigned char value, size_t count);
  hipError_t (*hipStreamCreateWithFlags)(hipStream_t *stream, unsigned int flags);
  hipError_t (*hipStreamDestroy)(hipStream_t stream);
  hipError_t (*hipStreamSynchronize)(hipStream_t stream);
  hipError_t (*hipModuleLoadData)(hipModule_t *module, const void *image);
  hipError_t (*hipModuleUnload)(hipModule_t module);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *function, hipModule_t module, const char *name);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t function, unsigned int grid_x,
                                      unsigned int grid_y, unsigned int grid_z,
                                      unsigned int block_x, unsigned int block_y,
                                      unsigned int block_z, unsigned int shared_bytes,
                                      hipStream_t stream, void **params, void **extra);
  // Events, for profiles.
  hipError_t (*hipEventCreate)(hipEvent_t *event);
  hipError_t (*hipEventRecord)(hipEvent_t event, hipStream_t stream);
  hipError_t (*hipEventElapsedTime)(float *milliseconds, hipEvent_t begin, hipEvent_t end);
  hipError_t (*hipEventDestroy)(hipEvent_t event);
  // Unlike CUDA's, these return the name and the text.
  const char *(*hipGetErrorName)(hipError_t error);
  const char *(*hipGetErrorString)(hipError_t error);
  // HIP graphs (ROCm 4.5 and later). Optional: NULL, all of them, where the library lacks one
  // (tcc_hip_graphs_missing says which); the backend then records no graphs.
  hipError_t (*hipStreamBeginCapture)(hipStream_t stream, int mode);
  hipError_t (*hipStreamEndCapture)(hipStream_t stream, hipGraph_t *graph);
  hipError_t (*hipGraphInstantiateWithFlags)(hipGraphExec_t *exec, hipGraph_t graph,
                                             unsigned long long flags);
  hipError_t (*hipGraphLaunch)(hipGraphExec_t exec, hipStream_t stream);
  hipError_t (*hipGraphExecDestroy)(hipGraphExec_t exec);
  hipError_t (*hipGraphDestroy)(hipGraph_t graph);
} hip_driver;

/// The library's functions: all NULL until tcc_hip_enter (or tcc_hip_ready) has succeeded
/// once, then set for good (only read).
extern hip_driver tcc_hip_driver;

/// Makes the library ready (once per process) and the GPU current on the calling thread
/// (hipSetDevice). Fails with why HIP or the GPU cannot be used, as
/// "<device name> device: <function>: <why>". Thread-safe.
tcc_status tcc_hip_enter(const tcc_device *device, const char *function);

/// Whether the library was set up successfully, making the GPU current as tcc_hip_enter does
/// (for the functions that cannot fail). Thread-safe.
int tcc_hip_ready(void);

/// The GPU's ordinal: $TCC_HIP_DEVICE, read once per process (0 when unset or bad; a bad value
/// fails tcc_hip_enter). Needs no library. Thread-safe.
int32_t tcc_hip_ordinal(void);

/// The GPU's chip, as code objects name it: "gfx942" (gcnArchName before its first ':');
/// valid once tcc_hip_enter has succeeded. Static string; thread-safe.
const char *tcc_hip_chip(void);

/// The dynamic shared memory (LDS) a kernel may use on the GPU: the properties'
/// sharedMemPerBlock, 64 KiB where they give none; valid once tcc_hip_enter has succeeded.
/// Thread-safe.
int32_t tcc_hip_shared_bytes(void);

/// The first graph function (hip_driver) the library lacks, or NULL when it has them all;
/// valid once tcc_hip_enter has succeeded. Static string; thread-safe.
const char *tcc_hip_graphs_missing(void);

/// Writes "hipErrorNoDevice (100): no ROCm-capable device is detected". Thread-safe.
void tcc_hip_describe(hipError_t result, char *buffer, size_t capacity);

/// The status code of a HIP error: what the caller can do about it. Thread-safe.
tcc_status_code tcc_hip_code_of(hipError_t result);

#endif // TCC_RUNTIME_HIP_DRIVER_H
