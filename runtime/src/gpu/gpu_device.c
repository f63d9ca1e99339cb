//===- gpu_device.c - a GPU backend over a vendor's driver table -------------------------===//
//
// The driver is loaded on the first call that needs the GPU (the vendor's `enter`); without
// a driver or a GPU, every function fails with a status that says so, and CPU models never
// get here. Every entry point makes the GPU current on the calling thread first.
//
// A queue is a stream created blocking, so that it is ordered after the default stream that
// the synchronous copies use. Copies and fills return once done (a copy from the host may
// still be in flight without the wait after it), so the caller may reuse or read its buffers
// at once.
//
// A queue also records graphs (begin_capture): its kernels are then captured on a second
// stream of the queue, created non-blocking, because while a blocking stream is being
// captured any use of the default stream is illegal, even the synchronous copies of other
// sessions on other threads. A graph is launched on the queue's own stream, ordered like its
// kernels. The vendor's graphs variable ($TCC_CUDA_GRAPHS=0), read when a queue is created,
// turns graphs off.
//
//===------------------------------------------------------------------------------------===//
#include "gpu/gpu_device.h"
#include "status_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tcc_gpu_driver *driver_of(const tcc_device *device) { return device->gpu; }

tcc_status tcc_gpu_failure(const tcc_device *device, const char *function, const char *call,
                           int result) {
  const tcc_gpu_driver *driver = driver_of(device);
  char description[256];
  driver->describe(result, description, sizeof(description));
  return tcc_make_status(driver->code_of(result), "%s device: %s: %s failed: %s", device->name,
                         function, call, description);
}

/// Waits for the default stream, on which the synchronous copies and fills run.
static tcc_status wait_for_copies(const tcc_device *device, const char *function) {
  const tcc_gpu_driver *driver = driver_of(device);
  int result = driver->synchronize(NULL);
  return result == 0 ? NULL : tcc_gpu_failure(device, function, driver->calls.synchronize, result);
}

//===------------------------------------------------------------------------------------===//
// Memory
//===------------------------------------------------------------------------------------===//

tcc_status tcc_gpu_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                            void **out_memory) {
  const tcc_gpu_driver *driver = driver_of(device);
  tcc_status invalid = tcc_device_check_allocate(device, alignment, out_memory);
  if (invalid)
    return invalid;
  if (alignment > driver->allocation_alignment)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: allocate: alignment is %zu, expected at most %zu (what "
                           "%s gives)",
                           device->name, alignment, driver->allocation_alignment,
                           driver->calls.allocator);
  tcc_status status = driver->enter(device, "allocate");
  if (status)
    return status;
  void *memory = NULL;
  // The drivers refuse 0 bytes; one byte still gives a distinct block.
  int result = driver->allocate(&memory, bytes ? bytes : 1);
  if (result == driver->out_of_memory)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s device: allocate: out of device memory for %zu bytes (device %d)",
                           device->name, bytes, (int)driver->ordinal());
  if (result != 0)
    return tcc_gpu_failure(device, "allocate", driver->calls.allocate, result);
  *out_memory = memory;
  return NULL;
}

void tcc_gpu_free(const tcc_device *device, void *memory) {
  const tcc_gpu_driver *driver = driver_of(device);
  // Memory exists only if the driver is ready; an error (a driver already shut down at exit)
  // leaves nothing to do.
  if (memory && driver->ready())
    driver->free(memory);
}

tcc_status tcc_gpu_copy(const tcc_device *device, void *destination, const void *source,
                        size_t bytes, tcc_copy_kind kind) {
  const tcc_gpu_driver *driver = driver_of(device);
  tcc_status invalid = tcc_device_check_copy(device, destination, source, bytes, kind);
  if (invalid || bytes == 0)
    return invalid;
  tcc_status status = driver->enter(device, "copy");
  if (status)
    return status;
  int result;
  const char *call;
  switch (kind) {
  case TCC_COPY_HOST_TO_DEVICE:
    call = driver->calls.copy_to_device;
    result = driver->copy_to_device(destination, source, bytes);
    break;
  case TCC_COPY_DEVICE_TO_HOST:
    call = driver->calls.copy_to_host;
    result = driver->copy_to_host(destination, source, bytes);
    break;
  default:
    call = driver->calls.copy_on_device;
    result = driver->copy_on_device(destination, source, bytes);
    break;
  }
  if (result != 0)
    return tcc_gpu_failure(device, "copy", call, result);
  // A copy to the device may return before its bytes have landed: wait for them.
  return kind == TCC_COPY_DEVICE_TO_HOST ? NULL : wait_for_copies(device, "copy");
}

