//===- hip_device.c - the HIP backend: AMD GPUs through the HIP module API ---------------===//
//
// The backend is runtime/src/gpu's, over HIP (libamdhip64.so, loaded on the first call that
// needs the GPU: hip_driver.c). This file supplies what is HIP's own: adapters from HIP's
// signatures to the vendor-neutral ones of tcc_gpu_driver, the choice of the image (the
// HSACO code object whose arch is the GPU's chip: code objects are compiled for one chip and
// there is no portable code to compile at load time), and the check of that code object
// before HIP reads it (hsaco.h).
//
// The device is GPU $TCC_HIP_DEVICE (read once, default 0), which every entry point makes the
// calling thread's current device (hipSetDevice). A queue is a hipStream_t created blocking,
// so that it is ordered after the null stream that the synchronous copies use; its HIP graphs
// are captured on a second, non-blocking stream. $TCC_HIP_GRAPHS=0, read when a queue is
// created, turns graphs off. A kernel's dynamic shared memory (LDS) cannot be raised per
// kernel: a launch that asks for more than the GPU gives a workgroup fails before HIP sees it.
//
//===------------------------------------------------------------------------------------===//
#include "gpu/gpu_device.h"
#include "hip/hip_driver.h"
#include "hip/hsaco.h"
#include "status_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

//===------------------------------------------------------------------------------------===//
// HIP's calls with the signatures of tcc_gpu_driver
//===------------------------------------------------------------------------------------===//

static int hip_allocate(void **memory, size_t bytes) {
  return tcc_hip_driver.hipMalloc(memory, bytes);
}

static int hip_free(void *memory) { return tcc_hip_driver.hipFree(memory); }

// HIP's copies take a non-const source; they only read it.
static int hip_copy_to_device(void *destination, const void *source, size_t bytes) {
  return tcc_hip_driver.hipMemcpyHtoD(destination, (void *)(uintptr_t)source, bytes);
}

static int hip_copy_to_host(void *destination, const void *source, size_t bytes) {
  return tcc_hip_driver.hipMemcpyDtoH(destination, (void *)(uintptr_t)source, bytes);
}

static int hip_copy_on_device(void *destination, const void *source, size_t bytes) {
  return tcc_hip_driver.hipMemcpyDtoD(destination, (void *)(uintptr_t)source, bytes);
}

static int hip_fill(void *destination, uint8_t value, size_t bytes) {
  return tcc_hip_driver.hipMemsetD8(destination, value, bytes);
}

static int hip_create_stream(void **stream, int non_blocking) {
  hipStream_t created = NULL;
  hipError_t result = tcc_hip_driver.hipStreamCreateWithFlags(
      &created, non_blocking ? hipStreamNonBlocking : hipStreamDefault);
  *stream = created;
  return result;
}

static int hip_destroy_stream(void *stream) { return tcc_hip_driver.hipStreamDestroy(stream); }

static int hip_synchronize(void *stream) { return tcc_hip_driver.hipStreamSynchronize(stream); }

static int hip_load_module(void **module, const void *image, char *log, size_t capacity) {
  (void)capacity; // code objects are compiled already: there is no compiler log
  log[0] = '\0';
  hipModule_t loaded = NULL;
  hipError_t result = tcc_hip_driver.hipModuleLoadData(&loaded, image);
  *module = loaded;
  return result;
}

static int hip_unload_module(void *module) { return tcc_hip_driver.hipModuleUnload(module); }

static int hip_get_function(void **function, void *module, const char *name) {
  hipFunction_t found = NULL;
  hipError_t result = tcc_hip_driver.hipModuleGetFunction(&found, module, name);
  *function = found;
  return result;
}

static int hip_launch_kernel(void *function, uint32_t grid_x, uint32_t block_x,
                             uint32_t shared_bytes, void *stream, void **args) {
  return tcc_hip_driver.hipModuleLaunchKernel(function, grid_x, 1, 1, block_x, 1, 1, shared_bytes,
                                              stream, args, NULL);
}

static int hip_begin_capture(void *stream) {
  return tcc_hip_driver.hipStreamBeginCapture(stream, hipStreamCaptureModeThreadLocal);
}

static int hip_end_capture(void *stream, void **graph) {
  hipGraph_t captured = NULL;
  hipError_t result = tcc_hip_driver.hipStreamEndCapture(stream, &captured);
  *graph = captured;
  return result;
}

static int hip_instantiate(void **graph_exec, void *graph) {
  hipGraphExec_t exec = NULL;
  hipError_t result = tcc_hip_driver.hipGraphInstantiateWithFlags(&exec, graph, 0);
  *graph_exec = exec;
  return result;
}

static int hip_launch_graph(void *graph_exec, void *stream) {
  return tcc_hip_driver.hipGraphLaunch(graph_exec, stream);
}

static int hip_destroy_graph_exec(void *graph_exec) {
  return tcc_hip_driver.hipGraphExecDestroy(graph_exec);
}

static int hip_destroy_graph(void *graph) { return tcc_hip_driver.hipGraphDestroy(graph); }

