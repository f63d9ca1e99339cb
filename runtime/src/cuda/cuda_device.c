//===- cuda_device.c - the CUDA backend: NVIDIA GPUs through the driver API --------------===//
//
// The backend is runtime/src/gpu's, over the CUDA driver (libcuda.so.1, loaded on the first
// call that needs the GPU: cuda_driver.c). This file supplies what is CUDA's own: adapters
// from the driver's signatures to the vendor-neutral ones of tcc_gpu_driver, the choice of
// the image for the GPU (a cubin of its architecture, else the newest PTX it can compile), and
// the dynamic shared memory a kernel may ask for beyond 48 KiB (cuFuncSetAttribute).
//
// The device is the primary context of one GPU, ordinal $TCC_CUDA_DEVICE (read once, default
// 0), which every entry point makes current on the calling thread (as the CUDA runtime API
// does). A queue is a CUstream created blocking, so that it is ordered after the legacy
// default stream that the synchronous copies use; its CUDA graphs are captured on a second,
// non-blocking stream. $TCC_CUDA_GRAPHS=0, read when a queue is created, turns graphs off.
//
//===------------------------------------------------------------------------------------===//
#include "cuda_driver.h"
#include "gpu/gpu_device.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/// Dynamic shared memory a kernel may use without asking for more (cuFuncSetAttribute).
#define DEFAULT_SHARED_BYTES (48 * 1024)

// Device memory is a CUdeviceptr seen as a pointer (64-bit processes only: cuda_driver.c checks).
static CUdeviceptr device_pointer(const void *memory) { return (CUdeviceptr)(uintptr_t)memory; }

//===------------------------------------------------------------------------------------===//
// The driver's calls with the signatures of tcc_gpu_driver
//===------------------------------------------------------------------------------------===//

static int cuda_allocate(void **memory, size_t bytes) {
  CUdeviceptr pointer = 0;
  CUresult result = tcc_cuda_driver.cuMemAlloc_v2(&pointer, bytes);
  *memory = (void *)(uintptr_t)pointer;
  return result;
}

static int cuda_free(void *memory) { return tcc_cuda_driver.cuMemFree_v2(device_pointer(memory)); }

static int cuda_copy_to_device(void *destination, const void *source, size_t bytes) {
  return tcc_cuda_driver.cuMemcpyHtoD_v2(device_pointer(destination), source, bytes);
}

static int cuda_copy_to_host(void *destination, const void *source, size_t bytes) {
  return tcc_cuda_driver.cuMemcpyDtoH_v2(destination, device_pointer(source), bytes);
}

static int cuda_copy_on_device(void *destination, const void *source, size_t bytes) {
  return tcc_cuda_driver.cuMemcpyDtoD_v2(device_pointer(destination), device_pointer(source),
                                         bytes);
}

static int cuda_fill(void *destination, uint8_t value, size_t bytes) {
  return tcc_cuda_driver.cuMemsetD8_v2(device_pointer(destination), value, bytes);
}

static int cuda_create_stream(void **stream, int non_blocking) {
  CUstream created = NULL;
  CUresult result = tcc_cuda_driver.cuStreamCreate(&created, non_blocking ? CU_STREAM_NON_BLOCKING
                                                                          : CU_STREAM_DEFAULT);
  *stream = created;
  return result;
}

static int cuda_destroy_stream(void *stream) { return tcc_cuda_driver.cuStreamDestroy_v2(stream); }

static int cuda_synchronize(void *stream) { return tcc_cuda_driver.cuStreamSynchronize(stream); }

static int cuda_load_module(void **module, const void *image, char *log, size_t capacity) {
  // The JIT compiler writes its errors (PTX that does not compile) into the log.
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, (void *)(uintptr_t)(capacity - 1)};
  CUmodule loaded = NULL;
  CUresult result = tcc_cuda_driver.cuModuleLoadDataEx(&loaded, image, 2, options, values);
  *module = loaded;
  return result;
}

static int cuda_unload_module(void *module) { return tcc_cuda_driver.cuModuleUnload(module); }

static int cuda_get_function(void **function, void *module, const char *name) {
  CUfunction found = NULL;
  CUresult result = tcc_cuda_driver.cuModuleGetFunction(&found, module, name);
  *function = found;
  return result;
}

