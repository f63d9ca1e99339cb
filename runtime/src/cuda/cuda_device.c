//===- cuda_device.c - the CUDA backend: NVIDIA GPUs through the driver API --------------===//
//
// The driver (libcuda.so.1) is loaded on the first call that needs the GPU (cuda_driver.c);
// without a driver or a GPU, every function fails with a status that says so, and CPU models
// never get here.
//
// The device is the primary context of one GPU, ordinal $TCC_CUDA_DEVICE (read once, default
// 0), which every entry point makes current on the calling thread (as the CUDA runtime API
// does). A queue is a CUstream created blocking, so that it is ordered after the legacy
// default stream that the synchronous copies use. Copies and fills return once done (a copy
// from the host may still be in flight without the wait after it), so the caller may reuse
// or read its buffers at once.
//
// A queue also records CUDA graphs (begin_capture): its kernels are then captured on a second
// stream of the queue, created non-blocking, because while a blocking stream is being
// captured any use of the legacy default stream is illegal, even the synchronous copies of
// other sessions on other threads. A graph is launched on the queue's own stream, ordered
// like its kernels. $TCC_CUDA_GRAPHS=0, read when a queue is created, turns graphs off.
//
//===------------------------------------------------------------------------------------===//
#include "cuda_driver.h"
#include "status_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Dynamic shared memory a kernel may use without asking for more (cuFuncSetAttribute).
#define DEFAULT_SHARED_BYTES (48 * 1024)

// Device memory is a CUdeviceptr seen as a pointer (64-bit processes only: cuda_driver.c checks).
static CUdeviceptr device_pointer(const void *memory) { return (CUdeviceptr)(uintptr_t)memory; }

/// Waits for the legacy default stream, on which the synchronous copies and fills run.
static tcc_status wait_for_copies(const tcc_device *device, const char *function) {
  CUresult result = tcc_cuda_driver.cuStreamSynchronize(NULL);
  return result == CUDA_SUCCESS ? NULL
                                : tcc_cuda_failure(device, function, "cuStreamSynchronize", result);
}

//===------------------------------------------------------------------------------------===//
// Memory
//===------------------------------------------------------------------------------------===//

/// cuMemAlloc aligns every block to at least this many bytes.
#define ALLOCATION_ALIGNMENT 256

static tcc_status cuda_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                                void **out_memory) {
  tcc_status invalid = tcc_device_check_allocate(device, alignment, out_memory);
  if (invalid)
    return invalid;
  if (alignment > ALLOCATION_ALIGNMENT)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: allocate: alignment is %zu, expected at most %d (what "
                           "cuMemAlloc gives)",
                           device->name, alignment, ALLOCATION_ALIGNMENT);
  tcc_status status = tcc_cuda_enter(device, "allocate");
  if (status)
    return status;
  CUdeviceptr memory = 0;
  // cuMemAlloc refuses 0 bytes; one byte still gives a distinct block.
  CUresult result = tcc_cuda_driver.cuMemAlloc_v2(&memory, bytes ? bytes : 1);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s device: allocate: out of device memory for %zu bytes (device %d)",
                           device->name, bytes, (int)tcc_cuda_ordinal());
  if (result != CUDA_SUCCESS)
    return tcc_cuda_failure(device, "allocate", "cuMemAlloc_v2", result);
  *out_memory = (void *)(uintptr_t)memory;
  return NULL;
}

static void cuda_free(const tcc_device *device, void *memory) {
  (void)device;
  // Memory exists only if the driver is ready; an error (a driver already shut down at exit)
  // leaves nothing to do.
  if (memory && tcc_cuda_ready())
    tcc_cuda_driver.cuMemFree_v2(device_pointer(memory));
}

