//===- cuda_device.c - the CUDA backend: NVIDIA GPUs through the driver API --------------===//
//
// The runtime links against nothing of CUDA and includes none of its headers: the first call
// that needs the GPU dlopens libcuda.so.1 (the NVIDIA driver) and resolves the few driver
// functions below, once per process. Without a driver or a GPU, every function fails with a
// status that says so, and CPU models never get here.
//
// The device is the primary context of one GPU, ordinal $TCC_CUDA_DEVICE (read once, default
// 0), which every entry point makes current on the calling thread (as the CUDA runtime API
// does). A queue is a CUstream created blocking, so that it is ordered after the legacy
// default stream that the synchronous copies use. Copies and fills return once done (a copy
// from the host may still be in flight without the wait after it), so the caller may reuse
// or read its buffers at once.
//
//===------------------------------------------------------------------------------------===//
#include "device.h"
#include "status_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//===------------------------------------------------------------------------------------===//
// The driver API, declared here (cuda.h is not needed to build the runtime)
//===------------------------------------------------------------------------------------===//

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;

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
/// cuStreamCreate's flag for a stream that waits for the legacy default stream.
enum { CU_STREAM_DEFAULT = 0 };

/// The driver functions this backend uses, by their exported (versioned) names.
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
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
} cuda_driver;

#define DRIVER_FUNCTION(name) {#name, offsetof(cuda_driver, name)}
static const struct {
  const char *name;
  size_t offset;
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
    DRIVER_FUNCTION(cuGetErrorName),
    DRIVER_FUNCTION(cuGetErrorString),
};
#undef DRIVER_FUNCTION

//===------------------------------------------------------------------------------------===//
// The process's driver state, set up once
//===------------------------------------------------------------------------------------===//

/// The driver library's name: the driver's own, not the toolkit's unversioned stub.
#define DRIVER_LIBRARY "libcuda.so.1"
/// The environment variable that picks the GPU.
#define DEVICE_VARIABLE "TCC_CUDA_DEVICE"
/// Dynamic shared memory a kernel may use without asking for more (cuFuncSetAttribute).
#define DEFAULT_SHARED_BYTES (48 * 1024)

// Written once by read_ordinal and load_driver (under pthread_once), then only read.
static pthread_once_t ordinal_once = PTHREAD_ONCE_INIT;
static int32_t ordinal;         // the GPU's ordinal (0 when the variable is bad)
static char ordinal_error[160]; // why $TCC_CUDA_DEVICE is unusable; "" when fine
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static tcc_status_code driver_code = TCC_STATUS_INTERNAL;    // OK once the driver and GPU are ready
static char driver_error[640] = "the driver was not set up"; // else why, without "cuda device: f:"
static cuda_driver driver;
static CUcontext context; // the GPU's primary context (retained for good)
static int arch;          // its compute capability as major * 10 + minor: 90

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