static int cuda_raise_shared_bytes(void *function, int32_t bytes) {
  return tcc_cuda_driver.cuFuncSetAttribute(function,
                                            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

static int cuda_launch_kernel(void *function, uint32_t grid_x, uint32_t block_x,
                              uint32_t shared_bytes, void *stream, void **args) {
  return tcc_cuda_driver.cuLaunchKernel(function, grid_x, 1, 1, block_x, 1, 1, shared_bytes, stream,
                                        args, NULL);
}

static int cuda_begin_capture(void *stream) {
  return tcc_cuda_driver.cuStreamBeginCapture_v2(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
}

static int cuda_end_capture(void *stream, void **graph) {
  CUgraph captured = NULL;
  CUresult result = tcc_cuda_driver.cuStreamEndCapture(stream, &captured);
  *graph = captured;
  return result;
}

static int cuda_instantiate(void **graph_exec, void *graph) {
  CUgraphExec exec = NULL;
  CUresult result = tcc_cuda_driver.cuGraphInstantiateWithFlags(&exec, graph, 0);
  *graph_exec = exec;
  return result;
}

static int cuda_launch_graph(void *graph_exec, void *stream) {
  return tcc_cuda_driver.cuGraphLaunch(graph_exec, stream);
}

static int cuda_destroy_graph_exec(void *graph_exec) {
  return tcc_cuda_driver.cuGraphExecDestroy(graph_exec);
}

static int cuda_destroy_graph(void *graph) { return tcc_cuda_driver.cuGraphDestroy(graph); }

//===------------------------------------------------------------------------------------===//
// Images: which one runs on this GPU
//===------------------------------------------------------------------------------------===//

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

/// The image of `d` to load on this GPU: a cubin of its architecture, else the PTX of the
/// newest architecture not newer than it; NULL when none.
static const tcc_device_image *pick_image(const tcc_model_descriptor *d) {
  int arch = tcc_cuda_arch();
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

static int cuda_create_event(void **event) {
  CUevent created = NULL;
  CUresult result = tcc_cuda_driver.cuEventCreate(&created, 0); // CU_EVENT_DEFAULT: timed
  *event = created;
  return result;
}

static int cuda_record_event(void *event, void *stream) {
  return tcc_cuda_driver.cuEventRecord(event, stream);
}

static int cuda_event_elapsed(float *milliseconds, void *begin, void *end) {
  return tcc_cuda_driver.cuEventElapsedTime(milliseconds, begin, end);
}

static int cuda_destroy_event(void *event) { return tcc_cuda_driver.cuEventDestroy_v2(event); }

/// "sm_90": the GPU's architecture as images name it.
static void gpu_name(char *buffer, size_t capacity) {
  int arch = tcc_cuda_arch();
  snprintf(buffer, capacity, "sm_%d%d", arch / 10, arch % 10);
}

static int32_t default_shared_bytes(void) { return DEFAULT_SHARED_BYTES; }

//===------------------------------------------------------------------------------------===//
// The backend
//===------------------------------------------------------------------------------------===//

static const tcc_gpu_driver cuda_gpu_driver = {
    .vendor = "CUDA",
    .library = "libcuda.so.1",
    .graphs_variable = "TCC_CUDA_GRAPHS",
    .graphs_too_old = "the NVIDIA driver is too old for CUDA graphs (CUDA 11.4 drivers have them)",
    .calls =
        {
            .allocator = "cuMemAlloc",
            .allocate = "cuMemAlloc_v2",
            .copy_to_device = "cuMemcpyHtoD_v2",
            .copy_to_host = "cuMemcpyDtoH_v2",
            .copy_on_device = "cuMemcpyDtoD_v2",
            .fill = "cuMemsetD8_v2",
            .synchronize = "cuStreamSynchronize",
            .create_stream = "cuStreamCreate",
            .load_module = "cuModuleLoadDataEx",
            .get_function = "cuModuleGetFunction",
            .raise_shared_bytes = "cuFuncSetAttribute",
            .launch_kernel = "cuLaunchKernel",
            .begin_capture = "cuStreamBeginCapture_v2",
            .end_capture = "cuStreamEndCapture",
            .instantiate = "cuGraphInstantiateWithFlags",
            .launch_graph = "cuGraphLaunch",
            .create_event = "cuEventCreate",
            .record_event = "cuEventRecord",
            .event_elapsed = "cuEventElapsedTime",
        },
    .allocation_alignment = 256, // what cuMemAlloc gives every block, at least
    .out_of_memory = CUDA_ERROR_OUT_OF_MEMORY,
    .not_found = CUDA_ERROR_NOT_FOUND,
    .enter = tcc_cuda_enter,
    .ready = tcc_cuda_ready,
    .ordinal = tcc_cuda_ordinal,
    .describe = tcc_cuda_describe,
    .code_of = tcc_cuda_code_of,
    .gpu_name = gpu_name,
    .pick_image = pick_image,
    .check_image = NULL,
    .graphs_missing = tcc_cuda_graphs_missing,
    .shared_bytes = default_shared_bytes,
    .allocate = cuda_allocate,
    .free = cuda_free,
    .copy_to_device = cuda_copy_to_device,
    .copy_to_host = cuda_copy_to_host,
    .copy_on_device = cuda_copy_on_device,
    .fill = cuda_fill,
    .create_stream = cuda_create_stream,
    .destroy_stream = cuda_destroy_stream,
    .synchronize = cuda_synchronize,
    .load_module = cuda_load_module,
    .unload_module = cuda_unload_module,
    .get_function = cuda_get_function,
    .raise_shared_bytes = cuda_raise_shared_bytes,
    .launch_kernel = cuda_launch_kernel,
    .begin_capture = cuda_begin_capture,
    .end_capture = cuda_end_capture,
    .instantiate = cuda_instantiate,
    .launch_graph = cuda_launch_graph,
    .destroy_graph_exec = cuda_destroy_graph_exec,
    .destroy_graph = cuda_destroy_graph,
    .create_event = cuda_create_event,
    .record_event = cuda_record_event,
    .event_elapsed = cuda_event_elapsed,
    .destroy_event = cuda_destroy_event,
};

const tcc_device tcc_cuda_device = {
    .type = kDLCUDA,
    .name = "cuda",
    .gpu = &cuda_gpu_driver,
    TCC_GPU_DEVICE_FUNCTIONS,
};
