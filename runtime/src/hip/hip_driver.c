//===- hip_driver.c - the HIP module API, loaded once per process ------------------------===//
//
// The first call of the HIP backend that needs the GPU dlopens libamdhip64.so (the ROCm HIP
// runtime; libamdhip64.so.7, .so.6 or .so.5 where only the versioned name is installed),
// resolves the functions of hip_driver.h, initializes HIP and reads the chip of GPU
// $TCC_HIP_DEVICE, once per process. Without the library or a GPU, tcc_hip_enter fails with
// a status that says so, and CPU models never get here. The graph functions are optional: a
// library without them only records no graphs.
//
//===------------------------------------------------------------------------------------===//
#include "hip_driver.h"
#include "gpu/gpu_setup.h"
#include "status_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hip_driver tcc_hip_driver;

enum { REQUIRED, PROPERTIES, GRAPHS };
#define DRIVER_FUNCTION(name, kind) {#name, offsetof(hip_driver, name), kind}
static const struct {
  const char *name;
  size_t offset;
  int kind; // REQUIRED: a library without it is unusable; PROPERTIES: one of them is needed;
            // GRAPHS: a library without one has none of them
} driver_functions[] = {
    DRIVER_FUNCTION(hipInit, REQUIRED),
    DRIVER_FUNCTION(hipGetDeviceCount, REQUIRED),
    DRIVER_FUNCTION(hipSetDevice, REQUIRED),
    DRIVER_FUNCTION(hipGetDevicePropertiesR0600, PROPERTIES),
    DRIVER_FUNCTION(hipGetDeviceProperties, PROPERTIES),
    DRIVER_FUNCTION(hipMalloc, REQUIRED),
    DRIVER_FUNCTION(hipFree, REQUIRED),
    DRIVER_FUNCTION(hipMemcpyHtoD, REQUIRED),
    DRIVER_FUNCTION(hipMemcpyDtoH, REQUIRED),
    DRIVER_FUNCTION(hipMemcpyDtoD, REQUIRED),
    DRIVER_FUNCTION(hipMemsetD8, REQUIRED),
    DRIVER_FUNCTION(hipStreamCreateWithFlags, REQUIRED),
    DRIVER_FUNCTION(hipStreamDestroy, REQUIRED),
    DRIVER_FUNCTION(hipStreamSynchronize, REQUIRED),
    DRIVER_FUNCTION(hipModuleLoadData, REQUIRED),
    DRIVER_FUNCTION(hipModuleUnload, REQUIRED),
    DRIVER_FUNCTION(hipModuleGetFunction, REQUIRED),
    DRIVER_FUNCTION(hipModuleLaunchKernel, REQUIRED),
    DRIVER_FUNCTION(hipEventCreate, REQUIRED),
    DRIVER_FUNCTION(hipEventRecord, REQUIRED),
    DRIVER_FUNCTION(hipEventElapsedTime, REQUIRED),
    DRIVER_FUNCTION(hipEventDestroy, REQUIRED),
    DRIVER_FUNCTION(hipGetErrorName, REQUIRED),
    DRIVER_FUNCTION(hipGetErrorString, REQUIRED),
    DRIVER_FUNCTION(hipStreamBeginCapture, GRAPHS),
    DRIVER_FUNCTION(hipStreamEndCapture, GRAPHS),
    DRIVER_FUNCTION(hipGraphInstantiateWithFlags, GRAPHS),
    DRIVER_FUNCTION(hipGraphLaunch, GRAPHS),
    DRIVER_FUNCTION(hipGraphExecDestroy, GRAPHS),
    DRIVER_FUNCTION(hipGraphDestroy, GRAPHS),
};
#undef DRIVER_FUNCTION