static tcc_status cuda_copy(const tcc_device *device, void *destination, const void *source,
                            size_t bytes, tcc_copy_kind kind) {
  tcc_status invalid = tcc_device_check_copy(device, destination, source, bytes, kind);
  if (invalid || bytes == 0)
    return invalid;
  tcc_status status = tcc_cuda_enter(device, "copy");
  if (status)
    return status;
  CUresult result;
  const char *call;
  switch (kind) {
  case TCC_COPY_HOST_TO_DEVICE:
    call = "cuMemcpyHtoD_v2";
    result = tcc_cuda_driver.cuMemcpyHtoD_v2(device_pointer(destination), source, bytes);
    break;
  case TCC_COPY_DEVICE_TO_HOST:
    call = "cuMemcpyDtoH_v2";
    result = tcc_cuda_driver.cuMemcpyDtoH_v2(destination, device_pointer(source), bytes);
    break;
  default:
    call = "cuMemcpyDtoD_v2";
    result =
        tcc_cuda_driver.cuMemcpyDtoD_v2(device_pointer(destination), device_pointer(source), bytes);
    break;
  }
  if (result != CUDA_SUCCESS)
    return tcc_cuda_failure(device, "copy", call, result);
  // A copy to the device may return before its bytes have landed: wait for them.
  return kind == TCC_COPY_DEVICE_TO_HOST ? NULL : wait_for_copies(device, "copy");
}

static tcc_status cuda_fill(const tcc_device *device, void *destination, uint8_t value,
                            size_t bytes) {
  tcc_status invalid = tcc_device_check_fill(device, destination, bytes);
  if (invalid || bytes == 0)
    return invalid;
  tcc_status status = tcc_cuda_enter(device, "fill");
  if (status)
    return status;
  CUresult result = tcc_cuda_driver.cuMemsetD8_v2(device_pointer(destination), value, bytes);
  if (result != CUDA_SUCCESS)
    return tcc_cuda_failure(device, "fill", "cuMemsetD8_v2", result);
  return wait_for_copies(device, "fill");
}

//===------------------------------------------------------------------------------------===//
// Queues (CUstreams) and host loops
//===------------------------------------------------------------------------------------===//

/// The environment variable that turns graphs off: "0" (unset, "" and "1": on).
#define GRAPHS_VARIABLE "TCC_CUDA_GRAPHS"

struct tcc_device_queue {
  CUstream stream; // runs the queue's kernels and graphs; blocking
  // Records the kernels between begin_capture and end_capture (non-blocking: see the top of
  // the file); created by the first begin_capture.
  CUstream capture_stream;
  int capturing; // between begin_capture and end_capture
  int graphs;    // 0 when $TCC_CUDA_GRAPHS was 0 when the queue was created
};

/// Where launch_kernel queues: the capture stream while the queue records.
static CUstream stream_of(const tcc_device_queue *queue) {
  return queue->capturing ? queue->capture_stream : queue->stream;
}

/// Whether $TCC_CUDA_GRAPHS lets queues record graphs (*out_graphs); fails for a value other
/// than 0 or 1.
static tcc_status read_graphs_variable(const tcc_device *device, int *out_graphs) {
  const char *value = getenv(GRAPHS_VARIABLE);
  if (!value || !*value || strcmp(value, "1") == 0) {
    *out_graphs = 1;
    return NULL;
  }
  if (strcmp(value, "0") == 0) {
    *out_graphs = 0;
    return NULL;
  }
  return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                         "%s device: create_queue: " GRAPHS_VARIABLE " is '%.40s', expected 0 "
                         "(no CUDA graphs) or 1",
                         device->name, value);
}

static tcc_status cuda_create_queue(const tcc_device *device, int32_t num_threads,
                                    tcc_device_queue **out_queue) {
  (void)num_threads; // the GPU's threads are the kernels' grids
  if (!out_queue)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: create_queue: out_queue is null", device->name);
  tcc_status status = tcc_cuda_enter(device, "create_queue");
  int graphs = 1;
  if (!status) // a bad value matters only where there is a driver, as for $TCC_CUDA_DEVICE
    status = read_graphs_variable(device, &graphs);
  if (status)
    return status;
  tcc_device_queue *queue = calloc(1, sizeof(*queue));
  if (!queue)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s device: create_queue: out of memory",
                           device->name);
  CUresult result = tcc_cuda_driver.cuStreamCreate(&queue->stream, CU_STREAM_DEFAULT);
  if (result != CUDA_SUCCESS) {
    free(queue);
    return tcc_cuda_failure(device, "create_queue", "cuStreamCreate", result);
  }
  queue->graphs = graphs;
  *out_queue = queue;
  return NULL;
}