/// Writes "CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected".
static void describe_result(CUresult result, char *buffer, size_t capacity) {
  const char *name = NULL;
  const char *text = NULL;
  if (driver.cuGetErrorName && driver.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = NULL;
  if (driver.cuGetErrorString && driver.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = NULL;
  for (size_t i = 0; i < sizeof(known_errors) / sizeof(known_errors[0]) && !name; ++i)
    if (known_errors[i].result == result) {
      name = known_errors[i].name;
      text = known_errors[i].text;
    }
  snprintf(buffer, capacity, "%s (%d): %s", name ? name : "an unknown CUDA error", (int)result,
           text ? text : "no description");
}

/// The status code of a driver error: what the caller can do about it.
static tcc_status_code code_of(CUresult result) {
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

/// "<name> device: <function>: <call> failed: <the driver's name and text of result>".
static tcc_status driver_failure(const tcc_device *device, const char *function, const char *call,
                                 CUresult result) {
  char description[256];
  describe_result(result, description, sizeof(description));
  return tcc_make_status(code_of(result), "%s device: %s: %s failed: %s", device->name, function,
                         call, description);
}

static void read_ordinal(void) {
  const char *value = getenv(DEVICE_VARIABLE);
  if (!value || !*value)
    return;
  char *end = NULL;
  long parsed = strtol(value, &end, 10); // LONG_MAX when out of range
  if (value[0] < '0' || value[0] > '9' || *end != '\0' || parsed > INT32_MAX)
    snprintf(ordinal_error, sizeof(ordinal_error),
             DEVICE_VARIABLE " is '%.40s', expected a device ordinal (0, 1, ...)", value);
  else
    ordinal = (int32_t)parsed;
}

/// Records why the driver cannot be used (printf-style), once.
__attribute__((format(printf, 2, 3))) static void fail_driver(tcc_status_code code,
                                                              const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(driver_error, sizeof(driver_error), format, args);
  va_end(args);
  driver_code = code;
}

/// Records a failed driver call during set-up.
static void fail_driver_call(const char *call, CUresult result) {
  char description[256];
  describe_result(result, description, sizeof(description));
  fail_driver(code_of(result), "%s failed: %s", call, description);
}

static void load_driver(void) {
  if (sizeof(void *) != sizeof(CUdeviceptr)) {
    fail_driver(TCC_STATUS_UNIMPLEMENTED, "CUDA needs a 64-bit process");
    return;
  }
  dlerror();
  // Never closed: the driver's threads and the retained context live as long as the process.
  void *library = dlopen(DRIVER_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    fail_driver(TCC_STATUS_INCOMPATIBLE, "cannot load " DRIVER_LIBRARY " (the NVIDIA driver): %s",
                error ? error : "unknown dlopen error");
    return;
  }
  for (size_t i = 0; i < sizeof(driver_functions) / sizeof(driver_functions[0]); ++i) {
    void *address = dlsym(library, driver_functions[i].name);
    if (!address) {
      memset(&driver, 0, sizeof(driver));
      dlclose(library);
      fail_driver(TCC_STATUS_INCOMPATIBLE,
                  DRIVER_LIBRARY " has no %s: the NVIDIA driver is too old for this runtime",
                  driver_functions[i].name);
      return;
    }
    // POSIX guarantees that a function's address round-trips through void *.
    memcpy((char *)&driver + driver_functions[i].offset, &address, sizeof(address));
  }
  CUresult result = driver.cuInit(0);
  if (result != CUDA_SUCCESS) {
    fail_driver_call("cuInit", result);
    return;
  }
  // A bad ordinal matters only where there is a driver: without one, that is what to fix.
  pthread_once(&ordinal_once, read_ordinal);
  if (ordinal_error[0]) {
    fail_driver(TCC_STATUS_INVALID_ARGUMENT, "%s", ordinal_error);
    return;
  }
  int count = 0;
  result = driver.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    fail_driver_call("cuDeviceGetCount", result);
    return;
  }
  if (count <= 0) {
    fail_driver(TCC_STATUS_INCOMPATIBLE, "no CUDA device (cuDeviceGetCount: %d)", count);
    return;
  }
  if (ordinal >= count) {
    fail_driver(TCC_STATUS_INVALID_ARGUMENT,
                DEVICE_VARIABLE " is %d, but the driver sees %d CUDA device%s (0 to %d)",
                (int)ordinal, count, count == 1 ? "" : "s", count - 1);
    return;
  }
  CUdevice device = 0;
  int major = 0;
  int minor = 0;
  const char *call = "cuDeviceGet";
  result = driver.cuDeviceGet(&device, ordinal);
  if (result == CUDA_SUCCESS) {
    call = "cuDeviceGetAttribute";
    result =
        driver.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  }
  if (result == CUDA_SUCCESS)
    result =
        driver.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  if (result == CUDA_SUCCESS) {
    call = "cuDevicePrimaryCtxRetain";
    result = driver.cuDevicePrimaryCtxRetain(&context, device);
  }
  if (result != CUDA_SUCCESS) {
    fail_driver_call(call, result);
    return;
  }
  arch = major * 10 + minor;
  driver_code = TCC_STATUS_OK;
}

/// Makes the driver ready (once per process) and the GPU's context current on the calling
/// thread. Fails with why the driver or the GPU cannot be used, naming `function`.
static tcc_status enter(const tcc_device *device, const char *function) {
  pthread_once(&driver_once, load_driver);
  if (driver_code != TCC_STATUS_OK)
    return tcc_make_status(driver_code, "%s device: %s: %s", device->name, function, driver_error);
  CUresult result = driver.cuCtxSetCurrent(context);
  return result == CUDA_SUCCESS ? NULL
                                : driver_failure(device, function, "cuCtxSetCurrent", result);
}

/// Whether the driver was set up successfully (for the functions that cannot fail).
static int driver_ready(void) {
  pthread_once(&driver_once, load_driver);
  return driver_code == TCC_STATUS_OK && driver.cuCtxSetCurrent(context) == CUDA_SUCCESS;
}

// Device memory is a CUdeviceptr seen as a pointer (64-bit processes only, see load_driver).
static CUdeviceptr device_pointer(const void *memory) { return (CUdeviceptr)(uintptr_t)memory; }

/// Waits for the legacy default stream, on which the synchronous copies and fills run.
static tcc_status wait_for_copies(const tcc_device *device, const char *function) {
  CUresult result = driver.cuStreamSynchronize(NULL);
  return result == CUDA_SUCCESS ? NULL
                                : driver_failure(device, function, "cuStreamSynchronize", result);
}

//===------------------------------------------------------------------------------------===//
// Memory
//===------------------------------------------------------------------------------------===//

/// cuMemAlloc aligns every block to at least this many bytes.
#define ALLOCATION_ALIGNMENT 256

static tcc_status cuda_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                                void **out_memory) {
  if (!out_memory)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: allocate: out_memory is null",
                           device->name);
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: allocate: alignment is %zu, expected a power of two",
                           device->name, alignment);
  if (alignment > ALLOCATION_ALIGNMENT)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: allocate: alignment is %zu, expected at most %d (what "
                           "cuMemAlloc gives)",
                           device->name, alignment, ALLOCATION_ALIGNMENT);
  tcc_status status = enter(device, "allocate");
  if (status)
    return status;
  CUdeviceptr memory = 0;
  // cuMemAlloc refuses 0 bytes; one byte still gives a distinct block.
  CUresult result = driver.cuMemAlloc_v2(&memory, bytes ? bytes : 1);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s device: allocate: out of device memory for %zu bytes (device %d)",
                           device->name, bytes, (int)ordinal);
  if (result != CUDA_SUCCESS)
    return driver_failure(device, "allocate", "cuMemAlloc_v2", result);
  *out_memory = (void *)(uintptr_t)memory;
  return NULL;
}