tcc_status tcc_gpu_fill(const tcc_device *device, void *destination, uint8_t value, size_t bytes) {
  const tcc_gpu_driver *driver = driver_of(device);
  tcc_status invalid = tcc_device_check_fill(device, destination, bytes);
  if (invalid || bytes == 0)
    return invalid;
  tcc_status status = driver->enter(device, "fill");
  if (status)
    return status;
  int result = driver->fill(destination, value, bytes);
  if (result != 0)
    return tcc_gpu_failure(device, "fill", driver->calls.fill, result);
  return wait_for_copies(device, "fill");
}

//===------------------------------------------------------------------------------------===//
// Queues (streams) and host loops
//===------------------------------------------------------------------------------------===//

struct tcc_device_queue {
  void *stream; // runs the queue's kernels and graphs; blocking
  // Records the kernels between begin_capture and end_capture (non-blocking: see the top of
  // the file); created by the first begin_capture.
  void *capture_stream;
  int capturing; // between begin_capture and end_capture
  int graphs;    // 0 when the graphs variable was 0 when the queue was created
};

/// Where launch_kernel queues: the capture stream while the queue records.
static void *stream_of(const tcc_device_queue *queue) {
  return queue->capturing ? queue->capture_stream : queue->stream;
}

/// Whether the vendor's graphs variable lets queues record graphs (*out_graphs); fails for a
/// value other than 0 or 1.
static tcc_status read_graphs_variable(const tcc_device *device, int *out_graphs) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *value = getenv(driver->graphs_variable);
  if (!value || !*value || strcmp(value, "1") == 0) {
    *out_graphs = 1;
    return NULL;
  }
  if (strcmp(value, "0") == 0) {
    *out_graphs = 0;
    return NULL;
  }
  return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                         "%s device: create_queue: %s is '%.40s', expected 0 (no %s graphs) or 1",
                         device->name, driver->graphs_variable, value, driver->vendor);
}

tcc_status tcc_gpu_create_queue(const tcc_device *device, int32_t num_threads,
                                tcc_device_queue **out_queue) {
  const tcc_gpu_driver *driver = driver_of(device);
  (void)num_threads; // the GPU's threads are the kernels' grids
  if (!out_queue)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: create_queue: out_queue is null", device->name);
  tcc_status status = driver->enter(device, "create_queue");
  int graphs = 1;
  if (!status) // a bad value matters only where there is a driver, as for the device ordinal
    status = read_graphs_variable(device, &graphs);
  if (status)
    return status;
  tcc_device_queue *queue = calloc(1, sizeof(*queue));
  if (!queue)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s device: create_queue: out of memory",
                           device->name);
  int result = driver->create_stream(&queue->stream, 0);
  if (result != 0) {
    free(queue);
    return tcc_gpu_failure(device, "create_queue", driver->calls.create_stream, result);
  }
  queue->graphs = graphs;
  *out_queue = queue;
  return NULL;
}

void tcc_gpu_destroy_queue(const tcc_device *device, tcc_device_queue *queue) {
  const tcc_gpu_driver *driver = driver_of(device);
  if (!queue)
    return;
  if (driver->ready()) {
    if (queue->capturing) { // a recording nobody ended: drop it
      void *graph = NULL;
      if (driver->end_capture(queue->capture_stream, &graph) == 0 && graph)
        driver->destroy_graph(graph);
    }
    // Destroying a stream does not wait; the contract does.
    driver->synchronize(queue->stream);
    driver->destroy_stream(queue->stream);
    if (queue->capture_stream)
      driver->destroy_stream(queue->capture_stream);
  }
  free(queue);
}