static void cuda_destroy_queue(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  if (!queue)
    return;
  if (tcc_cuda_ready()) {
    if (queue->capturing) { // a recording nobody ended: drop it
      CUgraph graph = NULL;
      if (tcc_cuda_driver.cuStreamEndCapture(queue->capture_stream, &graph) == CUDA_SUCCESS &&
          graph)
        tcc_cuda_driver.cuGraphDestroy(graph);
    }
    // cuStreamDestroy does not wait; the contract does.
    tcc_cuda_driver.cuStreamSynchronize(queue->stream);
    tcc_cuda_driver.cuStreamDestroy_v2(queue->stream);
    if (queue->capture_stream)
      tcc_cuda_driver.cuStreamDestroy_v2(queue->capture_stream);
  }
  free(queue);
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
  tcc_status status = tcc_cuda_enter(device, "synchronize");
  if (status)
    return status;
  CUresult result = tcc_cuda_driver.cuStreamSynchronize(queue->stream);
  return result == CUDA_SUCCESS
             ? NULL
             : tcc_cuda_failure(device, "synchronize", "cuStreamSynchronize", result);
}

static int32_t cuda_device_id(const tcc_device *device) {
  (void)device;
  return tcc_cuda_ordinal();
}

//===------------------------------------------------------------------------------------===//
// Modules and kernels
//===------------------------------------------------------------------------------------===//

struct tcc_device_module {
  CUmodule module;
  const char *const *names; // the descriptor's device_kernel_names, for messages
  char image[48];           // the image loaded, for messages: "sm_80 PTX"
  int32_t num_kernels;
  // Per kernel: the dynamic shared bytes it may use so far. A module is shared by the model's
  // sessions, whose threads may launch at once: raised under shared_mutex.
  _Atomic int32_t *shared_limits;
  pthread_mutex_t shared_mutex;
  int shared_mutex_ready;
  CUfunction *functions; // per kernel
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
  int arch = tcc_cuda_arch();
  return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                         "%s device: load_module: no image of the model runs on this GPU "
                         "(device %d, sm_%d%d): the model has %s",
                         device->name, (int)tcc_cuda_ordinal(), arch / 10, arch % 10, list);
}