static void cuda_free(const tcc_device *device, void *memory) {
  (void)device;
  // Memory exists only if the driver is ready; an error (a driver already shut down at exit)
  // leaves nothing to do.
  if (memory && driver_ready())
    driver.cuMemFree_v2(device_pointer(memory));
}

static tcc_status cuda_copy(const tcc_device *device, void *destination, const void *source,
                            size_t bytes, tcc_copy_kind kind) {
  if (kind != TCC_COPY_HOST_TO_DEVICE && kind != TCC_COPY_DEVICE_TO_HOST &&
      kind != TCC_COPY_DEVICE_TO_DEVICE)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: copy: the copy kind %d is unknown, expected 0 to 2",
                           device->name, (int)kind);
  if (bytes == 0)
    return NULL;
  if (!destination || !source)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: copy: %s is null (%zu bytes)",
                           device->name, destination ? "source" : "destination", bytes);
  tcc_status status = enter(device, "copy");
  if (status)
    return status;
  CUresult result;
  const char *call;
  switch (kind) {
  case TCC_COPY_HOST_TO_DEVICE:
    call = "cuMemcpyHtoD_v2";
    result = driver.cuMemcpyHtoD_v2(device_pointer(destination), source, bytes);
    break;
  case TCC_COPY_DEVICE_TO_HOST:
    call = "cuMemcpyDtoH_v2";
    result = driver.cuMemcpyDtoH_v2(destination, device_pointer(source), bytes);
    break;
  default:
    call = "cuMemcpyDtoD_v2";
    result = driver.cuMemcpyDtoD_v2(device_pointer(destination), device_pointer(source), bytes);
    break;
  }
  if (result != CUDA_SUCCESS)
    return driver_failure(device, "copy", call, result);
  // A copy to the device may return before its bytes have landed: wait for them.
  return kind == TCC_COPY_DEVICE_TO_HOST ? NULL : wait_for_copies(device, "copy");
}

static tcc_status cuda_fill(const tcc_device *device, void *destination, uint8_t value,
                            size_t bytes) {
  if (bytes == 0)
    return NULL;
  if (!destination)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: fill: destination is null (%zu bytes)", device->name, bytes);
  tcc_status status = enter(device, "fill");
  if (status)
    return status;
  CUresult result = driver.cuMemsetD8_v2(device_pointer(destination), value, bytes);
  if (result != CUDA_SUCCESS)
    return driver_failure(device, "fill", "cuMemsetD8_v2", result);
  return wait_for_copies(device, "fill");
}

