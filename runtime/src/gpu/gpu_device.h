//===- gpu_device.h - a GPU backend over a vendor's driver table -------------------------===//
//
// CUDA (runtime/src/cuda) and HIP (runtime/src/hip) drive a GPU the same way: device memory
// from the driver's allocator, synchronous copies and fills on the default stream, a queue as
// a stream (with a second, non-blocking stream to record graphs on), modules whose kernels
// are looked up by name and launched with a pointer to their argument values, and graphs
// recorded by stream capture. gpu_device.c implements every member of tcc_device that way,
// once, against a tcc_gpu_driver: the vendor's calls behind vendor-neutral signatures, the
// names its messages use, and the few places where the vendors differ (which image suits the
// GPU, how much dynamic shared memory a kernel has). A vendor's folder loads its driver,
// supplies the table and defines its tcc_device with TCC_GPU_DEVICE_FUNCTIONS.
//
// In the table, a driver call returns the vendor's result code (0 is success, as both
// CUDA_SUCCESS and hipSuccess), device memory is a void * (a CUdeviceptr seen as a pointer,
// HIP's own), and streams, modules, functions, graphs and executable graphs are opaque
// void * handles; NULL for a stream is the default stream. Every function pointer points to
// a function of exactly its type: where the driver's signature differs, the vendor supplies
// a thin adapter.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_GPU_DEVICE_H
#define TCC_RUNTIME_GPU_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

/// The names a vendor's driver gives its calls, for messages ("cuMemAlloc_v2 failed: ...").
typedef struct tcc_gpu_call_names {
  const char *allocator; // whose alignment allocate promises: "cuMemAlloc", "hipMalloc"
  const char *allocate;
  const char *copy_to_device;
  const char *copy_to_host;
  const char *copy_on_device;
  const char *fill;
  const char *synchronize;
  const char *create_stream;
  const char *load_module;
  const char *get_function;
  const char *raise_shared_bytes; // NULL where the table has no raise_shared_bytes
  const char *launch_kernel;
  const char *begin_capture;
  const char *end_capture;
  const char *instantiate;
  const char *launch_graph;
  const char *create_event;
  const char *record_event;
  const char *event_elapsed;
} tcc_gpu_call_names;

/// One vendor's driver, as gpu_device.c uses it. Static and immutable; every function is
/// thread-safe. The driver calls may be used only after `enter` has succeeded (on the calling
/// thread, for the calls that need the GPU current); the functions above them need no driver
/// unless they say so.
typedef struct tcc_gpu_driver {
  // The vendor, for messages.

  /// Names its graphs: "CUDA" ("CUDA graphs are off").
  const char *vendor;
  /// The driver library it loads: "libcuda.so.1".
  const char *library;
  /// The environment variable that turns graphs off: "TCC_CUDA_GRAPHS".
  const char *graphs_variable;
  /// Why a driver without the graph functions has none, after "<library> has no <function>: ".
  const char *graphs_too_old;
  tcc_gpu_call_names calls;

  // Facts about the driver.

  /// The alignment of every block `allocate` gives (at least).
  size_t allocation_alignment;
  /// The driver's result codes for running out of memory and for a name a module lacks.
  int out_of_memory;
  int not_found;

  // The vendor's parts of the backend.

  /// Loads the driver (once per process) and makes the GPU current on the calling thread.
  /// Fails as "<device name> device: <function>: <why>".
  tcc_status (*enter)(const tcc_device *device, const char *function);
  /// Whether the driver is ready, making the GPU current as enter does (for the functions
  /// that cannot fail).
  int (*ready)(void);
  /// The GPU's ordinal ($TCC_CUDA_DEVICE, $TCC_HIP_DEVICE); needs no driver.
  int32_t (*ordinal)(void);
  /// Writes a driver result as "NAME (code): text".
  void (*describe)(int result, char *buffer, size_t capacity);
  /// The status code of a driver result: what the caller can do about it.
  tcc_status_code (*code_of)(int result);
  /// Writes the GPU's architecture as images name it: "sm_90", "gfx942". Needs enter.
  void (*gpu_name)(char *buffer, size_t capacity);
  /// The image of `d` to load on this GPU, NULL when none runs on it. Needs enter.
  const tcc_device_image *(*pick_image)(const tcc_model_descriptor *d);
  /// Checks the picked image before the driver reads it; NULL: the driver checks it alone.
  tcc_status (*check_image)(const tcc_device *device, const tcc_model_descriptor *d,
                            const tcc_device_image *image);
  /// The first graph function the driver lacks, NULL when it has them all. Needs enter.
  const char *(*graphs_missing)(void);
  /// The dynamic shared memory every kernel may use without asking for more (CUDA: 48 KiB).
  /// Needs enter.
  int32_t (*shared_bytes)(void);

  // The driver's calls.

  int (*allocate)(void **memory, size_t bytes);
  int (*free)(void *memory);
  int (*copy_to_device)(void *destination, const void *source, size_t bytes);
  int (*copy_to_host)(void *destination, const void *source, size_t bytes);
  int (*copy_on_device)(void *destination, const void *source, size_t bytes);
  int (*fill)(void *destination, uint8_t value, size_t bytes);
  /// Creates a stream; a non-blocking one does not wait for the default stream.
  int (*create_stream)(void **stream, int non_blocking);
  int (*destroy_stream)(void *stream);
  int (*synchronize)(void *stream);
  /// Loads an image; the driver's compiler may write its errors into `log` (NUL-terminated,
  /// at most capacity - 1 characters; left "" by a driver that has no log).
  int (*load_module)(void **module, const void *image, char *log, size_t capacity);
  int (*unload_module)(void *module);
  int (*get_function)(void **function, void *module, const char *name);
  /// Lets `function` use `bytes` of dynamic shared memory; NULL where a kernel cannot have
  /// more than shared_bytes (launch_kernel then refuses a launch that asks for more).
  int (*raise_shared_bytes)(void *function, int32_t bytes);
  /// Queues a 1-D grid of `function`.
  int (*launch_kernel)(void *function, uint32_t grid_x, uint32_t block_x, uint32_t shared_bytes,
                       void *stream, void **args);
  // Graphs: optional, all NULL or none (graphs_missing says which one the driver lacks).
  /// Starts capturing `stream`, refusing unsafe calls on the capturing thread only.
  int (*begin_capture)(void *stream);
  int (*end_capture)(void *stream, void **graph);
  int (*instantiate)(void **graph_exec, void *graph);
  int (*launch_graph)(void *graph_exec, void *stream);
  int (*destroy_graph_exec)(void *graph_exec);
  int (*destroy_graph)(void *graph);
  // Events (timing): optional, all NULL or none.
  int (*create_event)(void **event);
  int (*record_event)(void *event, void *stream);
  int (*event_elapsed)(float *milliseconds, void *begin, void *end);
  int (*destroy_event)(void *event);
} tcc_gpu_driver;