tcc_status tcc_gpu_launch(const tcc_device *device, tcc_device_queue *queue, int64_t count,
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

tcc_status tcc_gpu_synchronize(const tcc_device *device, tcc_device_queue *queue) {
  const tcc_gpu_driver *driver = driver_of(device);
  if (!queue)
    return NULL; // nothing is queued without a queue
  tcc_status status = driver->enter(device, "synchronize");
  if (status)
    return status;
  int result = driver->synchronize(queue->stream);
  return result == 0 ? NULL
                     : tcc_gpu_failure(device, "synchronize", driver->calls.synchronize, result);
}

int32_t tcc_gpu_device_id(const tcc_device *device) { return driver_of(device)->ordinal(); }

//===------------------------------------------------------------------------------------===//
// Modules and kernels
//===------------------------------------------------------------------------------------===//

struct tcc_device_module {
  void *module;
  const char *const *names; // the descriptor's device_kernel_names, for messages
  char image[48];           // the image loaded, for messages: "sm_80 PTX"
  int32_t num_kernels;
  // Per kernel: the dynamic shared bytes it may use so far. A module is shared by the model's
  // sessions, whose threads may launch at once: raised under shared_mutex.
  _Atomic int32_t *shared_limits;
  pthread_mutex_t shared_mutex;
  int shared_mutex_ready;
  void **functions; // per kernel
};

/// The error for a model without an image for this GPU: lists the images it has.
static tcc_status no_image(const tcc_device *device, const tcc_model_descriptor *d) {
  const tcc_gpu_driver *driver = driver_of(device);
  char list[512] = "";
  size_t used = 0;
  for (int32_t i = 0; i < d->num_device_images && used < sizeof(list); ++i) {
    const tcc_device_image *image = &d->device_images[i];
    int written = snprintf(list + used, sizeof(list) - used, "%s%.24s %s (%lld bytes)",
                           i ? ", " : "", image->arch ? image->arch : "?",
                           tcc_image_format_name(image->format), (long long)image->size);
    if (written < 0)
      break;
    used += (size_t)written;
  }
  char gpu[32];
  driver->gpu_name(gpu, sizeof(gpu));
  return tcc_make_status(TCC_STATUS_INCOMPATIBLE,
                         "%s device: load_module: no image of the model runs on this GPU "
                         "(device %d, %s): the model has %s",
                         device->name, (int)driver->ordinal(), gpu, list);
}

void tcc_gpu_unload_module(const tcc_device *device, tcc_device_module *module) {
  const tcc_gpu_driver *driver = driver_of(device);
  if (!module)
    return;
  if (module->module && driver->ready())
    driver->unload_module(module->module);
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

tcc_status tcc_gpu_load_module(const tcc_device *device, const tcc_model_descriptor *d,
                               tcc_device_module **out_module) {
  const tcc_gpu_driver *driver = driver_of(device);
  if (!d || !out_module)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: load_module: %s is null",
                           device->name, d ? "out_module" : "descriptor");
  if (d->num_device_images <= 0 || !d->device_images || d->num_device_kernels <= 0 ||
      !d->device_kernel_names)
    return tcc_make_status(TCC_STATUS_INVALID_MODEL,
                           "%s device: load_module: the model has no device images or kernels",
                           device->name);
  tcc_status status = driver->enter(device, "load_module");
  if (status)
    return status;
  const tcc_device_image *image = driver->pick_image(d);
  if (!image)
    return no_image(device, d);
  if (driver->check_image && (status = driver->check_image(device, d, image)))
    return status;

  tcc_device_module *module = calloc(1, sizeof(*module));
  size_t count = (size_t)d->num_device_kernels;
  if (module) {
    module->functions = calloc(count, sizeof(void *));
    module->shared_limits = calloc(count, sizeof(*module->shared_limits));
    module->shared_mutex_ready = pthread_mutex_init(&module->shared_mutex, NULL) == 0;
  }
  if (!module || !module->functions || !module->shared_limits || !module->shared_mutex_ready) {
    tcc_gpu_unload_module(device, module);
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED, "%s device: load_module: out of memory",
                           device->name);
  }
  module->names = d->device_kernel_names;
  module->num_kernels = d->num_device_kernels;
  snprintf(module->image, sizeof(module->image), "%.24s %s", image->arch,
           tcc_image_format_name(image->format));

  // The JIT compiler's errors (PTX that does not compile) go into the message.
  char log[1024] = "";
  int result = driver->load_module(&module->module, image->data, log, sizeof(log));
  if (result != 0) {
    module->module = NULL;
    log[sizeof(log) - 1] = '\0';
    one_line(log);
    char description[256];
    driver->describe(result, description, sizeof(description));
    tcc_gpu_unload_module(device, module);
    char gpu[32];
    driver->gpu_name(gpu, sizeof(gpu));
    return tcc_make_status(driver->code_of(result),
                           "%s device: load_module: cannot load the %.24s %s image (%lld bytes) "
                           "on %s: %s failed: %s%s%s",
                           device->name, image->arch, tcc_image_format_name(image->format),
                           (long long)image->size, gpu, driver->calls.load_module, description,
                           log[0] ? "; the JIT compiler says: " : "", log);
  }
  int32_t shared_bytes = driver->shared_bytes();
  for (int32_t k = 0; k < module->num_kernels; ++k) {
    atomic_init(&module->shared_limits[k], shared_bytes);
    result = driver->get_function(&module->functions[k], module->module, d->device_kernel_names[k]);
    if (result != 0) {
      char description[256];
      driver->describe(result, description, sizeof(description));
      status = tcc_make_status(
          result == driver->not_found ? TCC_STATUS_INVALID_MODEL : driver->code_of(result),
          "%s device: load_module: the %s image has no kernel %d '%s' (%s failed: %s)",
          device->name, module->image, (int)k, d->device_kernel_names[k],
          driver->calls.get_function, description);
      tcc_gpu_unload_module(device, module);
      return status;
    }
  }
  *out_module = module;
  return NULL;
}