//===------------------------------------------------------------------------------------===//
// Queues (CUstreams) and host loops
//===------------------------------------------------------------------------------------===//

static CUstream stream_of(tcc_device_queue *queue) { return (CUstream)queue; }

static tcc_status cuda_create_queue(const tcc_device *device, int32_t num_threads,
                                    tcc_device_queue **out_queue) {
  (void)num_threads; // the GPU's threads are the kernels' grids
  if (!out_queue)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: create_queue: out_queue is null", device->name);
  tcc_status status = enter(device, "create_queue");
  if (status)
    return status;
  CUstream stream = NULL;
  CUresult result = driver.cuStreamCreate(&stream, CU_STREAM_DEFAULT);
  if (result != CUDA_SUCCESS)
    return driver_failure(device, "create_queue", "cuStreamCreate", result);
  *out_queue = (tcc_device_queue *)stream;
  return NULL;
}

static void cuda_destroy_queue(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  if (!queue || !driver_ready())
    return;
  // cuStreamDestroy does not wait; the contract does.
  driver.cuStreamSynchronize(stream_of(queue));
  driver.cuStreamDestroy_v2(stream_of(queue));
}

static tcc_status cuda_launch(const tcc_device *device, tcc_device_queue *queue, int64_t count,
                              tcc_loop_body body, void *arg) {
  (void)queue;
  if (count < 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: launch: count is %lld, expected >= 0", device->name,
                           (long long)count);
  if (!body)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: launch: body is null",
                           device->name);
  if (count > 0)
    body(arg, 0, count);
  return NULL;
}

static tcc_status cuda_synchronize(const tcc_device *device, tcc_device_queue *queue) {
  if (!queue)
    return NULL; // nothing is queued without a queue
  tcc_status status = enter(device, "synchronize");
  if (status)
    return status;
  CUresult result = driver.cuStreamSynchronize(stream_of(queue));
  return result == CUDA_SUCCESS
             ? NULL
             : driver_failure(device, "synchronize", "cuStreamSynchronize", result);
}

static int32_t cuda_device_id(const tcc_device *device) {
  (void)device;
  pthread_once(&ordinal_once, read_ordinal);
  return ordinal;
}

//===------------------------------------------------------------------------------------===//
// Modules and kernels
//===------------------------------------------------------------------------------------===//

struct tcc_device_module {
  CUmodule module;
  const char *const *names; // the descriptor's device_kernel_names, for messages
  char image[48];           // the image loaded, for messages: "sm_80 PTX"
  int32_t num_kernels;
  int32_t *shared_limits; // per kernel: the dynamic shared bytes it may use so far
  CUfunction *functions;  // per kernel
};

/// Reads an architecture name "sm_<major><minor>" with an optional suffix letter ("sm_90a":
/// for that GPU alone; "sm_100f": for its family) into major * 10 + minor.
static int parse_arch(const char *name, int *out_arch, char *out_suffix) {
  if (!name || strncmp(name, "sm_", 3) != 0)
    return 0;
  int value = 0;
  const char *p = name + 3;
  for (; *p >= '0' && *p <= '9' && value < 100000; ++p)
    value = value * 10 + (*p - '0');
  if (p - name < 5 || (p[0] && (p[1] || (p[0] != 'a' && p[0] != 'f'))))
    return 0;
  *out_arch = value;
  *out_suffix = p[0];
  return 1;
}

/// Whether PTX for `image_arch` compiles for a GPU of `device_arch`: plain PTX for any GPU
/// at least as new, "a" PTX for that GPU alone, "f" PTX for newer ones of the same major.
static int ptx_runs(int image_arch, char suffix, int device_arch) {
  if (suffix == 'a')
    return image_arch == device_arch;
  if (suffix == 'f')
    return image_arch / 10 == device_arch / 10 && image_arch <= device_arch;
  return image_arch <= device_arch;
}

static const char *format_name(int32_t format) {
  return format == TCC_IMAGE_PTX ? "PTX" : format == TCC_IMAGE_CUBIN ? "cubin" : "unknown";
}