/// "<device name> device: <function>: <call> failed: <the driver's name and text of result>",
/// with the status code of the result.
tcc_status tcc_gpu_failure(const tcc_device *device, const char *function, const char *call,
                           int result);

// The members of a tcc_device whose `gpu` is a tcc_gpu_driver: they do what device.h says, as
// the top of this file describes.
tcc_status tcc_gpu_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                            void **out_memory);
void tcc_gpu_free(const tcc_device *device, void *memory);
tcc_status tcc_gpu_copy(const tcc_device *device, void *destination, const void *source,
                        size_t bytes, tcc_copy_kind kind);
tcc_status tcc_gpu_fill(const tcc_device *device, void *destination, uint8_t value, size_t bytes);
tcc_status tcc_gpu_create_queue(const tcc_device *device, int32_t num_threads,
                                tcc_device_queue **out_queue);
void tcc_gpu_destroy_queue(const tcc_device *device, tcc_device_queue *queue);
tcc_status tcc_gpu_launch(const tcc_device *device, tcc_device_queue *queue, int64_t count,
                          tcc_loop_body body, void *arg);
tcc_status tcc_gpu_synchronize(const tcc_device *device, tcc_device_queue *queue);
int32_t tcc_gpu_device_id(const tcc_device *device);
tcc_status tcc_gpu_load_module(const tcc_device *device, const tcc_model_descriptor *descriptor,
                               tcc_device_module **out_module);
void tcc_gpu_unload_module(const tcc_device *device, tcc_device_module *module);
tcc_status tcc_gpu_launch_kernel(const tcc_device *device, tcc_device_queue *queue,
                                 tcc_device_module *module, int32_t kernel, int64_t grid_x,
                                 int32_t block_x, int32_t shared_bytes, void **args);
tcc_status tcc_gpu_begin_capture(const tcc_device *device, tcc_device_queue *queue);
tcc_status tcc_gpu_end_capture(const tcc_device *device, tcc_device_queue *queue,
                               tcc_device_graph **out_graph);
tcc_status tcc_gpu_launch_graph(const tcc_device *device, tcc_device_queue *queue,
                                tcc_device_graph *graph);
void tcc_gpu_destroy_graph(const tcc_device *device, tcc_device_graph *graph);
tcc_status tcc_gpu_create_mark(const tcc_device *device, tcc_device_mark **out_mark);
tcc_status tcc_gpu_record_mark(const tcc_device *device, tcc_device_queue *queue,
                               tcc_device_mark *mark);
tcc_status tcc_gpu_mark_elapsed(const tcc_device *device, tcc_device_mark *begin,
                                tcc_device_mark *end, float *out_milliseconds);
void tcc_gpu_destroy_mark(const tcc_device *device, tcc_device_mark *mark);

/// The function members of a GPU backend's tcc_device, for its initializer:
///   const tcc_device tcc_cuda_device = {.type = kDLCUDA, .name = "cuda",
///                                       .gpu = &cuda_gpu_driver, TCC_GPU_DEVICE_FUNCTIONS};
#define TCC_GPU_DEVICE_FUNCTIONS                                                                   \
  .allocate = tcc_gpu_allocate, .free = tcc_gpu_free, .copy = tcc_gpu_copy, .fill = tcc_gpu_fill,  \
  .create_queue = tcc_gpu_create_queue, .destroy_queue = tcc_gpu_destroy_queue,                    \
  .launch = tcc_gpu_launch, .synchronize = tcc_gpu_synchronize, .device_id = tcc_gpu_device_id,    \
  .load_module = tcc_gpu_load_module, .unload_module = tcc_gpu_unload_module,                      \
  .launch_kernel = tcc_gpu_launch_kernel, .begin_capture = tcc_gpu_begin_capture,                  \
  .end_capture = tcc_gpu_end_capture, .launch_graph = tcc_gpu_launch_graph,                        \
  .destroy_graph = tcc_gpu_destroy_graph, .create_mark = tcc_gpu_create_mark,                      \
  .record_mark = tcc_gpu_record_mark, .mark_elapsed = tcc_gpu_mark_elapsed,                        \
  .destroy_mark = tcc_gpu_destroy_mark

#endif // TCC_RUNTIME_GPU_DEVICE_H