//===------------------------------------------------------------------------------------===//
// The GPU's properties (hipDeviceProp_t) without HIP's headers
//===------------------------------------------------------------------------------------===//
//
// The backend needs two fields of hipDeviceProp_t: gcnArchName (char[256], "gfx90a:sramecc+:
// xnack-": the chip, then its target features) and sharedMemPerBlock (size_t: the LDS a
// workgroup may use). Its layout is versioned by the exported function that fills it:
//
// - hipGetDevicePropertiesR0600 (ROCm 6.0 and later; hip_runtime_api.h's hipGetDeviceProperties
//   is a macro for it) fills hipDeviceProp_tR0600: 1472 bytes, gcnArchName at 1160.
// - hipGetDeviceProperties, the exported name (ROCm 5, and later ROCm for old binaries: it
//   forwards to hipGetDevicePropertiesR0000), fills hipDeviceProp_tR0000 (hip_deprecated.h;
//   ROCm 5's hip_runtime_api.h hipDeviceProp_t): 792 bytes, gcnArchName at 396.
//
// The structs below repeat the members of both before gcnArchName, in order and with their
// types, from the public headers (ROCm/HIP include/hip/hip_runtime_api.h at rocm-6.0.0 to
// rocm-6.2.2 and ROCm/rocm-systems projects/hip for ROCm 7; hip_deprecated.h and rocm-5.1.0 to
// rocm-5.7.1's hip_runtime_api.h), except that a run of int-sized members is one array (the
// same layout: they need no padding between them). The compiler thus does the padding as it
// does for HIP's own structs, and the asserts check it against the offsets that clang computes
// from those headers. The buffer the functions fill is far larger than either struct.

/// hipDeviceProp_tR0600 up to gcnArchName.
typedef struct hip_properties_r0600 {
  char name[256];                  // 0
  char uuid[16];                   // 256: hipUUID
  char luid[8];                    // 272
  unsigned int luidDeviceNodeMask; // 280 (then 4 bytes of padding)
  size_t totalGlobalMem;           // 288
  size_t sharedMemPerBlock;        // 296
  int regsPerBlock_warpSize[2];    // 304
  size_t memPitch;                 // 312
  // maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate
  int maxThreadsPerBlock_to_clockRate[8]; // 320
  size_t totalConstMem;                   // 352
  int major_minor[2];                     // 360
  size_t textureAlignment;                // 368
  size_t texturePitchAlignment;           // 376
  // deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated,
  // canMapHostMemory, computeMode, maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear (9),
  // maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2],
  // maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2],
  // maxTexture2DLayered[3], maxTextureCubemapLayered[2] (23), maxSurface1D, maxSurface2D[2],
  // maxSurface3D[3], maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap,
  // maxSurfaceCubemapLayered[2] (14)
  int deviceOverlap_to_maxSurfaceCubemapLayered[9 + 23 + 14]; // 384
  size_t surfaceAlignment;                                    // 568
  // concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver,
  // asyncEngineCount, unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize,
  // persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported,
  // globalL1CacheSupported, localL1CacheSupported
  int concurrentKernels_to_localL1CacheSupported[16]; // 576
  size_t sharedMemPerMultiprocessor;                  // 640
  // regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID,
  // hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio, pageableMemoryAccess,
  // concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
  // cooperativeLaunch, cooperativeMultiDeviceLaunch
  int regsPerMultiprocessor_to_cooperativeMultiDeviceLaunch[12]; // 648
  size_t sharedMemPerBlockOptin;                                 // 696
  // pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost,
  // maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize
  int pageableMemoryAccessUsesHostPageTables_to_accessPolicyMaxWindowSize[4]; // 704
  size_t reservedSharedMemPerBlock;                                           // 720
  // hostRegisterSupported, sparseHipArraySupported, hostRegisterReadOnlySupported,
  // timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported,
  // gpuDirectRDMAFlushWritesOptions (unsigned), gpuDirectRDMAWritesOrdering,
  // memoryPoolSupportedHandleTypes (unsigned), deferredMappingHipArraySupported,
  // ipcEventSupported, clusterLaunch, unifiedFunctionPointers
  int hostRegisterSupported_to_unifiedFunctionPointers[13]; // 728
  int reserved[63];                                         // 780
  int hipReserved[32];                                      // 1032
  char gcnArchName[256];                                    // 1160
} hip_properties_r0600;