/// Lets kernel `kernel` of `module` use `shared_bytes` of dynamic shared memory, beyond what
/// it had so far; fails where the driver cannot give it that much.
static tcc_status raise_shared_bytes(const tcc_device *device, tcc_device_module *module,
                                     int32_t kernel, int32_t shared_bytes) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *name = module->names[kernel];
  if (!driver->raise_shared_bytes) {
    char gpu[32];
    driver->gpu_name(gpu, sizeof(gpu));
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s device: launch_kernel: kernel %d '%s' cannot have %d bytes of "
                           "dynamic shared memory: a kernel has at most %d on this GPU (%s)",
                           device->name, (int)kernel, name, (int)shared_bytes,
                           (int)atomic_load(&module->shared_limits[kernel]), gpu);
  }
  // Once per size above the last, whichever session's thread comes first.
  pthread_mutex_lock(&module->shared_mutex);
  int result = 0;
  if (shared_bytes > atomic_load(&module->shared_limits[kernel])) {
    result = driver->raise_shared_bytes(module->functions[kernel], shared_bytes);
    if (result == 0)
      atomic_store(&module->shared_limits[kernel], shared_bytes);
  }
  pthread_mutex_unlock(&module->shared_mutex);
  if (result == 0)
    return NULL;
  char description[256];
  driver->describe(result, description, sizeof(description));
  return tcc_make_status(driver->code_of(result),
                         "%s device: launch_kernel: kernel %d '%s' cannot have %d bytes of "
                         "dynamic shared memory (%s failed: %s)",
                         device->name, (int)kernel, name, (int)shared_bytes,
                         driver->calls.raise_shared_bytes, description);
}

