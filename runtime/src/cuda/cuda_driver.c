//===- cuda_driver.c - the CUDA driver API, loaded once per process ----------------------===//
//
// The first call of the CUDA backend that needs the GPU dlopens libcuda.so.1 (the NVIDIA
// driver), resolves the functions of cuda_driver.h, initializes the driver and retains the
// primary context of GPU $TCC_CUDA_DEVICE, once per process. Without a driver or a GPU,
// tcc_cuda_enter fails with a status that says so, and CPU models never get here. The graph
// functions are optional: a driver without them only records no graphs.
//
//===------------------------------------------------------------------------------------===//
#include "cuda_driver.h"
#include "gpu/gpu_setup.h"
#include "status_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cuda_driver tcc_cuda_driver;

// Required functions: a driver without one is unusable. Optional ones (the graphs): a driver
// without one has none of them.
#define DRIVER_FUNCTION(name) {#name, offsetof(cuda_driver, name), 1}
#define OPTIONAL_FUNCTION(name) {#name, offsetof(cuda_driver, name), 0}
static const struct {
  const char *name;
  size_t offset;
  int required;
} driver_functions[] = {
    DRIVER_FUNCTION(cuInit),
    DRIVER_FUNCTION(cuDeviceGetCount),
    DRIVER_FUNCTION(cuDeviceGet),
    DRIVER_FUNCTION(cuDeviceGetAttribute),
    DRIVER_FUNCTION(cuDevicePrimaryCtxRetain),
    DRIVER_FUNCTION(cuCtxSetCurrent),
    DRIVER_FUNCTION(cuMemAlloc_v2),
    DRIVER_FUNCTION(cuMemFree_v2),
    DRIVER_FUNCTION(cuMemcpyHtoD_v2),
    DRIVER_FUNCTION(cuMemcpyDtoH_v2),
    DRIVER_FUNCTION(cuMemcpyDtoD_v2),
    DRIVER_FUNCTION(cuMemsetD8_v2),
    DRIVER_FUNCTION(cuStreamCreate),
    DRIVER_FUNCTION(cuStreamDestroy_v2),
    DRIVER_FUNCTION(cuStreamSynchronize),
    DRIVER_FUNCTION(cuModuleLoadDataEx),
    DRIVER_FUNCTION(cuModuleUnload),
    DRIVER_FUNCTION(cuModuleGetFunction),
    DRIVER_FUNCTION(cuFuncSetAttribute),
    DRIVER_FUNCTION(cuLaunchKernel),
    DRIVER_FUNCTION(cuEventCreate),
    DRIVER_FUNCTION(cuEventRecord),
    DRIVER_FUNCTION(cuEventDestroy_v2),
    DRIVER_FUNCTION(cuGetErrorName),
    DRIVER_FUNCTION(cuGetErrorString),
    OPTIONAL_FUNCTION(cuStreamBeginCapture_v2),
    OPTIONAL_FUNCTION(cuStreamEndCapture),
    OPTIONAL_FUNCTION(cuGraphInstantiateWithFlags),
    OPTIONAL_FUNCTION(cuGraphLaunch),
    OPTIONAL_FUNCTION(cuGraphExecDestroy),
    OPTIONAL_FUNCTION(cuGraphDestroy),
};
#undef DRIVER_FUNCTION
#undef OPTIONAL_FUNCTION

//===------------------------------------------------------------------------------------===//
// The process's driver state, set up once
//===------------------------------------------------------------------------------------===//

/// The driver library's name: the driver's own, not the toolkit's unversioned stub.
#define DRIVER_LIBRARY "libcuda.so.1"
/// The environment variable that picks the GPU.
#define DEVICE_VARIABLE "TCC_CUDA_DEVICE"

// Written once by read_ordinal and load_driver (under pthread_once), then only read.
static pthread_once_t ordinal_once = PTHREAD_ONCE_INIT;
static int32_t ordinal;         // the GPU's ordinal (0 when the variable is bad)
static char ordinal_error[160]; // why $TCC_CUDA_DEVICE is unusable; "" when fine
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
// OK once the driver and the GPU are ready; else why, without "<device> device: <function>:".
static tcc_gpu_setup setup = {TCC_STATUS_INTERNAL, "the driver was not set up"};
static CUcontext context;          // the GPU's primary context (retained for good)
static int arch;                   // its compute capability as major * 10 + minor: 90
static const char *graphs_missing; // the first graph function the driver lacks, or NULL

