//===- cpu_device.c - the CPU backend: heap memory and the runtime's thread pool ---------===//
//
// The CPU's memory is the process's heap and its queue is a tcc_thread_pool, so each function
// here checks its arguments and calls aligned_alloc, memmove, memset or
// tcc_thread_pool_parallel_for. Everything is synchronous: a copy or a launch has finished
// when it returns, and synchronize has nothing to wait for.
//
//===------------------------------------------------------------------------------------===//
#include "device.h"
#include "status_internal.h"
#include "threads_internal.h"

#include <stdlib.h>
#include <string.h>

// The opaque tcc_device_queue of a CPU device is a tcc_thread_pool: the pointer is converted,
// never dereferenced as anything else, so a queue costs no allocation beyond its pool.
static tcc_thread_pool *pool_of(tcc_device_queue *queue) { return (tcc_thread_pool *)queue; }

static tcc_status cpu_allocate(const tcc_device *device, size_t bytes, size_t alignment,
                               void **out_memory) {
  tcc_status invalid = tcc_device_check_allocate(device, alignment, out_memory);
  if (invalid)
    return invalid;
  // aligned_alloc wants an alignment of at least a pointer and a size that is a non-zero
  // multiple of it.
  size_t effective = alignment < sizeof(void *) ? sizeof(void *) : alignment;
  if (bytes > SIZE_MAX - (effective - 1))
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s device: allocate: %zu bytes aligned to %zu overflow the address "
                           "space",
                           device->name, bytes, alignment);
  size_t rounded = bytes ? (bytes + effective - 1) & ~(effective - 1) : effective;
  void *memory = aligned_alloc(effective, rounded);
  if (!memory)
    return tcc_make_status(TCC_STATUS_RESOURCE_EXHAUSTED,
                           "%s device: allocate: out of memory for %zu bytes aligned to %zu",
                           device->name, bytes, alignment);
  *out_memory = memory;
  return NULL;
}

static void cpu_free(const tcc_device *device, void *memory) {
  (void)device;
  free(memory);
}

static tcc_status cpu_copy(const tcc_device *device, void *destination, const void *source,
                           size_t bytes, tcc_copy_kind kind) {
  tcc_status invalid = tcc_device_check_copy(device, destination, source, bytes, kind);
  if (invalid || bytes == 0)
    return invalid;
  memmove(destination, source, bytes);
  return NULL;
}

static tcc_status cpu_fill(const tcc_device *device, void *destination, uint8_t value,
                           size_t bytes) {
  tcc_status invalid = tcc_device_check_fill(device, destination, bytes);
  if (invalid || bytes == 0)
    return invalid;
  memset(destination, value, bytes);
  return NULL;
}

static tcc_status cpu_create_queue(const tcc_device *device, int32_t num_threads,
                                   tcc_device_queue **out_queue) {
  if (!out_queue)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: create_queue: out_queue is null", device->name);
  // The pool's messages name tcc_session_create, the only caller outside the tests.
  tcc_thread_pool *pool = NULL;
  tcc_status status = tcc_thread_pool_create(num_threads, &pool);
  if (status)
    return status;
  *out_queue = (tcc_device_queue *)pool;
  return NULL;
}

static void cpu_destroy_queue(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  tcc_thread_pool_destroy(pool_of(queue));
}

static tcc_status cpu_launch(const tcc_device *device, tcc_device_queue *queue, int64_t count,
                             tcc_loop_body body, void *arg) {
  if (count < 0)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT,
                           "%s device: launch: count is %lld, expected >= 0", device->name,
                           (long long)count);
  if (!body)
    return tcc_make_status(TCC_STATUS_INVALID_ARGUMENT, "%s device: launch: body is null",
                           device->name);
  if (count == 0)
    return NULL;
  if (!queue)
    body(arg, 0, count);
  else
    tcc_thread_pool_parallel_for(pool_of(queue), count, body, arg);
  return NULL;
}

static tcc_status cpu_synchronize(const tcc_device *device, tcc_device_queue *queue) {
  (void)device;
  (void)queue;
  return NULL;
}

const tcc_device tcc_cpu_device = {
    .type = kDLCPU,
    .name = "cpu",
    .allocate = cpu_allocate,
    .free = cpu_free,
    .copy = cpu_copy,
    .fill = cpu_fill,
    .create_queue = cpu_create_queue,
    .destroy_queue = cpu_destroy_queue,
    .launch = cpu_launch,
    .synchronize = cpu_synchronize,
};