/// hipDeviceProp_tR0000 up to gcnArchName.
typedef struct hip_properties_r0000 {
  char name[256];           // 0
  size_t totalGlobalMem;    // 256
  size_t sharedMemPerBlock; // 264
  // regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate,
  // memoryClockRate, memoryBusWidth
  int regsPerBlock_to_memoryBusWidth[12]; // 272
  size_t totalConstMem;                   // 320
  // major, minor, multiProcessorCount, l2CacheSize, maxThreadsPerMultiProcessor,
  // computeMode, clockInstructionRate
  int major_to_clockInstructionRate[7]; // 328
  unsigned int arch;                    // 356: hipDeviceArch_t, 17 one-bit unsigned fields
  // concurrentKernels, pciDomainID, pciBusID, pciDeviceID
  int concurrentKernels_to_pciDeviceID[4];         // 360
  size_t maxSharedMemoryPerMultiProcessor;         // 376
  int isMultiGpuBoard_canMapHostMemory_gcnArch[3]; // 384
  char gcnArchName[256];                           // 396
} hip_properties_r0000;

/// What the properties functions fill: more than either struct (1472 and 792 bytes).
#define PROPERTIES_CAPACITY 4096

#if UINTPTR_MAX == UINT64_MAX // the layouts of 64-bit Linux, the only one HIP has
_Static_assert(offsetof(hip_properties_r0600, sharedMemPerBlock) == 296, "R0600 layout");
_Static_assert(offsetof(hip_properties_r0600, gcnArchName) == 1160, "R0600 layout");
_Static_assert(offsetof(hip_properties_r0000, sharedMemPerBlock) == 264, "R0000 layout");
_Static_assert(offsetof(hip_properties_r0000, gcnArchName) == 396, "R0000 layout");
_Static_assert(1472 <= PROPERTIES_CAPACITY && 792 <= PROPERTIES_CAPACITY, "buffer size");
#endif

//===------------------------------------------------------------------------------------===//
// The process's HIP state, set up once
//===------------------------------------------------------------------------------------===//

/// The library's names, in the order they are tried: the development symlink, then the
/// sonames of ROCm 7, 6 and 5.
static const char *const library_names[] = {"libamdhip64.so", "libamdhip64.so.7",
                                            "libamdhip64.so.6", "libamdhip64.so.5"};
/// The environment variable that picks the GPU.
#define DEVICE_VARIABLE "TCC_HIP_DEVICE"
/// A workgroup's LDS where the properties give none: what every AMD chip before gfx950 has.
#define DEFAULT_SHARED_BYTES (64 * 1024)

// Written once by read_ordinal and load_driver (under pthread_once), then only read.
static pthread_once_t ordinal_once = PTHREAD_ONCE_INIT;
static int32_t ordinal;         // the GPU's ordinal (0 when the variable is bad)
static char ordinal_error[160]; // why $TCC_HIP_DEVICE is unusable; "" when fine
static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
// OK once the driver and the GPU are ready; else why, without "<device> device: <function>:".
static tcc_gpu_setup setup = {TCC_STATUS_INTERNAL, "HIP was not set up"};
static const char *library_name;                    // the name that loaded
static char chip[64];                               // "gfx942"
static int32_t shared_bytes = DEFAULT_SHARED_BYTES; // the LDS of a workgroup
static const char *graphs_missing; // the first graph function the library lacks, or NULL

