//===- device.h - the device interface: memory, copies and parallel loops of a backend ---===//
//
// A backend (runtime/src/cpu today; CUDA, HIP and Metal later) is one constant tcc_device: a
// table of functions over the memory and the work queues of one DLPack device type. Sessions
// reach their workspace, parameters and parallel loops only through the device of their model
// (tcc_model_device), so that a new backend is a new folder and a new entry in device.c, not
// special cases in session.c.
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
/// session's thread pool (threads_internal.h), a GPU's will be a stream.
typedef struct tcc_device_queue tcc_device_queue;

/// The body of a parallel loop: handles indices [begin, end). As the import table's
/// parallel_for body (model_abi.h).
typedef void (*tcc_loop_body)(void *arg, int64_t begin, int64_t end);

typedef struct tcc_device tcc_device;

/// One backend. Every function takes the device it was read from as its first argument.
struct tcc_device {
  /// The DLPack device type of the memory this backend allocates and of the tensors it takes.
  DLDeviceType type;
  /// Lowercase, for messages and logs: "cpu".
  const char *name;

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
  /// last). Owned by the caller, who destroys it with destroy_queue. Fails with
  /// INVALID_ARGUMENT for a bad num_threads, RESOURCE_EXHAUSTED when threads cannot start.
  /// Thread-safe.
  tcc_status (*create_queue)(const tcc_device *device, int32_t num_threads,
                             tcc_device_queue **out_queue);

  /// Waits for the queue's work to finish and frees it (NULL is fine). Takes ownership.
  /// No other call may be using the queue.
  void (*destroy_queue)(const tcc_device *device, tcc_device_queue *queue);

  /// Runs body(arg, begin, end) over disjoint chunks that cover [0, count) exactly once, on
  /// `queue`'s threads (a NULL queue: on the calling thread, as one chunk). count 0 runs
  /// nothing. The CPU returns when every chunk has finished; other devices may return
  /// earlier, and synchronize waits. A launch from inside a body runs inline on its thread.
  /// Fails with INVALID_ARGUMENT for a negative count or a null body; nothing runs then.
  /// One thread at a time per queue (nested launches aside); `arg` stays the caller's.
  tcc_status (*launch)(const tcc_device *device, tcc_device_queue *queue, int64_t count,
                       tcc_loop_body body, void *arg);

  /// Returns when all work launched on `queue` has finished (the CPU's launches are
  /// synchronous: nothing to wait for). Fails when a device reports that the work failed.
  /// Same threading rule as launch.
  tcc_status (*synchronize)(const tcc_device *device, tcc_device_queue *queue);
};

/// The CPU backend (runtime/src/cpu): host memory and the runtime's thread pool.
extern const tcc_device tcc_cpu_device;

/// Sets *out_device to the backend for DLPack device type `type` (static: never freed).
/// Fails with UNIMPLEMENTED naming the type, e.g. "tcc_device_for_type: this runtime has no
/// backend for device type 2 (CUDA, kDLCUDA)", and INVALID_ARGUMENT for a null out_device.
/// Thread-safe.
tcc_status tcc_device_for_type(DLDeviceType type, const tcc_device **out_device);

/// A device type's name for messages ("CPU", "CUDA", "ROCm host"); "unknown" for codes
/// DLPack does not define. Static string; thread-safe.
const char *tcc_device_type_name(DLDeviceType type);

/// DLPack's enumerator for a device type ("kDLCPU", "kDLCUDA"); "unknown" as above. Static
/// string; thread-safe.
const char *tcc_device_type_enumerator(DLDeviceType type);

#ifdef __cplusplus
}
#endif

#endif // TCC_RUNTIME_DEVICE_H