tcc_status tcc_gpu_launch_kernel(const tcc_device *device, tcc_device_queue *queue,
                                 tcc_device_module *module, int32_t kernel, int64_t grid_x,
                                 int32_t block_x, int32_t shared_bytes, void **args) {
  const tcc_gpu_driver *driver = driver_of(device);
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
  tcc_status status = driver->enter(device, function);
  if (status)
    return status;
  // Beyond the default (CUDA: 48 KiB), a kernel must ask for its dynamic shared memory first.
  if (shared_bytes > atomic_load(&module->shared_limits[kernel]) &&
      (status = raise_shared_bytes(device, module, kernel, shared_bytes)))
    return status;
  int result = driver->launch_kernel(module->functions[kernel], (uint32_t)grid_x, (uint32_t)block_x,
                                     (uint32_t)shared_bytes, stream_of(queue), args);
  if (result != 0) {
    char description[256];
    driver->describe(result, description, sizeof(description));
    return tcc_make_status(driver->code_of(result),
                           "%s device: %s: kernel %d '%s' (%lld blocks of %d threads, %d shared "
                           "bytes): %s failed: %s",
                           device->name, function, (int)kernel, name, (long long)grid_x,
                           (int)block_x, (int)shared_bytes, driver->calls.launch_kernel,
                           description);
  }
  return NULL;
}

//===------------------------------------------------------------------------------------===//
// Graphs: a queue's kernels recorded once (stream capture) and replayed
//===------------------------------------------------------------------------------------===//

// A tcc_device_graph is the driver's executable graph, independent of the captured graph,
// which end_capture frees at once.
static void *graph_exec_of(tcc_device_graph *graph) { return graph; }

tcc_status tcc_gpu_begin_capture(const tcc_device *device, tcc_device_queue *queue) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *function = "begin_capture";
  if (!queue)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: queue is null",
                           device->name, function);
  if (queue->capturing)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: %s: the queue is recording already", device->name, function);
  if (!queue->graphs)
    return tcc_make_status(TCC_STATUS_UNIMPLEMENTED, "%s device: %s: %s graphs are off (%s=0)",
                           device->name, function, driver->vendor, driver->graphs_variable);
  tcc_status status = driver->enter(device, function);
  if (status)
    return status;
  if (driver->graphs_missing())
    return tcc_make_status(TCC_STATUS_UNIMPLEMENTED, "%s device: %s: %s has no %s: %s",
                           device->name, function, driver->library, driver->graphs_missing(),
                           driver->graphs_too_old);
  int result;
  if (!queue->capture_stream) {
    result = driver->create_stream(&queue->capture_stream, 1);
    if (result != 0) {
      queue->capture_stream = NULL;
      return tcc_gpu_failure(device, function, driver->calls.create_stream, result);
    }
  }
  // Thread-local: the driver refuses the calls that could break the recording (potentially
  // unsafe ones, such as a synchronous copy) from this thread only; other threads go on.
  result = driver->begin_capture(queue->capture_stream);
  if (result != 0)
    return tcc_gpu_failure(device, function, driver->calls.begin_capture, result);
  queue->capturing = 1;
  return NULL;
}

tcc_status tcc_gpu_end_capture(const tcc_device *device, tcc_device_queue *queue,
                               tcc_device_graph **out_graph) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *function = "end_capture";
  if (!queue || !out_graph)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: %s is null", device->name,
                           function, queue ? "out_graph" : "queue");
  if (!queue->capturing)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: the queue is not recording",
                           device->name, function);
  queue->capturing = 0; // launch_kernel runs kernels again, whatever happens below
  tcc_status status = driver->enter(device, function);
  if (status)
    return status;
  void *graph = NULL;
  // The recording ends even when this fails (a launch that broke the rules of capture: the
  // driver then says the capture was invalidated and gives no graph).
  int result = driver->end_capture(queue->capture_stream, &graph);
  if (result != 0) {
    if (graph)
      driver->destroy_graph(graph);
    return tcc_gpu_failure(device, function, driver->calls.end_capture, result);
  }
  if (!graph)
    return tcc_make_status(TCC_STATUS_INTERNAL, "%s device: %s: %s gave no graph", device->name,
                           function, driver->calls.end_capture);
  void *exec = NULL;
  result = driver->instantiate(&exec, graph);
  driver->destroy_graph(graph);
  if (result != 0)
    return tcc_gpu_failure(device, function, driver->calls.instantiate, result);
  *out_graph = (tcc_device_graph *)exec;
  return NULL;
}