/// Names for the errors that matter most, for a driver that cannot name them itself (the
/// toolkit's stub library answers every call with CUDA_ERROR_STUB_LIBRARY).
static const struct {
  CUresult result;
  const char *name;
  const char *text;
} known_errors[] = {
    {CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY",
     "libcuda.so.1 is the CUDA toolkit's stub, not the NVIDIA driver"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
};

void tcc_cuda_describe(CUresult result, char *buffer, size_t capacity) {
  const char *name = NULL;
  const char *text = NULL;
  if (tcc_cuda_driver.cuGetErrorName &&
      tcc_cuda_driver.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = NULL;
  if (tcc_cuda_driver.cuGetErrorString &&
      tcc_cuda_driver.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = NULL;
  for (size_t i = 0; i < sizeof(known_errors) / sizeof(known_errors[0]) && !name; ++i)
    if (known_errors[i].result == result) {
      name = known_errors[i].name;
      text = known_errors[i].text;
    }
  snprintf(buffer, capacity, "%s (%d): %s", name ? name : "an unknown CUDA error", (int)result,
           text ? text : "no description");
}

tcc_status_code tcc_cuda_code_of(CUresult result) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return TCC_STATUS_RESOURCE_EXHAUSTED;
  case CUDA_ERROR_STUB_LIBRARY:
  case CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER:
  case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
  case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
  case CUDA_ERROR_DEVICE_UNAVAILABLE:
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_INVALID_DEVICE:
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_JIT_COMPILATION_DISABLED:
    return TCC_STATUS_INCOMPATIBLE;
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_NOT_FOUND:
    return TCC_STATUS_INVALID_MODEL;
  default:
    return TCC_STATUS_INTERNAL;
  }
}

tcc_status tcc_cuda_failure(const tcc_device *device, const char *function, const char *call,
                            CUresult result) {
  char description[256];
  tcc_cuda_describe(result, description, sizeof(description));
  return tcc_make_status(tcc_cuda_code_of(result), "%s device: %s: %s failed: %s", device->name,
                         function, call, description);
}

static void read_ordinal(void) {
  tcc_gpu_read_ordinal(DEVICE_VARIABLE, &ordinal, ordinal_error, sizeof(ordinal_error));
}

/// Records a failed driver call during set-up.
static void fail_driver_call(const char *call, CUresult result) {
  char description[256];
  tcc_cuda_describe(result, description, sizeof(description));
  tcc_gpu_setup_fail(&setup, tcc_cuda_code_of(result), "%s failed: %s", call, description);
}

static void load_driver(void) {
  if (sizeof(void *) != sizeof(CUdeviceptr)) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_UNIMPLEMENTED, "CUDA needs a 64-bit process");
    return;
  }
  dlerror();
  // Never closed: the driver's threads and the retained context live as long as the process.
  void *library = dlopen(DRIVER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE,
                       "cannot load " DRIVER_LIBRARY " (the NVIDIA driver): %s",
                       error ? error : "unknown dlopen error");
    return;
  }
  for (size_t i = 0; i < sizeof(driver_functions) / sizeof(driver_functions[0]); ++i) {
    void *address = dlsym(library, driver_functions[i].name);
    if (!address && !driver_functions[i].required) {
      if (!graphs_missing)
        graphs_missing = driver_functions[i].name;
      continue;
    }
    if (!address) {
      memset(&tcc_cuda_driver, 0, sizeof(tcc_cuda_driver));
      dlclose(library);
      tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE,
                         DRIVER_LIBRARY " has no %s: the NVIDIA driver is too old for this runtime",
                         driver_functions[i].name);
      return;
    }
    // POSIX guarantees that a function's address round-trips through void *.
    memcpy((char *)&tcc_cuda_driver + driver_functions[i].offset, &address, sizeof(address));
  }
  // CUDA 12.8 renamed cuEventElapsedTime to cuEventElapsedTime_v2 (the old name stays).
  void *elapsed = dlsym(library, "cuEventElapsedTime_v2");
  if (!elapsed)
    elapsed = dlsym(library, "cuEventElapsedTime");
  if (!elapsed) {
    memset(&tcc_cuda_driver, 0, sizeof(tcc_cuda_driver));
    dlclose(library);
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE,
                       DRIVER_LIBRARY " has no cuEventElapsedTime: the NVIDIA driver is too old "
                                      "for this runtime");
    return;
  }
  memcpy(&tcc_cuda_driver.cuEventElapsedTime, &elapsed, sizeof(elapsed));
  if (graphs_missing) { // all of the graph functions or none
    tcc_cuda_driver.cuStreamBeginCapture_v2 = NULL;
    tcc_cuda_driver.cuStreamEndCapture = NULL;
    tcc_cuda_driver.cuGraphInstantiateWithFlags = NULL;
    tcc_cuda_driver.cuGraphLaunch = NULL;
    tcc_cuda_driver.cuGraphExecDestroy = NULL;
    tcc_cuda_driver.cuGraphDestroy = NULL;
  }
  CUresult result = tcc_cuda_driver.cuInit(0);
  if (result != CUDA_SUCCESS) {
    fail_driver_call("cuInit", result);
    return;
  }
  // A bad ordinal matters only where there is a driver: without one, that is what to fix.
  pthread_once(&ordinal_once, read_ordinal);
  if (ordinal_error[0]) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INVALID_ARGUMENT, "%s", ordinal_error);
    return;
  }
  int count = 0;
  result = tcc_cuda_driver.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    fail_driver_call("cuDeviceGetCount", result);
    return;
  }
  if (count <= 0) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE, "no CUDA device (cuDeviceGetCount: %d)",
                       count);
    return;
  }
  if (ordinal >= count) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INVALID_ARGUMENT,
                       DEVICE_VARIABLE " is %d, but the driver sees %d CUDA device%s (0 to %d)",
                       (int)ordinal, count, count == 1 ? "" : "s", count - 1);
    return;
  }
  CUdevice device = 0;
  int major = 0;
  int minor = 0;
  const char *call = "cuDeviceGet";
  result = tcc_cuda_driver.cuDeviceGet(&device, ordinal);
  if (result == CUDA_SUCCESS) {
    call = "cuDeviceGetAttribute";
    result = tcc_cuda_driver.cuDeviceGetAttribute(
        &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  }
  if (result == CUDA_SUCCESS)
    result = tcc_cuda_driver.cuDeviceGetAttribute(
        &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  if (result == CUDA_SUCCESS) {
    call = "cuDevicePrimaryCtxRetain";
    result = tcc_cuda_driver.cuDevicePrimaryCtxRetain(&context, device);
  }
  if (result != CUDA_SUCCESS) {
    fail_driver_call(call, result);
    return;
  }
  arch = major * 10 + minor;
  setup.code = TCC_STATUS_OK;
}

tcc_status tcc_cuda_enter(const tcc_device *device, const char *function) {
  pthread_once(&driver_once, load_driver);
  if (setup.code != TCC_STATUS_OK)
    return tcc_make_status(setup.code, "%s device: %s: %s", device->name, function, setup.error);
  CUresult result = tcc_cuda_driver.cuCtxSetCurrent(context);
  return result == CUDA_SUCCESS ? NULL
                                : tcc_cuda_failure(device, function, "cuCtxSetCurrent", result);
}

int tcc_cuda_ready(void) {
  pthread_once(&driver_once, load_driver);
  return setup.code == TCC_STATUS_OK && tcc_cuda_driver.cuCtxSetCurrent(context) == CUDA_SUCCESS;
}

int32_t tcc_cuda_ordinal(void) {
  pthread_once(&ordinal_once, read_ordinal);
  return ordinal;
}

int tcc_cuda_arch(void) { return arch; }

const char *tcc_cuda_graphs_missing(void) { return graphs_missing; }
