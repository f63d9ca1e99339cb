//===- device.h - the device interface: memory, copies and parallel loops of a backend ---===//
//
// A backend (runtime/src/cpu, cuda, hip, vulkan, metal) is one constant
// tcc_device: a table of functions over the memory and the work queues of one DLPack device
// type; the GPU backends share their functions (runtime/src/gpu), each with its vendor's
// driver table. Sessions reach their workspace, parameters, parallel loops and kernels only
// through the device of their model (tcc_model_device), so that a new backend is a new folder
// and a new entry in device.c, not special cases in session.c.
//
// A CPU model is host code that runs its loops through `launch`. A device model (a GPU's) is
// host code that queues compiled kernels: its device also has the kernel members (load_module,
// unload_module, launch_kernel) and may have the graph members (begin_capture, end_capture,
// launch_graph, destroy_graph), which are NULL for the CPU; callers check.
//
// Conventions, those of runtime.h: a function that can fail returns a tcc_status owned by the
// caller, whose message starts with "<name> device: <function>:" and says what was wrong
// (expected vs actual); out-parameters are set only on success. A tcc_device is static and
// immutable; its functions may be called from any thread, except where a queue's rule says
// otherwise.
//
//===------------------------------------------------------------------------------------===//
#ifndef TCC_RUNTIME_DEVICE_H
#define TCC_RUNTIME_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include <dlpack/dlpack.h>

#include "tcc/runtime.h"