/// The image of `d` to load on this GPU: a cubin of its architecture, else the PTX of the
/// newest architecture not newer than it; NULL when none.
static const tcc_device_image *pick_image(const tcc_model_descriptor *d) {
  const tcc_device_image *cubin = NULL;
  const tcc_device_image *ptx = NULL;
  int ptx_arch = -1;
  for (int32_t i = 0; i < d->num_device_images; ++i) {
    const tcc_device_image *image = &d->device_images[i];
    int image_arch = 0;
    char suffix = 0;
    if (!parse_arch(image->arch, &image_arch, &suffix))
      continue;
    if (image->format == TCC_IMAGE_CUBIN && image_arch == arch && !cubin)
      cubin = image;
    else if (image->format == TCC_IMAGE_PTX && ptx_runs(image_arch, suffix, arch) &&
             image_arch > ptx_arch) {
      ptx = image;
      ptx_arch = image_arch;
    }
  }
  return cubin ? cubin : ptx;
}

/// The error for a model without an image for this GPU: lists the images it has.
static tcc_status no_image(const tcc_device *device, const tcc_model_descriptor *d) {
  char list[512] = "";
  size_t used = 0;
  for (int32_t i = 0; i < d->num_device_images && used < sizeof(list); ++i) {
    const tcc_device_image *image = &d->device_images[i];
    int written = snprintf(list + used, sizeof(list) - used, "%s%.24s %s (%lld bytes)",
                           i ? ", " : "", image->arch ? image->arch : "?",
                           format_name(image->format), (long long)image->size);
    if (written < 0)
      break;
    used += (size_t)written;
  }
  return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                         "%s device: load_module: no image of the model runs on this GPU "
                         "(device %d, sm_%d%d): the model has %s",
                         device->name, (int)ordinal, arch / 10, arch % 10, list);
}

static void cuda_unload_module(const tcc_device *device, tcc_device_module *module) {
  (void)device;
  if (!module)
    return;
  if (module->module && driver_ready())
    driver.cuModuleUnload(module->module);
  free(module->shared_limits);
  free(module->functions);
  free(module);
}

/// Makes a driver's log one line ("; " for its line breaks) without a trailing break.
static void one_line(char *log) {
  size_t length = strlen(log);
  while (length > 0 &&
         (log[length - 1] == '\n' || log[length - 1] == '\r' || log[length - 1] == ' '))
    log[--length] = '\0';
  for (char *c = log; *c; ++c)
    if (*c == '\n' || *c == '\r')
      *c = ' ';
}

static tcc_status cuda_load_module(const tcc_device *device, const tcc_model_descriptor *d,
                                   tcc_device_module **out_module) {
  if (!d || !out_module)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: load_module: %s is null",
                           device->name, d ? "out_module" : "descriptor");
  if (d->num_device_images <= 0 || !d->device_images || d->num_device_kernels <= 0 ||
      !d->device_kernel_names)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s device: load_module: the model has no device images or kernels",
                           device->name);
  tcc_status status = enter(device, "load_module");
  if (status)
    return status;
  const tcc_device_image *image = pick_image(d);
  if (!image)
    return no_image(device, d);

  tcc_device_module *module = calloc(1, sizeof(*module));
  size_t count = (size_t)d->num_device_kernels;
  if (module) {
    module->functions = calloc(count, sizeof(CUfunction));
    module->shared_limits = calloc(count, sizeof(int32_t));
  }
  if (!module || !module->functions || !module->shared_limits) {
    cuda_unload_module(device, module);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s device: load_module: out of memory",
                           device->name);
  }
  module->names = d->device_kernel_names;
  module->num_kernels = d->num_device_kernels;
  snprintf(module->image, sizeof(module->image), "%.24s %s", image->arch,
           format_name(image->format));

  // The JIT compiler's errors (PTX that does not compile) go into the message.
  char log[1024] = "";
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)(sizeof(log) - 1)};
  CUresult result = driver.cuModuleLoadDataEx(&module->module, image->data, 2, options, values);
  if (result != CUDA_SUCCESS) {
    module->module = NULL;
    log[sizeof(log) - 1] = '\0';
    one_line(log);
    char description[256];
    describe_result(result, description, sizeof(description));
    cuda_unload_module(device, module);
    return tcc_make_status(code_of(result),
                           "%s device: load_module: cannot load the %.24s %s image (%lld bytes) "
                           "on sm_%d%d: cuModuleLoadDataEx failed: %s%s%s",
                           device->name, image->arch, format_name(image->format),
                           (long long)image->size, arch / 10, arch % 10, description,
                           log[0] ? "; the JIT compiler says: " : "", log);
  }
  for (int32_t k = 0; k < module->num_kernels; ++k) {
    module->shared_limits[k] = DEFAULT_SHARED_BYTES;
    result = driver.cuModuleGetFunction(&module->functions[k], module->module,
                                        d->device_kernel_names[k]);
    if (result != CUDA_SUCCESS) {
      char description[256];
      describe_result(result, description, sizeof(description));
      status = tcc_make_status(
          result == CUDA_ERROR_NOT_FOUND ? TCC_STATUS_INVALID_MODEL : code_of(result),
          "%s device: load_module: the %s image has no kernel %d '%s' "
          "(cuModuleGetFunction failed: %s)",
          device->name, module->image, (int)k, d->device_kernel_names[k], description);
      cuda_unload_module(device, module);
      return status;
    }
  }
  *out_module = module;
  return NULL;
}