static int hip_create_event(void **event) {
  hipEvent_t created = NULL;
  hipError_t result = tcc_hip_driver.hipEventCreate(&created);
  *event = created;
  return result;
}

static int hip_record_event(void *event, void *stream) {
  return tcc_hip_driver.hipEventRecord(event, stream);
}

static int hip_event_elapsed(float *milliseconds, void *begin, void *end) {
  return tcc_hip_driver.hipEventElapsedTime(milliseconds, begin, end);
}

static int hip_destroy_event(void *event) { return tcc_hip_driver.hipEventDestroy(event); }

//===------------------------------------------------------------------------------------===//
// Images: the code object of this GPU's chip, checked before HIP reads it
//===------------------------------------------------------------------------------------===//

/// The first HSACO image of `d` for the GPU's chip; NULL when none.
static const tcc_device_image *pick_image(const tcc_model_descriptor *d) {
  const char *chip = tcc_hip_chip();
  for (int32_t i = 0; i < d->num_device_images; ++i) {
    const tcc_device_image *image = &d->device_images[i];
    if (image->format == TCC_IMAGE_HSACO && image->arch && strcmp(image->arch, chip) == 0)
      return image;
  }
  return NULL;
}

/// Refuses a code object that is broken (INVALID_MODEL), built for another chip than its arch
/// says (INCOMPATIBLE), or without the kernel descriptor of a kernel of the model. Models
/// checked their images when they were loaded (model_device.c); a caller's descriptor may not
/// have been.
static tcc_status check_image(const tcc_device *device, const tcc_model_descriptor *d,
                              const tcc_device_image *image) {
  return tcc_annotate_status(tcc_hsaco_check_image(d, image), "%s device: load_module",
                             device->name);
}

/// "gfx942": the GPU's chip.
static void gpu_name(char *buffer, size_t capacity) {
  snprintf(buffer, capacity, "%s", tcc_hip_chip());
}

//===------------------------------------------------------------------------------------===//
// The backend
//===------------------------------------------------------------------------------------===//

static const tcc_gpu_driver hip_gpu_driver = {
    .vendor = "HIP",
    .library = "libamdhip64.so",
    .graphs_variable = "TCC_HIP_GRAPHS",
    .graphs_too_old = "the ROCm HIP runtime is too old for HIP graphs (ROCm 5 has them)",
    .calls =
        {
            .allocator = "hipMalloc",
            .allocate = "hipMalloc",
            .copy_to_device = "hipMemcpyHtoD",
            .copy_to_host = "hipMemcpyDtoH",
            .copy_on_device = "hipMemcpyDtoD",
            .fill = "hipMemsetD8",
            .synchronize = "hipStreamSynchronize",
            .create_stream = "hipStreamCreateWithFlags",
            .load_module = "hipModuleLoadData",
            .get_function = "hipModuleGetFunction",
            .raise_shared_bytes = NULL,
            .launch_kernel = "hipModuleLaunchKernel",
            .begin_capture = "hipStreamBeginCapture",
            .end_capture = "hipStreamEndCapture",
            .instantiate = "hipGraphInstantiateWithFlags",
            .launch_graph = "hipGraphLaunch",
            .create_event = "hipEventCreate",
            .record_event = "hipEventRecord",
            .event_elapsed = "hipEventElapsedTime",
        },
    .allocation_alignment = 256, // hipMalloc's blocks are aligned to at least this (pages)
    .out_of_memory = hipErrorOutOfMemory,
    .not_found = hipErrorNotFound,
    .enter = tcc_hip_enter,
    .ready = tcc_hip_ready,
    .ordinal = tcc_hip_ordinal,
    .describe = tcc_hip_describe,
    .code_of = tcc_hip_code_of,
    .gpu_name = gpu_name,
    .pick_image = pick_image,
    .check_image = check_image,
    .graphs_missing = tcc_hip_graphs_missing,
    .shared_bytes = tcc_hip_shared_bytes,
    .allocate = hip_allocate,
    .free = hip_free,
    .copy_to_device = hip_copy_to_device,
    .copy_to_host = hip_copy_to_host,
    .copy_on_device = hip_copy_on_device,
    .fill = hip_fill,
    .create_stream = hip_create_stream,
    .destroy_stream = hip_destroy_stream,
    .synchronize = hip_synchronize,
    .load_module = hip_load_module,
    .unload_module = hip_unload_module,
    .get_function = hip_get_function,
    .raise_shared_bytes = NULL, // the LDS of a workgroup is all a kernel can have
    .launch_kernel = hip_launch_kernel,
    .begin_capture = hip_begin_capture,
    .end_capture = hip_end_capture,
    .instantiate = hip_instantiate,
    .launch_graph = hip_launch_graph,
    .destroy_graph_exec = hip_destroy_graph_exec,
    .destroy_graph = hip_destroy_graph,
    .create_event = hip_create_event,
    .record_event = hip_record_event,
    .event_elapsed = hip_event_elapsed,
    .destroy_event = hip_destroy_event,
};

const tcc_device tcc_hip_device = {
    .type = kDLROCM,
    .name = "hip",
    .gpu = &hip_gpu_driver,
    TCC_GPU_DEVICE_FUNCTIONS,
};