tcc_status tcc_gpu_launch_graph(const tcc_device *device, tcc_device_queue *queue,
                                tcc_device_graph *graph) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *function = "launch_graph";
  if (!queue || !graph)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: %s is null", device->name,
                           function, queue ? "graph" : "queue");
  if (queue->capturing)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: the queue is recording",
                           device->name, function);
  tcc_status status = driver->enter(device, function);
  if (status)
    return status;
  int result = driver->launch_graph(graph_exec_of(graph), queue->stream);
  return result == 0 ? NULL : tcc_gpu_failure(device, function, driver->calls.launch_graph, result);
}

void tcc_gpu_destroy_graph(const tcc_device *device, tcc_device_graph *graph) {
  const tcc_gpu_driver *driver = driver_of(device);
  // A graph still running is freed once it has finished.
  if (graph && driver->ready())
    driver->destroy_graph_exec(graph_exec_of(graph));
}

//===------------------------------------------------------------------------------------===//
// Marks: the driver's events
//===------------------------------------------------------------------------------------===//

/// A driver without events cannot time: "<device> device: <function>: the driver has no
/// events".
static tcc_status without_events(const tcc_device *device, const char *function) {
  return tcc_make_status(TCC_STATUS_UNIMPLEMENTED, "%s device: %s: the %s driver has no events",
                         device->name, function, driver_of(device)->vendor);
}

tcc_status tcc_gpu_create_mark(const tcc_device *device, tcc_device_mark **out_mark) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *function = "create_mark";
  if (!out_mark)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: out_mark is null",
                           device->name, function);
  *out_mark = NULL;
  if (!driver->create_event)
    return without_events(device, function);
  tcc_status status = driver->enter(device, function);
  if (status)
    return status;
  void *event = NULL;
  int result = driver->create_event(&event);
  if (result != 0)
    return tcc_gpu_failure(device, function, driver->calls.create_event, result);
  *out_mark = (tcc_device_mark *)event;
  return NULL;
}

tcc_status tcc_gpu_record_mark(const tcc_device *device, tcc_device_queue *queue,
                               tcc_device_mark *mark) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *function = "record_mark";
  if (!queue || !mark)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: %s is null", device->name,
                           function, queue ? "mark" : "queue");
  if (queue->capturing)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: the queue is recording",
                           device->name, function);
  if (!driver->record_event)
    return without_events(device, function);
  tcc_status status = driver->enter(device, function);
  if (status)
    return status;
  int result = driver->record_event(mark, queue->stream);
  return result == 0 ? NULL : tcc_gpu_failure(device, function, driver->calls.record_event, result);
}

tcc_status tcc_gpu_mark_elapsed(const tcc_device *device, tcc_device_mark *begin,
                                tcc_device_mark *end, float *out_milliseconds) {
  const tcc_gpu_driver *driver = driver_of(device);
  const char *function = "mark_elapsed";
  if (!begin || !end || !out_milliseconds)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: %s: %s is null", device->name,
                           function,
                           !begin ? "begin"
                           : !end ? "end"
                                  : "out_milliseconds");
  if (!driver->event_elapsed)
    return without_events(device, function);
  tcc_status status = driver->enter(device, function);
  if (status)
    return status;
  int result = driver->event_elapsed(out_milliseconds, begin, end);
  return result == 0 ? NULL
                     : tcc_gpu_failure(device, function, driver->calls.event_elapsed, result);
}

void tcc_gpu_destroy_mark(const tcc_device *device, tcc_device_mark *mark) {
  const tcc_gpu_driver *driver = driver_of(device);
  if (mark && driver->destroy_event && driver->ready())
    driver->destroy_event(mark);
}