static tcc_status cuda_launch_kernel(const tcc_device *device, tcc_device_queue *queue,
                                     tcc_device_module *module, int32_t kernel, int64_t grid_x,
                                     int32_t block_x, int32_t shared_bytes, void **args) {
  const char *function = "launch_kernel";
  if (!module || !queue)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: %s is null", device->name,
                           function, module ? "queue" : "module");
  if (kernel < 0 || kernel >= module->num_kernels)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: %s: kernel %d is out of range: the model has %d kernels",
                           device->name, function, (int)kernel, (int)module->num_kernels);
  const char *name = module->names[kernel];
  if (grid_x < 1 || grid_x > INT32_MAX)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: %s: kernel %d '%s': grid_x is %lld, expected 1 to %d",
                           device->name, function, (int)kernel, name, (long long)grid_x, INT32_MAX);
  if (block_x < 1 || block_x > 1024)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: %s: kernel %d '%s': block_x is %d, expected 1 to 1024",
                           device->name, function, (int)kernel, name, (int)block_x);
  if (shared_bytes < 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: %s: kernel %d '%s': shared_bytes is %d, expected >= 0",
                           device->name, function, (int)kernel, name, (int)shared_bytes);
  tcc_status status = enter(device, function);
  if (status)
    return status;
  CUfunction entry = module->functions[kernel];
  CUresult result;
  // Beyond 48 KiB a kernel must ask for its dynamic shared memory first.
  if (shared_bytes > module->shared_limits[kernel]) {
    result = driver.cuFuncSetAttribute(entry, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       shared_bytes);
    if (result != CUDA_SUCCESS) {
      char description[256];
      describe_result(result, description, sizeof(description));
      return tcc_make_status(code_of(result),
                             "%s device: %s: kernel %d '%s' cannot have %d bytes of dynamic "
                             "shared memory (cuFuncSetAttribute failed: %s)",
                             device->name, function, (int)kernel, name, (int)shared_bytes,
                             description);
    }
    module->shared_limits[kernel] = shared_bytes;
  }
  result = driver.cuLaunchKernel(entry, (unsigned)grid_x, 1, 1, (unsigned)block_x, 1, 1,
                                 (unsigned)shared_bytes, stream_of(queue), args, NULL);
  if (result != CUDA_SUCCESS) {
    char description[256];
    describe_result(result, description, sizeof(description));
    return tcc_make_status(code_of(result),
                           "%s device: %s: kernel %d '%s' (%lld blocks of %d threads, %d shared "
                           "bytes): cuLaunchKernel failed: %s",
                           device->name, function, (int)kernel, name, (long long)grid_x,
                           (int)block_x, (int)shared_bytes, description);
  }
  return NULL;
}

const tcc_device tcc_cuda_device = {
    .type = kDLCUDA,
    .name = "cuda",
    .allocate = cuda_allocate,
    .free = cuda_free,
    .copy = cuda_copy,
    .fill = cuda_fill,
    .create_queue = cuda_create_queue,
    .destroy_queue = cuda_destroy_queue,
    .launch = cuda_launch,
    .synchronize = cuda_synchronize,
    .device_id = cuda_device_id,
    .load_module = cuda_load_module,
    .unload_module = cuda_unload_module,
    .launch_kernel = cuda_launch_kernel,
};