/// Names for the errors that matter most, for when the library is not loaded.
static const struct {
  hipError_t result;
  const char *name;
  const char *text;
} known_errors[] = {
    {hipErrorNoDevice, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
};

void tcc_hip_describe(hipError_t result, char *buffer, size_t capacity) {
  const char *name = tcc_hip_driver.hipGetErrorName ? tcc_hip_driver.hipGetErrorName(result) : NULL;
  const char *text =
      tcc_hip_driver.hipGetErrorString ? tcc_hip_driver.hipGetErrorString(result) : NULL;
  for (size_t i = 0; i < sizeof(known_errors) / sizeof(known_errors[0]) && !name; ++i)
    if (known_errors[i].result == result) {
      name = known_errors[i].name;
      text = known_errors[i].text;
    }
  snprintf(buffer, capacity, "%s (%d): %s", name ? name : "an unknown HIP error", (int)result,
           text ? text : "no description");
}

tcc_status_code tcc_hip_code_of(hipError_t result) {
  switch (result) {
  case hipErrorOutOfMemory:
  case hipErrorLaunchOutOfResources:
    return TCC_STATUS_RESOURCE_EXHAUSTED;
  case hipErrorInsufficientDriver:
  case hipErrorNoDevice:
  case hipErrorInvalidDevice:
  case hipErrorNoBinaryForGpu:
    return TCC_STATUS_INCOMPATIBLE;
  case hipErrorNotSupported:
    return TCC_STATUS_UNIMPLEMENTED;
  case hipErrorInvalidImage:
  case hipErrorInvalidKernelFile:
  case hipErrorSharedObjectInitFailed:
  case hipErrorNotFound:
    return TCC_STATUS_INVALID_MODEL;
  default:
    return TCC_STATUS_INTERNAL;
  }
}

static void read_ordinal(void) {
  tcc_gpu_read_ordinal(DEVICE_VARIABLE, &ordinal, ordinal_error, sizeof(ordinal_error));
}

/// Records a failed HIP call during set-up.
static void fail_driver_call(const char *call, hipError_t result) {
  char description[256];
  tcc_hip_describe(result, description, sizeof(description));
  tcc_gpu_setup_fail(&setup, tcc_hip_code_of(result), "%s failed: %s", call, description);
}

/// Opens the first of library_names that loads; NULL with *error set when none does.
static void *open_library(char *error, size_t capacity) {
  error[0] = '\0';
  for (size_t i = 0; i < sizeof(library_names) / sizeof(library_names[0]); ++i) {
    dlerror();
    void *library = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    if (library) {
      library_name = library_names[i];
      return library;
    }
    const char *why = dlerror();
    if (i == 0) // the first attempt's reason: the others fail the same way, or for their name
      snprintf(error, capacity, "%s", why ? why : "unknown dlopen error");
  }
  return NULL;
}

/// Resolves the functions of hip_driver; fails when a required one is missing.
static int resolve_functions(void *library) {
  for (size_t i = 0; i < sizeof(driver_functions) / sizeof(driver_functions[0]); ++i) {
    void *address = dlsym(library, driver_functions[i].name);
    if (!address && driver_functions[i].kind == GRAPHS && !graphs_missing)
      graphs_missing = driver_functions[i].name;
    if (!address && driver_functions[i].kind == REQUIRED) {
      memset(&tcc_hip_driver, 0, sizeof(tcc_hip_driver));
      tcc_gpu_setup_fail(
          &setup, TCC_STATUS_INCOMPATIBLE,
          "%s has no %s: the ROCm HIP runtime is too old for this runtime (ROCm 5 or "
          "later is needed)",
          library_name, driver_functions[i].name);
      return 0;
    }
    // POSIX guarantees that a function's address round-trips through void *.
    memcpy((char *)&tcc_hip_driver + driver_functions[i].offset, &address, sizeof(address));
  }
  if (!tcc_hip_driver.hipGetDevicePropertiesR0600 && !tcc_hip_driver.hipGetDeviceProperties) {
    memset(&tcc_hip_driver, 0, sizeof(tcc_hip_driver));
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE,
                       "%s has neither hipGetDevicePropertiesR0600 nor hipGetDeviceProperties",
                       library_name);
    return 0;
  }
  if (graphs_missing) { // all of the graph functions or none
    tcc_hip_driver.hipStreamBeginCapture = NULL;
    tcc_hip_driver.hipStreamEndCapture = NULL;
    tcc_hip_driver.hipGraphInstantiateWithFlags = NULL;
    tcc_hip_driver.hipGraphLaunch = NULL;
    tcc_hip_driver.hipGraphExecDestroy = NULL;
    tcc_hip_driver.hipGraphDestroy = NULL;
  }
  return 1;
}