static void cuda_unload_module(const tcc_device *device, tcc_device_module *module) {
  (void)device;
  if (!module)
    return;
  if (module->module && tcc_cuda_ready())
    tcc_cuda_driver.cuModuleUnload(module->module);
  if (module->shared_mutex_ready)
    pthread_mutex_destroy(&module->shared_mutex);
  free((void *)module->shared_limits);
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
  tcc_status status = tcc_cuda_enter(device, "load_module");
  if (status)
    return status;
  const tcc_device_image *image = pick_image(d);
  if (!image)
    return no_image(device, d);

  tcc_device_module *module = calloc(1, sizeof(*module));
  size_t count = (size_t)d->num_device_kernels;
  if (module) {
    module->functions = calloc(count, sizeof(CUfunction));
    module->shared_limits = calloc(count, sizeof(*module->shared_limits));
    module->shared_mutex_ready = pthread_mutex_init(&module->shared_mutex, NULL) == 0;
  }
  if (!module || !module->functions || !module->shared_limits || !module->shared_mutex_ready) {
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
  CUresult result =
      tcc_cuda_driver.cuModuleLoadDataEx(&module->module, image->data, 2, options, values);
  if (result != CUDA_SUCCESS) {
    module->module = NULL;
    log[sizeof(log) - 1] = '\0';
    one_line(log);
    char description[256];
    tcc_cuda_describe(result, description, sizeof(description));
    cuda_unload_module(device, module);
    int arch = tcc_cuda_arch();
    return tcc_make_status(tcc_cuda_code_of(result),
                           "%s device: load_module: cannot load the %.24s %s image (%lld bytes) "
                           "on sm_%d%d: cuModuleLoadDataEx failed: %s%s%s",
                           device->name, image->arch, format_name(image->format),
                           (long long)image->size, arch / 10, arch % 10, description,
                           log[0] ? "; the JIT compiler says: " : "", log);
  }
  for (int32_t k = 0; k < module->num_kernels; ++k) {
    atomic_init(&module->shared_limits[k], DEFAULT_SHARED_BYTES);
    result = tcc_cuda_driver.cuModuleGetFunction(&module->functions[k], module->module,
                                                 d->device_kernel_names[k]);
    if (result != CUDA_SUCCESS) {
      char description[256];
      tcc_cuda_describe(result, description, sizeof(description));
      status = tcc_make_status(
          result == CUDA_ERROR_NOT_FOUND ? TCC_STATUS_INVALID_MODEL : tcc_cuda_code_of(result),
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
  tcc_status status = tcc_cuda_enter(device, function);
  if (status)
    return status;
  CUfunction entry = module->functions[kernel];
  CUresult result;
  // Beyond 48 KiB a kernel must ask for its dynamic shared memory first (once per size
  // above the last, whichever session's thread comes first).
  if (shared_bytes > atomic_load(&module->shared_limits[kernel])) {
    pthread_mutex_lock(&module->shared_mutex);
    result = CUDA_SUCCESS;
    if (shared_bytes > atomic_load(&module->shared_limits[kernel])) {
      result = tcc_cuda_driver.cuFuncSetAttribute(
          entry, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared_bytes);
      if (result == CUDA_SUCCESS)
        atomic_store(&module->shared_limits[kernel], shared_bytes);
    }
    pthread_mutex_unlock(&module->shared_mutex);
    if (result != CUDA_SUCCESS) {
      char description[256];
      tcc_cuda_describe(result, description, sizeof(description));
      return tcc_make_status(tcc_cuda_code_of(result),
                             "%s device: %s: kernel %d '%s' cannot have %d bytes of dynamic "
                             "shared memory (cuFuncSetAttribute failed: %s)",
                             device->name, function, (int)kernel, name, (int)shared_bytes,
                             description);
    }
  }
  result = tcc_cuda_driver.cuLaunchKernel(entry, (unsigned)grid_x, 1, 1, (unsigned)block_x, 1, 1,
                                          (unsigned)shared_bytes, stream_of(queue), args, NULL);
  if (result != CUDA_SUCCESS) {
    char description[256];
    tcc_cuda_describe(result, description, sizeof(description));
    return tcc_make_status(tcc_cuda_code_of(result),
                           "%s device: %s: kernel %d '%s' (%lld blocks of %d threads, %d shared "
                           "bytes): cuLaunchKernel failed: %s",
                           device->name, function, (int)kernel, name, (long long)grid_x,
                           (int)block_x, (int)shared_bytes, description);
  }
  return NULL;
}

//===------------------------------------------------------------------------------------===//
// Graphs: a queue's kernels recorded once (stream capture) and replayed
//===------------------------------------------------------------------------------------===//

// A tcc_device_graph is a CUgraphExec: the executable graph, independent of the captured
// CUgraph, which end_capture frees at once.
static CUgraphExec graph_exec_of(tcc_device_graph *graph) { return (CUgraphExec)graph; }

static tcc_status cuda_begin_capture(const tcc_device *device, tcc_device_queue *queue) {
  const char *function = "begin_capture";
  if (!queue)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: queue is null",
                           device->name, function);
  if (queue->capturing)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: %s: the queue is recording already", device->name, function);
  if (!queue->graphs)
    return tcc_make_status(TCC_STATUS_UNIMPLEMENTED,
                           "%s device: %s: CUDA graphs are off (" GRAPHS_VARIABLE "=0)",
                           device->name, function);
  tcc_status status = tcc_cuda_enter(device, function);
  if (status)
    return status;
  if (tcc_cuda_graphs_missing())
    return tcc_make_status(TCC_STATUS_UNIMPLEMENTED,
                           "%s device: %s: libcuda.so.1 has no %s: the NVIDIA driver is too old "
                           "for CUDA graphs (CUDA 11.4 drivers have them)",
                           device->name, function, tcc_cuda_graphs_missing());
  CUresult result;
  if (!queue->capture_stream) {
    result = tcc_cuda_driver.cuStreamCreate(&queue->capture_stream, CU_STREAM_NON_BLOCKING);
    if (result != CUDA_SUCCESS) {
      queue->capture_stream = NULL;
      return tcc_cuda_failure(device, function, "cuStreamCreate", result);
    }
  }
  // Thread-local: the driver refuses the calls that could break the recording (potentially
  // unsafe ones, such as a synchronous copy) from this thread only; other threads go on.
  result = tcc_cuda_driver.cuStreamBeginCapture_v2(queue->capture_stream,
                                                   CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
  if (result != CUDA_SUCCESS)
    return tcc_cuda_failure(device, function, "cuStreamBeginCapture_v2", result);
  queue->capturing = 1;
  return NULL;
}

static tcc_status cuda_end_capture(const tcc_device *device, tcc_device_queue *queue,
                                   tcc_device_graph **out_graph) {
  const char *function = "end_capture";
  if (!queue || !out_graph)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: %s is null", device->name,
                           function, queue ? "out_graph" : "queue");
  if (!queue->capturing)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: the queue is not recording",
                           device->name, function);
  queue->capturing = 0; // launch_kernel runs kernels again, whatever happens below
  tcc_status status = tcc_cuda_enter(device, function);
  if (status)
    return status;
  CUgraph graph = NULL;
  // The recording ends even when this fails (a launch that broke the rules of capture: the
  // driver then returns CUDA_ERROR_STREAM_CAPTURE_INVALIDATED and no graph).
  CUresult result = tcc_cuda_driver.cuStreamEndCapture(queue->capture_stream, &graph);
  if (result != CUDA_SUCCESS) {
    if (graph)
      tcc_cuda_driver.cuGraphDestroy(graph);
    return tcc_cuda_failure(device, function, "cuStreamEndCapture", result);
  }
  if (!graph)
    return tcc_make_status(TCC_STATUS_INTERNAL, "%s device: %s: cuStreamEndCapture gave no graph",
                           device->name, function);
  CUgraphExec exec = NULL;
  result = tcc_cuda_driver.cuGraphInstantiateWithFlags(&exec, graph, 0);
  tcc_cuda_driver.cuGraphDestroy(graph);
  if (result != CUDA_SUCCESS)
    return tcc_cuda_failure(device, function, "cuGraphInstantiateWithFlags", result);
  *out_graph = (tcc_device_graph *)exec;
  return NULL;
}

static tcc_status cuda_launch_graph(const tcc_device *device, tcc_device_queue *queue,
                                    tcc_device_graph *graph) {
  const char *function = "launch_graph";
  if (!queue || !graph)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: %s is null", device->name,
                           function, queue ? "graph" : "queue");
  if (queue->capturing)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: the queue is recording",
                           device->name, function);
  tcc_status status = tcc_cuda_enter(device, function);
  if (status)
    return status;
  CUresult result = tcc_cuda_driver.cuGraphLaunch(graph_exec_of(graph), queue->stream);
  return result == CUDA_SUCCESS ? NULL
                                : tcc_cuda_failure(device, function, "cuGraphLaunch", result);
}

static void cuda_destroy_graph(const tcc_device *device, tcc_device_graph *graph) {
  (void)device;
  // A graph still running is freed once it has finished (cuGraphExecDestroy).
  if (graph && tcc_cuda_ready())
    tcc_cuda_driver.cuGraphExecDestroy(graph_exec_of(graph));
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
    .begin_capture = cuda_begin_capture,
    .end_capture = cuda_end_capture,
    .launch_graph = cuda_launch_graph,
    .destroy_graph = cuda_destroy_graph,
};