#ifdef __cplusplus
extern "C" { // for the unit tests
#endif

/// Which way a copy goes. "Host" is memory the CPU reads (malloc, a caller's CPU tensor);
/// "device" is memory of the device (its allocate, a tensor of its device type). On the CPU
/// both are the same memory and every kind is a memmove.
typedef enum tcc_copy_kind {
  TCC_COPY_HOST_TO_DEVICE = 0,
  TCC_COPY_DEVICE_TO_HOST = 1,
  TCC_COPY_DEVICE_TO_DEVICE = 2,
} tcc_copy_kind;

/// Where a device runs its work, in order; each session creates one. Opaque: the CPU's is the
/// session's thread pool (threads_internal.h), CUDA's a CUstream.
typedef struct tcc_device_queue tcc_device_queue;

/// The kernels of one device model, loaded on a device (load_module). Opaque: CUDA's holds a
/// CUmodule and a CUfunction per kernel name.
typedef struct tcc_device_module tcc_device_module;

/// Kernels of a queue recorded once (begin_capture, end_capture), to be replayed as they were
/// recorded (launch_graph). Opaque: CUDA's is a CUgraphExec.
typedef struct tcc_device_graph tcc_device_graph;
/// A point in a queue's work whose time can be read (device.h: create_mark).
typedef struct tcc_device_mark tcc_device_mark;

/// The body of a parallel loop: handles indices [begin, end). As the import table's
/// parallel_for body (model_abi.h).
typedef void (*tcc_loop_body)(void *arg, int64_t begin, int64_t end);

typedef struct tcc_device tcc_device;

/// A GPU vendor's driver table (runtime/src/gpu/gpu_device.h).
struct tcc_gpu_driver;

/// One backend. Every function takes the device it was read from as its first argument.
struct tcc_device {
  /// The DLPack device type of the memory this backend allocates and of the tensors it takes.
  DLDeviceType type;
  /// Lowercase, for messages and logs: "cpu".
  const char *name;
  /// The driver table of a GPU backend, which the functions below read (they are the same
  /// functions for every GPU vendor); NULL for other backends.
  const struct tcc_gpu_driver *gpu;
  /// 32 for a device whose compiled kernels compute indices in 32 bits (Vulkan and Metal:
  /// SPIR-V and MSL kernels, lib/Target/SPIRV): a run there needs symbol values and tensors of
  /// fewer than 2^31 elements and a workspace of fewer than 2^31 bytes, which sessions check
  /// (as the compiler checks the static ones); 0: 64-bit indices.
  int32_t index_bits;

  /// Allocates `bytes` bytes aligned to `alignment` (a power of two) into *out_memory; 0 bytes
  /// still gives a distinct non-NULL block. The caller owns the memory and frees it with
  /// `free` of the same device. Fails with INVALID_ARGUMENT for a null out_memory or an
  /// alignment that is not a power of two, RESOURCE_EXHAUSTED when memory runs out.
  /// Thread-safe.
  tcc_status (*allocate)(const tcc_device *device, size_t bytes, size_t alignment,
                         void **out_memory);

  /// Frees memory from `allocate` of this device (NULL is fine). Takes ownership; no work
  /// using the memory may still be running. Thread-safe.
  void (*free)(const tcc_device *device, void *memory);

  /// Copies `bytes` bytes from `source` to `destination` and returns when they are copied.
  /// The ranges must not overlap (the CPU's copy tolerates overlap, as memmove). 0 bytes
  /// copies nothing, and the pointers may then be NULL. Fails with INVALID_ARGUMENT for an
  /// unknown kind or a null pointer. The caller keeps ownership of both buffers.
  /// Thread-safe for buffers no other thread writes.
  tcc_status (*copy)(const tcc_device *device, void *destination, const void *source, size_t bytes,
                     tcc_copy_kind kind);

  /// Sets `bytes` bytes of device memory at `destination` to `value` (memset) and returns when
  /// they are set. 0 bytes does nothing, and destination may then be NULL. Fails with
  /// INVALID_ARGUMENT for a null destination. Thread-safe for memory no other thread uses.
  tcc_status (*fill)(const tcc_device *device, void *destination, uint8_t value, size_t bytes);

  /// Creates a queue whose launches use up to `num_threads` host threads (1 to
  /// TCC_MAX_THREADS; the CPU starts num_threads - 1 workers, the caller of launch being the
  /// last; CUDA creates a stream and ignores num_threads). Owned by the caller, who destroys it
  /// with destroy_queue. Fails with INVALID_ARGUMENT for a bad num_threads, RESOURCE_EXHAUSTED
  /// when threads cannot start. Thread-safe.
  tcc_status (*create_queue)(const tcc_device *device, int32_t num_threads,
                             tcc_device_queue **out_queue);

  /// Waits for the queue's work to finish and frees it (NULL is fine). Takes ownership.
  /// No other call may be using the queue.
  void (*destroy_queue)(const tcc_device *device, tcc_device_queue *queue);

  /// Runs body(arg, begin, end) over disjoint chunks that cover [0, count) exactly once, on
  /// `queue`'s threads (a NULL queue: on the calling thread, as one chunk). count 0 runs
  /// nothing. The CPU returns when every chunk has finished; other devices may return
  /// earlier, and synchronize waits (CUDA runs the body at once on the calling thread, as one
  /// chunk: a device model's host loops touch host memory only). A launch from inside a body
  /// runs inline on its thread.
  /// Fails with INVALID_ARGUMENT for a negative count or a null body; nothing runs then.
  /// One thread at a time per queue (nested launches aside); `arg` stays the caller's.
  tcc_status (*launch)(const tcc_device *device, tcc_device_queue *queue, int64_t count,
                       tcc_loop_body body, void *arg);

  /// Returns when all work launched on `queue` has finished (the CPU's launches are
  /// synchronous: nothing to wait for). Fails when a device reports that the work failed.
  /// Same threading rule as launch.
  tcc_status (*synchronize)(const tcc_device *device, tcc_device_queue *queue);

  // Devices that run compiled kernels (device models, model_abi.h); NULL for the CPU.

  /// The DLPack device_id of the memory this backend allocates, which tensors of its type must
  /// carry (CUDA: the device ordinal, TCC_CUDA_DEVICE). Needs no driver. NULL: any id.
  /// Thread-safe.
  int32_t (*device_id)(const tcc_device *device);

  /// Loads the kernels of the device model `descriptor` (validated by tcc_model_load) into
  /// *out_module: picks the image that runs on this device (model_abi.h says which), compiles
  /// it if it is portable code, and finds every kernel of device_kernel_names. Owned by the
  /// caller, who frees it with unload_module. Fails with INCOMPATIBLE when no image suits the
  /// device (the message lists the images and the device's architecture), INVALID_MODEL when
  /// an image is broken or lacks a kernel, and as `allocate` when the device is unusable.
  /// Thread-safe.
  tcc_status (*load_module)(const tcc_device *device, const tcc_model_descriptor *descriptor,
                            tcc_device_module **out_module);

  /// Frees a module of load_module (NULL is fine). Takes ownership; no kernel of it may still
  /// be running (destroy or synchronize the queues first).
  void (*unload_module)(const tcc_device *device, tcc_device_module *module);

  /// Queues kernel `kernel` (an index into the model's device_kernel_names) of `module` on
  /// `queue`: a 1-D grid of grid_x blocks (1 to 2^31 - 1) of block_x threads (1 to 1024) with
  /// shared_bytes (>= 0) of dynamic shared memory; `args` points to the kernel's parameter
  /// values in order (read before the call returns; NULL for a kernel without parameters).
  /// Returns once the kernel is queued: synchronize waits for it and reports a failure that
  /// happens while it runs. Fails with INVALID_ARGUMENT (naming the kernel) for an index,
  /// grid or block out of range or a null queue or module; nothing is queued then. Same
  /// threading rule as launch.
  tcc_status (*launch_kernel)(const tcc_device *device, tcc_device_queue *queue,
                              tcc_device_module *module, int32_t kernel, int64_t grid_x,
                              int32_t block_x, int32_t shared_bytes, void **args);

  // Devices that record kernels into graphs, to replay them with less work per launch
  // (CUDA graphs); NULL for the CPU. A recording keeps each kernel's grid, block, shared
  // bytes and argument values as they were at launch_kernel.

  /// Starts recording `queue`: until end_capture, launch_kernel on it records its kernels
  /// instead of queueing them (nothing runs). Other threads may copy, fill, allocate and use
  /// their own queues meanwhile; the recording thread launches on this queue and ends the
  /// recording, and must not copy, fill, allocate or synchronize until then. Fails with
  /// UNIMPLEMENTED when the device cannot record (CUDA: a driver without graphs, or
  /// $TCC_CUDA_GRAPHS=0 when the queue was created), INVALID_ARGUMENT for a null queue or one
  /// that records already; the queue then runs its launches as before. Same threading rule
  /// as launch.
  tcc_status (*begin_capture)(const tcc_device *device, tcc_device_queue *queue);

  /// Stops recording `queue` (the queue runs its launches again from now on, also when this
  /// fails) and makes the kernels recorded a graph, *out_graph, owned by the caller, who
  /// frees it with destroy_graph. Fails (nothing recorded is kept) when the recording broke
  /// (CUDA: a launch the driver refused while capturing) or the graph cannot be made, with
  /// the driver's message, and INVALID_ARGUMENT for a null argument or a queue that does not
  /// record. Same threading rule as launch.
  tcc_status (*end_capture)(const tcc_device *device, tcc_device_queue *queue,
                            tcc_device_graph **out_graph);

  /// Queues the kernels of `graph` on `queue`, in their order, with the arguments they were
  /// recorded with (the memory they point to must still be allocated; the kernels use what
  /// it holds when they run); `graph` may come from another queue of the device. Returns once
  /// queued, as launch_kernel: synchronize waits. Fails with INVALID_ARGUMENT for a null argument
  /// or a queue that records, with the driver's message when the graph cannot be launched (nothing
  /// runs then). Same threading rule as launch.
  tcc_status (*launch_graph)(const tcc_device *device, tcc_device_queue *queue,
                             tcc_device_graph *graph);

  /// Frees a graph of end_capture (NULL is fine); one still running is freed when it ends.
  /// Takes ownership. Must be called before unloading the module whose kernels it holds.
  void (*destroy_graph)(const tcc_device *device, tcc_device_graph *graph);

  // Devices that time their queues' work (CUDA and HIP events), for profiles; NULL, all four,
  // elsewhere (a profile then waits for each kernel).

  /// Creates a mark, owned by the caller (destroy_mark). Thread-safe.
  tcc_status (*create_mark)(const tcc_device *device, tcc_device_mark **out_mark);
  /// Places `mark` on `queue` after the work queued so far (a mark may be placed again; the
  /// last placement counts). Same threading rule as launch; not while the queue records.
  tcc_status (*record_mark)(const tcc_device *device, tcc_device_queue *queue,
                            tcc_device_mark *mark);
  /// The milliseconds between two marks placed on one queue, once it has been synchronized
  /// after both.
  tcc_status (*mark_elapsed)(const tcc_device *device, tcc_device_mark *begin, tcc_device_mark *end,
                             float *out_milliseconds);
  /// Frees a mark (NULL is fine).
  void (*destroy_mark)(const tcc_device *device, tcc_device_mark *mark);
};

/// The CPU backend (runtime/src/cpu): host memory and the runtime's thread pool.
extern const tcc_device tcc_cpu_device;

/// The CUDA backend (runtime/src/cuda): NVIDIA GPUs through the driver API, which it loads
/// at run time (libcuda.so.1) on first use. The GPU is ordinal $TCC_CUDA_DEVICE (default 0),
/// read once per process. Its queues record CUDA graphs unless $TCC_CUDA_GRAPHS is 0 (1 or
/// unset: they do; read when a queue is created).
extern const tcc_device tcc_cuda_device;

/// The HIP backend (runtime/src/hip): AMD GPUs through the HIP module API, which it loads at
/// run time (libamdhip64.so, else libamdhip64.so.6, else libamdhip64.so.5) on first use, for
/// DLPack device type kDLROCM. The GPU is ordinal $TCC_HIP_DEVICE (default 0), read once per
/// process; it loads the HSACO image whose arch is the GPU's chip ("gfx942"). Its queues
/// record HIP graphs unless $TCC_HIP_GRAPHS is 0 (1 or unset: they do; read when a queue is
/// created). A kernel has the dynamic shared memory (LDS) of a workgroup of the GPU, 64 KiB on
/// most chips: launch_kernel refuses more with RESOURCE_EXHAUSTED.
extern const tcc_device tcc_hip_device;

/// The Vulkan backend (runtime/src/vulkan): SPIR-V kernels through Vulkan 1.2 compute with
/// buffer device addresses, the loader opened at run time (libvulkan.so.1) on first use, for
/// DLPack device type kDLVulkan. The GPU is physical device $TCC_VULKAN_DEVICE (default 0).
/// Its memory is addressed as the kernels address it (a device "pointer" is a buffer device
/// address inside one of its allocations). No graphs.
extern const tcc_device tcc_vulkan_device;

/// The Metal backend (runtime/src/metal, macOS only): MSL kernels on Apple GPUs of the Metal3
/// family, for DLPack device type kDLMetal. Its memory is shared-storage MTLBuffers addressed
/// as the kernels address them (a device "pointer" is a GPU address inside one of its
/// allocations). No graphs. A runtime built for another system has a Metal backend whose
/// calls fail with UNIMPLEMENTED (models for Metal still load: their images are checked).
extern const tcc_device tcc_metal_device;

/// Sets *out_device to the backend for DLPack device type `type` (static: never freed).
/// Fails with UNIMPLEMENTED naming the type, e.g. "tcc_device_for_type: this runtime has no
/// backend for device type 2 (CUDA, kDLCUDA)", and INVALID_ARGUMENT for a null out_device.
/// Thread-safe.
tcc_status tcc_device_for_type(DLDeviceType type, const tcc_device **out_device);

/// The argument checks every backend's allocate, copy and fill make first (the errors their
/// documentation above promises), so that backends agree on them. NULL when the arguments
/// are valid; a copy or fill of 0 bytes is valid whatever its pointers.
tcc_status tcc_device_check_allocate(const tcc_device *device, size_t alignment,
                                     void *const *out_memory);
tcc_status tcc_device_check_copy(const tcc_device *device, const void *destination,
                                 const void *source, size_t bytes, tcc_copy_kind kind);
tcc_status tcc_device_check_fill(const tcc_device *device, const void *destination, size_t bytes);

/// A device type's name for messages ("CPU", "CUDA", "ROCm host"); "unknown" for codes
/// DLPack does not define. Static string; thread-safe.
const char *tcc_device_type_name(DLDeviceType type);

/// DLPack's enumerator for a device type ("kDLCPU", "kDLCUDA"); "unknown" as above. Static
/// string; thread-safe.
const char *tcc_device_type_enumerator(DLDeviceType type);

/// A device image format's name for messages (tcc_image_format: "PTX", "cubin", "HSACO");
/// "unknown" for other values. Static string; thread-safe.
const char *tcc_image_format_name(int32_t format);

/// The DLPack device type whose models carry images of `format` (PTX and cubin: kDLCUDA;
/// HSACO: kDLROCM); 0 for an unknown format. Thread-safe.
int32_t tcc_image_format_device_type(int32_t format);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_DEVICE_H