/// Reads the chip and the LDS of a workgroup from the GPU's properties.
static int read_properties(void) {
  // Zeroed: a field the library does not write reads as 0.
  _Alignas(16) unsigned char properties[PROPERTIES_CAPACITY] = {0};
  const char *call;
  size_t arch_offset;
  size_t shared_offset;
  hipError_t result;
  if (tcc_hip_driver.hipGetDevicePropertiesR0600) {
    call = "hipGetDevicePropertiesR0600";
    arch_offset = offsetof(hip_properties_r0600, gcnArchName);
    shared_offset = offsetof(hip_properties_r0600, sharedMemPerBlock);
    result = tcc_hip_driver.hipGetDevicePropertiesR0600(properties, ordinal);
  } else {
    call = "hipGetDeviceProperties";
    arch_offset = offsetof(hip_properties_r0000, gcnArchName);
    shared_offset = offsetof(hip_properties_r0000, sharedMemPerBlock);
    result = tcc_hip_driver.hipGetDeviceProperties(properties, ordinal);
  }
  if (result != hipSuccess) {
    fail_driver_call(call, result);
    return 0;
  }
  char arch_name[256];
  memcpy(arch_name, properties + arch_offset, sizeof(arch_name));
  arch_name[sizeof(arch_name) - 1] = '\0';
  size_t length = strcspn(arch_name, ":"); // "gfx90a:sramecc+:xnack-": the chip, its features
  if (strncmp(arch_name, "gfx", 3) != 0 || length < 4 || length >= sizeof(chip)) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE,
                       "%s gives the GPU's gcnArchName as '%.40s', expected a chip such as gfx942",
                       call, arch_name);
    return 0;
  }
  memcpy(chip, arch_name, length);
  chip[length] = '\0';
  size_t lds = 0;
  memcpy(&lds, properties + shared_offset, sizeof(lds));
  if (lds > 0 && lds <= INT32_MAX)
    shared_bytes = (int32_t)lds;
  return 1;
}

static void load_driver(void) {
  if (sizeof(void *) != 8) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_UNIMPLEMENTED, "HIP needs a 64-bit process");
    return;
  }
  char error[400];
  void *library = open_library(error, sizeof(error));
  if (!library) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE,
                       "cannot load %s, %s, %s or %s (the ROCm HIP runtime): %s", library_names[0],
                       library_names[1], library_names[2], library_names[3], error);
    return;
  }
  // Never closed, also when unusable: HIP's LLVM (libamd_comgr) cannot be unloaded and loaded
  // again in one process, as another user of HIP in the process might.
  if (!resolve_functions(library))
    return;
  hipError_t result = tcc_hip_driver.hipInit(0);
  if (result != hipSuccess) {
    fail_driver_call("hipInit", result);
    return;
  }
  // A bad ordinal matters only where there is HIP: without it, that is what to fix.
  pthread_once(&ordinal_once, read_ordinal);
  if (ordinal_error[0]) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INVALID_ARGUMENT, "%s", ordinal_error);
    return;
  }
  int count = 0;
  result = tcc_hip_driver.hipGetDeviceCount(&count);
  if (result != hipSuccess) {
    fail_driver_call("hipGetDeviceCount", result);
    return;
  }
  if (count <= 0) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INCOMPATIBLE, "no HIP device (hipGetDeviceCount: %d)",
                       count);
    return;
  }
  if (ordinal >= count) {
    tcc_gpu_setup_fail(&setup, TCC_STATUS_INVALID_ARGUMENT,
                       DEVICE_VARIABLE " is %d, but HIP sees %d device%s (0 to %d)", (int)ordinal,
                       count, count == 1 ? "" : "s", count - 1);
    return;
  }
  if (!read_properties())
    return;
  setup.code = TCC_STATUS_OK;
}

tcc_status tcc_hip_enter(const tcc_device *device, const char *function) {
  pthread_once(&driver_once, load_driver);
  if (setup.code != TCC_STATUS_OK)
    return tcc_make_status(setup.code, "%s device: %s: %s", device->name, function, setup.error);
  // HIP's current device is per thread.
  hipError_t result = tcc_hip_driver.hipSetDevice(ordinal);
  if (result == hipSuccess)
    return NULL;
  char description[256];
  tcc_hip_describe(result, description, sizeof(description));
  return tcc_make_status(tcc_hip_code_of(result), "%s device: %s: hipSetDevice failed: %s",
                         device->name, function, description);
}

int tcc_hip_ready(void) {
  pthread_once(&driver_once, load_driver);
  return setup.code == TCC_STATUS_OK && tcc_hip_driver.hipSetDevice(ordinal) == hipSuccess;
}

int32_t tcc_hip_ordinal(void) {
  pthread_once(&ordinal_once, read_ordinal);
  return ordinal;
}

const char *tcc_hip_chip(void) { return chip; }

int32_t tcc_hip_shared_bytes(void) { return shared_bytes; }

const char *tcc_hip_graphs_missing(void) { return graphs_missing; }
